//go:build unix

package transport

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func alive(pid int) bool { return syscall.Kill(pid, 0) == nil }

func waitGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if !alive(pid) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Errorf("process %d is still alive", pid)
}

func TestCloseEscalatesAndTakesTheGroup(t *testing.T) {
	dir := t.TempDir()
	pidFile := dir + "/child.pid"
	// A server that ignores stdin closing and SIGTERM, with a child of its own.
	script := fmt.Sprintf(`trap '' TERM; sleep 300 & echo $! > %s; while :; do sleep 1; done`, pidFile)
	p, err := Start(Command{Argv: []string{"sh", "-c", script}, Grace: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	var child int
	for i := 0; i < 200 && child == 0; i++ {
		b, _ := os.ReadFile(pidFile)
		child, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		time.Sleep(10 * time.Millisecond)
	}
	if child == 0 {
		t.Fatal("the server never started its child")
	}
	p.Close()
	select {
	case <-p.Done():
	default:
		t.Fatalf("Close returned with the server (pid %d) still running", p.Pid())
	}
	if !p.signaled.Load() {
		t.Errorf("Close did not have to signal a server that ignores stdin; want it to escalate")
	}
	waitGone(t, child)
}

func TestCloseLetsAPoliteServerExitOnStdin(t *testing.T) {
	p, err := Start(Command{Argv: []string{"sh", "-c", "cat >/dev/null"}})
	if err != nil {
		t.Fatal(err)
	}
	p.Close()
	if p.signaled.Load() {
		t.Errorf("Close signalled a server that exits when stdin closes")
	}
	if code := p.state.ExitCode(); code != 0 {
		t.Errorf("polite server exit code = %d, want 0", code)
	}
}

func TestStderrTailKeepsTheLastLines(t *testing.T) {
	p, err := Start(Command{Argv: []string{"sh", "-c", `i=0; while [ $i -lt 250 ]; do echo "line $i" >&2; i=$((i+1)); done; printf 'no newline' >&2; exit 7`}})
	if err != nil {
		t.Fatal(err)
	}
	<-p.Done()
	p.Close()
	lines := p.StderrTail()
	if len(lines) != StderrLines+1 {
		t.Fatalf("StderrTail() has %d lines, want %d plus the unterminated one", len(lines), StderrLines)
	}
	if lines[0] != "line 50" || lines[len(lines)-2] != "line 249" || lines[len(lines)-1] != "no newline" {
		t.Errorf("StderrTail() = [%q ... %q %q], want line 50 ... line 249, no newline", lines[0], lines[len(lines)-2], lines[len(lines)-1])
	}
}

func TestStartExplainsWhatIsMissing(t *testing.T) {
	tests := []struct {
		cmd  Command
		want string
	}{
		{Command{}, "no server command given"},
		{Command{Argv: []string{"./definitely-not-here"}}, `cannot start server "./definitely-not-here"`},
	}
	for _, tt := range tests {
		_, err := Start(tt.cmd)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Start(%v) error = %v, want it to contain %q", tt.cmd.Argv, err, tt.want)
		}
	}
}

func TestEnvAndDir(t *testing.T) {
	dir := t.TempDir()
	p, err := Start(Command{Argv: []string{"sh", "-c", `echo "$GREETING from $(pwd)" >&2`}, Env: []string{"GREETING=hello"}, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	<-p.Done()
	p.Close()
	if got, want := strings.Join(p.StderrTail(), ""), "hello from "+dir; got != want {
		t.Errorf("server saw %q, want %q", got, want)
	}
}

func TestUnreadCountsWhatTheServerHasNotRead(t *testing.T) {
	p, err := Start(Command{Argv: []string{"sh", "-c", "exec sleep 300"}, Grace: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if _, err := p.Write([]byte("{\"id\":1}\n")); err != nil {
		t.Fatal(err)
	}
	n, ok := p.Unread()
	if !ok {
		t.Skip("this system cannot tell how much of a pipe is unread")
	}
	if n != 9 {
		t.Errorf("Unread() = %d, want the 9 bytes a server that never reads left in its stdin", n)
	}
}

func TestExplainLeavesOurOwnShutdownAlone(t *testing.T) {
	s := &Stdio{Cmd: Command{Argv: []string{"sh", "-c", "cat >/dev/null"}}}
	if _, err := s.Connect(t.Context()); err != nil {
		t.Fatal(err)
	}
	s.Process().Close() // mcpcli ends the session; the server exits 0
	cause := errors.New("decoding the server's message: too deeply nested")
	if got := s.Explain(cause); got != cause {
		t.Errorf("Explain after mcpcli's own shutdown = %v, want the cause itself", got)
	}
}

func TestExplainNamesAServerThatDied(t *testing.T) {
	s := &Stdio{Cmd: Command{Argv: []string{"sh", "-c", "echo oops >&2; exit 3"}}}
	if _, err := s.Connect(t.Context()); err != nil {
		t.Fatal(err)
	}
	<-s.Process().Done()
	s.Process().Close()
	var ee *ExitError
	if got := s.Explain(errors.New("EOF")); !errors.As(got, &ee) || ee.State.ExitCode() != 3 {
		t.Errorf("Explain after the server died = %v, want an ExitError with status 3", got)
	}
}

// The server does not see an unset variable that mcpcli has.
func TestStartUnsetsAVariable(t *testing.T) {
	t.Setenv("MCPCLI_TEST_SECRET", "s3cret")
	p, err := Start(Command{Argv: []string{"sh", "-c", `echo "secret=${MCPCLI_TEST_SECRET-unset} other=$OTHER" >&2`}, Unset: []string{"MCPCLI_TEST_SECRET"}, Env: []string{"OTHER=1"}})
	if err != nil {
		t.Fatal(err)
	}
	<-p.Done()
	p.Close()
	if got := p.StderrTail(); len(got) != 1 || got[0] != "secret=unset other=1" {
		t.Errorf("the server's stderr = %q, want [\"secret=unset other=1\"]", got)
	}
}

// fakeSupervisor writes a shell script that stands in for a supervisor:
// called as SUPERVISOR __mcpcli-supervise PID PROGRAM ARGS, it runs body.
func fakeSupervisor(t *testing.T, body string) string {
	t.Helper()
	path := t.TempDir() + "/supervisor"
	if err := os.WriteFile(path, []byte("#!/bin/sh\nshift 2\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// A supervisor of an older mcpcli says nothing on the status pipe and
// exits as its server did: that is the server's exit, not its own death.
func TestAnOlderSupervisorsSilenceIsTheServersExit(t *testing.T) {
	sup := fakeSupervisor(t, `"$@"; exit $?`)
	s := &Stdio{Cmd: Command{Argv: []string{"sh", "-c", "exit 3"}, Supervisor: sup, ExecSupervisor: true}}
	if _, err := s.Connect(t.Context()); err != nil {
		t.Fatal(err)
	}
	<-s.Process().Done()
	var ee *ExitError
	if got := s.Explain(errors.New("EOF")); !errors.As(got, &ee) || ee.Supervisor != "" || ee.State.ExitCode() != 3 {
		t.Errorf("Explain after a silent supervisor exited 3 = %v; want the server's exit, status 3", got)
	}
	s.Close()
}

// A supervisor killed while its server runs is named, not the server.
func TestAKilledSupervisorIsNamed(t *testing.T) {
	sup := fakeSupervisor(t, `echo "pid $$" >&3; exec sleep 300`)
	s := &Stdio{Cmd: Command{Argv: []string{"sh", "-c", "exec sleep 300"}, Supervisor: sup, ExecSupervisor: true}}
	if _, err := s.Connect(t.Context()); err != nil {
		t.Fatal(err)
	}
	syscall.Kill(s.Process().Pid(), syscall.SIGKILL)
	<-s.Process().Done()
	var ee *ExitError
	got := s.Explain(errors.New("EOF"))
	if !errors.As(got, &ee) || ee.Supervisor != "supervisor" || ee.SupervisorPid != s.Process().Pid() ||
		!strings.Contains(got.Error(), fmt.Sprintf("its supervisor, supervisor (pid %d), was killed by SIGKILL", s.Process().Pid())) {
		t.Errorf("Explain after the supervisor was killed = %v; want it named, killed by SIGKILL", got)
	}
	s.Close()
}

// Where the kernel lets it, the supervisor is made by clone, not started
// as the program Supervisor names; ExecSupervisor starts the program. The
// server behaves the same under either, and a server that cannot start is
// said the same way.
func TestTheSupervisorIsSpawnedUnlessExecIsAsked(t *testing.T) {
	if !supervised {
		t.Skip("no supervisor on this system")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, execSup := range []bool{false, true} {
		if !execSup && !canSpawn() {
			t.Log("this kernel cannot spawn a supervisor: only the program is tried")
			continue
		}
		// The program is a script that starts the server as the real one
		// would and says nothing; a spawned supervisor never runs it.
		sup := fakeSupervisor(t, `echo "pid $$" >&3; "$@"; exit $?`)
		p, err := Start(Command{Argv: []string{"cat"}, Supervisor: sup, ExecSupervisor: execSup})
		if err != nil {
			t.Fatalf("Start(cat) with ExecSupervisor %v: %v", execSup, err)
		}
		target, _ := os.Readlink(fmt.Sprintf("/proc/%d/exe", p.Pid()))
		p.stdin.Write([]byte("hi\n"))
		got := make([]byte, 3)
		_, rerr := io.ReadFull(p.stdout, got)
		p.Close()
		want := exe
		if execSup {
			want = "/bin/sh" // the script's interpreter, or its link's target
			if r, err := filepath.EvalSymlinks(want); err == nil {
				want = r
			}
		}
		if target != want || rerr != nil || string(got) != "hi\n" {
			t.Errorf("Start(cat) with ExecSupervisor %v: supervisor runs %s, cat echoed %q (%v); want %s, \"hi\\n\"", execSup, target, got, rerr, want)
		}
		_, err = Start(Command{Argv: []string{"sh"}, Dir: "/nonexistent/dir", Supervisor: sup, ExecSupervisor: execSup})
		var se *StartError
		if !errors.As(err, &se) || !se.NotFound || !strings.Contains(err.Error(), `cannot start server "sh" in /nonexistent/dir: chdir /nonexistent/dir: no such file or directory`) {
			t.Errorf("Start in a missing directory with ExecSupervisor %v = %v; want a StartError that names the directory", execSup, err)
		}
	}
}

// A supervisor that could not be made leaves Start to run the program;
// only a kernel or filter that refuses clone itself stops the next tries.
func TestRefusedSpawnFallsBackAndIsRememberedOnlyForTheKernel(t *testing.T) {
	defer spawnRefused.Store(false)
	for _, tc := range []struct {
		err      error
		remember bool
	}{
		{os.NewSyscallError("clone", syscall.EPERM), true},
		{os.NewSyscallError("clone", syscall.ENOSYS), true},
		{os.NewSyscallError("clone", syscall.EINVAL), true},
		{os.NewSyscallError("clone", syscall.EAGAIN), false},
		{os.NewSyscallError("mmap", syscall.ENOMEM), false},
		{errors.New("an argument or variable holds a NUL byte"), false},
	} {
		spawnRefused.Store(false)
		err := refused(tc.err)
		if !errors.Is(err, errSpawnRefused) || spawnRefused.Load() != tc.remember {
			t.Errorf("refused(%v) = %v, remembered %v; want errSpawnRefused, remembered %v", tc.err, err, spawnRefused.Load(), tc.remember)
		}
	}
}
