package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/mcpcli/mcpcli/connect"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/request"
	"github.com/mcpcli/mcpcli/shell"
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
	words := shell.Words{Login: login}
	if msg, sig, ok := words.Ended(ctx, err); ok {
		w.Printf("mcpcli: %s", msg)
		if sig != nil {
			return sig.ExitCode()
		}
		return exitAbandoned
	}
	var ue *usageError
	if errors.As(err, &ue) {
		w.Printf("mcpcli: %s", render.Line(ue.msg))
		w.Printf("Run '%s --help' for usage.", ue.cmd)
		return exitError
	}
	w.Printf("mcpcli: %s", render.Line(words.Error(err)))
	for _, l := range words.ServerStderr(err) {
		w.Printf("%s", l)
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
