package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
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

// exitCode is the shell's for a process ended by the signal: 128+n.
func (e interrupted) exitCode() int {
	if s, ok := e.sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return exitAbandoned
}

// signalContext is cancelled at the first SIGINT, SIGTERM or SIGHUP, with
// the signal as its cause: a request cancelled by it tells the server why.
func signalContext() (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		select {
		case s := <-sigs:
			cancel(interrupted{s})
		case <-ctx.Done():
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		cancel(nil)
	}
}
