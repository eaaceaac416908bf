//go:build unix

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Keys typed ahead never answer a question the person has not seen: an
// ask from a call left running waits for them; a form, its review and the
// tour's next step ignore the keys typed before they showed. These tests
// run with the real key guard.

// realGuard turns the forms' key guard back on (start turns it off).
const realGuard = "MCPCLI_KEY_GUARD="

// guardWait is longer than the key guard: a person reading the screen
// before the next key. Waiting longer never hurts, so this cannot flake.
const guardWait = 600 * time.Millisecond

func (tm *term) read() { time.Sleep(guardWait) }

// sent counts the requests of method in a --trace file, and how many
// carried inputResponses.
func sent(t *testing.T, trace, method string) (n, answered int) {
	t.Helper()
	b, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, `"dir":"send"`) && strings.Contains(l, `"method":"`+method+`"`) {
			n++
			if strings.Contains(l, `"inputResponses"`) {
				answered++
			}
		}
	}
	return n, answered
}

// A task left running asks for approval while the person hammers Enter on
// the Tools list: the ask waits, marked; the Enters stay with the list. !
// opens it, and Enters typed as it opens do not answer it either.
func TestSessionTypeAheadNeverAnswersAnAsk(t *testing.T) {
	tm, trace := demoSession(t, realGuard)
	tm.pick("build_release")
	tm.waitFor("Arguments for tool build_release")
	tm.read()
	tm.keys("Enter")
	tm.waitFor("[ Send ]")
	tm.read()
	tm.keys("Enter")
	tm.waitFor("#1 build_release", "esc back")
	tm.keys("Escape") // the task keeps running
	tm.waitFor("▸ build_release")
	tm.keys("Escape") // the filter goes
	tm.keys("/")
	tm.text("toggle")
	tm.waitFor("/toggle", "▸ toggle_beta")
	tm.keys("Enter") // keep the filter
	// Enter on toggle_beta (it takes no arguments) asks y first: Enters
	// typed on and on while the ask comes do nothing.
	deadline := time.Now().Add(wait)
	for !strings.Contains(tm.now(), "! 1 ask") {
		if time.Now().After(deadline) {
			t.Fatalf("the ask never came:\n%s", tm.now())
		}
		tm.keys("Enter", "Enter", "Enter")
		time.Sleep(50 * time.Millisecond)
	}
	tm.keys("Enter", "Enter", "Enter")
	s := tm.waitFor("! 1 ask", "#1 build_release · ", "asks: Release 2.0 is built and tested.", "Call toggle_beta? It takes no arguments.")
	if strings.Contains(s, "Publish now") {
		t.Fatalf("the ask took the screen by itself:\n%s", s)
	}
	if _, answered := sent(t, trace, "tasks/update"); answered > 0 {
		t.Fatalf("the keys typed for the list answered the ask:\n%s", s)
	}
	tm.keys("Escape") // not toggle_beta
	tm.waitFor("! answer · ↑/↓ move")
	tm.keys("!", "Enter", "Enter", "Enter") // ! opens it; the Enters come before it shows
	tm.waitFor("Release 2.0 is built and tested. Publish it?", "Publish now", "field 1/2")
	tm.read()
	s = tm.now()
	if strings.Contains(s, "Review") || !strings.Contains(s, "field 1/2") {
		t.Fatalf("Enters typed as the ask opened moved it on:\n%s", s)
	}
	if n, _ := sent(t, trace, "tasks/update"); n > 0 {
		t.Fatalf("an answer went before the form was answered")
	}
	tm.keys("n") // publish: no
	tm.waitFor("field 2/2")
	tm.keys("Enter") // the channel, then the review
	tm.waitFor("Review: accept sends this", "[ Accept: send ]")
	tm.read()
	tm.keys("Enter")
	tm.waitFor("you chose not to", "round 1 · approve", "publish=false")
	if n, answered := sent(t, trace, "tasks/update"); n != 1 || answered != 1 {
		t.Errorf("tasks/update went %d times (%d with answers), want once", n, answered)
	}
}

