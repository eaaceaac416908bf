//go:build linux || darwin || freebsd

package supervise

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The test binary is also the supervisor (and a stand-in for mcpcli) when
// the tests start it so.
func TestMain(m *testing.M) {
	switch os.Getenv("SUPERVISE_TEST_AS") {
	case "supervisor":
		if w := os.Getenv("SUPERVISE_TEST_WATCH"); w != "" {
			deathWatches[w]()
		}
		Run(os.Args[1:])
	case "spawner":
		asSpawner(os.Args[1:])
	case "setsid":
		// setsid(1), which macOS and FreeBSD do not have.
		syscall.Setsid()
		err := syscall.Exec(os.Args[1], os.Args[1:], os.Environ())
		fmt.Fprintln(os.Stderr, err)
		os.Exit(127)
	case "mcpcli":
		// Starts a supervisor as mcpcli does, says its pid, and waits to
		// be killed.
		cmd := supervisor(os.Getpid(), os.Args[1:]...)
		if err := cmd.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Println(cmd.Process.Pid)
		time.Sleep(time.Hour)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

// asSpawner is a stand-in for mcpcli that spawns its supervisor, where
// Spawn is made (spawn_linux_amd64_test.go).
var asSpawner func(argv []string)

// supervisor is the test binary as a supervisor for mcpcli (pid), as
// mcpcli starts one.
func supervisor(mcpcli int, argv ...string) *exec.Cmd {
	exe, _ := os.Executable()
	cmd := exec.Command(exe, append([]string{strconv.Itoa(mcpcli)}, argv...)...)
	cmd.Env = append(os.Environ(), "SUPERVISE_TEST_AS=supervisor")
	cmd.SysProcAttr = supervisorAttr()
	return cmd
}

// run runs argv under a supervisor and returns what it said on the status
// pipe and how it exited.
func run(t *testing.T, argv ...string) (string, *os.ProcessState) {
	t.Helper()
	return runWatching(t, "", argv...)
}

// runWatching is run with the supervisor watching mcpcli as
// deathWatches[watch] has it.
func runWatching(t *testing.T, watch string, argv ...string) (string, *os.ProcessState) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := supervisor(os.Getpid(), argv...)
	cmd.Env = append(cmd.Env, "SUPERVISE_TEST_WATCH="+watch)
	cmd.ExtraFiles = []*os.File{w}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	said, _ := io.ReadAll(r)
	r.Close()
	cmd.Wait()
	return string(said), cmd.ProcessState
}

func TestStatusPipeSaysThePidThenHowTheServerEnded(t *testing.T) {
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
		said, st := run(t, "/bin/sh", "-c", tc.script)
		first, last, _ := strings.Cut(said, "\n")
		pid, err := strconv.Atoi(strings.TrimPrefix(first, "pid "))
		if !strings.HasPrefix(first, "pid ") || err != nil || pid <= 0 || last != tc.last || st.ExitCode() != tc.code {
			t.Errorf("sh -c %q under the supervisor: status pipe %q, exit %d; want \"pid N\\n%s\", exit %d", tc.script, said, st.ExitCode(), tc.last, tc.code)
		}
	}
}

// SIGTERM, SIGINT and SIGHUP to the supervisor (pkill mcpcli sends them
// to mcpcli-supervise too) leave it running: mcpcli stops the server in
// order, and the server has them at their default.
func TestTheSupervisorOutlastsStopSignals(t *testing.T) {
	dir := t.TempDir()
	ready, stop := filepath.Join(dir, "ready"), filepath.Join(dir, "stop")
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := supervisor(os.Getpid(), "/bin/sh", "-c", fmt.Sprintf(`touch %s; while [ ! -e %s ]; do sleep 0.01; done; exit 4`, ready, stop))
	cmd.ExtraFiles = []*os.File{w}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	waitFile(t, ready)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP} {
		if err := cmd.Process.Signal(sig); err != nil {
			t.Fatal(err)
		}
	}
	// (A signal whose default is to kill has doomed the process by the
	// time kill(2) returns: the status line below could not be written.)
	os.WriteFile(stop, nil, 0o600)
	said, _ := io.ReadAll(r)
	cmd.Wait()
	if !strings.HasSuffix(string(said), "exit 4") || cmd.ProcessState.ExitCode() != 4 {
		t.Errorf("after SIGTERM, SIGINT and SIGHUP to the supervisor: status pipe %q, exit %v; want it to have waited for its server's exit 4", said, cmd.ProcessState)
	}
}

