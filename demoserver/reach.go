package demoserver

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The asks of the deprecated client features (roots, sampling): a server
// asks for them with input requests like any other (on 2025-11-25 the
// go-sdk turns them into server requests), and must not ask a client that
// did not declare them.

// clientDeclares reports whether the client declared the capability name
// ("roots", "sampling") or the extension name, on this request (2026-07-28)
// or at initialize.
func clientDeclares(req mcp.Request, name string) bool {
	if m := req.GetParams().GetMeta(); m != nil {
		if raw, ok := m[mcp.MetaKeyClientCapabilities]; ok {
			b, _ := json.Marshal(raw)
			var caps, ext map[string]json.RawMessage
			_ = json.Unmarshal(b, &caps)
			if _, ok := caps[name]; ok {
				return true
			}
			_ = json.Unmarshal(caps["extensions"], &ext)
			_, ok := ext[name]
			return ok
		}
	}
	ss, ok := req.GetSession().(*mcp.ServerSession)
	if !ok || ss.InitializeParams() == nil || ss.InitializeParams().Capabilities == nil {
		return false
	}
	caps := ss.InitializeParams().Capabilities
	switch name {
	case "roots":
		return caps.RootsV2 != nil
	case "sampling":
		return caps.Sampling != nil
	}
	_, ok = caps.Extensions[name]
	return ok
}

func (d *Demo) addReachTools() {
	d.srv.AddTool(&mcp.Tool{
		Name:        "workspace_summary",
		Description: "Ask for the client's roots (the directories it lets servers see) and describe them.",
		InputSchema: rawSchema(`{"type":"object","properties":{}}`),
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
	}, d.workspaceSummary)
	d.srv.AddTool(&mcp.Tool{
		Name:        "draft_announcement",
		Description: "Ask the client's model (in mcpcli: you) to draft a release announcement: a sampling request.",
		InputSchema: rawSchema(`{"type":"object","properties":{"version":{"type":"string","description":"Version being announced"}}}`),
	}, d.draftAnnouncement)
}

func (d *Demo) workspaceSummary(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	if req.Params.InputResponses == nil {
		if !clientDeclares(req, "roots") {
			return text("This tool looks at your workspace, but this client declared no roots. In mcpcli, pass --root DIR (repeatable), or add one in the session (C, or root add DIR)."), nil
		}
		return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"roots": &mcp.ListRootsParams{}}}, nil
	}
	r, ok := req.Params.InputResponses["roots"].(*mcp.ListRootsResult)
	if !ok {
		return nil, invalidParams(fmt.Errorf("the retry carries no roots/list answer for \"roots\""))
	}
	if len(r.Roots) == 0 {
		return text("Your workspace has no roots."), nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Your workspace has %d root%s:", len(r.Roots), map[bool]string{true: "", false: "s"}[len(r.Roots) == 1])
	for _, root := range r.Roots {
		name := root.Name
		if name == "" {
			name = "(no name)"
		}
		fmt.Fprintf(&b, "\n  %s  %s", name, root.URI)
	}
	return text("%s", b.String()), nil
}

// logoPNG is a 1x1 PNG, the image a sampling request carries.
// (Written out as bytes, not decoded at init: TestLogoIsTheOnePixelPNG.)
var logoPNG = []byte("\x89\x50\x4e\x47\x0d\x0a\x1a\x0a\x00\x00\x00\x0d\x49\x48\x44\x52\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\x0d\x49\x44\x41\x54\x78\xda\x63\x64\xf8\xcf\x50\x0f\x00\x03\x86\x01\x80\x5a\x34\x7d\x6b\x00\x00\x00\x00\x49\x45\x4e\x44\xae\x42\x60\x82")

// AnnouncementRequest is the sampling request draft_announcement sends.
func AnnouncementRequest(version string) *mcp.CreateMessageParams {
	return &mcp.CreateMessageParams{
		SystemPrompt: "You write short, friendly release announcements.",
		Messages: []*mcp.SamplingMessage{
			{Role: "user", Content: &mcp.TextContent{Text: fmt.Sprintf("Write a two-sentence announcement for version %s. Highlights: faster start-up, a new dark theme.", version)}},
			{Role: "user", Content: &mcp.ImageContent{MIMEType: "image/png", Data: logoPNG}},
		},
		ModelPreferences: &mcp.ModelPreferences{Hints: []*mcp.ModelHint{{Name: "claude-sonnet"}}, IntelligencePriority: 0.8, SpeedPriority: 0.3},
		MaxTokens:        200,
		Temperature:      0.7,
	}
}

