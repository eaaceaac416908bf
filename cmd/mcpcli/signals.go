package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/mcpcli/mcpcli/transport"
)

// interrupted is why a run was stopped from outside: the signal.
type interrupted struct{ sig os.Signal }

func (e interrupted) Error() string {
	switch e.sig {
	case os.Interrupt:
		return "the user interrupted mcpcli (Ctrl+C)"
	case syscall.SIGHUP:
		return "mcpcli's terminal was closed"
	}
	return fmt.Sprintf("mcpcli was stopped (%v)", e.sig)
}

// name is the signal as a person sends it: Ctrl+C, SIGTERM, SIGHUP.
func (e interrupted) name() string {
	if e.sig == os.Interrupt {
		return "Ctrl+C"
	}
	if s, ok := e.sig.(syscall.Signal); ok {
		if n := unix.SignalName(s); n != "" {
			return n
		}
	}
	return e.sig.String()
}

// exitCode is the shell's for a process ended by the signal: 128+n.
func (e interrupted) exitCode() int {
	if s, ok := e.sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return exitAbandoned
}

// stopWait is how long a run has, after the first signal, to end in order
// (cancel its request, tell the server, stop it) before mcpcli kills its
// servers and exits anyway.
const stopWait = 3 * time.Second

// signalContext is cancelled at the first SIGINT, SIGTERM or SIGHUP, with
// the signal as its cause: a request cancelled by it tells the server why.
// Should the run not end within stopWait, or a second signal come, the
// servers' process groups are killed and mcpcli exits, 128+signal: a run
// can always be stopped. Call stop just before exiting.
func signalContext(servers *transport.Group) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	ended := make(chan struct{})
	go func() {
		var s os.Signal
		select {
		case s = <-sigs:
			cancel(interrupted{s})
		case <-ended:
			return
		}
		why := fmt.Sprintf("the run did not end in order within %s", stopWait)
		select {
		case <-ended:
			return
		case s2 := <-sigs:
			why = fmt.Sprintf("a second %s came before the run ended in order", interrupted{s2}.name())
		case <-time.After(stopWait):
		}
		servers.KillAll()
		fmt.Fprintf(os.Stderr, "mcpcli: stopped: %s; %s, so its servers were killed\n", interrupted{s}, why)
		os.Exit(interrupted{s}.exitCode())
	}()
	// stop ends the watch; the process exits right after it, so the
	// signals stay registered: unregistering costs the runtime a round
	// trip to its signal thread per signal, for nothing.
	return ctx, func() {
		close(ended)
		cancel(nil)
	}
}
