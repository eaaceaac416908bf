package urlmode

import (
	"bytes"
	"charm.land/lipgloss/v2"
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/urlmode/browsertest"
)

func key(s string) tea.KeyPressMsg {
	switch s {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "end":
		return tea.KeyPressMsg{Code: tea.KeyEnd}
	case "pgdown":
		return tea.KeyPressMsg{Code: tea.KeyPgDown}
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	case "ctrl+x":
		return tea.KeyPressMsg{Code: 'x', Mod: tea.ModCtrl}
	}
	r := []rune(s)[0]
	return tea.KeyPressMsg{Code: r, Text: s}
}

// press sends keys to m and returns the model and whether it quit.
func press(t *testing.T, m model, keys ...string) (model, bool) {
	t.Helper()
	quit := false
	for _, k := range keys {
		if got := key(k).String(); got != k {
			t.Fatalf("test key %q reads as %q", k, got)
		}
		next, cmd := m.Update(key(k))
		m = next.(model)
		if cmd != nil {
			if _, ok := cmd().(tea.QuitMsg); ok {
				quit = true
			}
		}
	}
	return m, quit
}

func view(m model) string { return ansi.Strip(m.View().Content) }

func size(m model, w, h int) model {
	next, _ := m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return next.(model)
}

func TestModelConsentScreen(t *testing.T) {
	m := size(newModel(urlRound(1, "https://login.example.com.evil.co.uk/oauth?x=1"), 0, Analyze("https://login.example.com.evil.co.uk/oauth?x=1")), 100, 40)
	v := view(m)
	for _, s := range []string{
		"weather asks", "while running tool connect_account", "Sign in to calendar",
		"https://login.example.com.evil.co.uk/oauth?x=1",
		"Host: login.example.com.evil.co.uk · site evil.co.uk",
		"o open in browser · s show the URL to copy · d decline · esc cancel",
	} {
		if !strings.Contains(v, s) {
			t.Errorf("view lacks %q:\n%s", s, v)
		}
	}
	if !m.View().AltScreen {
		t.Error("the consent screen is not on the alternate screen")
	}
	// The registrable domain is styled apart from the rest of the host.
	raw := m.View().Content
	if !strings.Contains(raw, domainStyle().Render("evil.co.uk")) || !strings.Contains(raw, hostStyle().Render("login.example.com.")) {
		t.Errorf("the domain is not highlighted:\n%q", raw)
	}
	for _, tt := range []struct {
		keys []string
		want choice
	}{
		{[]string{"o"}, chOpen},
		{[]string{"s"}, chShow},
		{[]string{"d"}, chDecline},
		{[]string{"esc"}, chCancel},
		{[]string{"ctrl+c", "esc"}, chCancel},
		{[]string{"ctrl+c", "ctrl+c"}, chQuit},
		// Ctrl+X declines anywhere in the forms; a URL ask in the same
		// round must not ignore it.
		{[]string{"ctrl+x"}, chDecline},
		{[]string{"x", "enter", "o"}, chOpen},
	} {
		got, quit := press(t, m, tt.keys...)
		if !quit || got.choice != tt.want {
			t.Errorf("keys %q: choice %v (quit %v), want %v", tt.keys, got.choice, quit, tt.want)
		}
	}
	// Enter alone is not a choice: nothing opens on a stray Enter.
	got, quit := press(t, m, "enter")
	if quit || got.choice != chNone || !strings.Contains(view(got), "Choose: o opens the link") {
		t.Errorf("Enter: quit %v choice %v\n%s", quit, got.choice, view(got))
	}
}

func TestModelLongURLMustBeReadWhole(t *testing.T) {
	long := "https://example.com/" + strings.Repeat("a", 4980)
	m := size(newModel(urlRound(1, long), 0, Analyze(long)), 80, 24)
	v := view(m)
	if !strings.Contains(v, "more lines below") {
		t.Errorf("a long URL does not say there is more:\n%s", v)
	}
	m2, quit := press(t, m, "o")
	if quit || !strings.Contains(view(m2), "Read the whole URL first") {
		t.Fatalf("o opened a URL not yet read to its end (quit %v):\n%s", quit, view(m2))
	}
	// Scroll to the end: every character of the URL has been on screen.
	var seen strings.Builder
	cur := m2
	for i := 0; i < 200 && !cur.seenAll; i++ {
		seen.WriteString(view(cur))
		cur, _ = press(t, cur, "pgdown")
	}
	seen.WriteString(view(cur))
	if !cur.seenAll {
		t.Fatal("paging down never reached the end")
	}
	if got := strings.Count(strings.ReplaceAll(seen.String(), "\n", ""), "a"); got < 4980 {
		t.Errorf("only %d of 4980 a's were ever on screen", got)
	}
	if !strings.Contains(view(cur), "The URL is very long") {
		t.Errorf("the long warning is not shown at the end:\n%s", view(cur))
	}
	if got, quit := press(t, cur, "o"); !quit || got.choice != chOpen {
		t.Errorf("after reading it all, o: choice %v quit %v", got.choice, quit)
	}
}

