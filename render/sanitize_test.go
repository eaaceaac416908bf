package render

import "testing"

// Characters that show as nothing are shown, not dropped: a name with a
// combining grapheme joiner in it must not read like one without
// (delete\u034f_project is not delete_project). Where they are part of an
// emoji, the emoji renders; a joiner is never drawn raw (a terminal and
// the form's renderer disagree on its width).
func TestSanitizeShowsWhatShowsAsNothing(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"combining grapheme joiner", "delete\u034f_project", "delete<U+034F>_project"},
		{"variation selector on a letter", "a\ufe0fb", "a<U+FE0F>b"},
		{"khmer inherent vowel", "a\u17b4b", "a<U+17B4>b"},
		{"mongolian free variation selector", "a\u180bb", "a<U+180B>b"},
		{"zero-width joiner", "a\u200db", "a<U+200D>b"},
		{"zero-width non-joiner", "a\u200cb", "a<U+200C>b"},
		{"soft hyphen", "a\u00adb", "a<U+00AD>b"},
		{"invisible operators", "a\u2061b", "a<U+2061>b"},
		{"bidi override", "a\u202eb", "a<U+202E>b"},
		{"tag characters", "a\U000E0001\U000E0050b", "a<U+E0001><U+E0050>b"},
		{"hangul fillers", "a\u115f\u3164b", "a<U+115F><U+3164>b"},
		{"kept: letters, accents, emoji", "é😀日本", "é😀日本"},
		{"kept: emoji presentation", "❤\ufe0f and 1\ufe0f\u20e3", "❤\ufe0f and 1\ufe0f\u20e3"},
		{"a family: the emoji, as its parts", "👨\u200d👩\u200d👧", "👨👩👧"},
		{"a subdivision flag: the flag", "🏴\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F", "🏴"},
	} {
		for _, f := range []func(string) string{Sanitize, Line} {
			if got := f(tc.in); got != tc.want {
				t.Errorf("%s: %q → %q, want %q", tc.name, tc.in, got, tc.want)
			}
		}
	}
}