// Enters typed with the last field's answer (before the review shows)
// never accept: the review takes only keys pressed on it.
func TestTUIReviewNeedsItsOwnKey(t *testing.T) {
	bin := mcpcli(t)
	trace := filepath.Join(t.TempDir(), "trace.jsonl")
	tm := start(t, []string{realGuard}, "", bin, "call", "delete_project", "project=zeus", "--trace", trace, "--", bin, "demo-server")
	tm.waitFor("Delete it for good? *", "field 1/1")
	tm.read()
	tm.keys("y", "Enter", "Enter", "Enter") // yes, and on to the review; then Enters it has not shown for
	tm.waitFor("Review: accept sends this", "[ Accept: send ]")
	tm.read()
	tm.keys("Right", "Enter") // Decline, pressed on the review
	s := tm.exited()
	if !strings.Contains(s, "→ decline sent to mcpcli demo server") || !strings.Contains(s, "Declined: deleting project zeus") {
		t.Errorf("after the review the screen shows:\n%s", s)
	}
	calls := retried(t, trace)
	if len(calls) != 1 || calls[0]["confirm_delete"] == nil || calls[0]["confirm_delete"].Action != "decline" {
		t.Errorf("retried calls: %+v; want one decline (an Enter typed ahead accepted?)", calls)
	}
}

// The tour: keys typed while a step is pending (its retry on its way, the
// next step starting) never land on the next step's form.
func TestTourTypeAheadNeverLandsOnTheNextStep(t *testing.T) {
	bin := mcpcli(t)
	trace := filepath.Join(t.TempDir(), "trace.jsonl")
	tm := start(t, []string{realGuard}, "", bin, "demo", "1", "2", "--trace", trace)
	tm.waitFor("Tour 1/2 · Confirm a destructive action", "Delete it for good? *")
	tm.read()
	tm.keys("y")
	tm.waitFor("[ Accept: send ]")
	tm.read()
	// Accept, then Enters and a Down meant for nothing: they come while
	// step 1 is answered and step 2 starts.
	tm.keys("Enter", "Enter", "Down", "Enter", "Enter")
	s := tm.waitFor("Tour 2/2 · Pick an account", "Which one should I use?")
	tm.read()
	s = tm.now()
	if strings.Contains(s, "Review") {
		t.Fatalf("keys typed while step 1 was pending reached step 2:\n%s", s)
	}
	tm.keys("C-x") // decline, on step 2 itself
	s = tm.exited()
	if !strings.Contains(s, "Declined: switching accounts") || !strings.Contains(s, "Done: 2 flows completed.") {
		t.Errorf("after the tour the screen shows:\n%s", s)
	}
	calls := retried(t, trace)
	if len(calls) != 2 || calls[0]["confirm_delete"] == nil || calls[0]["confirm_delete"].Action != "accept" ||
		calls[1]["account"] == nil || calls[1]["account"].Action != "decline" {
		t.Errorf("retried calls: %+v; want step 1 accepted, step 2 declined", calls)
	}
}

// Tabs switch fast, from a result too, and never call anything: tab is
// the next tab in every pane, and enter on a tool without arguments asks
// y first.
func TestSessionTabsSwitchFastAndCallNothing(t *testing.T) {
	tm, trace := demoSession(t, realGuard)
	tm.call("toggle_beta")
	tm.waitFor("Added beta_forecast", "#1 toggle_beta", "✓ complete")
	// From the result: round the five tabs, back to Tools, then Enters.
	tm.keys("Tab", "Tab", "Tab", "Tab", "Tab", "Enter", "Enter")
	s := tm.waitFor("Call toggle_beta? It takes no arguments.", "▸ toggle_beta")
	if n, _ := sent(t, trace, "tools/call"); n != 1 {
		t.Fatalf("tools/call went %d times, want once:\n%s", n, s)
	}
	tm.read()
	tm.keys("Escape")
	tm.waitFor("not called: nothing was sent")
	// Fast the other way, and to each tab by number.
	tm.keys("BTab", "BTab", "BTab") // History, Activity, Resources
	tm.waitFor("demo://clock", "u subscribe")
	tm.keys("2", "3", "5", "4", "1", "Tab")
	tm.waitFor("release_notes", "enter get")
	tm.keys("5")
	tm.waitFor("#1 toggle_beta", "enter open")
	if n, _ := sent(t, trace, "tools/call"); n != 1 {
		t.Errorf("tools/call went %d times, want once", n)
	}
}
