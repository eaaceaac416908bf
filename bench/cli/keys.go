//go:build linux

package main

import (
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// A keystroke is timed from the moment the control client sends it
// (send-keys) to the moment tmux reads the output that put its effect on
// the screen: the %output notification after which a capture of the pane
// first shows the change. cat in the same tmux server is the floor: the
// terminal's own echo of a key, with no program in between.

// keyPath is one row of the keystroke table.
type keyPath struct {
	id, name string
	argv     []string // run in a tmux window
	ready    []string // on the screen once it can take keys
	setup    []string // send-keys arguments sent once, untimed, before the keys
	keys     func(i int) (send string, want func(before, after string) bool)
	// before, when set, is sent (untimed) before each key, and waited
	// for until the screen passes it: a paste before each key.
	before func(t *tmux, pane string, i int) error
	floor  string // the cat row this path is compared with
	target string // what the path is held to, in words
	limit  float64
}

// keyRow is the result of one keystroke path.
type keyRow struct {
	p        keyPath
	ms       []float64
	na       string
	floorMed float64
}

// changed is a key whose effect is any change of the screen.
func changed(before, after string) bool { return before != after }

// typed is a key that types s: the screen changes and shows s.
func typed(s string) func(before, after string) bool {
	return func(before, after string) bool { return before != after && strings.Contains(after, s) }
}

// letters types a, b, c, … and wants each on the screen with the ones
// before it (the last few, which fit on any line).
func letters(i int) (string, func(before, after string) bool) {
	const abc = "abcdefghijklmnopqrstuvwxyz"
	c := string(abc[i%len(abc)])
	tail := ""
	for j := max(0, i-3); j <= i; j++ {
		tail += string(abc[j%len(abc)])
	}
	return "-l " + c, typed(tail)
}

// alternate sends a, then b, then a … each wanted as a change.
func alternate(a, b string) func(int) (string, func(before, after string) bool) {
	return func(i int) (string, func(before, after string) bool) {
		if i%2 == 0 {
			return a, changed
		}
		return b, changed
	}
}

// keyPaths are the keystroke rows; server is bench/server, mcpcli the
// binary measured.
func keyPaths(mcpcli, server, paste string) []keyPath {
	stdio := func(c ...string) []string { return append(c, "--", server) }
	return []keyPath{
		{id: "cat-type", name: "`cat`: a letter (the terminal's echo)", argv: []string{"cat"}, keys: letters},
		{id: "cat-esc", name: "`cat`: Esc (echoed ^[)", argv: []string{"cat"}, keys: func(i int) (string, func(string, string) bool) {
			return "Escape", changed
		}},
		{id: "form-type", name: "a letter in a 200-field form", floor: "cat-type", target: "≤ cat + 2 ms", limit: 2,
			argv: stdio(mcpcli, "call", "survey"), ready: []string{"Fill in the survey", "Field 1"}, keys: letters},
		{id: "list-move", name: "↓ in a 10,000-tool list (session)", floor: "cat-type", target: "≤ cat + 2 ms", limit: 2,
			argv: append(stdio(mcpcli, "session"), "-tools", "10000"), ready: []string{"tool00001"}, keys: alternate("Down", "Up")},
		{id: "list-filter", name: "a letter in the filter of a 10,000-tool list (session)", floor: "cat-type", target: "≤ cat + 2 ms", limit: 2,
			argv: append(stdio(mcpcli, "session"), "-tools", "10000"), ready: []string{"tool00001"}, setup: []string{"/"},
			keys: func(i int) (string, func(string, string) bool) {
				// Filter, then clear: each key changes the list.
				if i%2 == 0 {
					return "-l 9", changed
				}
				return "BSpace", changed
			}},
		{id: "session-move", name: "↓ in the session's tool list", floor: "cat-type", target: "≤ cat + 2 ms", limit: 2,
			argv: stdio(mcpcli, "session"), ready: []string{"survey"}, keys: alternate("Down", "Up")},
		{id: "session-esc", name: "Esc closing the session's help", floor: "cat-esc", target: "≤ cat + 2 ms", limit: 2,
			argv: stdio(mcpcli, "session"), ready: []string{"survey"},
			before: func(t *tmux, pane string, i int) error {
				_, err := t.pressUntil(pane, "?", changed)
				return err
			},
			keys: func(i int) (string, func(string, string) bool) { return "Escape", changed }},
		{id: "paste-key", name: "Backspace, then Tab, after a 1 MB paste in a form field", target: "≤ one frame (8.3 ms)", limit: 1000.0 / 120,
			argv: stdio(mcpcli, "call", "survey"), ready: []string{"Fill in the survey", "Field 1"},
			before: func(t *tmux, pane string, i int) error {
				if i%2 == 1 {
					return nil // the Tab after the Backspace
				}
				if _, err := t.do("load-buffer -b big " + paste); err != nil {
					return err
				}
				_, err := t.pressUntilCmd(pane, "paste-buffer -p -b big -t "+pane, changed)
				return err
			},
			keys: alternate("BSpace", "Tab")},
	}
}

// writePaste writes the 1 MB the paste path pastes: text lines, as a
// person might paste a log.
func writePaste(dir string) (string, error) {
	p := filepath.Join(dir, "paste.txt")
	var b strings.Builder
	for b.Len() < 1<<20 {
		b.WriteString("the quick brown fox jumps over the lazy dog 0123456789 abcdefgh\n")
	}
	return p, os.WriteFile(p, []byte(b.String()[:1<<20]), 0o644)
}

// keysPerRun is how many keys are timed in one window; runs alternate
// between the paths and cat.
const keysPerRun = 20

// keyRows times each path's keys, n runs of keysPerRun each (the paste a
// run of its own per key: it is slow), the cat rows alternating with the
// others.
func (b *bench) keyRows(paths []keyPath, runs int, progress io.Writer) []keyRow {
	rows := make([]keyRow, len(paths))
	for i := range paths {
		rows[i].p = paths[i]
	}
	for r := range runs {
		fmt.Fprintf(progress, "keys: run %d of %d …", r+1, runs)
		for i := range rows {
			if rows[i].na != "" {
				continue
			}
			// cat goes before its paths in even runs, after in odd ones.
			j := i
			if r%2 == 1 {
				j = len(rows) - 1 - i
			}
			row := &rows[j]
			if row.na != "" {
				continue
			}
			per := keysPerRun
			if row.p.before != nil {
				per = keysPerRun / 4
			}
			ms, err := b.tmux.keys(row.p, per, fmt.Sprintf("k%d-%d", r, j))
			if err != nil {
				fmt.Fprintf(progress, "\n%s: %v\n", row.p.id, err)
				row.na = "n/a (failed: " + oneLine(firstLine(err.Error())) + ")"
				continue
			}
			row.ms = append(row.ms, ms...)
		}
		fmt.Fprintln(progress)
	}
	med := map[string]float64{}
	for _, r := range rows {
		if r.na == "" {
			med[r.p.id] = median(r.ms)
		}
	}
	for i := range rows {
		rows[i].floorMed = med[rows[i].p.floor]
	}
	return rows
}

// keys runs p in a fresh window and times n keys.
func (t *tmux) keys(p keyPath, n int, name string) ([]float64, error) {
	pane, err := t.open(name, p.argv)
	if err != nil {
		return nil, err
	}
	defer t.shut(name)
	if _, err := t.waitScreen(pane, p.ready, 20*time.Second); err != nil {
		return nil, err
	}
	for _, k := range p.setup {
		if _, err := t.pressUntil(pane, k, changed); err != nil {
			return nil, fmt.Errorf("setup key %s: %w", k, err)
		}
	}
	var out []float64
	for i := range n + 2 {
		if p.before != nil {
			if err := p.before(t, pane, i); err != nil {
				return nil, err
			}
		}
		if err := t.quiet(pane, 30*time.Millisecond); err != nil {
			return nil, err
		}
		// At a random moment of a frame: a program that draws on a
		// ticker had its last frame 30 ms ago, a whole number of frames
		// give or take, and a key sent now would always land at the
		// same point of its next one.
		time.Sleep(time.Duration(rand.Int64N(int64(10 * time.Millisecond))))
		send, want := p.keys(i)
		d, err := t.pressUntil(pane, send, want)
		if err != nil {
			return nil, fmt.Errorf("key %d (%s): %w", i, send, err)
		}
		if i >= 2 { // the first two warm the program up
			out = append(out, msOf(d))
		}
	}
	return out, nil
}

// open starts argv in a new window of the control client's session (so
// that its output is seen) and returns its pane.
func (t *tmux) open(name string, argv []string) (string, error) {
	words := []string{"new-window", "-d", "-t", "keep", "-n", name, "-P", "-F", "'#{pane_id}'"}
	for _, a := range argv {
		q, err := quote(a)
		if err != nil {
			return "", err
		}
		words = append(words, q)
	}
	out, err := t.do(strings.Join(words, " "))
	if err != nil {
		return "", err
	}
	if len(out) != 1 || !strings.HasPrefix(out[0], "%") {
		return "", fmt.Errorf("tmux new-window printed %q, want the pane's id", out)
	}
	return out[0], nil
}

func (t *tmux) shut(name string) {
	t.watch = ""
	t.do("kill-window -t keep:" + name)
}

func (t *tmux) capture(pane string) (string, time.Time, error) {
	lines, at, err := t.doAt("capture-pane -p -t " + pane)
	return strings.Join(lines, "\n"), at, err
}

// waitScreen polls the pane every 2 ms until it shows all of want.
func (t *tmux) waitScreen(pane string, want []string, limit time.Duration) (string, error) {
	start := time.Now()
	var screen string
	for time.Since(start) < limit {
		var err error
		if screen, _, err = t.capture(pane); err != nil {
			return "", err
		}
		if containsAll(screen, want) {
			return screen, nil
		}
		time.Sleep(2 * time.Millisecond)
	}
	return "", fmt.Errorf("%q not on the screen after %v; the screen:\n%s", want, limit, strings.TrimRight(screen, "\n"))
}

// quiet waits until the pane has written nothing for d (what an earlier
// key drew is all there).
func (t *tmux) quiet(pane string, d time.Duration) error {
	t.watch = pane
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		outs := t.outs
		if err := t.waitOutput(outs, d); err != nil {
			return nil // nothing for d
		}
	}
	return fmt.Errorf("pane %s never stopped writing", pane)
}

