package shell

import (
	"bytes"
	"testing"

	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/request"
)

// A one-shot command says a request's notes, and the tools it did not
// explore, on its console, server text made safe.
func TestOnConsole(t *testing.T) {
	var errb bytes.Buffer
	con := render.NewConsole(&errb, render.ConsoleOptions{})
	Words{}.NoteOn(con)(&request.FilledNote{URI: "desk://notes/go"})
	Words{}.SkippedOn(con)("wiz\x1b[2Jard", "it asks nothing")
	if want := "mcpcli: reading desk://notes/go\nmcpcli: skipped wizard: it asks nothing\n"; errb.String() != want {
		t.Errorf("said %q, want %q", errb.String(), want)
	}
}
