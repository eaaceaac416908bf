//go:build unix

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A project file above the working directory is trusted only at its own
// question, on the terminal: keys typed before the question was drawn do
// not answer it, no starts nothing, a yes is remembered and not asked
// again.
func TestTrustQuestionOnTheTerminal(t *testing.T) {
	bin := mcpcli(t)
	root := t.TempDir()
	proj := filepath.Join(root, "clone")
	sub := filepath.Join(proj, "src")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(proj, ".mcp.json")
	if err := os.WriteFile(file, []byte(`{"mcpServers": {"demo": {"command": "`+bin+`", "args": ["demo-server"], "env": {"WHO": "${HOME}"}}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	env := []string{"HOME=" + shellQuote(filepath.Join(root, "home")), "XDG_STATE_HOME=" + shellQuote(filepath.Join(root, "state")), "XDG_CONFIG_HOME=" + shellQuote(filepath.Join(root, "home", ".config"))}
	// held runs mcpcli tools -s demo in the clone once the file held
	// exists, so that keys can be typed before it starts.
	held := func() (*term, string) {
		gate := filepath.Join(t.TempDir(), "held")
		script := "cd " + shellQuote(sub) + " && while [ ! -e " + shellQuote(gate) + " ]; do sleep 0.02; done; exec " + shellQuote(bin) + " tools -s demo"
		return start(t, env, "", "sh", "-c", script), gate
	}
	release := func(gate string) {
		if err := os.WriteFile(gate, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	// y typed ahead, before mcpcli ran: dropped; the n typed at the
	// question answers it.
	tm, gate := held()
	tm.keys("y", "Enter")
	release(gate)
	s := tm.waitFor(`Trust this file and start "demo"? [y/N]`)
	for _, want := range []string{`server "demo" is defined in a project file you have not trusted:`, file, "• demo (stdio): " + bin + " demo-server", "env WHO=${HOME}", "It reads your environment variables HOME."} {
		if !strings.Contains(s, want) {
			t.Errorf("the question lacks %q:\n%s", want, s)
		}
	}
	tm.keys("n", "Enter")
	s = tm.waitFor("[exit 1]")
	if !strings.Contains(s, `server "demo" was not started: you did not trust`) || strings.Contains(s, "delete_project") {
		t.Errorf("after y typed ahead and n at the question:\n%s\nwant the n to decide, and nothing started", s)
	}
	if _, err := os.Stat(filepath.Join(root, "state", "mcpcli", "trusted-projects.json")); err == nil {
		t.Errorf("a no was remembered as trust")
	}

	// y at the question: the server starts.
	tm, gate = held()
	release(gate)
	tm.waitFor(`Trust this file and start "demo"? [y/N]`)
	tm.keys("y", "Enter")
	tm.waitFor("delete_project", "[exit 0]")

	// Remembered: no question.
	tm, gate = held()
	release(gate)
	s = tm.waitFor("[exit 0]")
	if strings.Contains(s, "Trust this file") || !strings.Contains(s, "delete_project") {
		t.Errorf("the second run, once trusted:\n%s\nwant the tools, without the question", s)
	}
}
