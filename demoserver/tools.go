package demoserver

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func (d *Demo) addTools() {
	d.srv.AddTool(&mcp.Tool{
		Name:        "delete_project",
		Description: "Delete a project, after asking you to confirm (a boolean form).",
		InputSchema: rawSchema(`{"type":"object","properties":{"project":{"type":"string","description":"Project to delete"}}}`),
		Annotations: &mcp.ToolAnnotations{DestructiveHint: ptr(true)},
	}, d.deleteProject)
	d.srv.AddTool(&mcp.Tool{
		Name:        "switch_account",
		Description: "Find your accounts and ask which one to use (a titled single-select).",
		InputSchema: rawSchema(`{"type":"object","properties":{}}`),
	}, d.switchAccount)
	d.srv.AddTool(&mcp.Tool{
		Name:        "edit_profile",
		Description: "Ask for a profile with every field kind form mode allows.",
		InputSchema: rawSchema(`{"type":"object","properties":{}}`),
	}, d.editProfile)
	d.srv.AddTool(&mcp.Tool{
		Name:        "create_repo",
		Description: "A two-round wizard whose state travels in an HMAC-protected requestState.",
		InputSchema: rawSchema(`{"type":"object","properties":{"owner":{"type":"string","description":"Who will own the repository"}},"required":["owner"]}`),
	}, d.createRepo)
	d.srv.AddTool(&mcp.Tool{
		Name:        "connect_account",
		Description: "Connect a third-party account in URL mode: you finish in the browser, on a loopback page.",
		InputSchema: rawSchema(`{"type":"object","properties":{"service":{"type":"string","description":"Service to connect"}}}`),
	}, d.connectAccount)
	d.srv.AddTool(&mcp.Tool{
		Name:        "echo",
		Description: "Say the text back, asking nothing (logs one line at info level, if you asked for logs).",
		InputSchema: rawSchema(`{"type":"object","properties":{"text":{"type":"string","description":"What to say back"}},"required":["text"]}`),
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: ptr(false)},
	}, d.echo)
	d.srv.AddTool(&mcp.Tool{
		Name:        "toggle_beta",
		Description: "Add the beta tool beta_forecast, or take it away again: the server says its tool list changed.",
		InputSchema: rawSchema(`{"type":"object","properties":{}}`),
		Annotations: &mcp.ToolAnnotations{DestructiveHint: ptr(false), OpenWorldHint: ptr(false)},
	}, d.toggleBeta)
}

func (d *Demo) echo(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	said := str(argsOf(req), "text", "")
	_ = req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "info", Logger: "echo", Data: fmt.Sprintf("said back %d characters", len([]rune(said)))})
	return text("%s", said), nil
}

// betaTool is the tool toggle_beta adds and takes away.
func betaTool() *mcp.Tool {
	return &mcp.Tool{
		Name:        betaToolName,
		Title:       "Beta forecast",
		Description: "Tomorrow's weather, from a tool that comes and goes (see toggle_beta).",
		InputSchema: rawSchema(`{"type":"object","properties":{"city":{"type":"string","default":"London"}}}`),
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptr(false)},
	}
}

const betaToolName = "beta_forecast"

func (d *Demo) toggleBeta(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	d.mu.Lock()
	d.beta = !d.beta
	on := d.beta
	d.mu.Unlock()
	if !on {
		d.srv.RemoveTools(betaToolName)
		return text("Took beta_forecast away: the tool list changed."), nil
	}
	d.srv.AddTool(betaTool(), func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return text("Tomorrow in %s: sunny, 21 °C (says the beta tool).", str(argsOf(req), "city", "London")), nil
	})
	return text("Added beta_forecast: the tool list changed."), nil
}

func ptr[T any](v T) *T { return &v }

const confirmSchema = `{"type":"object","properties":{
  "confirm":{"type":"boolean","title":"Delete it for good?","description":"This removes 3 environments and 120 files. It cannot be undone.","default":false}
},"required":["confirm"]}`