func (d *Demo) draftAnnouncement(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	version := str(argsOf(req), "version", "2.0")
	if req.Params.InputResponses == nil {
		if !clientDeclares(req, "sampling") {
			return text("This tool asks the client's model for a draft, but this client did not declare sampling. In mcpcli, pass --sampling and write the draft yourself, or turn sampling on in the session (C, or sampling on)."), nil
		}
		return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"draft": AnnouncementRequest(version)}}, nil
	}
	var reply *mcp.CreateMessageWithToolsResult
	switch r := req.Params.InputResponses["draft"].(type) {
	case *mcp.CreateMessageWithToolsResult:
		reply = r
	case *mcp.CreateMessageResult:
		reply = &mcp.CreateMessageWithToolsResult{Content: []mcp.Content{r.Content}, Model: r.Model, Role: r.Role}
	default:
		return nil, invalidParams(fmt.Errorf("the retry carries no sampling answer for \"draft\""))
	}
	var texts []string
	for _, c := range reply.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			texts = append(texts, t.Text)
		}
	}
	return text("Announcement for %s, drafted by %s:\n%s", version, reply.Model, strings.Join(texts, "\n")), nil
}

// Notes is the demo's resource template; its topic completes from
// NoteTopics.
const NotesTemplate = "demo://notes/{topic}"

// NoteTopics are the topics completion/complete suggests.
var NoteTopics = []string{"go", "mcp", "terminals", "testing"}

// ClockURI is a resource that changes every ClockTick while someone is
// subscribed to it (resources/subscribe, or subscriptions/listen).
const ClockURI = "demo://clock"

func (d *Demo) addReachResources() {
	d.srv.AddResourceTemplate(&mcp.ResourceTemplate{
		Name:        "notes",
		Title:       "Notes on a topic",
		URITemplate: NotesTemplate,
		MIMEType:    "text/plain",
		Description: "A few lines on a topic; the topic completes (completion/complete).",
	}, func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		topic := strings.TrimPrefix(req.Params.URI, "demo://notes/")
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/plain",
			Text: fmt.Sprintf("Notes on %s: nothing here yet but the topic.", topic)}}}, nil
	})
	d.srv.AddResource(&mcp.Resource{
		URI:         ClockURI,
		Name:        "clock",
		Title:       "Clock",
		Description: "The time; subscribe to it (mcpcli watch --resource demo://clock) and it changes every second.",
		MIMEType:    "text/plain",
	}, func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: ClockURI, MIMEType: "text/plain", Text: d.opts.Now().UTC().Format(time.RFC3339)}}}, nil
	})
}

// complete answers completion/complete: note topics, and the languages of
// the greeting prompt.
func (d *Demo) complete(ctx context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	var pool []string
	ref := req.Params.Ref
	switch {
	case ref != nil && ref.Type == "ref/resource" && ref.URI == NotesTemplate && req.Params.Argument.Name == "topic":
		pool = NoteTopics
	case ref != nil && ref.Type == "ref/prompt" && ref.Name == "greeting" && req.Params.Argument.Name == "language":
		pool = []string{"English", "French", "Japanese"}
	}
	values := []string{}
	for _, v := range pool {
		if strings.HasPrefix(v, req.Params.Argument.Value) {
			values = append(values, v)
		}
	}
	return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: values, Total: len(values)}}, nil
}

func (d *Demo) addGreetingPrompt() {
	d.srv.AddPrompt(&mcp.Prompt{
		Name:        "greeting",
		Description: "A greeting in a language; the language completes.",
		Arguments: []*mcp.PromptArgument{
			{Name: "language", Description: "The language to greet in", Required: true},
			{Name: "name", Description: "Who to greet"},
		},
	}, func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		name := req.Params.Arguments["name"]
		if name == "" {
			name = "everyone"
		}
		return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user",
			Content: &mcp.TextContent{Text: fmt.Sprintf("Greet %s in %s.", name, req.Params.Arguments["language"])}}}}, nil
	})
}

// ClockTick is how often the clock changes while someone watches it.
const ClockTick = time.Second

// clock ticks while anyone is subscribed to ClockURI.
type clock struct {
	mu          sync.Mutex
	subscribers int
	stop        chan struct{}
}

func (d *Demo) subscribe(ctx context.Context, req *mcp.SubscribeRequest) error {
	if req.Params.URI != ClockURI {
		return nil
	}
	d.clock.mu.Lock()
	defer d.clock.mu.Unlock()
	d.clock.subscribers++
	if d.clock.stop == nil {
		stop := make(chan struct{})
		d.clock.stop = stop
		go func() {
			t := time.NewTicker(ClockTick)
			defer t.Stop()
			for {
				select {
				case <-stop:
					return
				case <-t.C:
					_ = d.srv.ResourceUpdated(context.Background(), &mcp.ResourceUpdatedNotificationParams{URI: ClockURI})
				}
			}
		}()
	}
	return nil
}

func (d *Demo) unsubscribe(ctx context.Context, req *mcp.UnsubscribeRequest) error {
	if req.Params.URI != ClockURI {
		return nil
	}
	d.clock.mu.Lock()
	defer d.clock.mu.Unlock()
	if d.clock.subscribers > 0 {
		d.clock.subscribers--
	}
	if d.clock.subscribers == 0 && d.clock.stop != nil {
		close(d.clock.stop)
		d.clock.stop = nil
	}
	return nil
}
