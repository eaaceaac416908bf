// Package interrupt is how a run is stopped from outside: the first
// SIGINT, SIGTERM or SIGHUP cancels its context with the signal as the
// cause; a run that does not end in order soon after, or a second signal,
// has its servers killed and the terminal given back as it was found.
package interrupt

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/transport"
)

// Package interrupt is how a run is stopped from outside: the first
// SIGINT, SIGTERM or SIGHUP cancels its context with the signal as the
// cause; a run that does not end in order soon after, or a second signal,
// has its servers killed and the terminal given back as it was found.
// Signal is why a run was stopped from outside: the signal.
type Signal struct{ Sig os.Signal }

func (e Signal) Error() string {
	switch e.Sig {
	case os.Interrupt:
		return "the user interrupted mcpcli (" + interruptKeys + ")"
	case syscall.SIGHUP:
		return "mcpcli's terminal was closed"
	}
	if s, ok := e.Sig.(syscall.Signal); ok && signalWords(s) != "" {
		return signalWords(s)
	}
	return fmt.Sprintf("mcpcli was stopped (%v)", e.Sig)
}

// Name is the signal's own name (SIGINT, SIGTERM, SIGHUP), whoever
// sent it: a full-screen program reads Ctrl+C as a key, so a SIGINT
// there came from elsewhere. Where a signal has no name of its own (an
// interrupt on Windows is only ever the console's keys), it is named as
// a person sends it.
func (e Signal) Name() string {
	if s, ok := e.Sig.(syscall.Signal); ok {
		if n := signalName(s); n != "" {
			return n
		}
	}
	if e.Sig == os.Interrupt {
		return interruptKeys
	}
	return e.Sig.String()
}

// ExitCode is the shell's for a process ended by the signal: 128+n.
func (e Signal) ExitCode() int {
	if s, ok := e.Sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 130
}

// From is the signal that ended ctx, if one did.
func From(ctx context.Context) (Signal, bool) {
	var sig Signal
	ok := errors.As(context.Cause(ctx), &sig)
	return sig, ok
}

// stopWait is how long a run has, after the first signal, to end in order
// (cancel its request, tell the server, stop it) before mcpcli kills its
// servers and exits anyway.
const stopWait = 3 * time.Second

// Context is cancelled at the first SIGINT, SIGTERM or SIGHUP, with
// the signal as its cause: a request cancelled by it tells the server why.
// Should the run not end within stopWait, or a second signal come, the
// servers' process groups are killed, the terminal is given back as it was
// found, and mcpcli exits, 128+signal: a run can always be stopped. Call
// stop just before exiting.
func Context(servers *transport.Group) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	tty := saveTerminal()
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	ended := make(chan struct{})
	go func() {
		var s os.Signal
		select {
		case s = <-sigs:
			cancel(Signal{s})
		case <-ended:
			return
		}
		why := fmt.Sprintf("the run did not end in order within %s", stopWait)
		select {
		case <-ended:
			return
		case s2 := <-sigs:
			// Named as it came: it may not be the first one again.
			why = fmt.Sprintf("a second signal, %s, came before the run ended in order", Signal{s2}.Name())
		case <-time.After(stopWait):
		}
		servers.KillAll()
		// The screen a form or the session was showing is left, and the
		// terminal's settings put back, as the program would have. The
		// gate first: a program setting the terminal up (the session
		// taking it back after a form the first signal ended) finishes,
		// and none starts after.
		render.FreezeTerminal(time.Second)
		tty.restore()
		fmt.Fprintf(os.Stderr, "mcpcli: stopped on %s; %s, so its servers were killed\n", Signal{s}.Name(), why)
		os.Exit(Signal{s}.ExitCode())
	}()
	// stop ends the watch; the process exits right after it, so the
	// signals stay registered: unregistering costs the runtime a round
	// trip to its signal thread per signal, for nothing.
	return ctx, func() {
		close(ended)
		cancel(nil)
	}
}
