package render

import "testing"

// A name is shown with a visible marker for every control and invisible
// character (never silently without them); request's tests show the name
// as shown leading back to the real one.
func TestNameMarksWhatCannotBeShown(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain_name", "plain_name"},
		{"evil\x1b[31mname", "evil<U+001B>[31mname"},
		{"ring\abell", "ring<U+0007>bell"},
		{"two\nlines\ttab\r", "two<U+000A>lines<U+0009>tab<U+000D>"},
		{"c1\u009bx", "c1<U+009B>x"},
		{"delete\u200b_project", "delete<U+200B>_project"},
		{"rtl\u202eabc", "rtl<U+202E>abc"},
		{"bad\xffutf8", "bad\uFFFDutf8"},
		{"naïve_café", "naïve_café"},
	} {
		if got := Name(tc.in); got != tc.want {
			t.Errorf("Name(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if got := Line(Name(tc.in)); got != Name(tc.in) {
			t.Errorf("Name(%q) = %q is not inert: Line changes it to %q", tc.in, Name(tc.in), got)
		}
	}
}
