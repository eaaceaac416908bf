package tui

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/render"
)

// The server learns in words why a request was cancelled: the person
// cancelled it in the session, or closed the session; never the go-sdk's
// "context canceled".
func TestCancelReasonInWords(t *testing.T) {
	h := newHarness(t, testServer(), harnessOptions{})
	h.keys("/")
	h.typ("slow")
	h.keys("enter", "enter", "y")
	h.waitShow("▶ running", "25%")
	h.keys("ctrl+c")
	h.waitShow("■ cancelled")
	var reason string
	h.waitFor("notifications/cancelled on the wire", func(string) bool {
		for _, m := range h.sent.messages("notifications/cancelled") {
			var p struct{ Reason string }
			_ = json.Unmarshal(m["params"], &p)
			reason = p.Reason
		}
		return reason != ""
	})
	if reason != "the user cancelled the request in mcpcli's session" {
		t.Errorf("notifications/cancelled gives the reason %q, want the person's cancel in words", reason)
	}
	if strings.Contains(reason, "context canceled") {
		t.Errorf("the reason is the go-sdk's: %q", reason)
	}
}

// The detail pane shows the tool's own execution.taskSupport: a tool
// that says nothing is not called "forbidden" by a server that runs it
// as a task, and the pane says the server may.
func TestTaskSupportIsTheTools(t *testing.T) {
	h := newHarness(t, demo(t), harnessOptions{width: 200, height: 40})
	h.keys("/")
	h.typ("build_release")
	s := h.waitShow("Task support: not declared by the tool", "Tasks: the server has the tasks extension (2026-07-28) and may run any call as a task")
	if strings.Contains(s, "forbidden") {
		t.Errorf("the detail pane says forbidden:\n%s", s)
	}
	// The details in full (d) say as much as the pane.
	h.keys("enter", "d")
	h.waitShow("The tool, in full", "Task support: not declared by the tool", "Tasks: the server has the tasks extension (2026-07-28) and may run any call as a task")
}

// A list answered with input_required, or an error, is named as what it
// was; a list the server does not declare is said not to be offered.
// None of them shows as an empty list.
func TestListsSayWhatTheServerAnswered(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "lists", Version: "1"}, nil)
	srv.AddTool(&mcp.Tool{Name: "echo", InputSchema: schemaOf(`{"type":"object"}`)}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return textResult("echoed"), nil
	})
	srv.AddPrompt(&mcp.Prompt{Name: "p"}, func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return &mcp.GetPromptResult{}, nil
	})
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "prompts/list" {
				return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"who": &mcp.ElicitParams{Message: "Who asks?", RequestedSchema: schemaOf(`{"type":"object","properties":{}}`)}}}, nil
			}
			return next(ctx, method, req)
		}
	})
	h := newHarness(t, srv, harnessOptions{width: 120, height: 30})
	s := h.waitShow("Tools 1", "Prompts !", "Resources –")
	h.keys("2")
	s = h.waitShow("no list:", "inputRequests instead of a list")
	if strings.Contains(s, "the server lists none") {
		t.Errorf("a list answered with input_required shows as empty:\n%s", s)
	}
	h.keys("3")
	s = h.waitShow("the server does not offer resources")
	if strings.Contains(s, "the server lists none") {
		t.Errorf("resources not offered show as an empty list:\n%s", s)
	}
	h.keys("4")
	h.waitShow("reading the prompts list failed")
}

