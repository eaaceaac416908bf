package main

import (
	"bytes"
	"strings"
	"testing"
)

// The forms need a terminal on both ends and a person who did not ask for
// line prompts; everything else gets the line prompter.
func TestFormAnswererChoice(t *testing.T) {
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
			a := &app{deps: &Deps{
				Streams: Streams{In: strings.NewReader(""), Out: &bytes.Buffer{}, Err: errOut, InTTY: tt.inTTY, ErrTTY: tt.errTTY},
				Getenv:  func(k string) string { return map[string]string{"TERM": tt.term}[k] },
			}}
			a.flags.accessible = tt.accessible
			f := a.formAnswerer()
			if got := f != nil; got != tt.wantFullScreen {
				t.Fatalf("formAnswerer() = %T, want full screen %v", f, tt.wantFullScreen)
			}
			if f == nil {
				if a.deps.Err != errOut {
					t.Errorf("stderr was rewired though no form will show")
				}
				return
			}
			fa := f
			if fa.Out != errOut {
				t.Errorf("the forms draw on %T, want stderr itself", fa.Out)
			}
			// Other stderr writers now go through the gate: held while a
			// form is up, let out after.
			release := fa.Hold()
			a.deps.Err.Write([]byte("[server info] hello\n"))
			if errOut.Len() != 0 {
				t.Errorf("stderr got %q while a form was up", errOut.String())
			}
			release()
			if errOut.String() != "[server info] hello\n" {
				t.Errorf("after the form stderr has %q", errOut.String())
			}
		})
	}
}
