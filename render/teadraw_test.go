package render

import (
	"context"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// typedModel shows what has been typed into it.
type typedModel struct{ typed string }

func (m typedModel) Init() tea.Cmd { return nil }

func (m typedModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if msg.String() == "enter" {
			return m, tea.Quit
		}
		m.typed += msg.Text
	case tea.PasteMsg:
		m.typed += "[" + msg.Content + "]"
	}
	return m, nil
}

func (m typedModel) View() tea.View { return tea.NewView("typed:" + m.typed + ".") }

// With bubbletea's ticker slowed to an hour, a frame reaches the terminal
// only when it is brought forward: the first one, and each one drawn for
// a key or a paste. Without drawSoon (or when bubbletea's ticker field
// moves) the screen stays blank and this fails. (A frame not written
// keeps the ticker fast for a second, not soonSpin: on a loaded machine
// the tick that carries it may not be taken before the ticker is set
// again, which drops it, and the next tick must not be an hour away.)
func TestFramesForInputAreDrawnAtOnce(t *testing.T) {
	pr, pw := io.Pipe()
	out := &syncBuffer{}
	term := &Terminal{In: pr, Out: out, KeyGuard: NoKeyGuard, frame: time.Hour, spin: time.Second,
		Options: []tea.ProgramOption{tea.WithWindowSize(80, 24), tea.WithEnvironment([]string{"TERM=xterm-256color"})}}
	done := make(chan error, 1)
	go func() {
		_, err := term.Run(context.Background(), typedModel{})
		done <- err
	}()
	defer pw.Close()
	// waitOut waits for the terminal to be sent want, after the first
	// from bytes (bubbletea sends only what changed).
	waitOut := func(what string, from int, want string) {
		t.Helper()
		deadline := time.After(waitLimit)
		for s := out.String(); !strings.Contains(s[min(from, len(s)):], want); s = out.String() {
			select {
			case <-deadline:
				t.Fatalf("%s: the terminal never showed %q (a frame not brought forward waits an hour); it has:\n%q", what, want, out.String())
			case <-time.After(2 * time.Millisecond):
			}
		}
	}
	waitOut("the first frame", 0, "typed:.")
	for _, step := range []struct{ name, send, want string }{
		{"a key", "a", "a."},
		{"another key", "b", "b."},
		{"a paste", "\x1b[200~pasted\x1b[201~", "[pasted]."},
		{"a key after the paste", "c", "c."},
	} {
		from := len(out.String())
		if _, err := pw.Write([]byte(step.send)); err != nil {
			t.Fatal(err)
		}
		waitOut(step.name, from, step.want)
	}
	pw.Write([]byte("\r"))
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
	case <-time.After(waitLimit):
		t.Fatal("Run did not end after Enter")
	}
}

// bubbletea's frame ticker is a field named ticker, of type *time.Ticker:
// drawSoon reads it (teadraw.go).
func TestTeaTickerIsFound(t *testing.T) {
	f, ok := reflect.TypeFor[tea.Program]().FieldByName("ticker")
	if !ok || f.Type != reflect.TypeFor[*time.Ticker]() {
		t.Fatalf("tea.Program has no ticker *time.Ticker field (found %v): bubbletea changed how it draws; see render/teadraw.go", f.Type)
	}
	if teaTicker(tea.NewProgram(typedModel{})) != nil {
		t.Error("teaTicker of a program not yet started is not nil")
	}
}

// A frame brought forward sets the ticker back to its period once its
// bytes are written, or after spin when nothing is written (a change the
// terminal does not show): never left ticking at once. A write that
// started before the frame was brought forward is not the frame's.
func TestTickerGoesBackToItsPeriod(t *testing.T) {
	newSoon := func() (*drawSoon, *time.Ticker) {
		tk := time.NewTicker(time.Hour)
		d := &drawSoon{period: time.Hour, spin: 5 * time.Millisecond}
		d.once.Do(func() { d.t = tk })
		return d, tk
	}
	isDue := func(d *drawSoon) bool {
		d.mu.Lock()
		defer d.mu.Unlock()
		return d.due
	}
	// noTick fails if tk ticks: at its period of an hour it cannot.
	noTick := func(t *testing.T, tk *time.Ticker, what string) {
		t.Helper()
		select {
		case <-tk.C:
			t.Fatalf("%s: the ticker still ticks at once", what)
		case <-time.After(20 * time.Millisecond):
		}
	}

	t.Run("written", func(t *testing.T) {
		d, tk := newSoon()
		defer tk.Stop()
		out := outputFor(io.Discard, d)
		before := d.writing() // a write begun before the frame was brought forward
		d.now()
		select {
		case <-tk.C:
		case <-time.After(waitLimit):
			t.Fatal("now: the ticker did not tick at once")
		}
		d.wrote(before)
		if !isDue(d) {
			t.Fatal("a write begun before now() ended the bringing-forward")
		}
		out.Write([]byte("frame"))
		if isDue(d) {
			t.Fatal("the frame's write did not end the bringing-forward")
		}
		noTick(t, tk, "after the frame's write")
	})

	t.Run("nothing written", func(t *testing.T) {
		d, tk := newSoon()
		defer tk.Stop()
		d.now()
		if !isDue(d) {
			t.Fatal("now() brought nothing forward")
		}
		deadline := time.After(waitLimit)
		for isDue(d) {
			select {
			case <-deadline:
				t.Fatal("with nothing written, the bringing-forward never ended")
			case <-time.After(time.Millisecond):
			}
		}
		for len(tk.C) > 0 { // a tick taken before the period was set back
			<-tk.C
		}
		noTick(t, tk, "after spin with nothing written")
	})

	t.Run("program ended", func(t *testing.T) {
		d, tk := newSoon()
		defer tk.Stop()
		d.stop()
		d.now()
		noTick(t, tk, "now() after the program ended")
	})
}
