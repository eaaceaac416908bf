package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/connect"
	"github.com/mcpcli/mcpcli/internal/interrupt"
	"github.com/mcpcli/mcpcli/internal/plural"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/request"
	"github.com/mcpcli/mcpcli/shell"
	"github.com/mcpcli/mcpcli/transport"
)

// Exit codes.
const (
	exitOK        = 0
	exitError     = 1   // usage, transport or protocol error
	exitToolError = 2   // the tool result has isError
	exitAbandoned = 130 // the person abandoned the request
)

// usageError is a mistake in how mcpcli was called.
type usageError struct {
	cmd string
	msg string
}

func (e *usageError) Error() string { return e.msg }

func usageErrorf(cmd *cobra.Command, format string, args ...any) error {
	name := "mcpcli"
	if cmd != nil {
		name = cmd.CommandPath()
	}
	return &usageError{cmd: name, msg: fmt.Sprintf(format, args...)}
}

// toolError carries exit code 2: the call worked, the tool said it failed.
type toolError struct{}

func (toolError) Error() string { return "the tool reported an error" }

// report turns the outcome of a command into a message on stderr and an
// exit code. It is the only place that does. login names the run's server
// to mcpcli auth login ("-s NAME", "--url URL"), or is "".
func report(ctx context.Context, w *render.Console, err error, login string) int {
	if err == nil {
		return exitOK
	}
	var ew *exitWith
	if errors.As(err, &ew) {
		if ew.err != nil {
			report(ctx, w, ew.err, login)
		}
		return ew.code
	}
	var te toolError
	if errors.As(err, &te) {
		return exitToolError
	}
	var ended *shell.Stopped
	if errors.As(err, &ended) {
		w.Printf("mcpcli: %s", ended)
		return ended.Sig.ExitCode()
	}
	var sig interrupt.Signal
	if errors.As(err, &sig) {
		// Stopped while reading the person's own input: nothing was sent.
		w.Printf("mcpcli: stopped on %s before anything was sent", sig.Name())
		return sig.ExitCode()
	}
	var tce *client.TaskCancelledError
	if errors.As(err, &tce) && tce.Abandoned {
		var de *client.DeclinedError
		switch {
		case errors.As(err, &de):
			w.Printf("mcpcli: you declined the sampling request %q of %s, so mcpcli cancelled the task it came from: %s", render.Line(de.Key), render.Line(de.Server), render.Line(tce.Error()))
		default:
			w.Printf("mcpcli: cancelled; %s", render.Line(tce.Error()))
			if errors.As(context.Cause(ctx), &sig) {
				return sig.ExitCode()
			}
		}
		return exitAbandoned
	}
	var de *client.DeclinedError
	if errors.As(err, &de) {
		w.Printf("mcpcli: you declined the sampling request %q of %s; by the spec that ends the request (it is not sent again)", render.Line(de.Key), render.Line(de.Server))
		return exitAbandoned
	}
	if errors.Is(err, client.ErrAbandoned) || ctx.Err() != nil && errors.Is(err, context.Canceled) {
		if errors.As(context.Cause(ctx), &sig) {
			w.Printf("mcpcli: cancelled on %s; the request was abandoned", sig.Name())
			return sig.ExitCode()
		}
		w.Printf("mcpcli: cancelled; the request was abandoned")
		return exitAbandoned
	}
	var ue *usageError
	if errors.As(err, &ue) {
		w.Printf("mcpcli: %s", render.Line(ue.msg))
		w.Printf("Run '%s --help' for usage.", ue.cmd)
		return exitError
	}
	w.Printf("mcpcli: %s", render.Line(shell.Words{Login: login}.Error(err)))
	if tail := transport.StderrTail(err); len(tail) > 0 {
		w.Printf("  last %d line%s of the server's stderr:", len(tail), plural.S(len(tail)))
		for _, l := range tail {
			w.Printf("  | %s", render.Line(l))
		}
	}
	return exitError
}

// asUsage is err as cmd's usage error when it is a mistake in what was
// typed (request.IsUsage), worded for a one-shot run.
func asUsage(cmd *cobra.Command, err error) error {
	var fe *connect.FlagError
	if errors.As(err, &fe) {
		return usageErrorf(cmd, "%s", fe.Msg)
	}
	if err == nil || !request.IsUsage(err) {
		return err
	}
	msg, _ := shell.Words{}.Request(err)
	return usageErrorf(cmd, "%s", msg)
}

// beforeSending is err, from asking the person before a request was sent
// (its arguments, a template's variables), as report should word it: a
// signal that ended ctx stopped the run before anything was sent.
func beforeSending(ctx context.Context, err error) error {
	var (
		sig interrupt.Signal
		ae  *request.AskError
	)
	if errors.As(err, &ae) && ctx.Err() != nil && errors.As(context.Cause(ctx), &sig) {
		return sig
	}
	return err
}

// explain words err for a one-shot run that names no server to mcpcli.
func explain(err error) string { return shell.Words{}.Error(err) }
