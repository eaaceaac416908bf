package supervise

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

func init() {
	// SUPERVISE_TEST_AS=spawner: a stand-in for mcpcli that spawns a
	// supervisor, says its pid, and waits to be killed.
	asSpawner = func(argv []string) {
		sp, _, err := spawnWith(argv, "", nil)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Println(sp.Pid)
		time.Sleep(time.Hour)
		os.Exit(1)
	}
}

// spawned is a supervisor Spawn started for a test, with the read ends of
// its server's stdout and of the status pipe.
type spawned struct {
	*Spawned
	stdin, stdout, status *os.File
}

// spawnWith spawns argv with dir and env (nil: the test's own); the
// server's stdin is a pipe nobody writes to.
func spawnWith(argv []string, dir string, env []string) (*Spawned, *spawned, error) {
	if env == nil {
		env = os.Environ()
	}
	path := argv[0]
	if !strings.Contains(path, "/") {
		if p, err := exec.LookPath(path); err == nil {
			path = p
		}
	}
	inR, inW, _ := os.Pipe()
	outR, outW, _ := os.Pipe()
	statR, statW, _ := os.Pipe()
	sp, err := Spawn(SpawnAttr{Path: path, Argv: argv, Env: env, Dir: dir, Stdin: inR, Stdout: outW, Stderr: outW, Status: statW})
	inR.Close()
	outW.Close()
	statW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		statR.Close()
		return nil, nil, err
	}
	// The write end of the server's stdin stays open with the test.
	return sp, &spawned{Spawned: sp, stdin: inW, stdout: outR, status: statR}, nil
}

// spawnRun runs argv under a spawned supervisor to its end: what the
// status pipe said, what the server wrote, and how the supervisor exited.
func spawnRun(t *testing.T, dir string, env []string, argv ...string) (said, out string, st *os.ProcessState) {
	t.Helper()
	_, s, err := spawnWith(argv, dir, env)
	if err != nil {
		t.Fatalf("Spawn(%q): %v", argv, err)
	}
	b, _ := io.ReadAll(s.status)
	o, _ := io.ReadAll(s.stdout)
	return string(b), string(o), s.wait(t)
}

// wait reaps the supervisor and gives back its memory.
func (s *spawned) wait(t *testing.T) *os.ProcessState {
	t.Helper()
	p, _ := os.FindProcess(s.Pid)
	st, err := p.Wait()
	if err != nil {
		t.Fatalf("waiting for the supervisor (pid %d): %v", s.Pid, err)
	}
	s.Release()
	s.stdin.Close()
	s.stdout.Close()
	s.status.Close()
	return st
}

func requireSpawn(t *testing.T) {
	t.Helper()
	if !CanSpawn() {
		t.Skip("this kernel cannot spawn a supervisor (Linux 5.9 or later needed); mcpcli runs the program instead")
	}
}

func TestSpawnSaysThePidThenHowTheServerEnded(t *testing.T) {
	requireSpawn(t)
	for _, tc := range []struct {
		script string
		last   string
		code   int
	}{
		{"exit 0", "exit 0", 0},
		{"exit 7", "exit 7", 7},
		{"kill -TERM $$", "signal 15", 128 + 15},
		{"kill -KILL $$", "signal 9", 128 + 9},
	} {
		said, _, st := spawnRun(t, "", nil, "/bin/sh", "-c", tc.script)
		if !regexp.MustCompile(`^pid [1-9][0-9]*\n`+tc.last+`$`).MatchString(said) || st.ExitCode() != tc.code {
			t.Errorf("sh -c %q under a spawned supervisor: status pipe %q, exit %d; want \"pid N\\n%s\", exit %d", tc.script, said, st.ExitCode(), tc.last, tc.code)
		}
	}
}

func TestSpawnSaysWhyAServerCannotStart(t *testing.T) {
	requireSpawn(t)
	dir := t.TempDir()
	notExec := filepath.Join(dir, "not-executable")
	os.WriteFile(notExec, []byte("#!/bin/sh\n"), 0o644)
	garbage := filepath.Join(dir, "garbage")
	os.WriteFile(garbage, []byte{0x7f, 'E', 'L', 'F', 0, 0, 0, 0}, 0o755)
	for _, tc := range []struct {
		name, dir string
		argv      []string
		said      string
	}{
		{"a missing program", "", []string{"/nonexistent/server"}, fmt.Sprintf("error %d\n", syscall.ENOENT)},
		{"a file that is not executable", "", []string{notExec}, fmt.Sprintf("error %d\n", syscall.EACCES)},
		{"a file that is no program", "", []string{garbage}, fmt.Sprintf("error %d\n", syscall.ENOEXEC)},
		{"a missing directory", filepath.Join(dir, "nowhere"), []string{"/bin/true"}, fmt.Sprintf("chdir %d\n", syscall.ENOENT)},
	} {
		said, _, st := spawnRun(t, tc.dir, nil, tc.argv...)
		if said != tc.said || st.ExitCode() != 127 {
			t.Errorf("%s under a spawned supervisor: status pipe %q, exit %d; want %q, exit 127", tc.name, said, st.ExitCode(), tc.said)
		}
	}
}

