//go:build linux

package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// demoServerOf is the demo server's own process among those that carry
// mark (its supervisor carries it too).
func demoServerOf(t *testing.T, mark string) int {
	t.Helper()
	for _, pid := range alive(marked(mark)) {
		if readComm(pid) == "mcpcli" {
			return pid
		}
	}
	t.Fatalf("no demo server process carries %s", mark)
	return 0
}

// The way back, as a person meets it: the server is killed while a call
// waits on its ask; the form goes, the header says disconnected and a line
// says why, whole, at 80 columns; R starts the server again, and the
// session goes on with its History, Activity and wire.
func TestSessionRestartAfterTheServerIsKilled(t *testing.T) {
	bin := mcpcli(t)
	mark := fmt.Sprintf("MCPCLI_E2E_MARK=%d", time.Now().UnixNano())
	trace := filepath.Join(t.TempDir(), "trace.jsonl")
	tm := start(t, nil, "", bin, "session", "--trace", trace, "--env", mark, "--", bin, "demo-server")
	tm.waitFor("mcpcli demo server 1.0.0", "Tools 10")

	tm.pick("echo")
	tm.waitFor("Arguments for tool echo", "text *")
	tm.text("before")
	tm.keys("Enter", "Enter")
	tm.waitFor("#1 echo", "text=before", "✓ complete")

	tm.keys("Escape")
	tm.pick("build_release")
	tm.waitFor("Arguments for tool build_release")
	tm.keys("Enter")
	tm.waitFor("[ Send ]")
	tm.keys("Enter")
	tm.waitFor("Publish now *")
	first := demoServerOf(t, mark)
	if err := syscall.Kill(first, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}

	// The ask is gone with its server, and the session says why.
	s := tm.waitFor("✗ disconnected", "R restart it (History, Activity and the wire are kept) · q quit")
	lines := strings.Split(tm.now(), "\n")
	if bar := strings.TrimRight(lines[0], " "); !strings.HasSuffix(bar, "· stdio · ✗ disconnected") {
		t.Errorf("the header does not end with the state, whole: %q", bar)
	}
	reason := strings.Join(strings.Fields(strings.Join(lines[3:8], " ")), " ")
	for _, want := range []string{"server (stdio: ", "was killed by SIGKILL", "#2 build_release was running, and failed"} {
		if !strings.Contains(reason, want) {
			t.Errorf("the reason above the body lacks %q; the screen:\n%s", want, s)
		}
	}
	if strings.Contains(s, "Publish now") {
		t.Errorf("the ask of the dead server is still on screen:\n%s", s)
	}
	tm.waitFor("✗ failed", "the connection ended while it")

	tm.keys("R")
	s = tm.waitFor("restarted: History, Activity and the wire are kept", "Tools 10", "History 2")
	if strings.Contains(s, "disconnected") {
		t.Errorf("after R the header still says disconnected:\n%s", s)
	}
	second := demoServerOf(t, mark)
	if second == first {
		t.Errorf("after R the server is the same process %d", first)
	}

	// History survives, and works on the new server.
	tm.keys("5")
	tm.waitFor("#1 echo text=before", "#2 build_release")
	tm.keys("Down", "r") // re-run #1 (newest first) on the new server
	tm.waitFor("#3 echo", "re-run of #1", "✓ complete")
	tm.keys("4")
	tm.waitFor("error   server (stdio: ", "restarting the server (R)", "restarted: connected to mcpcli demo server")

	// One trace, both servers: the wire is the session's, not the process's.
	b, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), `"method":"server/discover"`); n < 2 {
		t.Errorf("the trace has %d server/discover requests, want one per server (2)", n)
	}
	if n := strings.Count(string(b), `"arguments":{"text":"before"}`); n != 2 {
		t.Errorf("echo text=before went out %d times, want 2 (before and after R)", n)
	}
	tm.keys("q")
	tm.exited()
	if left := alive([]int{second}); len(left) > 0 {
		deadline := time.Now().Add(5 * time.Second)
		for len(alive([]int{second})) > 0 && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
		}
		if len(alive([]int{second})) > 0 {
			t.Errorf("the restarted server %d outlived the session", second)
		}
	}
}
