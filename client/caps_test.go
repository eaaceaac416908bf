package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
)

// capsServer has a tool that says what the request declared (2026-07-28:
// its _meta; before: what initialize said), and one that asks for the
// roots.
func capsServer(legacy bool) *mcp.Server {
	opts := &mcp.ServerOptions{}
	if legacy {
		opts.SupportedProtocolVersions = []string{"2025-11-25"}
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "caps", Version: "1"}, opts)
	srv.AddTool(&mcp.Tool{Name: "declared", InputSchema: emptyObject}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		caps := req.Params.Meta[mcp.MetaKeyClientCapabilities]
		if legacy {
			caps = req.Session.InitializeParams().Capabilities
		}
		b, _ := json.Marshal(caps)
		var m map[string]json.RawMessage
		_ = json.Unmarshal(b, &m)
		var got []string
		for _, k := range []string{"roots", "sampling"} {
			if v, ok := m[k]; ok {
				got = append(got, k+"="+string(v))
			}
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Join(got, " ")}}}, nil
	})
	srv.AddTool(&mcp.Tool{Name: "roots", InputSchema: emptyObject}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if legacy {
			res, err := req.Session.ListRoots(ctx, nil)
			if err != nil {
				return nil, err
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: uris(res.Roots)}}}, nil
		}
		r, ok := req.Params.InputResponses["r"].(*mcp.ListRootsResult)
		if !ok {
			return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"r": &mcp.ListRootsParams{}}}, nil
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: uris(r.Roots)}}}, nil
	})
	srv.AddTool(&mcp.Tool{Name: "sample", InputSchema: emptyObject}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		_, err := req.Session.CreateMessage(ctx, &mcp.CreateMessageParams{MaxTokens: 5, Messages: []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: "hi"}}}})
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprint("sampled: ", err)}}}, nil
	})
	return srv
}

func uris(rs []*mcp.Root) string {
	var out []string
	for _, r := range rs {
		out = append(out, r.URI)
	}
	return "roots: " + strings.Join(out, " ")
}

func text(t *testing.T, s *client.Session, tool string) string {
	t.Helper()
	res, err := s.CallTool(context.Background(), tool, nil)
	if err != nil {
		t.Fatalf("call %s: %v", tool, err)
	}
	return res.Tool.Content[0].(*mcp.TextContent).Text
}

var reply = client.SamplerFunc(func(context.Context, client.SamplingRound) (*client.SamplingAnswer, error) {
	return &client.SamplingAnswer{Result: &mcp.CreateMessageWithToolsResult{Role: "assistant", Model: "m", Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}}, nil
})

// On 2026-07-28 the roots and sampling a request declares are those of the
// moment it is sent: added and turned on while connected, they are in the
// next request's _meta, and a roots/list is answered with the roots now.
func TestCapabilitiesChangeWhileConnected(t *testing.T) {
	s, w := connect(t, capsServer(false), client.Options{Sampler: reply, SamplingOff: true, ChangeableRoots: true})
	if got := text(t, s, "declared"); got != "" {
		t.Errorf("at first the request declares %q, want neither roots nor sampling", got)
	}
	if err := s.AddRoot(&mcp.Root{URI: "file:///a", Name: "a"}); err != nil {
		t.Fatal(err)
	}
	if err := s.SetSampling(true); err != nil {
		t.Fatal(err)
	}
	if got := text(t, s, "declared"); got != "roots={} sampling={}" {
		t.Errorf("after adding a root and turning sampling on, the request declares %q, want roots={} sampling={}", got)
	}
	if got := text(t, s, "roots"); got != "roots: file:///a" {
		t.Errorf("roots/list answered %q, want the root added", got)
	}
	if !s.RemoveRoot("file:///a") || s.RemoveRoot("file:///a") {
		t.Error("RemoveRoot does not report the root it removed, once")
	}
	s.SetSampling(false)
	if got := text(t, s, "declared"); got != "" {
		t.Errorf("after removing it and turning sampling off, the request declares %q", got)
	}
	if n := len(w.calls(t, "notifications/roots/list_changed")); n != 0 {
		t.Errorf("%d notifications/roots/list_changed sent to a 2026-07-28 server, which has no such notification", n)
	}
	for _, c := range w.calls(t, "tools/call") {
		if !strings.Contains(string(c.Params), `"io.modelcontextprotocol/clientCapabilities"`) {
			t.Errorf("a request without clientCapabilities in _meta: %s", c.Params)
		}
	}
}

// Before 2026-07-28 a server learns the capabilities at initialize: roots
// declared there (with listChanged) change with notifications/roots/
// list_changed; sampling declared there may be turned off (its requests
// are declined); what was not declared cannot be added.
func TestCapabilitiesOfAnOlderServer(t *testing.T) {
	s, w := connect(t, capsServer(true), client.Options{Sampler: reply, SamplingOff: true, ChangeableRoots: true})
	if got := text(t, s, "declared"); got != `roots={"listChanged":true}` {
		t.Errorf("initialize declared %q, want roots with listChanged and no sampling", got)
	}
	if got := text(t, s, "roots"); got != "roots: " {
		t.Errorf("roots/list with no roots yet answered %q, want an empty list", got)
	}
	if err := s.AddRoot(&mcp.Root{URI: "file:///b", Name: "b"}); err != nil {
		t.Fatal(err)
	}
	if got := text(t, s, "roots"); got != "roots: file:///b" {
		t.Errorf("roots/list answered %q after a root was added", got)
	}
	if n := len(w.calls(t, "notifications/roots/list_changed")); n != 1 {
		t.Errorf("%d notifications/roots/list_changed sent, want 1", n)
	}
	var ce *client.CapabilityError
	if err := s.SetSampling(true); !errors.As(err, &ce) || ce.Capability != "sampling" {
		t.Errorf("turning sampling on for an older server that was not told = %v, want a CapabilityError", err)
	}

	// Not declared at initialize: roots cannot be added.
	s2, _ := connect(t, capsServer(true), client.Options{})
	if err := s2.AddRoot(&mcp.Root{URI: "file:///c"}); !errors.As(err, &ce) || ce.Capability != "roots" {
		t.Errorf("adding a root for an older server that was not told = %v, want a CapabilityError", err)
	}

	// Declared, then turned off: declined.
	s3, _ := connect(t, capsServer(true), client.Options{Sampler: reply})
	if got := text(t, s3, "sample"); got != "sampled: <nil>" {
		t.Errorf("with sampling on: %q", got)
	}
	s3.SetSampling(false)
	if got := text(t, s3, "sample"); !strings.Contains(got, "rejected") {
		t.Errorf("with sampling off, the server's request got %q, want it declined", got)
	}
}