// The server runs with the arguments, environment and directory given,
// and with the signal mask and dispositions exec.Command would give it:
// nothing of the supervisor's blocked signals, nor of Go's handlers.
func TestSpawnGivesTheServerWhatExecWould(t *testing.T) {
	requireSpawn(t)
	dir := t.TempDir()
	script := `pwd; echo "$1 $SPAWN_TEST"; grep -E '^Sig(Blk|Ign)' /proc/self/status`
	_, out, st := spawnRun(t, dir, []string{"SPAWN_TEST=env", "PATH=" + os.Getenv("PATH")}, "/bin/sh", "-c", script, "sh", "arg")
	want, err := exec.Command("/bin/sh", "-c", `grep -E '^Sig(Blk|Ign)' /proc/self/status`).Output()
	if err != nil {
		t.Fatal(err)
	}
	if wantOut := dir + "\narg env\n" + string(want); out != wantOut || st.ExitCode() != 0 {
		t.Errorf("a spawned server wrote %q (exit %d), want %q: its directory, argument, variable, and the signals exec.Command gives", out, st.ExitCode(), wantOut)
	}
}

// The supervisor holds the status pipe and two pidfds, nothing else of
// the test's (mcpcli's) descriptors: a pipe of another server's held there
// would never see its EOF. The server holds its stdio alone.
func TestSpawnHoldsNoDescriptorOfMcpclis(t *testing.T) {
	requireSpawn(t)
	other, otherW, _ := os.Pipe()
	defer other.Close()
	defer otherW.Close()
	_, s, err := spawnWith([]string{"/bin/sh", "-c", `ls /proc/$$/fd; exec sleep 300`}, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(s.status).ReadString('\n')
	var server int
	fmt.Sscanf(line, "pid %d", &server)
	// The server's ls has run once its output is in.
	out := make([]byte, 64)
	n, _ := s.stdout.Read(out)
	// The supervisor lets go of the server's stdio once it has said the
	// pid: look until it has, or for a few seconds.
	var held []string
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", s.Pid))
		if err != nil {
			t.Fatal(err)
		}
		held = held[:0]
		for _, fd := range fds {
			l, _ := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", s.Pid, fd.Name()))
			held = append(held, l)
		}
		if len(held) <= 3 || time.Now().After(deadline) {
			break
		}
	}
	comm, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", s.Pid))
	if server <= 0 {
		t.Fatalf("the spawned supervisor said %q, not the server's pid", line)
	}
	syscall.Kill(server, syscall.SIGKILL)
	s.wait(t)
	if len(held) != 3 || strings.Count(strings.Join(held, " "), "pidfd") != 2 || strings.Count(strings.Join(held, " "), "pipe:") != 1 {
		t.Errorf("the spawned supervisor held %q; want the status pipe and two pidfds", held)
	}
	if got := strings.Fields(string(out[:n])); strings.Join(got, " ") != "0 1 2" {
		t.Errorf("the spawned server held descriptors %q; want 0 1 2 (ls's own, 3, aside)", got)
	}
	if string(comm) != "mcpcli-supervis\n" {
		t.Errorf("the spawned supervisor is named %q in ps; want mcpcli-supervis(e), as the program is", comm)
	}
}

// SIGTERM, SIGINT and SIGHUP to the supervisor leave it running (see
// TestTheSupervisorOutlastsStopSignals).
func TestSpawnOutlastsStopSignals(t *testing.T) {
	requireSpawn(t)
	dir := t.TempDir()
	ready, stop := filepath.Join(dir, "ready"), filepath.Join(dir, "stop")
	_, s, err := spawnWith([]string{"/bin/sh", "-c", fmt.Sprintf(`touch %s; while [ ! -e %s ]; do sleep 0.01; done; exit 4`, ready, stop)}, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	waitFile(t, ready)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP} {
		syscall.Kill(s.Pid, sig)
	}
	os.WriteFile(stop, nil, 0o600)
	said, _ := io.ReadAll(s.status)
	st := s.wait(t)
	if !strings.HasSuffix(string(said), "exit 4") || st.ExitCode() != 4 {
		t.Errorf("after SIGTERM, SIGINT and SIGHUP to the spawned supervisor: status pipe %q, exit %v; want it to have waited for its server's exit 4", said, st)
	}
}

