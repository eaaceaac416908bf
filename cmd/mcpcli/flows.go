package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/connect"
	"github.com/mcpcli/mcpcli/explore"
	"github.com/mcpcli/mcpcli/flow"
	"github.com/mcpcli/mcpcli/flow/runner"
	"github.com/mcpcli/mcpcli/internal/safefile"
	"github.com/mcpcli/mcpcli/lint"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/shell"
	"github.com/mcpcli/mcpcli/transport"
)

// What test, lint and explore share: the flow files and how they reach
// their servers, the exit status of a mistake, and the files they write.

// exitUsage is test's and lint's exit status for a mistake in how they
// were called (1 says a flow failed, or lint found something).
const exitUsage = 2

// exitWith is an error that ends the run with code; err, when set, is
// said as report says it. With err nil, the command has said everything.
type exitWith struct {
	code int
	err  error
}

func (e *exitWith) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}

func (e *exitWith) Unwrap() error { return e.err }

// misused is err as cmd's usage error, ending test or lint with exitUsage.
func misused(cmd *cobra.Command, err error) error {
	return &exitWith{code: exitUsage, err: asUsage(cmd, err)}
}

// defaultJobs is how many flows run at once by default: a connection
// each, as many as there are CPUs, at most 8.
func defaultJobs() int { return min(runtime.NumCPU(), 8) }

// flowRun is the flow files args name (runner.Files), and how a run of
// them goes: the server on the command line, when one is given, overrides
// each file's.
func (f *Factory) flowRun(cmd *cobra.Command, args []string, jobs int, strict bool) ([]string, runner.Options, error) {
	o := runner.Options{Jobs: jobs, Strict: strict, Lint: lint.Options{MaxRounds: f.Flags.MaxRounds}, Env: os.LookupEnv, Dial: f.flowDialer().Dial}
	paths, err := runner.Files(args)
	if err != nil {
		return nil, o, usageErrorf(cmd, "%v", err)
	}
	o.Server, err = f.flags().FlowServer()
	return paths, o, asUsage(cmd, err)
}

// flowDialer reaches the servers of flows as every command reaches its
// own (connect.Flows). Without a terminal, it says only what a CI log
// needs.
func (f *Factory) flowDialer() *connect.Flows {
	con := render.NewConsoleFor(f.Deps.Err, false, f.getenv)
	return &connect.Flows{Flags: f.flags(), Configs: f.configs(), Machine: f.machine(), Explain: shell.Words{}.Error,
		Options: connect.Options{Console: con, Version: version, Trace: f.runTrace(), Mark: f.mark, Undeclared: shell.Undeclared, SignIn: f.signIn(false, nil).For, Quiet: !f.Deps.ErrTTY}}
}

// flowServer is the server the flags name, as a flow file names it.
func (f *Factory) flowServer() flow.Server {
	if srv, _ := f.flags().FlowServer(); srv != nil {
		return *srv
	}
	return flow.Server{}
}

// exploring is how explore and lint --tool reach the server the flags
// name, checked before anything starts.
func (f *Factory) exploring(cmd *cobra.Command, sp explore.Spec) (explore.Spec, error) {
	if _, err := f.Transport(cmd); err != nil {
		return sp, err
	}
	srv, d := f.flowServer(), f.flowDialer()
	sp.Dial = func(ctx context.Context, a client.Answerer, observe transport.Observer) (*client.Session, error) {
		return d.Dial(ctx, srv, a, observe)
	}
	return sp, nil
}

// writeWhole writes what write writes to path, whole or not at all (the
// file of --junit, --sarif).
func writeWhole(flag, path string, write func(io.Writer) error) error {
	var b bytes.Buffer
	if err := write(&b); err != nil {
		return err
	}
	if err := safefile.Replace(path, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("%s %s: %v", flag, path, err)
	}
	return nil
}
