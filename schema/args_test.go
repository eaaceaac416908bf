package schema

import (
	"strings"
	"testing"
)

// A number no JSON parser keeps is refused, not sent to become infinity
// or 0; what parsers keep goes as typed.
func TestParseNumberRefusesWhatParsersCannotKeep(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string // "" for accepted
	}{
		{"1e-400", "1e-400 is too small for a number a JSON parser can keep (it would become 0)"},
		{"-2.5E-999", "too small"},
		{"1e400", "1e400 is too large for a number a JSON parser can keep (it would become infinity)"},
		{"0", ""}, {"0.000", ""}, {"0e-400", ""}, {"1e-300", ""}, {"-12.5", ""},
		{"NaN", "the tool wants a number"}, {"abc", "the tool wants a number"},
	} {
		_, err := ParseNumber(tc.in)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("ParseNumber(%q) error = %v; want %q", tc.in, err, tc.want)
		}
	}
}
