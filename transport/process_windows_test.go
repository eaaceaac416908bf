package transport

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// The test binary is also the server, its child, and a stand-in for
// mcpcli, when the tests start it so.
func TestMain(m *testing.M) {
	switch os.Getenv("TRANSPORT_TEST_AS") {
	case "server":
		// A server that ignores its stdin closing, with a child that
		// sleeps, whose pid it writes to the file named in argv.
		child := exec.Command(os.Args[0])
		child.Env = append(os.Environ(), "TRANSPORT_TEST_AS=sleeper")
		if err := child.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.WriteFile(os.Args[1]+".tmp", []byte(strconv.Itoa(os.Getpid())+" "+strconv.Itoa(child.Process.Pid)), 0o600)
		os.Rename(os.Args[1]+".tmp", os.Args[1])
		time.Sleep(time.Hour)
		os.Exit(0)
	case "sleeper":
		time.Sleep(time.Hour)
		os.Exit(0)
	case "mcpcli":
		// Starts the server as mcpcli does, then waits to be killed.
		if _, err := Start(Command{Argv: []string{os.Args[0], os.Args[1]}, Env: []string{"TRANSPORT_TEST_AS=server"}}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		time.Sleep(time.Hour)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// serverTree waits for the test server's pid and its child's.
func serverTree(t *testing.T, file string) (server, child uint32) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if b, err := os.ReadFile(file); err == nil {
			f := strings.Fields(string(b))
			s, _ := strconv.Atoi(f[0])
			c, _ := strconv.Atoi(f[1])
			return uint32(s), uint32(c)
		}
		if time.Now().After(deadline) {
			t.Fatal("the test server never said its pid and its child's")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// tempDir is t.TempDir, without failing the test when the directory
// cannot be removed (Wine cannot, with the way Go removes files).
func tempDir(t *testing.T) string {
	dir, err := os.MkdirTemp("", "mcpcli-transport")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

var procIsProcessInJob = windows.NewLazySystemDLL("kernel32.dll").NewProc("IsProcessInJob")

// waitEnded waits for process pid to end.
func waitEnded(t *testing.T, what string, pid uint32) {
	t.Helper()
	h, err := windows.OpenProcess(windows.SYNCHRONIZE, false, pid)
	if err != nil {
		return // already gone
	}
	defer windows.CloseHandle(h)
	if ev, _ := windows.WaitForSingleObject(h, 10_000); ev != windows.WAIT_OBJECT_0 {
		if k, err := windows.OpenProcess(windows.PROCESS_TERMINATE, false, pid); err == nil {
			windows.TerminateProcess(k, 1)
			windows.CloseHandle(k)
		}
		t.Fatalf("process %d outlived %s", pid, what)
	}
}

func TestTheJobHoldsWhatTheServerStarts(t *testing.T) {
	file := filepath.Join(tempDir(t), "pids")
	p, err := Start(Command{Argv: []string{os.Args[0], file}, Env: []string{"TRANSPORT_TEST_AS=server"}, Grace: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	server, child := serverTree(t, file)
	if server != uint32(p.Pid()) {
		t.Errorf("the test server says pid %d, Start says %d", server, p.Pid())
	}
	for _, pid := range []uint32{server, child} {
		h, err := windows.OpenProcess(windows.PROCESS_QUERY_INFORMATION, false, pid)
		if err != nil {
			t.Fatal(err)
		}
		var in int32
		r, _, err := procIsProcessInJob.Call(uintptr(h), uintptr(p.sys.job), uintptr(unsafe.Pointer(&in)))
		windows.CloseHandle(h)
		if r == 0 || in == 0 {
			t.Errorf("process %d is not in the server's job (IsProcessInJob: %v)", pid, err)
		}
	}
	p.Close()
	if !p.signaled.Load() {
		t.Errorf("Close did not have to end a server that ignores its stdin closing; want it to end its job")
	}
	waitEnded(t, "Close", server)
	waitEnded(t, "Close", child)
}

// mcpcli killed outright (TerminateProcess, as Task Manager's End task)
// closes its handle to the job, and the system ends the server's tree.
func TestNothingOutlivesMcpcliTerminated(t *testing.T) {
	file := filepath.Join(tempDir(t), "pids")
	mcpcli := exec.Command(os.Args[0], file)
	mcpcli.Env = append(os.Environ(), "TRANSPORT_TEST_AS=mcpcli")
	if err := mcpcli.Start(); err != nil {
		t.Fatal(err)
	}
	server, child := serverTree(t, file)
	mcpcli.Process.Kill()
	mcpcli.Wait()
	waitEnded(t, "mcpcli terminated", server)
	waitEnded(t, "mcpcli terminated", child)
}

func TestJobLimitsAreWindowsOwn(t *testing.T) {
	if jobLimitKillOnJobClose != windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE ||
		jobLimitBreakawayOK != windows.JOB_OBJECT_LIMIT_BREAKAWAY_OK ||
		jobLimitSilentBreakawayOK != windows.JOB_OBJECT_LIMIT_SILENT_BREAKAWAY_OK {
		t.Errorf("the job limit flags in winjob.go are not golang.org/x/sys/windows's")
	}
}
