//go:build unix

package main

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

// waitExit waits for mcpcli to exit, failing the test if it has not after
// a generous while: what is tested is that it exits at all.
func waitExit(t *testing.T, cmd *exec.Cmd, errb fmt.Stringer) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatalf("mcpcli did not exit; stderr:\n%s", errb)
	}
	return cmd.ProcessState.ExitCode()
}

// serverPids waits for the helper server to write its pid and its child's.
func serverPids(t *testing.T, file string) (server, child int) {
	t.Helper()
	poll(t, "the server's pids", func() bool {
		b, _ := os.ReadFile(file)
		n, _ := fmt.Sscanf(string(b), "%d %d", &server, &child)
		return n == 2
	})
	return server, child
}

// parent is pid's parent pid, from /proc.
func parent(t *testing.T, pid int) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	ppid, _ := strconv.Atoi(f[1])
	return ppid
}

// A server that stops reading its stdin while mcpcli writes a 2 MB request
// to it: SIGTERM, or --timeout, still ends the run, and the server and its
// child are gone.
func TestARunWritingToADeafServerCanBeStopped(t *testing.T) {
	for _, tc := range []struct {
		name   string
		signal syscall.Signal // 0: none, --timeout ends it
		code   int
		stderr string
	}{
		{"SIGTERM", syscall.SIGTERM, 143, "cancelled"},
		{"SIGINT", syscall.SIGINT, 130, "cancelled"},
		{"timeout", 0, exitError, "within 2s (--timeout)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			pids, deaf, args := filepath.Join(dir, "pids"), filepath.Join(dir, "deaf"), filepath.Join(dir, "args.json")
			os.WriteFile(args, []byte(`{"x":"`+strings.Repeat("a", 2<<20)+`"}`), 0o600)
			flags := []string{"call", "big", "--args", "@" + args}
			if tc.signal == 0 {
				flags = append(flags, "--timeout", "2s")
			}
			flags = append(flags, "--env", "MCPCLI_TEST_HELPER=deaf", "--", self(t))
			cmd, out, errb := startMcpcli(t, []string{"MCPCLI_TEST_PIDS=" + pids, "MCPCLI_TEST_DEAF=" + deaf}, flags...)
			server, child := serverPids(t, pids)
			poll(t, "the server to stop reading", func() bool { _, err := os.Stat(deaf); return err == nil })
			if tc.signal != 0 {
				time.Sleep(200 * time.Millisecond) // mcpcli is blocked writing by now
				if err := syscall.Kill(cmd.Process.Pid, tc.signal); err != nil {
					t.Fatal(err)
				}
			}
			signalled := time.Now()
			code := waitExit(t, cmd, errb)
			t.Logf("exited %s after the signal (or --timeout)", time.Since(signalled).Round(time.Millisecond))
			if code != tc.code || !strings.Contains(errb.String(), tc.stderr) || out.Len() > 0 {
				t.Errorf("exit %d, want %d with %q on stderr; stdout %q, stderr:\n%s", code, tc.code, tc.stderr, out, errb)
			}
			poll(t, "the server and its child to be gone", func() bool { return gone(server) && gone(child) })
		})
	}
}

// Closing the terminal (SIGHUP) stops the run in order: exit 129, and a
// server started through a shell is gone with the shell and its child.
func TestSIGHUPStopsAServerStartedThroughAShell(t *testing.T) {
	dir := t.TempDir()
	pids, record, answers := filepath.Join(dir, "pids"), filepath.Join(dir, "wire.jsonl"), filepath.Join(dir, "answers.json")
	os.WriteFile(answers, []byte(`{"*": {"action": "decline"}}`), 0o600)
	cmd, _, errb := startMcpcli(t, []string{"MCPCLI_TEST_PIDS=" + pids, "MCPCLI_TEST_RECORD=" + record},
		"call", "wait", "--answers", answers, "--env", "MCPCLI_TEST_HELPER=server", "--", "sh", "-c", self(t)+"; true")
	server, child := serverPids(t, pids)
	shell := parent(t, server)
	poll(t, "the server to receive tools/call", func() bool { return requestID(t, record, "tools/call") != nil })
	if err := syscall.Kill(cmd.Process.Pid, syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	if code := waitExit(t, cmd, errb); code != 129 {
		t.Errorf("exit %d, want 129; stderr:\n%s", code, errb)
	}
	if got := string(notification(t, record, "notifications/cancelled")["reason"]); got != `"mcpcli's terminal was closed"` {
		t.Errorf("notifications/cancelled gives the reason %s, want the terminal closed", got)
	}
	poll(t, "the shell, the server and its child to be gone", func() bool { return gone(shell) && gone(server) && gone(child) })
}

// kill -9 of mcpcli gives it no chance to stop anything: the kernel and
// the supervisor between mcpcli and the server must. Even a child that
// left the server's process group and session is gone.
func TestNothingOutlivesMcpcliKilledWithSIGKILL(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  []string
	}{{"child in the group", nil}, {"child in a session of its own", []string{"MCPCLI_TEST_ESCAPE=1"}}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			pids, record := filepath.Join(dir, "pids"), filepath.Join(dir, "wire.jsonl")
			answers := filepath.Join(dir, "answers.json")
			os.WriteFile(answers, []byte(`{"*": {"action": "decline"}}`), 0o600)
			env := append([]string{"MCPCLI_TEST_PIDS=" + pids, "MCPCLI_TEST_RECORD=" + record}, tc.env...)
			cmd, _, errb := mcpcliProcess(t, env, "call", "wait", "--answers", answers)
			server, child := serverPids(t, pids)
			poll(t, "the server to receive tools/call", func() bool { return requestID(t, record, "tools/call") != nil })
			if err := syscall.Kill(cmd.Process.Pid, syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			waitExit(t, cmd, errb)
			poll(t, "the server and its child to be gone", func() bool { return gone(server) && gone(child) })
		})
	}
}

// Reading the person's own input (an --answers or --args FIFO nobody
// writes to) gives way to a signal: nothing is sent, the exit is 143.
func TestReadingInputGivesWayToASignal(t *testing.T) {
	for _, flag := range []string{"--answers", "--args"} {
		t.Run(flag, func(t *testing.T) {
			fifo := filepath.Join(t.TempDir(), "fifo")
			if err := syscall.Mkfifo(fifo, 0o600); err != nil {
				t.Fatal(err)
			}
			value := fifo
			if flag == "--args" {
				value = "@" + fifo
			}
			cmd, out, errb := mcpcliProcess(t, nil, "call", "wait", flag, value)
			// Signal it once one of its threads waits in the kernel for a
			// writer to open the FIFO (its signal handling is set up long
			// before it reads its input).
			poll(t, "mcpcli to wait for the FIFO", func() bool { return waitsForFIFO(cmd.Process.Pid) })
			if err := syscall.Kill(cmd.Process.Pid, syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			if code := waitExit(t, cmd, errb); code != 143 || out.Len() > 0 || !strings.Contains(errb.String(), "before anything was sent") {
				t.Errorf("exit %d, want 143; stdout %q, stderr:\n%s", code, out, errb)
			}
		})
	}
}

// waitsForFIFO reports whether a thread of pid is blocked opening a FIFO
// nobody writes to.
func waitsForFIFO(pid int) bool {
	tasks, _ := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	for _, task := range tasks {
		if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/wchan", pid, task.Name())); err == nil && string(b) == "wait_for_partner" {
			return true
		}
	}
	return false
}
