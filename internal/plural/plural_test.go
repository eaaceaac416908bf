package plural

import "testing"

func TestPlural(t *testing.T) {
	for _, tc := range []struct {
		n            int
		s, of, count string
	}{
		{0, "s", "rounds", "0 rounds"},
		{1, "", "round", "1 round"},
		{2, "s", "rounds", "2 rounds"},
	} {
		if got := S(tc.n); got != tc.s {
			t.Errorf("S(%d) = %q, want %q", tc.n, got, tc.s)
		}
		if got := Of(tc.n, "round", "rounds"); got != tc.of {
			t.Errorf("Of(%d) = %q, want %q", tc.n, got, tc.of)
		}
		if got := Count(tc.n, "round", "rounds"); got != tc.count {
			t.Errorf("Count(%d) = %q, want %q", tc.n, got, tc.count)
		}
	}
}