// pressUntil sends keys (send-keys arguments) to pane and returns the time
// from sending to reading the output after which the screen passes want.
func (t *tmux) pressUntil(pane, keys string, want func(before, after string) bool) (time.Duration, error) {
	return t.pressUntilCmd(pane, "send-keys -t "+pane+" "+keys, want)
}

func (t *tmux) pressUntilCmd(pane, command string, want func(before, after string) bool) (time.Duration, error) {
	before, _, err := t.capture(pane)
	if err != nil {
		return 0, err
	}
	t.watch = pane
	outs := t.outs
	start := time.Now()
	if _, err := t.do(command); err != nil {
		return 0, err
	}
	const limit = 10 * time.Second
	var screen string
	for time.Since(start) < limit {
		if err := t.waitOutput(outs, limit-time.Since(start)); err != nil {
			break
		}
		outs = t.outs
		var at time.Time
		if screen, at, err = t.capture(pane); err != nil {
			return 0, err
		}
		if want(before, screen) {
			return at.Sub(start), nil
		}
	}
	return 0, fmt.Errorf("%s: the screen did not change as wanted in %v; it shows:\n%s", command, limit, strings.TrimRight(screen, "\n"))
}

// writeKeyTable writes the keystroke rows as a Markdown table.
func writeKeyTable(w io.Writer, rows []keyRow) {
	fmt.Fprintln(w, "| keystroke | keys | median ms | p90 ms | vs `cat` (median) | target | verdict |")
	fmt.Fprintln(w, "|---|--:|--:|--:|--:|---|---|")
	for _, r := range rows {
		if r.na != "" {
			fmt.Fprintf(w, "| %s | — | %s | — | — | %s | n/a |\n", r.p.name, r.na, orDash(r.p.target))
			continue
		}
		m, p90 := median(r.ms), quantile(r.ms, 0.9)
		vs, verdict := "—", "floor"
		switch {
		case r.p.floor != "":
			d := m - r.floorMed
			vs = fmt.Sprintf("%+.2f ms", d)
			verdict = passOver(d <= r.p.limit, fmt.Sprintf("%+.2f ms > +%.0f ms", d, r.p.limit))
		case r.p.target != "":
			verdict = passOver(m <= r.p.limit, fmt.Sprintf("%.2f ms > %.1f ms", m, r.p.limit))
		}
		fmt.Fprintf(w, "| %s | %d | %.2f | %.2f | %s | %s | %s |\n", r.p.name, len(r.ms), m, p90, vs, orDash(r.p.target), verdict)
	}
}

func passOver(ok bool, over string) string {
	if ok {
		return "PASS"
	}
	return "over: " + over
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}
