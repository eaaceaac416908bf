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
// moves) the screen stays blank and this fails.
func TestFramesForInputAreDrawnAtOnce(t *testing.T) {
	pr, pw := io.Pipe()
	out := &syncBuffer{}
	term := &Terminal{In: pr, Out: out, KeyGuard: NoKeyGuard, frame: time.Hour,
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
