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

	"github.com/mcpcli/mcpcli/internal/supervise"
)

// mcpcli as make build installs it, with mcpcli-supervise beside it:
// every stdio server runs under that small supervisor, and nothing the
// server started outlives a mcpcli killed with SIGKILL, not even a child
// that left the server's session.
// startTree runs `mcpcli tools` with a server that never answers, with a
// child in its process group and one in a session of its own, and
// returns mcpcli, its stderr, the children's pids, the server's and its
// supervisor's.
func startTree(t *testing.T, mode string) (cmd *exec.Cmd, stderr *strings.Builder, kids []int, server, sup int) {
	t.Helper()
	bin := mcpcli(t)
	if _, err := os.Stat(filepath.Join(filepath.Dir(bin), "mcpcli-supervise")); err != nil {
		t.Fatalf("mcpcli-supervise is not beside %s: %v", bin, err)
	}
	pids := filepath.Join(t.TempDir(), "pids")
	script := fmt.Sprintf(`sleep 1000 & echo $! > %[1]s.tmp; setsid sleep 1001 & echo $! >> %[1]s.tmp; mv %[1]s.tmp %[1]s; exec sleep 1002`, pids)
	cmd = exec.Command(bin, "tools", "--", "sh", "-c", script)
	cmd.Env = append(os.Environ(), "MCPCLI_SUPERVISOR="+supervisorModes[mode])
	stderr = &strings.Builder{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	deadline := time.Now().Add(wait)
	for len(kids) < 2 {
		if time.Now().After(deadline) {
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
	server = parentOf(t, kids[0])
	sup = parentOf(t, server)
	if parentOf(t, sup) != cmd.Process.Pid {
		t.Errorf("the supervisor (pid %d) is not mcpcli's child", sup)
	}
	if comm := readComm(sup); comm != "mcpcli-supervis" { // comm is cut at 15 bytes
		t.Errorf("the server runs under %q (pid %d), want mcpcli-supervise", comm, sup)
	}
	// Made by clone, it runs in mcpcli's own binary; the program is the
	// one beside it.
	want := bin
	if mode == "program" {
		want = filepath.Join(filepath.Dir(bin), "mcpcli-supervise")
	}
	if exe, _ := os.Readlink(fmt.Sprintf("/proc/%d/exe", sup)); exe != want && (mode == "program" || supervise.CanSpawn()) {
		t.Errorf("the %s supervisor (pid %d) runs %s, want %s", mode, sup, exe, want)
	}
	return cmd, stderr, kids, server, sup
}

func waitDead(t *testing.T, what string, pids ...int) {
	t.Helper()
	deadline := time.Now().Add(wait)
	for _, pid := range pids {
		for !dead(pid) {
			if time.Now().After(deadline) {
				syscall.Kill(pid, syscall.SIGKILL)
				t.Fatalf("process %d outlived %s", pid, what)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// mcpcli as make build installs it, with mcpcli-supervise beside it:
// every stdio server runs under that small supervisor, and nothing the
// server started outlives a mcpcli killed with SIGKILL, not even a child
// that left the server's session.
func TestSmallSupervisorKillsTheTreeOnSIGKILL(t *testing.T) {
	for mode := range supervisorModes {
		t.Run(mode, func(t *testing.T) {
			cmd, _, kids, server, sup := startTree(t, mode)
			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			cmd.Wait()
			waitDead(t, "mcpcli killed with SIGKILL", append(kids, server, sup)...)
		})
	}
}

// supervisorModes are the two ways mcpcli makes a supervisor, and
// MCPCLI_SUPERVISOR's value for each: made by clone where the kernel lets
// it (Linux 5.9, amd64), and the mcpcli-supervise program.
var supervisorModes = map[string]string{"spawned": "", "program": "exec"}

// Should the supervisor itself be killed, the server goes with it, and so
// does what it started, even what left its session; mcpcli says it was
// the supervisor, not the server, that died.
func TestAKilledSupervisorTakesTheTreeAndIsNamed(t *testing.T) {
	for mode := range supervisorModes {
		t.Run(mode, func(t *testing.T) { killSupervisor(t, mode) })
	}
}

func killSupervisor(t *testing.T, mode string) {
	cmd, stderr, kids, server, sup := startTree(t, mode)
	if err := syscall.Kill(sup, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(wait):
		t.Fatalf("mcpcli did not end after its supervisor was killed; stderr:\n%s", stderr)
	}
	want := fmt.Sprintf("its supervisor, mcpcli-supervise (pid %d), was killed by SIGKILL", sup)
	if code := cmd.ProcessState.ExitCode(); code == 0 || !strings.Contains(stderr.String(), want) || strings.Contains(stderr.String(), "server (stdio: sh -c") && !strings.Contains(stderr.String(), "was stopped before answering") {
		t.Errorf("mcpcli exited %d with stderr:\n%s\nwant a failure that says %q", code, stderr, want)
	}
	waitDead(t, "its supervisor killed with SIGKILL", append(kids, server)...)
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
