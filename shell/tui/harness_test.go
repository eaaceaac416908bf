package tui

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/internal/safefile"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/transport"
)

// harness runs a session model against a real client session, connected
// over pipes to an in-process go-sdk server. It plays bubbletea's part:
// commands run in goroutines, their messages go back into Update, and what
// borrows the terminal (a form) runs at once, as tea.Exec would run it.
type harness struct {
	t    *testing.T
	m    *Model
	feed *Feed
	cs   *client.Session
	ss   *mcp.ServerSession
	msgs chan tea.Msg
	now  *clock
	sent *syncBuffer // what the client wrote to the server
}

// syncBuffer is a buffer written by one goroutine and read by another.
type syncBuffer struct {
	mu sync.Mutex
	b  []byte
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.b = append(b.b, p...)
	return len(p), nil
}

// messages are the JSON-RPC messages written so far, by method ("" for a
// response).
func (b *syncBuffer) messages(method string) []map[string]json.RawMessage {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []map[string]json.RawMessage
	for _, line := range strings.Split(string(b.b), "\n") {
		var m map[string]json.RawMessage
		if json.Unmarshal([]byte(line), &m) != nil {
			continue
		}
		var got string
		_ = json.Unmarshal(m["method"], &got)
		if got == method {
			out = append(out, m)
		}
	}
	return out
}

// clock is a settable clock: timelines say how long things took.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(100 * time.Millisecond)
	return c.t
}

// answerFunc answers a round as a person would.
type answerFunc func(r client.Round) map[string]*mcp.ElicitResult

func (f answerFunc) Answer(_ context.Context, r client.Round) (map[string]*mcp.ElicitResult, error) {
	return f(r), nil
}

// formsFunc fills in an arguments form as a person would.
type formsFunc func(a render.Arguments) (map[string]any, error)

func (f formsFunc) AskArguments(_ context.Context, a render.Arguments) (map[string]any, error) {
	return f(a)
}

// valuesFunc answers one value question as a person would.
type valuesFunc func(q render.Question) (string, error)

func (f valuesFunc) AskValue(_ context.Context, q render.Question) (string, error) { return f(q) }

// sampleFunc writes a sampling reply as a person would.
type sampleFunc func(r client.SamplingRound) *client.SamplingAnswer

func (f sampleFunc) Sample(_ context.Context, r client.SamplingRound) (*client.SamplingAnswer, error) {
	return f(r), nil
}

type harnessOptions struct {
	answer answerFunc
	forms  formsFunc
	values valuesFunc
	sample sampleFunc
	roots  []*mcp.Root
	width  int
	height int
	// live: roots may be added while connected (client
	// Options.ChangeableRoots); samplingOff: sample answers, but
	// sampling starts off.
	live, samplingOff bool
}

