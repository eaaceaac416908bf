package tui

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/request"
)

func TestFirstScreen(t *testing.T) {
	h := newHarness(t, testServer(), harnessOptions{})
	s := h.waitShow("Test Server 1.2.3", "Tools 5", "Prompts 1", "Resources 1")
	lines := strings.Split(s, "\n")
	if len(lines) != 24 {
		t.Errorf("the screen has %d lines, want 24:\n%s", len(lines), s)
	}
	for i, l := range lines {
		if w := len([]rune(l)); w > 80 {
			t.Errorf("line %d is %d cells wide, more than 80: %q", i+1, w, l)
		}
	}
	for _, want := range []string{"greet  Greeter", "▸ greet", "Say hello.", "read-only", "Arguments, in the server's order:", "name  string, required", "wipe", "/ filter"} {
		if !strings.Contains(s, want) {
			t.Errorf("the first screen lacks %q:\n%s", want, s)
		}
	}
}

func TestFilter(t *testing.T) {
	h := newHarness(t, testServer(), harnessOptions{})
	h.keys("/")
	h.typ("WI")
	s := h.waitShow("/WI█", "2/5")
	for _, want := range []string{"wipe", "wizard"} {
		if !strings.Contains(s, want) {
			t.Errorf("filter WI lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "greet") {
		t.Errorf("filter WI still shows greet:\n%s", s)
	}
	h.keys("esc")
	h.waitShow("greet", "slow")
}

// A tool call through its arguments form: the form's values are what is
// sent, and the result shows beside the timeline.
func TestCallThroughArgumentsForm(t *testing.T) {
	var asked render.Arguments
	h := newHarness(t, testServer(), harnessOptions{forms: func(a render.Arguments) (map[string]any, error) {
		asked = a
		return map[string]any{"name": "Ada"}, nil
	}})
	h.keys("enter") // greet
	s := h.waitShow("Hello, Ada!", "#1 greet", "name=Ada", "✓ complete · 0 rounds")
	if asked.Target != "greet" || asked.Form == nil || asked.Form.Field("name") == nil || !asked.Form.Field("name").Required {
		t.Errorf("the form asked %+v, want greet's required name", asked)
	}
	if !strings.Contains(s, "History 1") {
		t.Errorf("history does not count the call:\n%s", s)
	}
}

// Two rounds, both in the timeline: the asks, the actions, the values
// with the secret masked, the requestState sizes.
func TestTwoRoundsInTheTimeline(t *testing.T) {
	var rounds []client.Round
	h := newHarness(t, testServer(), harnessOptions{answer: func(r client.Round) map[string]*mcp.ElicitResult {
		rounds = append(rounds, r)
		if r.Number == 1 {
			return map[string]*mcp.ElicitResult{"basics": {Action: "accept", Content: map[string]any{"name": "Ada", "token": "hunter2"}}}
		}
		return map[string]*mcp.ElicitResult{"details": {Action: "decline"}}
	}})
	h.keys("end", "enter", "y") // wizard, the last tool: no arguments, so y calls it
	s := h.waitShow("wizard done: decline")
	for _, want := range []string{
		"round 1 · basics", "accept · 2 values", "name=Ada", "token=•••• (secret)", "state 9 B",
		"round 2 · details", "decline", "state 16 B", "✓ complete · 2 rounds",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("the timeline lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "hunter2") {
		t.Errorf("the secret is on screen:\n%s", s)
	}
	if len(rounds) != 2 || rounds[0].Call != 1 || rounds[1].Call != 1 {
		t.Errorf("rounds %+v, want two of call 1", rounds)
	}
}

// A destructive tool asks first; no says nothing was sent.
func TestDestructiveAsksFirst(t *testing.T) {
	h := newHarness(t, testServer(), harnessOptions{})
	h.keys("/")
	h.typ("wipe")
	h.keys("enter", "enter")
	h.waitShow("wipe is marked destructive", "y yes, call it")
	h.keys("n")
	h.waitShow("not called: nothing was sent")
	if len(h.m.calls) != 0 {
		t.Fatalf("a call went out after no: %+v", h.m.calls)
	}
	h.keys("enter", "y")
	h.waitShow("wiped", "#1 wipe")
}

// A result's resource link reads on the same connection (a resource the
// server made for this session), its image saves, its structuredContent
// unfolds; the list change it caused refreshes the Resources tab.
func TestResultItems(t *testing.T) {
	h := newHarness(t, testServer(), harnessOptions{})
	h.keys("/")
	h.typ("linker")
	h.keys("enter", "enter", "y")
	s := h.waitShow("made a note", "[link note] mem://session/note", "[image image/png 9 B]", "structuredContent ▸", "Resources 2")
	if !strings.Contains(s, "▸ [link note] mem://session/note") || !strings.Contains(s, "▸ enter reads it") {
		t.Errorf("the link does not have the focus:\n%s", s)
	}
	h.keys("n", "n", "enter")
	s = h.waitShow("structuredContent ▾", `"made": "note"`)
	h.keys("n", "enter") // back to the link
	h.waitShow("#2 read mem://session/note", "only in this session")
	h.keys("4")
	h.waitShow("the server says its resources list changed")
}

func TestCancelARunningCall(t *testing.T) {
	h := newHarness(t, testServer(), harnessOptions{})
	h.keys("/")
	h.typ("slow")
	h.keys("enter", "enter", "y")
	h.waitShow("▶ running", "a quarter", "ctrl+c cancels it", "25%")
	h.keys("ctrl+c")
	s := h.waitShow("■ cancelled")
	if strings.Contains(s, "press ctrl+c again") {
		t.Errorf("ctrl+c with a call running armed quitting:\n%s", s)
	}
	h.keys("4", "w")
	h.waitShow("→ notifications/cancelled")
}

// Ctrl+C at rest says how to quit; twice quits.
func TestCtrlCTwiceQuits(t *testing.T) {
	h := newHarness(t, testServer(), harnessOptions{})
	h.keys("ctrl+c")
	h.waitShow("press ctrl+c again (or q) to quit")
	if h.m.quitting {
		t.Fatal("one ctrl+c at rest quit")
	}
	h.keys("ctrl+c")
	if !h.m.quitting {
		t.Fatal("two ctrl+c at rest did not quit")
	}
}

func TestRerunAndEditFromHistory(t *testing.T) {
	names := []string{"Ada", "Grace"}
	var given []map[string]any
	h := newHarness(t, testServer(), harnessOptions{forms: func(a render.Arguments) (map[string]any, error) {
		given = append(given, a.Given)
		n := names[0]
		names = names[1:]
		return map[string]any{"name": n}, nil
	}})
	h.keys("enter")
	h.waitShow("Hello, Ada!")
	h.keys("5")
	h.waitShow("#1 greet name=Ada")
	h.keys("r")
	h.waitShow("#2 greet", "re-run of #1", "Hello, Ada!")
	h.keys("5", "e")
	h.waitShow("#3 greet", "Hello, Grace!")
	if len(given) != 2 || given[1]["name"] != "Ada" {
		t.Errorf("the edit form started from %v, want the arguments of #2 (name=Ada)", given)
	}
}

func TestLogLevelAndLogs(t *testing.T) {
	h := newHarness(t, testServer(), harnessOptions{forms: func(render.Arguments) (map[string]any, error) {
		return map[string]any{"name": "Ada"}, nil
	}})
	h.keys("L")
	h.waitShow("Server log level", "▸ debug")
	h.keys("down", "enter")
	h.waitShow("log level set to info", "log info")
	h.keys("1", "enter")
	h.waitShow("Hello, Ada!")
	h.keys("4")
	h.waitShow("info    [greet] greeting Ada")
}

// Server text cannot reach the terminal as escape sequences.
func TestHostileTextIsInert(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "evil\x1b]0;PWNED\x07", Version: "\x1b[31mRED"}, nil)
	srv.AddTool(&mcp.Tool{Name: "t", Title: "T\u202eitle", Description: "desc \x1b]8;;http://x\x07LINK\x1b]8;;\x07 \x9b31m",
		InputSchema: schemaOf(`{"type":"object","properties":{"a\u001b[2Jb":{"type":"string","description":"\u001bP+q\u001b\\"}}}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return textResult("out \x1b]52;c;UFdORUQ=\x07 \x1b[?1049l"), nil
		})
	h := newHarness(t, srv, harnessOptions{forms: func(render.Arguments) (map[string]any, error) { return map[string]any{}, nil }})
	h.keys("enter")
	h.waitShow("out")
	for _, frame := range []string{h.m.View().Content} {
		for _, bad := range []string{"\x1b]", "\x1b[31m", "\x1b[2J", "\x1bP", "\x9b", "\u202e", "\x07", "\x1b[?1049"} {
			if strings.Contains(frame, bad) {
				t.Errorf("a frame holds %q", bad)
			}
		}
	}
}

// A 2025-11-25 server asks with elicitation/create in the middle of the
// call: the ask is in the timeline too, told apart.
func TestLegacyAskInTheTimeline(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "old", Version: "0.9"}, &mcp.ServerOptions{SupportedProtocolVersions: []string{"2025-11-25"}})
	srv.AddTool(&mcp.Tool{Name: "legacy", InputSchema: schemaOf(`{"type":"object"}`)}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "name?", RequestedSchema: schemaOf(`{"type":"object","properties":{"name":{"type":"string"}}}`)})
		if err != nil {
			return nil, err
		}
		return textResult("got %s %v", res.Action, res.Content["name"]), nil
	})
	h := newHarness(t, srv, harnessOptions{answer: func(r client.Round) map[string]*mcp.ElicitResult {
		return map[string]*mcp.ElicitResult{"elicitation": {Action: "accept", Content: map[string]any{"name": "Ada"}}}
	}})
	h.waitShow("2025-11-25 (discover)")
	h.keys("enter", "y")
	h.waitShow("got accept Ada", "ask 1 · elicitation/create", "name=Ada", "✓ complete")
}

// The layout follows the terminal's size: nothing wider than it, the
// timeline beside the result when it fits, instead of it when not.
func TestResizeReflows(t *testing.T) {
	h := newHarness(t, testServer(), harnessOptions{})
	h.keys("/")
	h.typ("linker")
	h.keys("enter", "enter", "y")
	h.waitShow("made a note")
	for _, size := range [][2]int{{120, 40}, {60, 20}, {80, 24}, {40, 12}} {
		h.update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		h.settle()
		s := h.screen()
		lines := strings.Split(s, "\n")
		if len(lines) != size[1] {
			t.Errorf("at %dx%d the screen has %d lines", size[0], size[1], len(lines))
		}
		for i, l := range lines {
			if w := ansi.StringWidth(l); w > size[0] {
				t.Errorf("at %dx%d line %d is %d cells: %q", size[0], size[1], i+1, w, l)
			}
		}
		split := strings.Contains(s, "│ Result")
		if want := size[0] >= 70; split != want {
			t.Errorf("at %dx%d the timeline is beside the result: %v, want %v:\n%s", size[0], size[1], split, want, s)
		}
	}
	h.keys("t")
	h.waitShow("#1 linker", "✓ complete")
}

// s saves an image in the working directory, named as call --save names
// it, never over a file.
func TestSaveItem(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.WriteFile("content-1.png", []byte("there before"), 0o644); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, testServer(), harnessOptions{})
	h.keys("/")
	h.typ("linker")
	h.keys("enter", "enter", "y")
	h.waitShow("made a note")
	h.keys("n", "s")
	h.waitShow("saved 9 B to content-1-2.png")
	b, err := os.ReadFile("content-1-2.png")
	if err != nil || string(b) != "\x89PNG fake" {
		t.Errorf("the saved image holds %q, %v", b, err)
	}
	if b, _ := os.ReadFile("content-1.png"); string(b) != "there before" {
		t.Errorf("the file that was there was overwritten: %q", b)
	}
}

// s on a resource's blob saves it as read --save DIR names it: after the
// resource's URI, with the extension of its MIME type.
func TestSaveBlobNamedAsReadSave(t *testing.T) {
	t.Chdir(t.TempDir())
	srv := testServer()
	srv.AddResource(&mcp.Resource{URI: "mem://blob/5", Name: "blob-five", MIMEType: "text/plain"},
		func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "mem://blob/5", MIMEType: "text/plain", Blob: []byte("five")}}}, nil
		})
	h := newHarness(t, srv, harnessOptions{})
	h.keys("3")
	h.waitShow("blob-five")
	h.keys("/")
	h.typ("blob-five")
	h.keys("enter", "enter")
	h.waitShow("#1 read mem://blob/5", "s saves it")
	h.keys("s")
	h.waitShow("saved 4 B to 5.txt")
	if b, err := os.ReadFile("5.txt"); err != nil || string(b) != "five" {
		t.Errorf("5.txt holds %q, %v; want the blob", b, err)
	}
}

// The saved script: one one-shot command per request, each with the
// answers given as its answers file; what failed is left out, saying so.
func TestSavedScript(t *testing.T) {
	h := newHarness(t, testServer(), harnessOptions{
		answer: func(r client.Round) map[string]*mcp.ElicitResult {
			if r.Number == 1 {
				return map[string]*mcp.ElicitResult{"basics": {Action: "accept", Content: map[string]any{"name": "Ada's", "token": "hunter2"}}}
			}
			return map[string]*mcp.ElicitResult{"details": {Action: "accept", Content: map[string]any{"ok": true}}}
		},
		forms: func(render.Arguments) (map[string]any, error) { return map[string]any{"name": "O'Brien"}, nil },
	})
	h.keys("enter") // greet
	h.waitShow("Hello, O'Brien!")
	h.keys("esc", "end", "enter", "y") // wizard
	// Each round is recorded before the request goes on: its answers are
	// in the script as soon as the result is on screen.
	h.waitShow("wizard done: accept")
	h.keys("esc", "/")
	h.typ("slow")
	h.keys("enter", "enter", "y")
	h.waitShow("▶ running")
	h.keys("ctrl+c")
	h.waitShow("■ cancelled")
	var b strings.Builder
	n, secrets := request.WriteScript(&b, request.Replay{Program: "mcpcli", Server: []string{"--", "./my server"}}, h.m.server, h.m.saved(), time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC))
	got := b.String()
	if n != 2 || secrets != 1 {
		t.Errorf("WriteScript = %d requests, %d secrets; want 2 and 1 (the API token)", n, secrets)
	}
	for _, want := range []string{
		"#!/bin/sh\n# An mcpcli session with Test Server, saved 2026-12-01 10:00.\n",
		"# It runs the mcpcli that saved it; to run another, set MCPCLI=/path/to/mcpcli.\n[ -n \"${MCPCLI:-}\" ] || MCPCLI=mcpcli\n",
		"# #1 tools/call greet\n\"$MCPCLI\" call --args '{\"name\":\"O'\\''Brien\"}' -- greet -- './my server'\n",
		"# #2 tools/call wizard\n\"$MCPCLI\" call --answers - -- wizard -- './my server' <<'MCPCLI_ANSWERS'\n{\n" +
			"  \"basics\": {\"action\":\"accept\",\"content\":{\"name\":\"Ada's\",\"token\":\"hunter2\"}},\n" +
			"  \"details\": {\"action\":\"accept\",\"content\":{\"ok\":true}}\n}\nMCPCLI_ANSWERS\n",
		"# #3 tools/call slow: cancelled; left out\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the script lacks\n%s\nit is:\n%s", want, got)
		}
	}
}

// A server that hangs up is said at once: in the bar, in Activity.
func TestServerGone(t *testing.T) {
	h := newHarness(t, testServer(), harnessOptions{})
	h.ss.Close()
	s := h.waitShow("✗ disconnected", "closed the connection", "disconnected: q quits")
	if !strings.Contains(s, "Test Server") {
		t.Errorf("the bar lost the server:\n%s", s)
	}
	h.keys("4")
	h.waitShow("closed the connection")
}
