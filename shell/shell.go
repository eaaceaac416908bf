// Package shell holds what the two shells over an MCP session share: the
// full-screen one (shell/tui) and the line one (shell/line). Both are thin
// over the request layer (request/); they differ only in how they ask and
// how they show.
package shell

import (
	"context"
	"errors"
	"fmt"

	"github.com/mcpcli/mcpcli/internal/interrupt"
	"github.com/mcpcli/mcpcli/request"
)

// Ended is a shell that its context ended (a signal): the shell, not a
// request, was what it stopped.
type Ended struct {
	Connecting bool // before it was connected
	Cut        int  // requests it cut short
	Err        error
}

func (e *Ended) Error() string { return "the session ended: " + e.Err.Error() }
func (e *Ended) Unwrap() error { return e.Err }

// Stopped is a shell a signal ended: the session, not a request, was
// what the signal stopped.
type Stopped struct {
	Sig        interrupt.Signal
	Connecting bool // before it opened
	Cut        int  // requests it cut short
}

func (e *Stopped) Error() string {
	msg := "the session ended on " + e.Sig.Name()
	if e.Connecting {
		msg += " while it connected to the server"
	}
	switch e.Cut {
	case 0:
	case 1:
		msg += "; the request still running was cancelled, and its server told"
	default:
		msg += fmt.Sprintf("; the %d requests still running were cancelled, and their server told", e.Cut)
	}
	return msg
}

// Outcome is how a shell that returned err ended: *Stopped when a signal
// ended ctx, the shell's own error when it ended by itself.
func Outcome(ctx context.Context, err error) error {
	var (
		ended *Ended
		sig   interrupt.Signal
	)
	switch {
	case errors.As(err, &ended) && errors.As(context.Cause(ctx), &sig):
		return &Stopped{Sig: sig, Connecting: ended.Connecting, Cut: ended.Cut}
	case errors.As(err, &ended):
		return ended.Err
	}
	return err
}

// BeforeSending is err, from asking the person before a request was sent
// (its arguments, a template's variables), as a run ends on it: a
// signal that ended ctx stopped the run before anything was sent (Words.Ended
// says so).
func BeforeSending(ctx context.Context, err error) error {
	var (
		sig interrupt.Signal
		ae  *request.AskError
	)
	if errors.As(err, &ae) && ctx.Err() != nil && errors.As(context.Cause(ctx), &sig) {
		return sig
	}
	return err
}

// NoTerminalError is the full-screen shell asked for without a terminal.
type NoTerminalError struct{ Why string }

func (e *NoTerminalError) Error() string {
	return fmt.Sprintf("the session needs a terminal, and %s; for a session of plain lines (commands on stdin, results on stdout) use --accessible: mcpcli session --accessible -- CMD", e.Why)
}
