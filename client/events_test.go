package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
)

// events collects what a session's hooks were told.
type events struct {
	mu    sync.Mutex
	notes []string // method and params of each notification
	logs  []string
	got   chan struct{}
}

func newEvents() *events { return &events{got: make(chan struct{}, 100)} }

func (e *events) note(n client.Notification) {
	if n.Method == "notifications/subscriptions/acknowledged" || n.Method == "notifications/message" {
		return
	}
	e.mu.Lock()
	e.notes = append(e.notes, n.Method+" "+string(n.Params))
	e.mu.Unlock()
	e.got <- struct{}{}
}

func (e *events) log(p *mcp.LoggingMessageParams) {
	e.mu.Lock()
	e.logs = append(e.logs, fmt.Sprintf("%s %v", p.Level, p.Data))
	e.mu.Unlock()
	e.got <- struct{}{}
}

func (e *events) wait(t *testing.T, what string) {
	t.Helper()
	select {
	case <-e.got:
	case <-time.After(5 * time.Second):
		t.Fatalf("no notification arrived after %s", what)
	}
}

func noop(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil
}

// A list change reaches OnNotification, on a modern server (through
// subscriptions/listen) and an older one, and the cached tool list is
// read again.
func TestListChanged(t *testing.T) {
	for _, versions := range [][]string{nil, {"2025-11-25"}} {
		name := "2026-07-28"
		if versions != nil {
			name = versions[0]
		}
		t.Run(name, func(t *testing.T) {
			srv := mcp.NewServer(&mcp.Implementation{Name: "lists", Version: "1"}, &mcp.ServerOptions{SupportedProtocolVersions: versions})
			srv.AddTool(&mcp.Tool{Name: "first", InputSchema: emptyObject}, noop)
			ev := newEvents()
			s, w := connect(t, srv, client.Options{Listen: true, OnNotification: ev.note})
			ctx := context.Background()
			if tool, _, err := s.Tool(ctx, "second"); err != nil || tool != nil {
				t.Fatalf("Tool(second) before it exists = %v, %v", tool, err)
			}
			srv.AddTool(&mcp.Tool{Name: "second", InputSchema: emptyObject}, noop)
			ev.wait(t, "AddTool")
			ev.mu.Lock()
			if len(ev.notes) != 1 || !strings.HasPrefix(ev.notes[0], "notifications/tools/list_changed") {
				t.Errorf("notifications %q, want one notifications/tools/list_changed", ev.notes)
			}
			ev.mu.Unlock()
			tool, _, err := s.Tool(ctx, "second")
			if err != nil || tool == nil {
				t.Errorf("Tool(second) after the change = %v, %v; want the list read again", tool, err)
			}
			if n := len(w.calls(t, "tools/list")); n != 2 {
				t.Errorf("tools/list sent %d times, want 2 (once before the change, once after)", n)
			}
			// The listen stream of a modern session is no request left
			// unanswered: closing does not wait for a cancellation.
			start := time.Now()
			s.Close()
			if d := time.Since(start); d > 500*time.Millisecond {
				t.Errorf("Close took %s, want no wait for the listen stream", d)
			}
		})
	}
}

// SetLogLevel goes in the next request's _meta on a modern server, and as
// logging/setLevel to an older one.
func TestSetLogLevel(t *testing.T) {
	ctx := context.Background()
	logTool := func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "info", Data: "hello"})
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil
	}

	t.Run("2026-07-28", func(t *testing.T) {
		srv := newServer()
		srv.AddTool(&mcp.Tool{Name: "log", InputSchema: emptyObject}, logTool)
		ev := newEvents()
		s, w := connect(t, srv, client.Options{OnLog: ev.log})
		if err := s.SetLogLevel(ctx, "debug"); err != nil {
			t.Fatalf("SetLogLevel(debug) = %v", err)
		}
		if _, err := s.CallTool(ctx, "log", nil); err != nil {
			t.Fatal(err)
		}
		calls := w.calls(t, "tools/call")
		var p struct {
			Meta map[string]any `json:"_meta"`
		}
		if err := json.Unmarshal(calls[0].Params, &p); err != nil {
			t.Fatal(err)
		}
		if got := p.Meta[mcp.MetaKeyLogLevel]; got != "debug" {
			t.Errorf("tools/call _meta log level = %v, want debug", got)
		}
		if n := len(w.calls(t, "logging/setLevel")); n != 0 {
			t.Errorf("logging/setLevel sent %d times to a modern server", n)
		}
		if got := s.LogLevel(); got != "debug" {
			t.Errorf("LogLevel() = %q, want debug", got)
		}
	})

	t.Run("2025-11-25", func(t *testing.T) {
		srv := mcp.NewServer(&mcp.Implementation{Name: "old", Version: "1"}, &mcp.ServerOptions{SupportedProtocolVersions: []string{"2025-11-25"}})
		srv.AddTool(&mcp.Tool{Name: "log", InputSchema: emptyObject}, logTool)
		ev := newEvents()
		s, w := connect(t, srv, client.Options{OnLog: ev.log})
		if err := s.SetLogLevel(ctx, "warning"); err != nil {
			t.Fatalf("SetLogLevel(warning) = %v", err)
		}
		sent := w.calls(t, "logging/setLevel")
		if len(sent) != 1 || string(sent[0].Params) != `{"level":"warning"}` {
			t.Errorf("logging/setLevel sent %+v, want one with level warning", sent)
		}
	})

	t.Run("no logging", func(t *testing.T) {
		srv := mcp.NewServer(&mcp.Implementation{Name: "quiet", Version: "1"}, &mcp.ServerOptions{SupportedProtocolVersions: []string{"2025-11-25"}, Capabilities: &mcp.ServerCapabilities{}})
		s, _ := connect(t, srv, client.Options{})
		var nl *client.NoLoggingError
		if err := s.SetLogLevel(ctx, "info"); !errors.As(err, &nl) {
			t.Errorf("SetLogLevel on a server without logging = %v, want NoLoggingError", err)
		}
		if got := s.LogLevel(); got != "" {
			t.Errorf("LogLevel() after a refusal = %q, want it unchanged", got)
		}
	})
}

