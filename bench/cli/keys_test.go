//go:build linux

package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestWriteKeyTable(t *testing.T) {
	var b bytes.Buffer
	writeKeyTable(&b, []keyRow{
		{p: keyPath{id: "cat-type", name: "cat"}, ms: []float64{0.2, 0.1, 0.3}},
		{p: keyPath{id: "form-type", name: "form", floor: "cat-type", target: "≤ cat + 2 ms", limit: 2}, ms: []float64{1, 2, 1.5}, floorMed: 0.2},
		{p: keyPath{id: "list-move", name: "list", floor: "cat-type", target: "≤ cat + 2 ms", limit: 2}, ms: []float64{9, 8, 7}, floorMed: 0.2},
		{p: keyPath{id: "paste-key", name: "paste", target: "≤ one frame (8.3 ms)", limit: 1000.0 / 120}, ms: []float64{3, 4, 5}},
		{p: keyPath{id: "session-esc", name: "esc", target: "≤ cat + 2 ms"}, na: "n/a (failed: no tmux)"},
	})
	want := strings.Join([]string{
		"| keystroke | keys | median ms | p90 ms | vs `cat` (median) | target | verdict |",
		"|---|--:|--:|--:|--:|---|---|",
		"| cat | 3 | 0.20 | 0.28 | — | — | floor |",
		"| form | 3 | 1.50 | 1.90 | +1.30 ms | ≤ cat + 2 ms | PASS |",
		"| list | 3 | 8.00 | 8.80 | +7.80 ms | ≤ cat + 2 ms | over: +7.80 ms > +2 ms |",
		"| paste | 3 | 4.00 | 4.80 | — | ≤ one frame (8.3 ms) | PASS |",
		"| esc | — | n/a (failed: no tmux) | — | — | ≤ cat + 2 ms | n/a |",
		"",
	}, "\n")
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("writeKeyTable (-want +got):\n%s", diff)
	}
}

// What counts as a key's effect on the screen.
func TestKeyEffects(t *testing.T) {
	send, want := letters(30)
	if send != "-l e" || !want("x", "…bcde") || want("x", "…bcdX") || want("…bcde", "…bcde") {
		t.Errorf("letters(30) = %q; its check accepts the wrong screens", send)
	}
	send, want = alternate("Down", "Up")(1)
	if send != "Up" || !want("a", "b") || want("a", "a") {
		t.Errorf("alternate(Down, Up)(1) = %q, or its check is not a change", send)
	}
}
