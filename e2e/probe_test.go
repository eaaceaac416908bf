//go:build unix

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Inside tmux, mcpcli asks tmux nothing when it starts (lipgloss would
// run `tmux info` at every start, to find the colours of stdout): a run
// that draws nothing makes no probe, and a form, drawn in colour, one.
// tmux on the program's PATH is a fake that notes each call.
func TestNoTerminalProbeUntilSomethingIsDrawn(t *testing.T) {
	bin := mcpcli(t)
	dir := t.TempDir()
	calls := filepath.Join(dir, "calls")
	fake := filepath.Join(dir, "bin", "tmux")
	if err := os.MkdirAll(filepath.Dir(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(fake, []byte("#!/bin/sh\necho \"$*\" >> "+shellQuote(calls)+"\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := []string{"PATH=" + shellQuote(filepath.Dir(fake)+":"+os.Getenv("PATH"))}
	probes := func() []string {
		b, _ := os.ReadFile(calls)
		return strings.Fields(strings.TrimSpace(strings.ReplaceAll(string(b), "\n", " ")))
	}

	for _, argv := range [][]string{{"--version"}, {"tools", "--", bin, "demo-server"}} {
		tm := start(t, env, "", append([]string{bin}, argv...)...)
		if s := tm.exited(); !strings.Contains(s, "[exit 0]") {
			t.Fatalf("mcpcli %s:\n%s", strings.Join(argv, " "), s)
		}
		if p := probes(); len(p) > 0 {
			t.Errorf("mcpcli %s, which draws nothing in colour, ran tmux %q", strings.Join(argv, " "), p)
		}
	}

	tm := start(t, env, "", bin, "call", "delete_project", "--", bin, "demo-server")
	tm.waitFor("Delete it for good? *")
	tm.keys("C-c")
	tm.waitFor("Quit? ctrl+c again leaves mcpcli")
	tm.keys("C-c")
	tm.exited()
	if p := probes(); len(p) > 1 || len(p) == 1 && p[0] != "info" {
		t.Errorf("a form drawn in colour ran tmux %q, want tmux info at most once", p)
	}
}