func waitFile(t *testing.T, name string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, err := os.Stat(name); err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never appeared", name)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestAProgramThatCannotStartIsSaidToExit127(t *testing.T) {
	said, st := run(t, "/nonexistent/server")
	if said != "exit 127" || st.ExitCode() != 127 {
		t.Errorf("a missing program under the supervisor: status pipe %q, exit %d; want \"exit 127\", 127", said, st.ExitCode())
	}
}

// waitPids reads the pids a script wrote to file, once it has written n.
func waitPids(t *testing.T, file string, n int) []int {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		b, _ := os.ReadFile(file)
		var pids []int
		for _, f := range strings.Fields(string(b)) {
			if pid, err := strconv.Atoi(f); err == nil {
				pids = append(pids, pid)
			}
		}
		if len(pids) >= n {
			return pids
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server wrote %d pids to %s, want %d", len(pids), file, n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func waitGone(t *testing.T, what string, pids []int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for _, pid := range pids {
		for !gone(pid) {
			if time.Now().After(deadline) {
				syscall.Kill(pid, syscall.SIGKILL)
				t.Fatalf("process %d outlived %s", pid, what)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// tree is a server's script start: a tree three deep, with a child in a
// session of its own (pids in file: the first two) and one whose parent
// has already exited (the third).
func tree(file string) string {
	exe, _ := os.Executable()
	return fmt.Sprintf(`sleep 300 & echo $! >> %[1]s; SUPERVISE_TEST_AS=setsid %[2]s /bin/sleep 301 & echo $! >> %[1]s; (sh -c 'sleep 302 & echo $! >> %[1]s; exec sleep 303' &) ; `, file, exe)
}

func TestNothingOutlivesTheServer(t *testing.T) {
	for watch := range deathWatches {
		t.Run(watch, func(t *testing.T) {
			pids := filepath.Join(t.TempDir(), "pids")
			said, _ := runWatching(t, watch, "/bin/sh", "-c", tree(pids)+fmt.Sprintf(`while [ $(wc -l < %s) -lt 3 ]; do sleep 0.01; done; exit 3`, pids))
			if !strings.HasSuffix(said, "exit 3") {
				t.Errorf("status pipe %q, want it to end with exit 3", said)
			}
			all := waitPids(t, pids, 3)
			if !orphansReaped {
				// macOS: the child in a session of its own, whose parent
				// (the server) has exited, is launchd's, and is not found.
				defer syscall.Kill(all[1], syscall.SIGKILL)
				all = slices.Delete(all, 1, 2)
			}
			waitGone(t, "a server that exited", all)
		})
	}
}

func TestNothingOutlivesMcpcliKilledWithSIGKILL(t *testing.T) {
	for watch := range deathWatches {
		t.Run(watch, func(t *testing.T) {
			nothingOutlivesStandIn(t, "SUPERVISE_TEST_AS=mcpcli", "SUPERVISE_TEST_WATCH="+watch)
		})
	}
}

// nothingOutlivesStandIn starts the test binary as a stand-in for mcpcli
// (env says which: one that starts the supervisor program, or one that
// spawns it) with a server that starts a tree, kills it with SIGKILL, and
// waits for the supervisor, the server and its tree to be gone.
func nothingOutlivesStandIn(t *testing.T, env ...string) {
	t.Helper()
	dir := t.TempDir()
	pids, server := filepath.Join(dir, "pids"), filepath.Join(dir, "server")
	exe, _ := os.Executable()
	mcpcli := exec.Command(exe, "/bin/sh", "-c", tree(pids)+"echo $$ > "+server+"; exec sleep 304")
	mcpcli.Env = append(os.Environ(), env...)
	out, err := mcpcli.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := mcpcli.Start(); err != nil {
		t.Fatal(err)
	}
	var sup int
	fmt.Fscan(out, &sup)
	all := append(waitPids(t, pids, 3), waitPids(t, server, 1)...)
	if sup <= 0 || parentOf(t, all[3]) != sup || parentOf(t, sup) != mcpcli.Process.Pid {
		t.Fatalf("the server (pid %d) is not the supervisor's (pid %d) child, or it not mcpcli's (pid %d)", all[3], sup, mcpcli.Process.Pid)
	}
	mcpcli.Process.Kill()
	mcpcli.Wait()
	waitGone(t, "mcpcli killed with SIGKILL", append(all, sup))
}

// parentOf is pid's parent, as ps says.
func parentOf(t *testing.T, pid int) int {
	t.Helper()
	out, err := exec.Command("ps", "-o", "ppid=", "-p", strconv.Itoa(pid)).Output()
	if err != nil {
		t.Fatalf("ps -o ppid= -p %d: %v", pid, err)
	}
	ppid, _ := strconv.Atoi(strings.TrimSpace(string(out)))
	return ppid
}
