package textsafe

import (
	"bytes"
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// FuzzEscapeJSON: escaped JSON is still JSON and means the same, carries
// no DEL, C1 control or invisible character raw, and escaping again
// changes nothing. The seeds are in testdata/fuzz/FuzzEscapeJSON.
func FuzzEscapeJSON(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) {
		in := append([]byte(nil), b...)
		out := EscapeJSON(b)
		if !bytes.Equal(b, in) {
			t.Fatalf("EscapeJSON changed its input %q to %q", in, b)
		}
		if again := EscapeJSON(out); !bytes.Equal(again, out) {
			t.Fatalf("EscapeJSON is not idempotent: %q → %q → %q", b, out, again)
		}
		if !utf8.Valid(b) || !json.Valid(b) {
			return
		}
		for i, r := range string(out) {
			if r == 0x7f || r >= 0x80 && r <= 0x9f || Invisible(r) {
				t.Fatalf("EscapeJSON(%q) = %q keeps %U raw at byte %d", b, out, r, i)
			}
		}
		if !json.Valid(out) {
			t.Fatalf("EscapeJSON(%q) = %q, not JSON", b, out)
		}
		// Numbers as written: valid JSON may hold one no float64 holds
		// (1 followed by 310 zeros), which is not EscapeJSON's to mend.
		var want, got any
		if decodeNumbers(b, &want) != nil || decodeNumbers(out, &got) != nil {
			t.Fatalf("EscapeJSON(%q) = %q: one of them does not decode", b, out)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("EscapeJSON(%q) = %q means something else (-before +after):\n%s", b, out, diff)
		}
	})
}

func decodeNumbers(b []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	return d.Decode(v)
}