func TestModelRefusedScreen(t *testing.T) {
	for _, raw := range []string{"javascript:alert(1)", "data:text/html,<script>alert(1)</script>", "file:///etc/passwd", "https://example.com/\x1b[2Jx"} {
		m := size(newModel(urlRound(1, raw), 0, Analyze(raw)), 100, 40)
		v := view(m)
		if !strings.Contains(v, "✗ Refused:") || strings.Contains(v, "o open in browser") {
			t.Errorf("%q: refused screen:\n%s", raw, v)
		}
		if strings.Contains(m.View().Content, "\x1b[2J") {
			t.Errorf("%q: the escape sequence reached the screen", raw)
		}
		if got, quit := press(t, m, "o"); quit || got.choice != chNone {
			t.Errorf("%q: o did something on the refused screen: %v", raw, got.choice)
		}
		if got, quit := press(t, m, "enter"); !quit || got.choice != chDecline {
			t.Errorf("%q: enter gave %v, want decline", raw, got.choice)
		}
		if got, quit := press(t, m, "ctrl+x"); !quit || got.choice != chDecline {
			t.Errorf("%q: ctrl+x gave %v, want decline", raw, got.choice)
		}
	}
}

func TestModelWaitScreen(t *testing.T) {
	m := newModel(urlRound(1, connectURL), 0, Analyze(connectURL)).waiting("Opened in your browser.", true)
	v := view(m)
	flat := strings.Join(strings.Fields(v), " ")
	if !strings.Contains(flat, WaitHelp+" · o open again") || !strings.Contains(v, "Opened in your browser.") {
		t.Errorf("wait view:\n%s", v)
	}
	for _, line := range strings.Split(v, "\n") {
		if w := lipgloss.Width(line); w >= 80 {
			t.Errorf("wait view line is %d columns, wider than the 80-column terminal: %q", w, line)
		}
	}
	if m.View().AltScreen {
		t.Error("the wait line should be on the main screen")
	}
	for _, tt := range []struct {
		k    string
		want choice
	}{{"enter", chAccept}, {"d", chDecline}, {"esc", chCancel}, {"o", chOpen}, {"s", chShow}, {"ctrl+c ctrl+c", chQuit}, {"ctrl+x", chDecline}} {
		got, quit := press(t, m, strings.Fields(tt.k)...)
		if !quit || got.choice != tt.want {
			t.Errorf("wait screen %q: %v quit %v, want %v", tt.k, got.choice, quit, tt.want)
		}
	}
	got, _ := press(t, m, "enter")
	if v := view(got); !strings.Contains(v, "Continuing") || strings.Contains(v, WaitHelp) {
		t.Errorf("final wait view:\n%s", v)
	}
}

// syncBuffer is the terminal's screen: the program writes while the test reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// terminal runs c.TUI on a pipe: keys go in, the screen comes out.
type terminal struct {
	keys *os.File
	out  *syncBuffer
}

// newTerminal uses an OS pipe, not io.Pipe: like a terminal, a file lets
// bubbletea cancel its pending read when a screen ends, so that the next
// screen gets the next key.
func newTerminal(t *testing.T, c *Consent) *terminal {
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pr.Close(); pw.Close() })
	out := &syncBuffer{}
	c.Term = &render.Terminal{In: pr, Out: out, Options: []tea.ProgramOption{tea.WithWindowSize(100, 40), tea.WithoutSignalHandler()}, KeyGuard: render.NoKeyGuard}
	return &terminal{keys: pw, out: out}
}

