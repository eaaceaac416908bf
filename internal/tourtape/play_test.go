package tourtape

import (
	"bytes"
	"strings"
	"testing"
)

func TestWriteOutput(t *testing.T) {
	const header = `{"version": 2, "width": 80, "height": 24}` + "\n"
	var b bytes.Buffer
	err := WriteOutput(&b, strings.NewReader(header+
		`[0.1, "o", "one\r\n"]`+"\n"+
		`[0.2, "m", "create_repo · round 1 · basics: accept"]`+"\n"+
		`[0.3, "o", "\u001b[1mtwo\u001b[0m"]`+"\n"))
	if err != nil || b.String() != "one\r\n\x1b[1mtwo\x1b[0m" {
		t.Errorf("WriteOutput = %q, %v; want the output events only, in order", b.String(), err)
	}
	for _, tc := range []struct{ name, cast, want string }{
		{"a resize", header + `[0.1, "r", "100x30"]` + "\n", "resizes the terminal to 100x30"},
		{"time going back", header + `[0.5, "o", "a"]` + "\n" + `[0.1, "o", "b"]` + "\n", "comes after"},
		{"not a cast", "hello\n", "the header"},
	} {
		if err := WriteOutput(&b, strings.NewReader(tc.cast)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: WriteOutput = %v, want an error with %q", tc.name, err, tc.want)
		}
	}
}
