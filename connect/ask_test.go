package connect

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/mcpcli/mcpcli/render"
)

// The full-screen shell's forms are lent its terminal: they say they run
// in a session, leave no status line on stderr, and ask URL consent on
// that terminal.
func TestSessionForms(t *testing.T) {
	var errb bytes.Buffer
	p := Person{In: strings.NewReader(""), Console: render.NewConsole(&errb, render.ConsoleOptions{})}
	fa := p.SessionForms()
	if !fa.InSession || fa.Status != io.Discard || fa.Term == nil || fa.URL == nil {
		t.Errorf("SessionForms = %+v; want in session, status discarded, a terminal and URL consent", fa)
	}
}
