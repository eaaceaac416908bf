package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/request"
)

// The forms need a terminal on both ends and a person who did not ask for
// line prompts; everything else gets the line prompter.
func TestAnswererChoice(t *testing.T) {
	tests := []struct {
		name           string
		inTTY, errTTY  bool
		accessible     bool
		term           string
		wantFullScreen bool
	}{
		{"a terminal", true, true, false, "xterm-256color", true},
		{"--accessible", true, true, true, "xterm-256color", false},
		{"stdin piped", false, true, false, "xterm-256color", false},
		{"stderr redirected", true, false, false, "xterm-256color", false},
		{"a dumb terminal", true, true, false, "dumb", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			errOut := &bytes.Buffer{}
			f := &Factory{Deps: &Deps{
				Streams: Streams{In: strings.NewReader(""), Out: &bytes.Buffer{}, Err: errOut, InTTY: tt.inTTY, ErrTTY: tt.errTTY},
				Getenv:  func(k string) string { return map[string]string{"TERM": tt.term}[k] },
			}}
			f.Flags.Accessible = tt.accessible
			w, err := f.asking().OneShot(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			a := w.Answerer
			if rec, ok := a.(*request.Answering); ok {
				a = rec.Inner // what the person answers is kept
			}
			fa, full := a.(*render.FormAnswerer)
			if full != tt.wantFullScreen {
				t.Fatalf("Answerer() = %T, want full screen %v", a, tt.wantFullScreen)
			}
			if !full {
				if _, ok := a.(*render.Prompter); !ok {
					t.Errorf("Answerer() = %T, want the line prompter", a)
				}
				return
			}
			if fa.URL == nil {
				t.Errorf("the forms have no URL consent")
			}
			// While a form is up, the run's other stderr writers wait.
			release := fa.Term.Hold()
			f.Console().Printf("[server info] hello")
			if errOut.Len() != 0 {
				t.Errorf("stderr got %q while a form was up", errOut.String())
			}
			fa.Term.Out.Write([]byte("the form\n"))
			release()
			if errOut.String() != "the form\n[server info] hello\n" {
				t.Errorf("after the form stderr has %q", errOut.String())
			}
		})
	}
}