// The timeline says what was answered in every kind of round, and shows
// the values sent, with a choice's title beside its value: a form, a URL,
// a -32042 error's URL, a sampling request, roots (asked in a round, and
// asked by a 2025-11-25 server's own request).
func TestTimelineSaysWhatWasAnswered(t *testing.T) {
	var gated atomic.Bool
	srv := mcp.NewServer(&mcp.Implementation{Name: "rounds", Version: "1"}, nil)
	empty := schemaOf(`{"type":"object"}`)
	srv.AddTool(&mcp.Tool{Name: "pick", InputSchema: empty}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		switch req.Params.RequestState {
		case "":
			return &mcp.CallToolResult{RequestState: "one", InputRequests: mcp.InputRequestMap{"review": &mcp.ElicitParams{Message: "Who reviews?",
				RequestedSchema: schemaOf(`{"type":"object","properties":{"reviewer":{"type":"string","oneOf":[{"const":"grace","title":"Grace Hopper"},{"const":"ada","title":"Ada Lovelace"}]},"langs":{"type":"array","items":{"anyOf":[{"const":"go","title":"Go"},{"const":"rs","title":"Rust"}]}},"urgent":{"type":"boolean"}}}`)}}}, nil
		case "one":
			return &mcp.CallToolResult{RequestState: "two", InputRequests: mcp.InputRequestMap{"login": &mcp.ElicitParams{Mode: "url", Message: "Sign in", URL: "https://example.com/login", ElicitationID: "e1"}}}, nil
		}
		return textResult("picked"), nil
	})
	srv.AddTool(&mcp.Tool{Name: "gate", InputSchema: empty}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if !gated.Swap(true) {
			return nil, &jsonrpc.Error{Code: mcp.CodeURLElicitationRequired, Message: "sign in first",
				Data: json.RawMessage(`{"elicitations":[{"mode":"url","message":"Sign in to the bank","url":"https://bank.example/signin","elicitationId":"b1"}]}`)}
		}
		return textResult("through the gate"), nil
	})
	srv.AddTool(&mcp.Tool{Name: "where", InputSchema: empty}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if req.Params.InputResponses == nil {
			return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"dirs": &mcp.ListRootsParams{}}}, nil
		}
		return textResult("rooted"), nil
	})
	srv.AddTool(&mcp.Tool{Name: "write", InputSchema: empty}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if req.Params.InputResponses == nil {
			return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"llm": &mcp.CreateMessageParams{MaxTokens: 9,
				Messages: []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: "hi"}}}}}}, nil
		}
		return textResult("written"), nil
	})
	h := newHarness(t, srv, harnessOptions{
		width: 120, height: 30,
		roots: []*mcp.Root{{URI: "file:///work/alpha", Name: "alpha"}},
		answer: func(r client.Round) map[string]*mcp.ElicitResult {
			switch {
			case r.URLRequired:
				return map[string]*mcp.ElicitResult{"elicitation": {Action: "accept"}}
			case r.Number == 1:
				return map[string]*mcp.ElicitResult{"review": {Action: "accept", Content: map[string]any{"reviewer": "grace", "langs": []any{"go", "rs"}, "urgent": true}}}
			}
			return map[string]*mcp.ElicitResult{"login": {Action: "decline"}}
		},
		sample: func(client.SamplingRound) *client.SamplingAnswer { return &client.SamplingAnswer{Decline: true} },
	})
	open := func(tool string) {
		h.keys("esc", "1", "/")
		h.typ(tool)
		h.keys("enter", "enter", "y")
	}
	open("pick")
	s := h.waitShow("picked", "round 2 · login", "✓ complete", "round 1 · review", "accept · 3 values",
		"reviewer=grace (Grace Hopper)", `langs=["go","rs"] (Go, Rust)`, "urgent=true", "decline · URL")
	if strings.Contains(s, "reviewer=Grace Hopper") {
		t.Errorf("the title is shown as the value sent:\n%s", s)
	}
	open("gate")
	s = h.waitShow("through the gate", "round 1 · -32042 URL required", "accept · URL", "✓ complete")
	if strings.Contains(s, "elicitation/create") {
		t.Errorf("a -32042 round is shown as a server's elicitation/create:\n%s", s)
	}
	open("where")
	h.waitShow("rooted", "round 1 · dirs", "roots sent · 1 root", "file:///work/alpha")
	open("write")
	h.waitShow("round 1 · llm", "sampling declined", "✗ failed")

	// A 2025-11-25 server asks for the roots with a request of its own.
	old := mcp.NewServer(&mcp.Implementation{Name: "old", Version: "0.9"}, &mcp.ServerOptions{SupportedProtocolVersions: []string{"2025-11-25"}})
	old.AddTool(&mcp.Tool{Name: "where", InputSchema: empty}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res, err := req.Session.ListRoots(ctx, nil)
		if err != nil {
			return nil, err
		}
		return textResult("%d roots", len(res.Roots)), nil
	})
	h = newHarness(t, old, harnessOptions{width: 120, height: 30, roots: []*mcp.Root{{URI: "file:///work/alpha", Name: "alpha"}}})
	h.keys("enter", "y")
	h.waitShow("1 roots", "ask 1 · roots/list", "roots sent · 1 root", "file:///work/alpha", "✓ complete")
}

