package render

import (
	"context"
	"io"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/google/go-cmp/cmp"

	"github.com/mcpcli/mcpcli/client"
)

// fakeClock moves only when told.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func TestGuardDrop(t *testing.T) {
	const d = 300 * time.Millisecond
	type step struct {
		at    time.Duration // since the start
		drawn bool          // the screen is drawn at this moment
		arm   bool          // a new screen is up
		key   string
		drop  bool
	}
	tests := []struct {
		name  string
		d     time.Duration
		steps []step
	}{
		{"before the first frame", d, []step{{at: 0, key: "enter", drop: true}}},
		{"within the guard", d, []step{{at: 0, drawn: true}, {at: 100 * time.Millisecond, key: "enter", drop: true}, {at: 299 * time.Millisecond, key: "y", drop: true}}},
		{"after the guard", d, []step{{at: 0, drawn: true}, {at: 300 * time.Millisecond, key: "y"}}},
		{"the guard counts from the frame, not the start", d, []step{{at: 0, key: "a", drop: true}, {at: 500 * time.Millisecond, drawn: true}, {at: 700 * time.Millisecond, key: "b", drop: true}, {at: 800 * time.Millisecond, key: "c"}}},
		{"a key hammered from before keeps being dropped", d, []step{
			{at: 0, drawn: true}, {at: 200 * time.Millisecond, key: "enter", drop: true}, {at: 400 * time.Millisecond, key: "enter", drop: true},
			{at: 650 * time.Millisecond, key: "enter", drop: true}, {at: 960 * time.Millisecond, key: "enter"}}},
		{"another key after the guard is taken", d, []step{{at: 0, drawn: true}, {at: 250 * time.Millisecond, key: "enter", drop: true}, {at: 350 * time.Millisecond, key: "a"}}},
		{"a new screen arms it again", d, []step{{at: 0, drawn: true}, {at: time.Second, key: "a"}, {at: time.Second, arm: true}, {at: 1100 * time.Millisecond, key: "enter", drop: true}, {at: 1200 * time.Millisecond, drawn: true}, {at: 1400 * time.Millisecond, key: "x", drop: true}, {at: 1500 * time.Millisecond, key: "y"}}},
		{"no guard", 0, []step{{at: 0, key: "enter"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
			clk := &fakeClock{t: start}
			g := NewGuard(tt.d, clk.Now)
			for i, s := range tt.steps {
				clk.t = start.Add(s.at)
				if s.arm {
					g.Arm()
				}
				if s.drawn {
					g.Drawn()
				}
				if s.key == "" {
					continue
				}
				if got := g.Drop(s.key); got != s.drop {
					t.Errorf("step %d: Drop(%q) at %v = %v, want %v", i, s.key, s.at, got, s.drop)
				}
			}
		})
	}
}

// guardedTUI is a form on a Terminal whose guard runs on clk; drops
// hears each key it drops.
func guardedTUI(t *testing.T, r client.Round, clk *fakeClock) (*tui, drops) {
	d := make(drops, 100)
	return startTUI(t, r, func(a *FormAnswerer) {
		a.Term.KeyGuard = 0 // the default
		a.Term.Clock = clk.Now
		a.Term.OnDrop = func(k string) { d <- k }
	}), d
}

// drops are the keys a guard dropped, as it dropped them.
type drops chan string

// wait waits until n more keys have been dropped: the keys typed ahead
// have all been read, before the test moves the clock on.
func (d drops) wait(t *testing.T, n int) {
	t.Helper()
	for i := 0; i < n; i++ {
		select {
		case <-d:
		case <-time.After(waitLimit):
			t.Fatalf("the guard dropped %d keys, want %d", i, n)
		}
	}
}

// An Enter typed before a form with nothing to fill in (its review comes
// first) is drawn never accepts; one pressed on it, after the guard, does.
func TestTypeAheadNeverAccepts(t *testing.T) {
	clk := &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	u, dropped := guardedTUI(t, roundOf([3]string{"ok", "Publish release 3.0?", `{"type":"object","properties":{}}`}), clk)
	go u.keys.Write([]byte(kEnter + kEnter + kEnter)) // typed ahead: the pipe is read once the program runs
	u.WaitFor("Publish release 3.0?", "[ Accept: send ]")
	dropped.wait(t, 3)
	select {
	case <-u.done:
		t.Fatalf("keys typed before the review was drawn answered it: %+v", u.res)
	default:
	}
	clk.add(DefaultKeyGuard)
	u.Press(kEnter)
	if got := u.Result()["ok"]; got == nil || got.Action != client.Accept {
		t.Errorf("enter on the review after the guard = %+v, want accept", got)
	}
}

// Enter ends the last field and turns to the review: the Enters typed
// after it, before the review was seen, do not accept.
func TestEnterForTheFieldNeverAccepts(t *testing.T) {
	clk := &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	u, dropped := guardedTUI(t, roundOf([3]string{"who", "Your name?", `{"type":"object","properties":{"name":{"type":"string"}}}`}), clk)
	u.WaitFor("Your name?", "field 1/1")
	clk.add(DefaultKeyGuard)
	u.Type("ada")
	u.WaitFor("ada")
	u.Press(kEnter + kEnter + kEnter)
	u.WaitFor("Review: accept sends this", "[ Accept: send ]")
	dropped.wait(t, 2)
	select {
	case <-u.done:
		t.Fatalf("the Enters meant for the field accepted the review: %+v", u.res)
	default:
	}
	clk.add(DefaultKeyGuard)
	u.Press(kEnter)
	got := u.Result()["who"]
	if got == nil || got.Action != client.Accept || got.Content["name"] != "ada" {
		t.Errorf("answer = %+v, want accept with name ada", got)
	}
}