func TestSpawnLeavesNothingOfTheServerBehind(t *testing.T) {
	requireSpawn(t)
	pids := filepath.Join(t.TempDir(), "pids")
	said, _, _ := spawnRun(t, "", nil, "/bin/sh", "-c", tree(pids)+fmt.Sprintf(`while [ $(wc -l < %s) -lt 3 ]; do sleep 0.01; done; exit 3`, pids))
	if !strings.HasSuffix(said, "exit 3") {
		t.Errorf("status pipe %q, want it to end with exit 3", said)
	}
	waitGone(t, "a server that exited", waitPids(t, pids, 3))
}

// A spawned supervisor is a process of its own: a SIGKILL of mcpcli
// leaves it to kill the server and all it started, and then go.
func TestNothingOutlivesASpawnerKilledWithSIGKILL(t *testing.T) {
	requireSpawn(t)
	nothingOutlivesStandIn(t, "SUPERVISE_TEST_AS=spawner")
}

// Built without optimizations, as a debugger builds it, the package still
// links (the spawn's code is not nosplit, whose chains the linker bounds).
func TestSpawnCodeBuildsForADebugger(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	exe := filepath.Join(t.TempDir(), "supervise.test")
	if out, err := exec.Command(goTool, "test", "-c", "-gcflags=-N -l", "-o", exe, ".").CombinedOutput(); err != nil {
		t.Fatalf("go test -c -gcflags='-N -l': %v\n%s", err, out)
	}
}

// The code that runs in the spawned supervisor shares mcpcli's memory
// but not its runtime: it must call nothing but itself and the kernel
// (no morestack, no panic, no write barrier, no race detector hook).
func TestSpawnCodeCallsNothingButTheKernel(t *testing.T) {
	requireSpawn(t)
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to disassemble with")
	}
	allowed := map[string]bool{}
	own := []string{"supervisorMain", "serverMain", "reapAll", "killChildren", "sayNumber", "exit", "rawsys", "cloneInto"}
	for _, f := range own {
		allowed["github.com/mcpcli/mcpcli/internal/supervise."+f] = true
		allowed["github.com/mcpcli/mcpcli/internal/supervise."+f+".abi0"] = true
	}
	// Each function's prologue checks the stack against the spawn's own
	// g, and calls morestack only near the end of its stack, which faults
	// there (in the spawn alone).
	allowed["runtime.morestack_noctxt.abi0"] = true
	call := regexp.MustCompile(`\s(CALL|JMP)\s+([^\s(]+)\(SB\)`)
	// As built, and as built for the race detector, which instruments
	// what it is let (a race build makes no spawn, but should it: none of
	// its hooks).
	for _, flags := range [][]string{nil, {"-race"}, {"-gcflags=-N -l"}} {
		// A test binary as go test runs it has no symbol table: build one
		// that does.
		exe := filepath.Join(t.TempDir(), "supervise.test")
		if out, err := exec.Command(goTool, append(append([]string{"test", "-c", "-o", exe}, flags...), ".")...).CombinedOutput(); err != nil {
			if len(flags) > 0 && strings.Contains(string(out), "requires cgo") {
				t.Logf("no -race build here: %s", out)
				continue
			}
			t.Fatalf("go test -c %s: %v\n%s", flags, err, out)
		}
		for _, f := range own[:6] {
			cmd := exec.Command(goTool, "tool", "objdump", "-s", `supervise\.`+f+`$`, exe)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil || len(out) == 0 && f != "exit" { // exit may be inlined everywhere
				t.Fatalf("go tool objdump -s %s (built with %q): %v (%d bytes) %s", f, flags, err, len(out), stderr.String())
			}
			for _, m := range call.FindAllStringSubmatch(string(out), -1) {
				// Built for a debugger, every index is checked: those the
				// code masks or bounds can never fail.
				debug := len(flags) > 0 && strings.HasPrefix(flags[0], "-gcflags")
				if !allowed[m[2]] && !(debug && m[2] == "runtime.panicBounds") {
					t.Errorf("%s (built with %q), which runs in the spawned supervisor, calls %s", f, flags, m[2])
				}
			}
		}
	}
}
