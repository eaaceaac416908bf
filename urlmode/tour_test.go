package urlmode

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/render"
)

// runTUI runs c.TUI for one URL ask on an 80×24 pipe terminal and returns
// the terminal and the channel of its action.
func runTUI(t *testing.T, c *Consent, url string) (*terminal, chan string) {
	t.Helper()
	tm := newTerminal(t, c)
	c.Term.Options = []tea.ProgramOption{tea.WithWindowSize(80, 24), tea.WithoutSignalHandler()}
	done := make(chan string, 1)
	go func() {
		res, err := c.TUI(context.Background(), urlRound(1, url), 0)
		if err != nil {
			done <- err.Error()
			return
		}
		done <- res.Action
	}()
	return tm, done
}

func action(t *testing.T, done chan string) string {
	t.Helper()
	select {
	case a := <-done:
		return a
	case <-time.After(10 * time.Second):
		t.Fatal("TUI did not return")
	}
	return ""
}

// The tour's step header ("Tour 5/7 · …") heads the URL consent as it
// heads the forms.
func TestTUIBanner(t *testing.T) {
	c := &Consent{Open: func(context.Context, string) error { return nil }, Banner: func() string { return "Tour 5/7 · Connect an account (URL mode)" }}
	tm, done := runTUI(t, c, connectURL)
	tm.waitFor(t, "o open in browser")
	screen := ansi.Strip(tm.out.String())
	if !strings.Contains(screen, "Tour 5/7 · Connect an account (URL mode)") {
		t.Errorf("the consent screen has no tour header:\n%s", screen)
	}
	tm.typ(t, "d")
	if got := action(t, done); got != client.Decline {
		t.Errorf("d gave %q, want decline", got)
	}
}

// When no browser opens, the step says so once, with the URL to copy, and
// the wait line does not offer to show the URL that is already there.
func TestTUIFailedOpenSaysItOnce(t *testing.T) {
	c := &Consent{Open: func(context.Context, string) error { return errors.New("$BROWSER (false) failed: exit status 1") }}
	tm, done := runTUI(t, c, connectURL)
	tm.waitFor(t, "o open in browser")
	before := len(tm.out.String())
	tm.typ(t, "o")
	tm.waitFor(t, render.Line(WaitHelp))
	time.Sleep(50 * time.Millisecond) // the frame in full
	after := ansi.Strip(tm.out.String()[before:])
	flat := strings.Join(strings.Fields(after), " ")
	for _, s := range []string{"Could not open a browser ($BROWSER (false) failed: exit status 1).", "Copy this URL into your browser: " + connectURL, WaitHelp + " · o open in browser"} {
		if !strings.Contains(flat, s) {
			t.Errorf("after a failed open the screen lacks %q:\n%s", s, after)
		}
	}
	for s, most := range map[string]int{"copy": 1, "Not opened": 0, "show the URL": 0, connectURL: 1} {
		if n := strings.Count(strings.ToLower(flat), strings.ToLower(s)); n > most {
			t.Errorf("after a failed open the screen says %q %d times, want at most %d:\n%s", s, n, most, after)
		}
	}
	tm.typ(t, "\r")
	if got := action(t, done); got != client.Accept {
		t.Errorf("Enter gave %q, want accept", got)
	}
}

// "Opened URL in your browser." too long for the terminal puts the URL on
// a line of its own, whole, rather than let the terminal cut it.
func TestTUIOpenedLongURLKeptWhole(t *testing.T) {
	long := "http://127.0.0.1:33955/connect?id=6a8c6177a5df47984dfa923c&service=calendar"
	c := &Consent{Open: func(context.Context, string) error { return nil }}
	tm, done := runTUI(t, c, long)
	tm.waitFor(t, "o open in browser")
	tm.typ(t, "o")
	tm.waitFor(t, render.Line(WaitHelp))
	tm.typ(t, "\r")
	if got := action(t, done); got != client.Accept {
		t.Errorf("Enter gave %q, want accept", got)
	}
	out := ansi.Strip(tm.out.String())
	if !strings.Contains(out, "Opened in your browser:\n"+long+"\n") {
		t.Errorf("the opened URL is not whole on a line of its own:\n%q", out)
	}
}
