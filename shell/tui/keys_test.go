package tui

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/render"
)

// The keymap has one meaning per key in each pane; its footers fit.
func TestKeymapOneMeaningPerPane(t *testing.T) {
	for p := paneTools; p < numPanes; p++ {
		seen := map[string]string{}
		bs := panes[p].binds
		if p.global() {
			bs = append(append([]binding(nil), bs...), everywhere...)
		}
		for _, b := range bs {
			if len(b.keys) == 0 || b.show == "" || b.does == "" {
				t.Errorf("%s: binding %+v says too little", panes[p].name, b)
			}
			for _, k := range b.keys {
				if other, dup := seen[k]; dup {
					t.Errorf("%s: key %q means both %q and %q", panes[p].name, k, other, b.does)
				}
				seen[k] = b.does
			}
		}
		if f := footerOf(p, 80, "! answer"); ansi.StringWidth(f) > 80 || !strings.Contains(f, "! answer") {
			t.Errorf("%s: footer at 80 columns is %d cells: %q", panes[p].name, ansi.StringWidth(f), f)
		}
	}
	help := strings.Join(helpLines(78, func(s ...string) string { return strings.Join(s, "") }), "\n")
	for p := paneTools; p < numPanes; p++ {
		if !strings.Contains(help, panes[p].name) {
			t.Errorf("the help has no section %q", panes[p].name)
		}
	}
}

// keysServer has a tool that asks when told to (a call left running asks
// while the person is elsewhere), tools with no arguments, and look-alike
// long names.
type keysServer struct {
	srv     *mcp.Server
	release chan struct{}
}