func (d *Demo) deleteProject(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	project := str(argsOf(req), "project", "apollo")
	r := response(req.Params.InputResponses, "confirm_delete")
	if r == nil {
		if !canAsk(req, "form") {
			return nil, invalidParams(errNoElicitation)
		}
		return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{
			"confirm_delete": elicit(fmt.Sprintf("Delete project %q? This cannot be undone.", project), confirmSchema),
		}}, nil
	}
	if r.Action != "accept" {
		return notAccepted(r, "deleting project "+project), nil
	}
	if yes, _ := r.Content["confirm"].(bool); !yes {
		return text("Kept project %q: you did not tick the confirmation.", project), nil
	}
	return text("Deleted project %q: 3 environments and 120 files are gone.", project), nil
}

var accounts = []struct{ id, title string }{
	{"acct_personal_7f3a", "Personal — ada@example.com"},
	{"acct_work_19c2", "Work — ada@analytical.engines"},
	{"acct_oss_55e0", "Open source — @ada"},
}

func (d *Demo) switchAccount(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	r := response(req.Params.InputResponses, "account")
	if r == nil {
		var opts []string
		for _, a := range accounts {
			opts = append(opts, fmt.Sprintf(`{"const":%q,"title":%q}`, a.id, a.title))
		}
		schema := fmt.Sprintf(`{"type":"object","properties":{
  "account":{"type":"string","title":"Account","description":"The accounts found for you","oneOf":[%s],"default":%q}
},"required":["account"]}`, strings.Join(opts, ","), accounts[0].id)
		return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{
			"account": elicit(fmt.Sprintf("I found %d accounts. Which one should I use?", len(accounts)), schema),
		}}, nil
	}
	if r.Action != "accept" {
		return notAccepted(r, "switching accounts"), nil
	}
	id, _ := r.Content["account"].(string)
	for _, a := range accounts {
		if a.id == id {
			return text("Now using %s (%s).", a.title, a.id), nil
		}
	}
	return text("No account %q was offered; nothing changed.", id), nil
}

// ProfileSchema is the demo's everything-form, in the order it is shown.
const ProfileSchema = `{"type":"object","properties":{
  "name":{"type":"string","title":"Full name","description":"As it should appear on your profile","minLength":2,"maxLength":50},
  "email":{"type":"string","title":"Email","format":"email","default":"ada@example.com"},
  "website":{"type":"string","title":"Website","format":"uri"},
  "birthday":{"type":"string","title":"Birthday","format":"date"},
  "call_at":{"type":"string","title":"Intro call","description":"When we may call you","format":"date-time"},
  "bio":{"type":"string","title":"Short bio","maxLength":500},
  "age":{"type":"integer","title":"Age","minimum":13,"maximum":130},
  "height":{"type":"number","title":"Height (m)","minimum":0.5,"maximum":2.5,"default":1.7},
  "newsletter":{"type":"boolean","title":"Newsletter","description":"Send me the monthly newsletter","default":false},
  "theme":{"type":"string","title":"Theme","enum":["light","dark","system"],"default":"system"},
  "country":{"type":"string","title":"Country","oneOf":[{"const":"GB","title":"United Kingdom"},{"const":"FR","title":"France"},{"const":"JP","title":"Japan"},{"const":"BR","title":"Brazil"}]},
  "plan":{"type":"string","title":"Plan","enum":["free","pro","team"],"enumNames":["Free","Pro ($8/mo)","Team ($20/mo)"],"default":"free"},
  "languages":{"type":"array","title":"Languages","description":"Pick one to three","minItems":1,"maxItems":3,"items":{"type":"string","enum":["en","fr","ja","pt"]},"default":["en"]},
  "topics":{"type":"array","title":"Topics","items":{"anyOf":[{"const":"go","title":"Go"},{"const":"mcp","title":"Model Context Protocol"},{"const":"tui","title":"Terminal UIs"}]}}
},"required":["name","email","languages"]}`

