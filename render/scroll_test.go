package render

import "testing"

// Every scrolling view moves by the same keys: a line, a page, the ends.
func TestScroll(t *testing.T) {
	for _, tc := range []struct {
		key string
		by  int
		ok  bool
	}{
		{"up", -1, true}, {"k", -1, true}, {"down", 1, true}, {"j", 1, true},
		{"pgup", -10, true}, {"b", -10, true}, {"pgdown", 10, true}, {"f", 10, true}, {"space", 10, true},
		{"home", -110, true}, {"g", -110, true}, {"end", 110, true}, {"G", 110, true},
		{"x", 0, false}, {"enter", 0, false},
	} {
		by, ok := Scroll(tc.key, 10, 100)
		if by != tc.by || ok != tc.ok {
			t.Errorf("Scroll(%q, 10 rows, 100) = %d, %v; want %d, %v", tc.key, by, ok, tc.by, tc.ok)
		}
	}
}
