//go:build unix

package transport

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync/atomic"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/mcpcli/mcpcli/internal/supervise"
)

// sysProcess is the platform's hold on a server: on Unix, process groups.
// The started process (the server, or its supervisor) leads a group of its
// own; a supervisor starts the server in another, and says its pid on the
// status pipe.
type sysProcess struct {
	serverGroup atomic.Int64 // the server's group under a supervisor, once said
}

func startProcess(cmd *exec.Cmd) error { return cmd.Start() }

func (s *sysProcess) started(*exec.Cmd) error { return nil }

// group is the process group that holds the server: its own, or the
// started process's until a supervisor has said.
func (s *sysProcess) group(p *Process) int {
	if g := s.serverGroup.Load(); g > 0 {
		return int(g)
	}
	return p.cmd.Process.Pid
}

// terminate sends SIGTERM to the server's process group.
func (s *sysProcess) terminate(p *Process) bool {
	_ = syscall.Kill(-s.group(p), syscall.SIGTERM)
	return true
}

// kill sends SIGKILL to the server's process group. A supervisor, which is
// not in it, then ends on its own, with what left the group: the one
// thing that can still reach those.
func (s *sysProcess) kill(p *Process) {
	_ = syscall.Kill(-s.group(p), syscall.SIGKILL)
}

// reap takes what the server left running, once it has ended or been
// given up on.
func (s *sysProcess) reap(p *Process) {
	if p.supervisor == "" {
		// The server's own group: whatever it left in it goes too.
		_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
		return
	}
	select {
	case <-p.done:
		// The supervisor has taken all of it.
	default:
		// It did not end within the grace after its server was killed:
		// it goes too, and what it held with it.
		_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
		p.wait(stderrSettle)
	}
}

// supervisorDied takes what a killed supervisor left: the server's group,
// and (where the system lets mcpcli find them) the processes that left it,
// by mark.
func (s *sysProcess) supervisorDied(mark string) {
	if g := s.serverGroup.Load(); g > 0 {
		_ = syscall.Kill(-int(g), syscall.SIGKILL)
	}
	killMarked(supervise.MarkEnv + "=" + mark)
}

// exitSignal is the signal that ended st's process, or 0.
func exitSignal(st *os.ProcessState) int {
	if st == nil {
		return 0
	}
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return int(ws.Signal())
	}
	return 0
}

// signalName is SIGKILL for 9.
func signalName(sig int) string {
	if name := unix.SignalName(syscall.Signal(sig)); name != "" {
		return name
	}
	return fmt.Sprintf("signal %d", sig)
}

// exitWords says an exit status.
func exitWords(code int) string { return fmt.Sprintf("exited with status %d", code) }

// brokenPipe says err is a write to a pipe nothing reads any more.
func brokenPipe(err error) bool { return errors.Is(err, syscall.EPIPE) }
