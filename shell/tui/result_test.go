package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/google/go-cmp/cmp"
)

// The ASCII wrapper wraps as ansi.Wrap does, faster.
func TestWrapASCIIAsAnsiWrap(t *testing.T) {
	for _, tc := range []struct {
		line string
		w    int
	}{
		{"short", 10},
		{"the quick brown fox jumps over the lazy dog", 10},
		{"averyveryverylongwordthatmustbecut and then words", 8},
		{"two  spaces  between  words  here", 7},
		{strings.Repeat("lorem ipsum ", 20), 44},
		{"exactly ten", 11},
	} {
		var want []string
		for _, l := range strings.Split(ansi.Wrap(tc.line, tc.w, ""), "\n") {
			want = append(want, strings.TrimRight(l, " "))
		}
		var got []string
		for _, r := range wrapASCII(nil, tc.line, tc.w, 0) {
			got = append(got, r.text)
			if len(r.text) > tc.w {
				t.Errorf("wrapASCII(%q, %d) has a row of %d cells: %q", tc.line, tc.w, len(r.text), r.text)
			}
		}
		if strings.Join(got, "") != strings.Join(strings.Fields(strings.Join(want, " ")), "") && strings.ReplaceAll(strings.Join(got, ""), " ", "") != strings.ReplaceAll(tc.line, " ", "") {
			t.Errorf("wrapASCII(%q, %d) lost text: %q", tc.line, tc.w, got)
		}
		if len(got) > len(want)+1 {
			t.Errorf("wrapASCII(%q, %d) = %d rows, ansi.Wrap %d:\n%s", tc.line, tc.w, len(got), len(want), cmp.Diff(want, got))
		}
	}
}
