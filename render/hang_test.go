package render

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/google/go-cmp/cmp"
)

func TestHang(t *testing.T) {
	for _, tc := range []struct {
		name        string
		s           string
		width, hang int
		want        string
	}{
		{"fits", "[1/7] Confirm", 80, 6, "[1/7] Confirm"},
		{"not a terminal", strings.Repeat("word ", 30), 0, 6, strings.Repeat("word ", 30)},
		{"indent kept", "      The secret never passes through mcpcli: you finish in your browser, on a page the server serves on loopback.", 80, 0,
			"      The secret never passes through mcpcli: you finish in your browser, on a\n      page the server serves on loopback."},
		{"hanging", "→ tools/call create_repo again, new id: inputResponses {basics=accept}; requestState echoed (135 bytes)", 80, 2,
			"→ tools/call create_repo again, new id: inputResponses {basics=accept};\n  requestState echoed (135 bytes)"},
		{"each line alone", "[4/7] A two-round wizard\n      Two rounds; the server keeps its state in requestState (HMAC-protected, expiring, bound to the call), which mcpcli echoes unchanged.", 80, 0,
			"[4/7] A two-round wizard\n      Two rounds; the server keeps its state in requestState (HMAC-protected,\n      expiring, bound to the call), which mcpcli echoes unchanged."},
		{"a word longer than a line is cut", "see " + strings.Repeat("x", 50), 30, 2,
			"see\n  " + strings.Repeat("x", 28) + "\n  " + strings.Repeat("x", 22)},
		{"wide characters", strings.Repeat("日本語 ", 10), 20, 0, "日本語 日本語 日本語\n日本語 日本語 日本語\n日本語 日本語 日本語\n日本語"},
	} {
		got := Hang(tc.s, tc.width, tc.hang)
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s: Hang(%q, %d, %d) (-want +got):\n%s", tc.name, tc.s, tc.width, tc.hang, diff)
		}
		if tc.width >= 20 {
			for _, l := range strings.Split(got, "\n") {
				if w := ansi.StringWidth(l); w > tc.width {
					t.Errorf("%s: line %q is %d wide, over %d", tc.name, l, w, tc.width)
				}
			}
		}
	}
}