func newHarness(t *testing.T, srv *mcp.Server, o harnessOptions) *harness {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	now := &clock{t: time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)}
	feed := NewFeed(now.Now)
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	ct := transport.Wrap(&mcp.IOTransport{Reader: cr, Writer: cw}, "test server")
	ct.Observe(feed.Observe)
	sent := &syncBuffer{}
	ss, err := srv.Connect(ctx, &mcp.IOTransport{Reader: io.NopCloser(io.TeeReader(sr, sent)), Writer: sw}, nil)
	if err != nil {
		t.Fatalf("server Connect: %v", err)
	}
	t.Cleanup(func() { ss.Close() })
	if o.answer == nil {
		o.answer = func(r client.Round) map[string]*mcp.ElicitResult {
			t.Errorf("unexpected round %d of %s", r.Number, r.Target)
			return nil
		}
	}
	copts := client.Options{Modes: client.Modes{Form: true, URL: true}}
	var sampler client.Sampler
	if o.sample != nil {
		sampler = o.sample
	}
	feed.Hooks(&copts, o.answer, sampler)
	copts.Roots = o.roots
	copts.ChangeableRoots = o.live
	copts.SamplingOff = o.samplingOff
	cs, err := client.Connect(ctx, ct, copts)
	if err != nil {
		t.Fatalf("client.Connect: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	opts := Options{Client: cs, Feed: feed, Now: now.Now, Transport: "stdio", Negotiated: "discover", KeyGuard: render.NoKeyGuard,
		// The files the session saves are proved its own by a ledger of
		// the test's, never the person's.
		Ledger: &safefile.Ledger{Path: filepath.Join(t.TempDir(), "state", "written-files")}}
	if o.forms != nil {
		opts.Forms = o.forms
	}
	if o.values != nil {
		opts.Values = o.values
	}
	h := &harness{t: t, m: New(opts), feed: feed, cs: cs, ss: ss, msgs: make(chan tea.Msg, 64), now: now, sent: sent}
	h.m.exec = func(c tea.ExecCommand, fn tea.ExecCallback) tea.Cmd {
		return func() tea.Msg { return fn(c.Run()) }
	}
	t.Cleanup(h.m.Close)
	w, hh := o.width, o.height
	if w == 0 {
		w, hh = 80, 24
	}
	h.update(tea.WindowSizeMsg{Width: w, Height: hh})
	h.run(h.m.Init())
	h.waitFor("the lists", func(string) bool { return h.m.loaded[tabTools] && h.m.loaded[tabPrompts] && h.m.loaded[tabResources] })
	return h
}

// run runs a command as bubbletea would: in a goroutine, its message back
// into Update.
func (h *harness) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() {
		msg := cmd()
		if msg != nil {
			h.msgs <- msg
		}
	}()
}

func (h *harness) update(msg tea.Msg) {
	if b, ok := msg.(tea.BatchMsg); ok {
		for _, c := range b {
			h.run(c)
		}
		return
	}
	_, cmd := h.m.Update(msg)
	h.run(cmd)
}

// waitFor handles messages until cond holds of the screen.
func (h *harness) waitFor(what string, cond func(screen string) bool) string {
	h.t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		s := h.screen()
		if cond(s) {
			return s
		}
		select {
		case msg := <-h.msgs:
			h.update(msg)
		case <-deadline:
			h.t.Fatalf("waiting for %s; the screen shows:\n%s", what, s)
		}
	}
}

// waitShow waits until the screen shows every one of want.
func (h *harness) waitShow(want ...string) string {
	h.t.Helper()
	return h.waitFor(fmt.Sprintf("%q", want), func(s string) bool {
		for _, w := range want {
			if !strings.Contains(s, w) {
				return false
			}
		}
		return true
	})
}

// settle handles what is pending for a moment.
func (h *harness) settle() {
	deadline := time.After(50 * time.Millisecond)
	for {
		select {
		case msg := <-h.msgs:
			h.update(msg)
		case <-deadline:
			return
		}
	}
}

func (h *harness) screen() string { return ansi.Strip(h.m.View().Content) }

// keys presses keys by name: "enter", "esc", "tab", "up", "ctrl+c", or a
// character.
func (h *harness) keys(names ...string) {
	for _, n := range names {
		h.update(keyMsg(n))
	}
}

// typ types text.
func (h *harness) typ(s string) {
	for _, r := range s {
		h.update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

func keyMsg(n string) tea.KeyPressMsg {
	special := map[string]rune{"enter": tea.KeyEnter, "esc": tea.KeyEscape, "tab": tea.KeyTab, "up": tea.KeyUp, "down": tea.KeyDown,
		"left": tea.KeyLeft, "right": tea.KeyRight, "backspace": tea.KeyBackspace, "pgdown": tea.KeyPgDown, "pgup": tea.KeyPgUp, "end": tea.KeyEnd, "home": tea.KeyHome, "space": tea.KeySpace}
	switch {
	case special[n] != 0:
		return tea.KeyPressMsg{Code: special[n]}
	case n == "shift+tab":
		return tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	case strings.HasPrefix(n, "ctrl+"):
		return tea.KeyPressMsg{Code: rune(n[5]), Mod: tea.ModCtrl}
	}
	r := []rune(n)[0]
	return tea.KeyPressMsg{Code: r, Text: n}
}

// The test server.

func textResult(format string, args ...any) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf(format, args...)}}}
}

