package request

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A name typed as mcpcli shows it (render.Name's markers) leads back to
// the real one; a real name, or the old sanitizer's way of showing one,
// leads nowhere.
func TestShownNameLeadsBack(t *testing.T) {
	names := []string{"evil\x1b[31mname", "evil\x1b[32mname", "twin\u200b", "twin\u200c", "plain"}
	for _, tc := range []struct {
		shown string
		want  []string
	}{
		{"evil<U+001B>[31mname", []string{"evil\x1b[31mname"}},
		{"evil[31mname", nil}, // as the old sanitizer showed it: not a marker
		{"plain", nil},        // a real name: nothing to resolve
		{"twin<U+200B>", []string{"twin\u200b"}},
		{"nothing", nil},
	} {
		if diff := cmp.Diff(tc.want, shown(tc.shown, names)); diff != "" {
			t.Errorf("shown(%q) (-want +got):\n%s", tc.shown, diff)
		}
	}
}
