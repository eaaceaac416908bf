package main

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

// interrupted is why a run was stopped from outside: the signal.
type interrupted struct{ sig os.Signal }

func (e interrupted) Error() string {
	switch e.sig {
	case os.Interrupt:
		return "the user interrupted mcpcli (" + interruptKeys + ")"
	case syscall.SIGHUP:
		return "mcpcli's terminal was closed"
	}
	if s, ok := e.sig.(syscall.Signal); ok && signalWords(s) != "" {
		return signalWords(s)
	}
	return fmt.Sprintf("mcpcli was stopped (%v)", e.sig)
}

// signal is the signal's own name (SIGINT, SIGTERM, SIGHUP), whoever
// sent it: a full-screen program reads Ctrl+C as a key, so a SIGINT
// there came from elsewhere. Where a signal has no name of its own (an
// interrupt on Windows is only ever the console's keys), it is named as
// a person sends it.
func (e interrupted) signal() string {
	if s, ok := e.sig.(syscall.Signal); ok {
		if n := signalName(s); n != "" {
			return n
		}
	}
	if e.sig == os.Interrupt {
		return interruptKeys
	}
	return e.sig.String()
}

// beforeSending is err, from asking the person before a request was sent
// (its arguments, a template's variables), as report should word it: a
// signal that ended ctx stopped the run before anything was sent.
func beforeSending(ctx context.Context, err error) error {
	var sig interrupted
	if err != nil && ctx.Err() != nil && errors.As(context.Cause(ctx), &sig) {
		return sig
	}
	return err
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
// servers' process groups are killed, the terminal is given back as it was
// found, and mcpcli exits, 128+signal: a run can always be stopped. Call
// stop just before exiting.
func signalContext(servers *transport.Group) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	tty := saveTerminal()
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
			// Named as it came: it may not be the first one again.
			why = fmt.Sprintf("a second signal, %s, came before the run ended in order", interrupted{s2}.signal())
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
		fmt.Fprintf(os.Stderr, "mcpcli: stopped on %s; %s, so its servers were killed\n", interrupted{s}.signal(), why)
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
