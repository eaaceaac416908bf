package render

import "testing"

// Invisible format characters are dropped, not only the bidi controls: a
// zero-width joiner makes the terminal and the form's renderer disagree on
// a line's width (seen in tmux: the form's borders and separators shift and
// the joiner reappears inside mcpcli's own text), and tag characters carry
// text nobody sees.
func TestSanitizeDropsInvisibleFormatCharacters(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"zero-width joiner", "a\u200db", "ab"},
		{"zero-width non-joiner", "a\u200cb", "ab"},
		{"soft hyphen", "a\u00adb", "ab"},
		{"invisible operators", "a\u2061\u2062\u2063\u2064b", "ab"},
		{"deprecated format controls", "a\u206a\u206fb", "ab"},
		{"mongolian vowel separator", "a\u180eb", "ab"},
		{"tag characters", "a\U000E0001\U000E0050\U000E0057\U000E004E\U000E007Fb", "ab"},
		{"hangul fillers", "a\u115f\u1160\u3164\uffa0b", "ab"},
		{"kept: letters, accents, emoji", "é😀日本", "é😀日本"},
	} {
		for _, f := range []func(string) string{Sanitize, Line} {
			if got := f(tc.in); got != tc.want {
				t.Errorf("%s: %q → %q, want %q", tc.name, tc.in, got, tc.want)
			}
		}
	}
}