func schemaOf(s string) json.RawMessage { return json.RawMessage(s) }

const secretSchema = `{"type":"object","properties":{"name":{"type":"string","title":"Name"},"token":{"type":"string","title":"API token"}},"required":["name"]}`

// testServer has a tool of each kind the session treats apart.
func testServer() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "test-server", Title: "Test Server", Version: "1.2.3"}, nil)
	srv.AddTool(&mcp.Tool{Name: "greet", Title: "Greeter", Description: "Say hello.",
		InputSchema: schemaOf(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`),
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var a struct{ Name string }
			_ = json.Unmarshal(req.Params.Arguments, &a)
			req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "info", Logger: "greet", Data: "greeting " + a.Name})
			return textResult("Hello, %s!", a.Name), nil
		})
	srv.AddTool(&mcp.Tool{Name: "wipe", Description: "Wipe everything.", InputSchema: schemaOf(`{"type":"object"}`),
		Annotations: &mcp.ToolAnnotations{DestructiveHint: ptr(true)}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return textResult("wiped"), nil
		})
	srv.AddTool(&mcp.Tool{Name: "wizard", Description: "Two rounds.", InputSchema: schemaOf(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			p := req.Params
			switch p.RequestState {
			case "":
				return &mcp.CallToolResult{RequestState: "state-one", InputRequests: mcp.InputRequestMap{
					"basics": &mcp.ElicitParams{Message: "Who are you?", RequestedSchema: schemaOf(secretSchema)},
				}}, nil
			case "state-one":
				return &mcp.CallToolResult{RequestState: "state-number-two", InputRequests: mcp.InputRequestMap{
					"details": &mcp.ElicitParams{Message: "Sure?", RequestedSchema: schemaOf(`{"type":"object","properties":{"ok":{"type":"boolean"}}}`)},
				}}, nil
			}
			r := p.InputResponses["details"].(*mcp.ElicitResult)
			return textResult("wizard done: %s", r.Action), nil
		})
	srv.AddTool(&mcp.Tool{Name: "linker", Description: "Make a session resource.", InputSchema: schemaOf(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			srv.AddResource(&mcp.Resource{URI: "mem://session/note", Name: "note", MIMEType: "text/plain"},
				func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
					return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "mem://session/note", Text: "only in this session"}}}, nil
				})
			return &mcp.CallToolResult{
				Content: []mcp.Content{
					&mcp.TextContent{Text: "made a note"},
					&mcp.ResourceLink{URI: "mem://session/note", Name: "note"},
					&mcp.ImageContent{MIMEType: "image/png", Data: []byte("\x89PNG fake")},
				},
				StructuredContent: map[string]any{"made": "note", "count": 1},
			}, nil
		})
	srv.AddTool(&mcp.Tool{Name: "slow", Description: "Takes its time.", InputSchema: schemaOf(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if tok := req.Params.GetProgressToken(); tok != nil {
				req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tok, Progress: 1, Total: 4, Message: "a quarter"})
			}
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(10 * time.Second):
				return textResult("slept"), nil
			}
		})
	srv.AddResource(&mcp.Resource{URI: "mem://static", Name: "static"}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "mem://static", Text: "always here"}}}, nil
	})
	srv.AddPrompt(&mcp.Prompt{Name: "notes", Description: "Release notes.", Arguments: []*mcp.PromptArgument{{Name: "version", Required: true}}},
		func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "Notes for " + req.Params.Arguments["version"]}}}}, nil
		})
	return srv
}

func ptr[T any](v T) *T { return &v }
