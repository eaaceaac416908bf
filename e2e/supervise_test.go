//go:build linux

package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// mcpcli as make build installs it, with mcpcli-supervise beside it:
// every stdio server runs under that small supervisor, and nothing the
// server started outlives a mcpcli killed with SIGKILL, not even a child
// that left the server's session.
func TestSmallSupervisorKillsTheTreeOnSIGKILL(t *testing.T) {
	bin := mcpcli(t)
	if _, err := os.Stat(filepath.Join(filepath.Dir(bin), "mcpcli-supervise")); err != nil {
		t.Fatalf("mcpcli-supervise is not beside %s: %v", bin, err)
	}
	pids := filepath.Join(t.TempDir(), "pids")
	// A server that never answers, with a child in its group and one in a
	// session of its own.
	server := fmt.Sprintf(`sleep 1000 & echo $! > %[1]s.tmp; setsid sleep 1001 & echo $! >> %[1]s.tmp; mv %[1]s.tmp %[1]s; exec sleep 1002`, pids)
	cmd := exec.Command(bin, "tools", "--", "sh", "-c", server)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var kids []int
	deadline := time.Now().Add(wait)
	for len(kids) < 2 {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("the server never wrote its children's pids")
		}
		b, _ := os.ReadFile(pids)
		kids = kids[:0]
		for _, f := range strings.Fields(string(b)) {
			if n, err := strconv.Atoi(f); err == nil {
				kids = append(kids, n)
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	// The server (the shell, now sleep 1002, parent of the first child)
	// runs under the small supervisor, which mcpcli started.
	sup := parentOf(t, parentOf(t, kids[0]))
	if parentOf(t, sup) != cmd.Process.Pid {
		t.Errorf("the supervisor (pid %d) is not mcpcli's child", sup)
	}
	if comm := readComm(sup); comm != "mcpcli-supervis" { // comm is cut at 15 bytes
		t.Errorf("the server runs under %q (pid %d), want mcpcli-supervise", comm, sup)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	deadline = time.Now().Add(wait)
	for _, pid := range kids {
		for !dead(pid) {
			if time.Now().After(deadline) {
				syscall.Kill(pid, syscall.SIGKILL)
				t.Fatalf("process %d outlived mcpcli killed with SIGKILL", pid)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

func parentOf(t *testing.T, pid int) int {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	ppid, _ := strconv.Atoi(f[1])
	return ppid
}

func readComm(pid int) string {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
	return strings.TrimSpace(string(b))
}

// dead reports whether pid is gone, or a zombie nobody reaps.
func dead(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && i+2 < len(s) && s[i+2] == 'Z'
}
