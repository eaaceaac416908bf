package render

import (
	"os"
	"os/exec"
	"testing"
	"time"
)

// FreezeTerminal waits for whoever sets the terminal up, then keeps the
// gate: no program sets it up after. It freezes the process's gate for
// good, so the test runs in a process of its own (this binary, again).
func TestFreezeTerminalWaitsForWhoHoldsItAndKeepsIt(t *testing.T) {
	if os.Getenv("MCPCLI_GATE_TEST") != "1" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestFreezeTerminalWaitsForWhoHoldsItAndKeepsIt$", "-test.v")
		cmd.Env = append(os.Environ(), "MCPCLI_GATE_TEST=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("the test in its own process: %v\n%s", err, out)
		}
		return
	}
	release := TakeTerminal()
	frozen := make(chan struct{})
	go func() {
		FreezeTerminal(time.Minute)
		close(frozen)
	}()
	select {
	case <-frozen:
		t.Fatal("FreezeTerminal returned while a program still set the terminal up")
	case <-time.After(50 * time.Millisecond):
	}
	release()
	release() // a second release is nothing: the gate is the freezer's now
	<-frozen
	took := make(chan struct{})
	go func() {
		TakeTerminal()
		close(took)
	}()
	select {
	case <-took:
		t.Fatal("TakeTerminal returned after FreezeTerminal: a program could set the terminal up while mcpcli exits")
	case <-time.After(50 * time.Millisecond):
	}
}

// A terminal that does not take writes holds the gate for as long: the
// way out waits only so long for it.
func TestFreezeTerminalGivesUpWaiting(t *testing.T) {
	if os.Getenv("MCPCLI_GATE_TEST") != "2" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestFreezeTerminalGivesUpWaiting$", "-test.v")
		cmd.Env = append(os.Environ(), "MCPCLI_GATE_TEST=2")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("the test in its own process: %v\n%s", err, out)
		}
		return
	}
	TakeTerminal() // never given back
	done := make(chan struct{})
	go func() {
		FreezeTerminal(20 * time.Millisecond)
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("FreezeTerminal(20ms) still waits after 10s for a gate nobody gives back")
	}
}