// The sampling box drops what was typed before it was drawn: a reply
// written for something else, a ctrl+x meant to leave it.
func TestSamplingIgnoresTypeAhead(t *testing.T) {
	clk := &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	pr, pw := io.Pipe()
	defer pw.Close()
	var mu sync.Mutex
	var screen string
	dropped := make(drops, 100)
	a := &FormAnswerer{Term: &Terminal{In: pr, Out: &syncBuffer{}, Options: []tea.ProgramOption{tea.WithWindowSize(80, 24), tea.WithEnvironment([]string{"TERM=xterm-256color"})},
		Clock: clk.Now, OnDrop: func(k string) { dropped <- k }}, Status: io.Discard}
	a.onView = func(s string) {
		mu.Lock()
		screen = ansi.Strip(s)
		mu.Unlock()
	}
	waitScreen := func(want string) string {
		t.Helper()
		deadline := time.Now().Add(waitLimit)
		for {
			mu.Lock()
			s := screen
			mu.Unlock()
			if strings.Contains(s, want) {
				return s
			}
			if time.Now().After(deadline) {
				t.Fatalf("the screen never showed %q; last:\n%s", want, s)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	done := make(chan *client.SamplingAnswer, 1)
	go func() {
		ans, err := a.Sample(context.Background(), samplingRound())
		if err != nil {
			t.Errorf("Sample = %v", err)
		}
		done <- ans
	}()
	go pw.Write([]byte("oops" + kCtrlX))
	waitScreen("Your reply, as the model")
	dropped.wait(t, 5)
	clk.add(DefaultKeyGuard)
	pw.Write([]byte("fine"))
	s := waitScreen("fine")
	if strings.Contains(s, "oops") {
		t.Errorf("keys typed before the box was drawn reached it:\n%s", s)
	}
	pw.Write([]byte(kCtrlS))
	select {
	case got := <-done:
		if diff := cmp.Diff(humanReply("fine"), got); diff != "" {
			t.Errorf("Sample (-want +got):\n%s", diff)
		}
	case <-time.After(waitLimit):
		t.Fatal("Sample did not end")
	}
}

// countingModel counts the frames it is asked for, and changes with every
// message it is given.
type countingModel struct{ views, msgs int }

func (c *countingModel) Init() tea.Cmd { return nil }
func (c *countingModel) Update(tea.Msg) (tea.Model, tea.Cmd) {
	c.msgs++
	return c, nil
}
func (c *countingModel) View() tea.View {
	c.views++
	return tea.NewView(strings.Repeat("x", c.msgs))
}

// The first frame waits for the terminal's size (or setupWait): a frame
// laid out before would never be shown. Then the messages no model reads
// (the color profile, the environment, bubbletea's own requests, all sent
// as a program starts) draw no frame: the last one stands. Any other
// message draws one.
func TestFramesDrawnForNothingAreNotDrawn(t *testing.T) {
	c := &countingModel{}
	w := &guarded{m: c, g: NewGuard(0, nil)}
	if got := w.View(); got.Content != "" || c.views != 0 {
		t.Fatalf("View() before the terminal said its size = %q after %d frames, want nothing and 0", got.Content, c.views)
	}
	w.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	if got := w.View().Content; got != "x" || c.views != 1 {
		t.Fatalf("View() once the size came = %q after %d frames, want \"x\" after 1", got, c.views)
	}
	asked := tea.RequestBackgroundColor() // bubbletea's own request, of a type of its own
	for _, msg := range []tea.Msg{tea.ColorProfileMsg{}, tea.EnvMsg(nil), asked, setupOver{}} {
		w.Update(msg)
		if got := w.View().Content; got != "x" || c.views != 1 || c.msgs != 1 {
			t.Errorf("after %T: View() = %q with %d frames drawn and %d messages given, want the last frame, 1 and 1", msg, got, c.views, c.msgs)
		}
	}
	for i, msg := range []tea.Msg{tea.BackgroundColorMsg{}, tea.KeyPressMsg{Code: 'a', Text: "a"}} {
		w.Update(msg)
		if got, want := w.View().Content, strings.Repeat("x", 2+i); got != want || c.views != 2+i {
			t.Errorf("after %T: View() = %q with %d frames drawn, want %q and %d", msg, got, c.views, want, 2+i)
		}
	}

	// No terminal to say its size: the frame comes at setupWait's end.
	c = &countingModel{}
	w = &guarded{m: c, g: NewGuard(0, nil)}
	w.Update(setupOver{})
	if got := w.View().Content; got != "" || c.views != 1 {
		t.Errorf("View() after setupWait = %q after %d frames, want \"\" after 1", got, c.views)
	}
}

func TestTeaPkgIsBubbleteas(t *testing.T) {
	if got := reflect.TypeOf(tea.KeyPressMsg{}).PkgPath(); got != teaPkg {
		t.Errorf("bubbletea's messages are in %q; teaPkg says %q", got, teaPkg)
	}
}
