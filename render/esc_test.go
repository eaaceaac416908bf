//go:build unix

package render

import (
	"io"
	"os"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

func TestLoneEsc(t *testing.T) {
	for _, c := range []struct {
		name    string
		chunks  []string
		pending []bool // whether more is waiting after each chunk
		want    []string
	}{
		{"a lone Esc", []string{"\x1b"}, []bool{false}, []string{loneEsc}},
		{"an ESC with more waiting: the start of a sequence", []string{"\x1b", "[A"}, []bool{true, false}, []string{"\x1b", "[A"}},
		{"a whole sequence", []string{"\x1b[A"}, []bool{false}, []string{"\x1b[A"}},
		{"Alt+x", []string{"\x1bx"}, []bool{false}, []string{"\x1bx"}},
		{"Esc typed twice", []string{"\x1b", "\x1b"}, []bool{false, false}, []string{loneEsc, loneEsc}},
		{"an ESC inside a paste", []string{"\x1b[200~abc", "\x1b", "def\x1b[201~", "\x1b"}, []bool{false, false, false, false},
			[]string{"\x1b[200~abc", "\x1b", "def\x1b[201~", loneEsc}},
		{"a paste ended and another begun in one read", []string{"a\x1b[201~b\x1b[200~", "\x1b"}, []bool{false, false}, []string{"a\x1b[201~b\x1b[200~", "\x1b"}},
	} {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		i := 0
		f := &escFile{File: r, pending: func() bool { return c.pending[i] }}
		for ; i < len(c.chunks); i++ {
			w.Write([]byte(c.chunks[i]))
			buf := make([]byte, 4096)
			n, err := f.Read(buf)
			if err != nil || string(buf[:n]) != c.want[i] {
				t.Errorf("%s: read %d of %q = %q, %v; want %q", c.name, i, c.chunks[i], buf[:n], err, c.want[i])
			}
		}
		r.Close()
		w.Close()
	}
}

// keyModel records the first key it gets, and quits.
type keyModel struct{ got *string }

func (m keyModel) Init() tea.Cmd { return nil }
func (m keyModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		*m.got = k.String()
		return m, tea.Quit
	}
	return m, nil
}
func (m keyModel) View() tea.View { return tea.NewView("") }

func TestLoneEscIsEsc(t *testing.T) {
	var got string
	p := tea.NewProgram(keyModel{&got}, tea.WithInput(strings.NewReader(loneEsc)), tea.WithOutput(io.Discard), tea.WithoutSignalHandler())
	if _, err := p.Run(); err != nil {
		t.Fatal(err)
	}
	if got != "esc" {
		t.Errorf("the key %q reads as %q, want esc", loneEsc, got)
	}
}