func (d *Demo) editProfile(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	r := response(req.Params.InputResponses, "profile")
	if r == nil {
		return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{
			"profile": elicit("Tell me about yourself to set up your profile.", ProfileSchema),
		}}, nil
	}
	if r.Action != "accept" {
		return notAccepted(r, "updating your profile"), nil
	}
	keys := make([]string, 0, len(r.Content))
	for k := range r.Content {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	fmt.Fprintf(&b, "Profile saved with %d field%s:", len(keys), map[bool]string{true: "", false: "s"}[len(keys) == 1])
	for _, k := range keys {
		v, _ := json.Marshal(r.Content[k])
		fmt.Fprintf(&b, "\n  %s: %s", k, v)
	}
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: b.String()}},
		StructuredContent: r.Content,
	}, nil
}

type wizardState struct {
	Name       string `json:"name"`
	Visibility string `json:"visibility"`
}

func (d *Demo) createRepo(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	bind := binding("tools/call", req.Params.Name, req.Params.Arguments)
	owner := str(argsOf(req), "owner", "octo")
	step := 0
	var st wizardState
	if req.Params.RequestState != "" {
		var err error
		step, err = d.state.open(req.Params.RequestState, bind, &st)
		if err != nil {
			return nil, invalidParams(err)
		}
	}
	switch step {
	case 0: // round 1: the basics
		state, err := d.state.seal(bind, 1, nil)
		if err != nil {
			return nil, err
		}
		return &mcp.CallToolResult{RequestState: state, InputRequests: mcp.InputRequestMap{
			"basics": elicit(fmt.Sprintf("New repository for %s (step 1 of 2): the basics.", owner), `{"type":"object","properties":{
  "name":{"type":"string","title":"Repository name","minLength":1,"maxLength":100,"default":"hello-mcp"},
  "visibility":{"type":"string","title":"Visibility","oneOf":[{"const":"public","title":"Public — anyone can see it"},{"const":"private","title":"Private — you choose who sees it"}],"default":"private"}
},"required":["name","visibility"]}`),
		}}, nil
	case 1:
		r := response(req.Params.InputResponses, "basics")
		if r == nil {
			return nil, invalidParams(fmt.Errorf("the retry carries no answer for \"basics\""))
		}
		if r.Action != "accept" {
			return notAccepted(r, "creating the repository"), nil
		}
		st.Name, _ = r.Content["name"].(string)
		st.Visibility, _ = r.Content["visibility"].(string)
		state, err := d.state.seal(bind, 2, st)
		if err != nil {
			return nil, err
		}
		var schema string
		if st.Visibility == "private" {
			schema = `{"type":"object","properties":{
  "collaborators":{"type":"array","title":"Invite collaborators","items":{"anyOf":[{"const":"grace","title":"Grace Hopper"},{"const":"linus","title":"Linus T."},{"const":"margaret","title":"Margaret H."}]},"maxItems":2},
  "license":{"type":"string","title":"License","enum":["none","MIT","Apache-2.0"],"default":"none"}
},"required":["license"]}`
		} else {
			schema = `{"type":"object","properties":{
  "license":{"type":"string","title":"License","enum":["MIT","Apache-2.0","GPL-3.0"],"default":"MIT"},
  "readme":{"type":"boolean","title":"Add a README","default":true}
},"required":["license"]}`
		}
		return &mcp.CallToolResult{RequestState: state, InputRequests: mcp.InputRequestMap{
			"details": elicit(fmt.Sprintf("Step 2 of 2: details for %s repository %q.", st.Visibility, st.Name), schema),
		}}, nil
	case 2:
		r := response(req.Params.InputResponses, "details")
		if r == nil {
			return nil, invalidParams(fmt.Errorf("the retry carries no answer for \"details\""))
		}
		if r.Action != "accept" {
			return notAccepted(r, fmt.Sprintf("creating repository %q", st.Name)), nil
		}
		license, _ := r.Content["license"].(string)
		extra := ""
		if cs, ok := r.Content["collaborators"].([]any); ok && len(cs) > 0 {
			var names []string
			for _, c := range cs {
				names = append(names, fmt.Sprint(c))
			}
			extra = ", inviting " + strings.Join(names, " and ")
		}
		if readme, _ := r.Content["readme"].(bool); readme {
			extra += ", with a README"
		}
		return text("Created %s repository %s/%s (license: %s%s).", st.Visibility, owner, st.Name, license, extra), nil
	}
	return nil, invalidParams(errBadState)
}