// After a failed retry, re-running the call starts its forms from the
// answers given, as the one-shot command's kept answers do; the person
// still sees them.
func TestRerunStartsFromTheAnswersGiven(t *testing.T) {
	var fail atomic.Bool
	fail.Store(true)
	srv := mcp.NewServer(&mcp.Implementation{Name: "shop", Version: "1"}, nil)
	srv.AddTool(&mcp.Tool{Name: "order", InputSchema: schemaOf(`{"type":"object"}`)}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		r, ok := req.Params.InputResponses["size"].(*mcp.ElicitResult)
		if !ok {
			return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"size": &mcp.ElicitParams{Message: "Which size?",
				RequestedSchema: schemaOf(`{"type":"object","properties":{"size":{"type":"string","enum":["S","M","L"]}},"required":["size"]}`)}}}, nil
		}
		if fail.Swap(false) {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the warehouse is offline"}
		}
		return textResult("ordered %v", r.Content["size"]), nil
	})
	var given []map[string]any
	h := newHarness(t, srv, harnessOptions{answer: func(r client.Round) map[string]*mcp.ElicitResult {
		given = append(given, r.Asks[0].Given)
		size := "L"
		if r.Asks[0].Given != nil {
			size, _ = r.Asks[0].Given["size"].(string)
		}
		return map[string]*mcp.ElicitResult{"size": {Action: "accept", Content: map[string]any{"size": size}}}
	}})
	h.keys("enter", "y")
	h.waitShow("✗ failed", "warehouse is offline", "size=L")
	h.keys("r")
	h.waitShow("#2 order", "ordered L")
	if len(given) != 2 || given[0] != nil || given[1]["size"] != "L" {
		t.Errorf("the forms started from %v, want nothing, then the size given (L)", given)
	}
}

// C changes the client's capabilities while connected: a root added is
// given to the server's next request, and sampling turned on answers the
// next sampling request.
func TestCapabilitiesModal(t *testing.T) {
	dir := t.TempDir()
	var sampled int
	h := newHarness(t, demo(t), harnessOptions{
		width: 100, height: 30, live: true, samplingOff: true,
		forms: func(render.Arguments) (map[string]any, error) { return map[string]any{"version": "5"}, nil },
		sample: func(client.SamplingRound) *client.SamplingAnswer {
			sampled++
			return &client.SamplingAnswer{Result: &mcp.CreateMessageWithToolsResult{Role: "assistant", Model: "a person", Content: []mcp.Content{&mcp.TextContent{Text: "Five is out."}}}}
		},
	})
	call := func(tool string) {
		h.keys("esc", "1", "/")
		h.typ(tool)
		h.keys("enter", "enter", "y")
	}
	call("workspace_summary")
	h.waitShow("declared no roots")
	h.keys("C")
	h.waitShow("Client capabilities", "Sampling  off", "Roots     0", "+ add a directory", "_meta of each request")
	h.keys("down", "enter")
	h.waitShow("Directory: █")
	h.typ(dir + "/nope")
	h.keys("enter")
	h.waitShow("not added:", "is not a directory", "Directory: "+dir+"/nope")
	for range "/nope" {
		h.keys("backspace")
	}
	h.keys("enter")
	h.waitShow("added the root file://"+dir, "Roots     1", filepath.Base(dir))
	h.keys("up", "up", "enter")
	h.waitShow("Sampling  on", "sampling on:")
	h.keys("esc")
	call("workspace_summary")
	h.waitShow("Your workspace has 1 root", "roots sent · 1 root")
	call("draft_announcement")
	h.waitShow("Five is out.", "sampling reply")
	if sampled != 1 {
		t.Errorf("%d sampling replies asked, want 1", sampled)
	}

	// Removed, the root is no longer given; off, sampling is not declared.
	h.keys("C")
	h.waitShow("Client capabilities", "Roots     1")
	h.keys("down", "d")
	h.waitShow("removed the root", "Roots     0")
	h.keys("up", "enter")
	h.waitShow("Sampling  off")
	h.keys("esc")
	call("workspace_summary")
	h.waitShow("#4", "declared no roots")
	call("draft_announcement")
	h.waitShow("#5", "did not declare sampling")
}

// A name holding control or invisible characters is shown with a marker
// for each: two names never look alike, and none loses a character.
func TestNamesShowWhatCannotBeShown(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "names", Version: "1"}, nil)
	for _, name := range []string{"evil\x1b[31mname", "twin\u200b", "twin"} {
		srv.AddTool(&mcp.Tool{Name: name, InputSchema: schemaOf(`{"type":"object"}`)}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return textResult("called"), nil
		})
	}
	h := newHarness(t, srv, harnessOptions{})
	s := h.waitShow("evil<U+001B>[31mname", "twin<U+200B>")
	if strings.Contains(s, "\x1b") || strings.Contains(s, "evil[31mname") {
		t.Errorf("a name is shown with its escape, or without its ESC:\n%q", s)
	}
	h.keys("enter", "y")
	h.waitShow("#1 evil<U+001B>[31mname", "called")
}

// Resource templates answered with something other than a list are said
// in Activity (a server without the method just has none).
func TestTemplatesThatFailAreSaid(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "lists", Version: "1"}, nil)
	srv.AddResource(&mcp.Resource{URI: "mem://r", Name: "r"}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{}, nil
	})
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "resources/templates/list" {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "templates are offline"}
			}
			return next(ctx, method, req)
		}
	})
	h := newHarness(t, srv, harnessOptions{width: 220, height: 30})
	h.waitShow("Resources 1")
	h.keys("4")
	h.waitShow("reading the resource templates failed", "templates are offline")
}