func newKeysServer() *keysServer {
	k := &keysServer{srv: mcp.NewServer(&mcp.Implementation{Name: "keys-server", Version: "1"}, nil), release: make(chan struct{}, 4)}
	k.srv.AddTool(&mcp.Tool{Name: "later", Description: "Asks when released.", InputSchema: schemaOf(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if req.Params.InputResponses != nil {
				r := req.Params.InputResponses["approve"].(*mcp.ElicitResult)
				return textResult("later: %s", r.Action), nil
			}
			select {
			case <-k.release:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{
				"approve": &mcp.ElicitParams{Message: "Publish release 3.0?", RequestedSchema: schemaOf(`{"type":"object","properties":{}}`)},
			}}, nil
		})
	k.srv.AddTool(&mcp.Tool{Name: "toggle_beta", Description: "Flip a flag.", InputSchema: schemaOf(`{"type":"object"}`),
		Annotations: &mcp.ToolAnnotations{DestructiveHint: ptr(false)}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return textResult("flipped"), nil
		})
	long := strings.Repeat("The details go on. ", 120) + "THE END."
	k.srv.AddTool(&mcp.Tool{Name: "trigger-elicitation-request-with-form", Description: "Form. " + long, InputSchema: schemaOf(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return textResult("form"), nil
		})
	k.srv.AddTool(&mcp.Tool{Name: "trigger-elicitation-request-with-url", Description: "URL.", InputSchema: schemaOf(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return textResult("url"), nil
		})
	return k
}

// asked counts the rounds answered, and answers accept.
type asked struct{ n atomic.Int32 }

func (a *asked) answer(client.Round) map[string]*mcp.ElicitResult {
	a.n.Add(1)
	return map[string]*mcp.ElicitResult{"approve": {Action: "accept", Content: map[string]any{}}}
}

// An ask from a call not on screen waits, marked, while the keys typed go
// to the list; ! answers it.
func TestAskFromABackgroundCallWaits(t *testing.T) {
	k := newKeysServer()
	var a asked
	h := newHarness(t, k.srv, harnessOptions{answer: a.answer})
	h.keys("enter", "y") // later (the first tool): no arguments
	h.waitShow("#1 later", "▶ running")
	h.keys("esc") // it keeps running
	h.waitShow("▸ later")
	k.release <- struct{}{}
	s := h.waitShow("! 1 ask", "#1 later · just now · asks: Publish release 3.0?", "! answer ·")
	if a.n.Load() != 0 {
		t.Fatalf("the ask opened by itself:\n%s", s)
	}
	// Keys typed now are the list's: they move, they do not answer.
	h.keys("down", "down", "up")
	h.waitShow("▸ toggle_beta")
	h.keys("5")
	s = h.waitShow("! #1 later", "ask waits")
	h.settle()
	if a.n.Load() != 0 {
		t.Fatalf("keys meant for the lists answered the ask:\n%s", s)
	}
	h.keys("!")
	h.waitShow("later: accept", "✓ complete")
	if a.n.Load() != 1 {
		t.Errorf("! answered %d rounds, want 1", a.n.Load())
	}
	if s := h.screen(); strings.Contains(s, "ask waits") || strings.Contains(s, "! 1 ask") {
		t.Errorf("the mark stayed after the answer:\n%s", s)
	}
}

// Going to the call (History, enter) opens the ask it waits on; with two
// waiting, ! lists them with their calls and ages.
func TestAskOpensFromItsCall(t *testing.T) {
	k := newKeysServer()
	var a asked
	h := newHarness(t, k.srv, harnessOptions{answer: a.answer})
	h.keys("enter", "y")
	h.waitShow("#1 later")
	h.keys("esc", "enter", "y")
	h.waitShow("#2 later")
	h.keys("esc")
	k.release <- struct{}{}
	k.release <- struct{}{}
	h.waitShow("! 2 asks", "2 asks wait, ! lists them · #")
	h.keys("!")
	s := h.waitShow("2 asks wait for an answer", "#1 later · ", "#2 later · ", "asks: Publish release 3.0?")
	if a.n.Load() != 0 {
		t.Fatalf("the list answered an ask:\n%s", s)
	}
	h.keys("esc", "5", "down", "enter") // History, newest first: #1
	h.waitShow("#1 later", "later: accept")
	if a.n.Load() != 1 {
		t.Fatalf("opening #1 answered %d rounds, want 1", a.n.Load())
	}
	h.waitShow("! 1 ask", "#2 later · ")
}

// A call cancelled while its ask waits takes the ask with it.
func TestCancelledCallTakesItsAsk(t *testing.T) {
	k := newKeysServer()
	var a asked
	h := newHarness(t, k.srv, harnessOptions{answer: a.answer})
	h.keys("enter", "y")
	h.waitShow("#1 later")
	h.keys("esc")
	k.release <- struct{}{}
	h.waitShow("! 1 ask")
	h.keys("ctrl+c") // the latest running call
	h.waitFor("the mark to go", func(s string) bool { return !strings.Contains(s, "! 1 ask") })
	if a.n.Load() != 0 {
		t.Errorf("a cancelled call's ask was answered")
	}
}

// Tab is the next tab everywhere, in a result with items too; n moves
// between items. A tool without arguments is never called by enter alone.
func TestTabIsTheNextTabEverywhere(t *testing.T) {
	h := newHarness(t, testServer(), harnessOptions{})
	h.keys("/")
	h.typ("linker")
	h.keys("enter", "enter")
	s := h.waitShow("Call linker? It takes no arguments.", "y yes")
	h.keys("enter", "enter")
	h.settle()
	if len(h.m.calls) != 0 {
		t.Fatalf("enter called a tool without arguments: %d calls\n%s", len(h.m.calls), s)
	}
	h.keys("y")
	h.waitShow("[link note] mem://session/note", "▸ enter reads it")
	h.keys("n")
	h.waitShow("▸ s saves it")
	h.keys("tab")
	s = h.waitShow("▸ notes", "Release notes.") // Prompts
	if h.m.viewing != nil || h.m.tab != tabPrompts {
		t.Errorf("tab in a result with items went to tab %d, viewing %v; want Prompts", h.m.tab, h.m.viewing)
	}
	h.keys("shift+tab", "5", "enter")
	h.waitShow("#1 linker", "made a note")
	h.keys("left") // back
	h.waitShow("▸✓ #1 linker", "enter open")
	h.keys("left", "right", "h", "l") // not tab keys: nothing moves
	if h.m.tab != tabHistory {
		t.Errorf("an arrow or h/l switched to tab %d", h.m.tab)
	}
	if len(h.m.calls) != 1 {
		t.Errorf("%d calls went out, want 1", len(h.m.calls))
	}
}

// The confirm line ignores a y typed before it showed, as the forms do.
func TestConfirmLineIgnoresTypeAhead(t *testing.T) {
	h := newHarness(t, newKeysServer().srv, harnessOptions{})
	var mu sync.Mutex
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	h.m.o.KeyGuard = 0 // the default
	h.m.guardClock = func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	h.keys("down", "enter")
	h.waitShow("Call toggle_beta? It takes no arguments.")
	h.keys("y")
	h.settle()
	if len(h.m.calls) != 0 {
		t.Fatal("a y typed with the question (before the guard) called the tool")
	}
	mu.Lock()
	now = now.Add(render.DefaultKeyGuard)
	mu.Unlock()
	h.keys("y")
	h.waitShow("flipped")
}

// d shows a tool's details in full, scrolled; / searches them; y copies
// the tool's JSON.
func TestDetailsFullScreen(t *testing.T) {
	h := newHarness(t, newKeysServer().srv, harnessOptions{})
	h.keys("/")
	h.typ("with-form")
	h.keys("enter")
	s := h.waitShow("▸ trigger-e", "│ trigger-elicitation-request-with-form")
	if strings.Contains(s, "THE END.") {
		t.Fatalf("the pane beside the list shows the end of a long description:\n%s", s)
	}
	h.keys("d")
	s = h.waitShow("trigger-elicitation-request-with-form", "Form. The details go on.", "of ")
	if strings.Contains(s, "THE END.") {
		t.Fatalf("the details do not need scrolling: test a longer description:\n%s", s)
	}
	h.keys("G")
	h.waitShow("THE END.")
	h.keys("g", "/")
	h.typ("the end")
	h.keys("enter")
	h.waitShow("/the end", "▸", "THE END.")
	_, cmd := h.m.Update(keyMsg("y"))
	if got := clipboard(t, cmd); !strings.Contains(got, `"name":"trigger-elicitation-request-with-form"`) {
		t.Errorf("y copied %q, want the tool's JSON", got)
	}
	h.waitShow("copied the tool's JSON")
	h.keys("esc")
	h.waitShow("/ filter")
}

// clipboard is what a command puts on the clipboard (tea.SetClipboard).
func clipboard(t *testing.T, cmd tea.Cmd) string {
	t.Helper()
	if cmd == nil {
		t.Fatal("no command: nothing was copied")
	}
	msg := cmd()
	if b, ok := msg.(tea.BatchMsg); ok {
		for _, c := range b {
			if c != nil {
				if s := fmt.Sprintf("%T", c()); strings.Contains(s, "setClipboardMsg") {
					return fmt.Sprint(c())
				}
			}
		}
	}
	if !strings.Contains(fmt.Sprintf("%T", msg), "setClipboardMsg") {
		t.Fatalf("the command sent %T, not a clipboard write", msg)
	}
	return fmt.Sprint(msg)
}

// The wire view: / finds a message, n and N go between matches, y copies
// the message's JSON as it went.
func TestWireSearchAndCopy(t *testing.T) {
	h := newHarness(t, testServer(), harnessOptions{forms: func(render.Arguments) (map[string]any, error) {
		return map[string]any{"name": "Ada"}, nil
	}})
	h.keys("enter")
	h.waitShow("Hello, Ada!")
	h.keys("esc", "enter")
	h.waitShow("#2 greet")
	h.keys("4", "w")
	h.waitFor("both calls on the wire", func(s string) bool {
		return strings.Contains(s, "Showing the wire") && strings.Count(s, "tools/call greet") == 2
	})
	h.keys("/")
	h.typ("tools/call greet")
	h.waitShow("/tools/call greet█")
	h.keys("enter")
	s := h.waitShow("/tools/call greet")
	first := h.m.act.cursor
	if !strings.Contains(h.m.actRowText(first, nil), "tools/call greet") {
		t.Fatalf("the search went to row %d, %q:\n%s", first, h.m.actRowText(first, nil), s)
	}
	h.keys("N")
	second := h.m.act.cursor
	if second == first || !strings.Contains(h.m.actRowText(second, nil), "tools/call greet") {
		t.Fatalf("N went from row %d to %d (%q), want the other tools/call", first, second, h.m.actRowText(second, nil))
	}
	h.keys("n")
	if h.m.act.cursor != first {
		t.Errorf("n went to row %d, want %d", h.m.act.cursor, first)
	}
	_, cmd := h.m.Update(keyMsg("y"))
	got := clipboard(t, cmd)
	if want := string(h.m.act.wire[first].msg); got != want {
		t.Errorf("y copied %q, want the message as it went, %q", got, want)
	}
	h.keys("/")
	h.typ("no such thing")
	h.keys("enter")
	h.waitShow("no row holds")
}

// The filter finds by title and description too, fuzzily, best first.
func TestFilterFuzzyBestFirst(t *testing.T) {
	h := newHarness(t, newKeysServer().srv, harnessOptions{})
	h.keys("/")
	h.typ("tgb")
	s := h.waitShow("/tgb█", "1/4")
	lines := strings.Split(s, "\n")
	if !strings.Contains(lines[4], "▸ toggle_beta") {
		t.Errorf("tgb: toggle_beta (t…g…b in its name) is not first:\n%s", s)
	}
	h.keys("ctrl+u")
	h.typ("released")
	h.waitShow("/released█", "1/4", "▸ later") // "Asks when released." only in its description
}

func TestRank(t *testing.T) {
	items := []entry{
		newEntry("delete_project", "delete_project", "", "Delete a project for good.", ""),
		newEntry("create_repo", "create_repo", "Create a repository", "A two-round wizard.", ""),
		newEntry("connect_account", "connect_account", "", "Connect a third-party account in URL mode.", ""),
		newEntry("echo", "echo", "", "Say the text back.", ""),
		newEntry("x_report", "x_report", "Quarterly Report", "", ""),
	}
	names := func(idx []int) []string {
		var out []string
		for _, i := range idx {
			out = append(out, items[i].key)
		}
		return out
	}
	tests := []struct {
		filter string
		want   []string
	}{
		{"", []string{"delete_project", "create_repo", "connect_account", "echo", "x_report"}},
		{"crrep", []string{"create_repo"}},
		{"rep", []string{"create_repo", "x_report"}},       // as good (a word start): the server's order
		{"ca", []string{"connect_account", "create_repo"}}, // c…a at word starts first
		{"url mode", []string{"connect_account"}},          // words of a description
		{"qr", []string{"x_report"}},                       // the title: Quarterly Report
		{"text say", []string{"echo"}},                     // any order
		{"zzz", nil},
	}
	for _, tt := range tests {
		if got := names(rank(items, tt.filter, nil)); strings.Join(got, ",") != strings.Join(tt.want, ",") {
			t.Errorf("rank(%q) = %v, want %v", tt.filter, got, tt.want)
		}
	}
}

func TestCutApart(t *testing.T) {
	tests := []struct {
		names []string
		w     int
	}{
		{[]string{"trigger-elicitation-request-with-form", "trigger-elicitation-request-with-url", "echo"}, 24},
		{[]string{"get_weather_forecast_for_city_today_v2", "get_weather_forecast_for_city_today_v3"}, 20},
		{[]string{"aaaa_bbbb_cccc_dddd_one_xxxxxxxxxxxxxxxxxxxxxxxx", "aaaa_bbbb_cccc_dddd_two_xxxxxxxxxxxxxxxxxxxxxxxx"}, 20},
		{[]string{"same_prefix_long_name_alpha", "same_prefix_long_name_beta", "same_prefix_long_name_gamma"}, 16},
	}
	for _, tt := range tests {
		w := make([]int, len(tt.names))
		for i := range w {
			w[i] = tt.w
		}
		got := cutApart(tt.names, w)
		seen := map[string]bool{}
		for i, g := range got {
			if ansi.StringWidth(g) > tt.w {
				t.Errorf("cutApart(%q, %d)[%d] = %q, wider than %d", tt.names, tt.w, i, g, tt.w)
			}
			if seen[g] {
				t.Errorf("cutApart(%q, %d) = %q: two names look the same", tt.names, tt.w, got)
			}
			seen[g] = true
		}
	}
	if got := cutApart([]string{"short", "names_that_differ_at_start_a", "other_name_that_is_long"}, []int{10, 10, 10}); got[1] != "names_tha…" || got[0] != "short" {
		t.Errorf("names told apart by a plain cut are cut plainly: %q", got)
	}
}

// At 80 columns two names that differ at their end are told apart in the
// list.
func TestLookAlikeNamesToldApart(t *testing.T) {
	h := newHarness(t, newKeysServer().srv, harnessOptions{})
	s := h.waitShow("-with-form", "-with-url")
	var rows []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, "trigger") {
			rows = append(rows, strings.TrimSpace(strings.SplitN(l, "│", 2)[0]))
		}
	}
	if len(rows) != 2 || rows[0] == rows[1] {
		t.Errorf("the look-alike names show as %q:\n%s", rows, s)
	}
}

// Keys the session reads while a form has the terminal were typed for the
// form: they do nothing in the session.
func TestKeysWhileAFormIsUpAreDropped(t *testing.T) {
	k := newKeysServer()
	up, done := make(chan struct{}), make(chan struct{})
	h := newHarness(t, k.srv, harnessOptions{answer: func(client.Round) map[string]*mcp.ElicitResult {
		close(up)
		<-done
		return map[string]*mcp.ElicitResult{"approve": {Action: "accept", Content: map[string]any{}}}
	}})
	h.keys("enter", "y")
	h.waitShow("#1 later")
	k.release <- struct{}{}
	for opened := false; !opened; {
		select {
		case <-up:
			opened = true
		case msg := <-h.msgs:
			h.update(msg)
		case <-time.After(5 * time.Second):
			t.Fatalf("the ask of the call on screen did not open:\n%s", h.screen())
		}
	}
	h.keys("esc", "5", "q") // typed for the form: not back, not History, not quit
	close(done)
	s := h.waitShow("later: accept", "#1 later")
	if h.m.viewing == nil || h.m.tab != tabTools || h.m.quitting || h.m.armed {
		t.Errorf("keys read while the form was up acted: viewing %v, tab %d, quitting %v, armed %v\n%s", h.m.viewing, h.m.tab, h.m.quitting, h.m.armed, s)
	}
}
