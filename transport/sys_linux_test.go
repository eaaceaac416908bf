package transport

import (
	"os/exec"
	"testing"
	"time"
)

// waitExited returns once the process has exited and not before, leaving
// it for Wait to reap, with its exit status.
func TestWaitExitedWaitsInThePollerThenWaitReaps(t *testing.T) {
	cmd := exec.Command("cat")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		waitExited(cmd.Process)
		close(done)
	}()
	select {
	case <-done:
		t.Fatal("waitExited(cat) returned while cat was still reading its stdin")
	case <-time.After(50 * time.Millisecond):
	}
	stdin.Close()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("waitExited(cat) did not return after cat's stdin closed and it exited")
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("Wait after waitExited: %v, want cat's exit status 0", err)
	}

	cmd = exec.Command("sh", "-c", "exit 3")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitExited(cmd.Process)
	if err := cmd.Wait(); cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != 3 {
		t.Fatalf("Wait after waitExited(sh -c 'exit 3') = %v, want exit status 3", err)
	}
}