// waitFor polls the screen for s.
func (tm *terminal) waitFor(t *testing.T, s string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(ansi.Strip(tm.out.String()), s) {
		if time.Now().After(deadline) {
			t.Fatalf("the screen never showed %q:\n%q", s, ansi.Strip(tm.out.String()))
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (tm *terminal) typ(t *testing.T, s string) {
	t.Helper()
	if _, err := tm.keys.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
}

func TestTUIOpensAfterLeavingTheAltScreen(t *testing.T) {
	var screenAtOpen string
	stub := browsertest.New(t, connectURL)
	c := &Consent{}
	tm := newTerminal(t, c)
	c.Open = func(ctx context.Context, u string) error {
		screenAtOpen = tm.out.String()
		return stub.Open(ctx, u)
	}
	type result struct {
		action string
		err    error
	}
	done := make(chan result, 1)
	go func() {
		res, err := c.TUI(context.Background(), urlRound(1, connectURL), 0)
		r := result{err: err}
		if res != nil {
			r.action = res.Action
		}
		done <- r
	}()
	tm.waitFor(t, "o open in browser")
	tm.typ(t, "o")
	tm.waitFor(t, WaitHelp)
	if !strings.Contains(screenAtOpen, ansi.ResetModeAltScreenSaveCursor) {
		t.Errorf("the browser opened before the program left the alternate screen:\n%q", screenAtOpen)
	}
	if strings.Count(screenAtOpen, ansi.SetModeAltScreenSaveCursor) != strings.Count(screenAtOpen, ansi.ResetModeAltScreenSaveCursor) {
		t.Errorf("the alternate screen was still on when the browser opened")
	}
	tm.typ(t, "\r")
	select {
	case r := <-done:
		if r.err != nil || r.action != client.Accept {
			t.Errorf("TUI = %q, %v; want accept", r.action, r.err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("TUI did not return after Enter")
	}
	tm.keys.Close()
	if !strings.Contains(tm.out.String(), "Opened "+connectURL+" in your browser.") {
		t.Errorf("no record of the opening on the main screen:\n%q", tm.out.String())
	}
}

func TestTUICtrlCThenEscCancels(t *testing.T) {
	stub := browsertest.New(t)
	c := &Consent{Open: stub.Open}
	tm := newTerminal(t, c)
	held := 0
	c.Term.Hold = func() func() { held++; return func() { held-- } }
	done := make(chan string, 1)
	go func() {
		res, err := c.TUI(context.Background(), urlRound(1, connectURL), 0)
		if err != nil {
			done <- err.Error()
			return
		}
		done <- res.Action
	}()
	tm.waitFor(t, "o open in browser")
	tm.typ(t, "\x03")
	tm.waitFor(t, "ctrl+c again leaves mcpcli")
	time.Sleep(50 * time.Millisecond)
	tm.typ(t, "\x1b")
	select {
	case got := <-done:
		if got != client.Cancel {
			t.Errorf("ctrl+c gave %q, want cancel (as in the forms)", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("TUI did not return after ctrl+c")
	}
	if held != 0 {
		t.Errorf("Hold not released: %d", held)
	}
}

// ctrl+c twice leaves mcpcli, as in the forms.
func TestTUICtrlCTwiceAbandons(t *testing.T) {
	c := &Consent{Open: browsertest.New(t).Open}
	tm := newTerminal(t, c)
	done := make(chan error, 1)
	go func() {
		_, err := c.TUI(context.Background(), urlRound(1, connectURL), 0)
		done <- err
	}()
	tm.waitFor(t, "o open in browser")
	tm.typ(t, "\x03")
	tm.waitFor(t, "ctrl+c again leaves mcpcli")
	tm.typ(t, "\x03")
	select {
	case err := <-done:
		if !errors.Is(err, client.ErrAbandoned) {
			t.Errorf("ctrl+c twice gave %v, want ErrAbandoned", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("TUI did not return after ctrl+c twice")
	}
}

func TestTUINotFinishedYet(t *testing.T) {
	stub := browsertest.New(t, connectURL)
	c := &Consent{Open: stub.Open}
	// Round 1, accepted through the line version; round 2 in the TUI.
	answerLines(t, c, urlRound(1, connectURL), "o\n\n")
	tm := newTerminal(t, c)
	done := make(chan string, 1)
	go func() {
		res, err := c.TUI(context.Background(), urlRound(2, connectURL), 0)
		if err != nil {
			done <- err.Error()
			return
		}
		done <- res.Action
	}()
	tm.waitFor(t, "Not finished yet: weather asks for this step again")
	tm.waitFor(t, WaitHelp)
	tm.typ(t, "d")
	select {
	case got := <-done:
		if got != client.Decline {
			t.Errorf("got %q, want decline", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("TUI did not return")
	}
	tm.keys.Close()
}

// A key typed before the consent screen was drawn (a d meant for
// something else) does not decline; one pressed after the guard does.
func TestTUIIgnoresTypeAhead(t *testing.T) {
	c := &Consent{Open: func(context.Context, string) error { t.Error("the browser opened"); return nil }}
	tm := newTerminal(t, c)
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	now := start
	c.Term.KeyGuard = 0 // the default
	c.Term.Clock = func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	dropped := make(chan string, 10)
	c.Term.OnDrop = func(k string) { dropped <- k }
	tm.typ(t, "d") // typed ahead: waiting in the pipe when the screen starts
	done := make(chan string, 1)
	go func() {
		res, err := c.TUI(context.Background(), urlRound(1, connectURL), 0)
		if err != nil {
			t.Errorf("TUI = %v", err)
		}
		if res == nil {
			done <- ""
			return
		}
		done <- res.Action
	}()
	tm.waitFor(t, "o open in browser")
	select {
	case k := <-dropped:
		if k != "d" {
			t.Errorf("the guard dropped %q, want the d typed ahead", k)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the d typed ahead was never dropped")
	}
	mu.Lock()
	now = now.Add(render.DefaultKeyGuard)
	mu.Unlock()
	tm.typ(t, "z")
	tm.waitFor(t, "Choose: o opens the link")
	tm.typ(t, "d")
	select {
	case action := <-done:
		if action != client.Decline {
			t.Errorf("TUI = %q, want decline", action)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("TUI did not return after d")
	}
}
