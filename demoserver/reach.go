package demoserver

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

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
			return text("This tool looks at your workspace, but this client declared no roots. In mcpcli, pass --root DIR (repeatable)."), nil
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
var logoPNG, _ = base64.StdEncoding.DecodeString("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")

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
			return text("This tool asks the client's model for a draft, but this client did not declare sampling. In mcpcli, pass --sampling and write the draft yourself."), nil
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