// Subscribe on a server that offers subscriptions leads to
// notifications/resources/updated; on one that does not, it says so.
func TestSubscribe(t *testing.T) {
	ctx := context.Background()
	for _, versions := range [][]string{nil, {"2025-11-25"}} {
		name := "2026-07-28"
		if versions != nil {
			name = versions[0]
		}
		t.Run(name, func(t *testing.T) {
			subscribed := make(chan string, 1)
			srv := mcp.NewServer(&mcp.Implementation{Name: "subs", Version: "1"}, &mcp.ServerOptions{
				SupportedProtocolVersions: versions,
				SubscribeHandler: func(_ context.Context, req *mcp.SubscribeRequest) error {
					subscribed <- req.Params.URI
					return nil
				},
				UnsubscribeHandler: func(context.Context, *mcp.UnsubscribeRequest) error { return nil },
			})
			srv.AddResource(&mcp.Resource{URI: "demo://clock", Name: "clock"}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
				return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "demo://clock", Text: "now"}}}, nil
			})
			ev := newEvents()
			s, _ := connect(t, srv, client.Options{Listen: true, OnNotification: ev.note})
			if err := s.Subscribe(ctx, "demo://clock"); err != nil {
				t.Fatalf("Subscribe = %v", err)
			}
			select {
			case <-subscribed:
			case <-time.After(5 * time.Second):
				t.Fatal("the server never saw the subscription")
			}
			if err := srv.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: "demo://clock"}); err != nil {
				t.Fatal(err)
			}
			ev.wait(t, "ResourceUpdated")
			ev.mu.Lock()
			if len(ev.notes) != 1 || !strings.HasPrefix(ev.notes[0], "notifications/resources/updated ") || !strings.Contains(ev.notes[0], `"uri":"demo://clock"`) {
				t.Errorf("notifications %q, want one notifications/resources/updated for demo://clock", ev.notes)
			}
			ev.mu.Unlock()
		})
	}
	t.Run("not offered", func(t *testing.T) {
		s, _ := connect(t, newServer(), client.Options{})
		var ns *client.NoSubscribeError
		if err := s.Subscribe(ctx, "demo://x"); !errors.As(err, &ns) {
			t.Errorf("Subscribe on a server without subscriptions = %v, want NoSubscribeError", err)
		}
	})
}

// WithCall numbers a request's steps and rounds as the caller says.
func TestWithCall(t *testing.T) {
	srv := newServer()
	srv.AddTool(&mcp.Tool{Name: "ask", InputSchema: emptyObject}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if req.Params.InputResponses == nil {
			return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"ok": elicitForm("ok?")}}, nil
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil
	})
	var mu sync.Mutex
	var calls []int
	ans := acceptAll(map[string]any{"ok": true})
	s, _ := connect(t, srv, client.Options{Answerer: ans, OnStep: func(st client.Step) {
		mu.Lock()
		calls = append(calls, st.Call)
		mu.Unlock()
	}})
	if _, err := s.CallTool(client.WithCall(context.Background(), 42), "ask", nil); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if diff := cmp.Diff([]int{42, 42, 42, 42}, calls); diff != "" {
		t.Errorf("Step.Call of the steps (-want +got):\n%s", diff)
	}
	if len(ans.rounds) != 1 || ans.rounds[0].Call != 42 {
		t.Errorf("rounds %+v, want one with Call 42", ans.rounds)
	}
}
