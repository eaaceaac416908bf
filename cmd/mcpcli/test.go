package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"sync"

	"github.com/spf13/cobra"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/config"
	"github.com/mcpcli/mcpcli/connect"
	"github.com/mcpcli/mcpcli/flow"
	flowreport "github.com/mcpcli/mcpcli/flow/report"
	"github.com/mcpcli/mcpcli/flow/runner"
	"github.com/mcpcli/mcpcli/internal/safefile"
	"github.com/mcpcli/mcpcli/internal/shellwords"
	"github.com/mcpcli/mcpcli/lint"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/shell"
	"github.com/mcpcli/mcpcli/transport"
)

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

// TestOptions are what test needs.
type TestOptions struct {
	Out   io.Writer
	Paths []string
	Run   runner.Options
	// Format is text, json or tap; TAP is its version.
	Format string
	TAP    int
	JUnit  string // --junit FILE
}

// NewCmdTest is the test command.
func NewCmdTest(f *Factory, runF func(context.Context, *TestOptions) error) *cobra.Command {
	var (
		update, strict bool
		jobs, tap      int
		junit          string
	)
	cmd := &cobra.Command{
		Use:   "test [FILE|DIR]... [-- CMD ARGS]",
		Short: "Replay flow files against the live server and check what it asks",
		Long:  page("test"), Example: examples("test"),
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			args = splitDash(f, cmd, args)
			usage := func(err error) error { return &exitWith{code: exitUsage, err: asUsage(cmd, err)} }
			if f.JSON() && tap > 0 {
				return usage(usageErrorf(cmd, "give one of -o json and --tap: both write on stdout"))
			}
			if tap != 0 && tap != 13 && tap != 14 {
				return usage(usageErrorf(cmd, "--tap=%d: mcpcli writes TAP version 13 (--tap) or 14 (--tap=14)", tap))
			}
			if jobs < 1 {
				return usage(usageErrorf(cmd, "-j %d: give at least 1", jobs))
			}
			paths, err := runner.Files(args)
			if err != nil {
				return usage(usageErrorf(cmd, "%v", err))
			}
			ro, err := f.flowRun(cmd, jobs, strict)
			if err != nil {
				return usage(err)
			}
			ro.Update = update
			opts := &TestOptions{Out: f.Deps.Out, Paths: paths, Run: ro, Format: f.Flags.Output, TAP: tap, JUnit: junit}
			if tap > 0 {
				opts.Format = "tap"
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return testRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&update, "update", false, "rewrite the expectations of each failing flow from the live run (answers and comments are kept)")
	cmd.Flags().IntVarP(&jobs, "jobs", "j", defaultJobs(), "run `N` flows at once, each on its own connection")
	cmd.Flags().StringVar(&junit, "junit", "", "also write the outcome as JUnit XML to `FILE`")
	cmd.Flags().IntVar(&tap, "tap", 0, "write TAP (version 13, or --tap=14) on stdout instead of a line per flow")
	cmd.Flags().Lookup("tap").NoOptDefVal = "13"
	cmd.Flags().BoolVar(&strict, "strict", false, "fail a flow on any lint finding (warnings too)")
	return cmd
}

// defaultJobs is how many flows run at once by default: a connection
// each, as many as there are CPUs, at most 8.
func defaultJobs() int { return min(runtime.NumCPU(), 8) }

func testRun(ctx context.Context, opts *TestOptions) error {
	out := runner.Run(ctx, opts.Paths, opts.Run)
	flows := make([]flowreport.Flow, len(out))
	for i, o := range out {
		flows[i] = o.Flow
	}
	var err error
	switch opts.Format {
	case "json":
		err = flowreport.JSON(opts.Out, flows)
	case "tap":
		err = flowreport.TAP(opts.Out, flows, opts.TAP)
	default:
		err = flowreport.Text(opts.Out, flows)
	}
	if err != nil {
		return err
	}
	if opts.JUnit != "" {
		if err := writeJUnit(opts.JUnit, flows); err != nil {
			return err
		}
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if !flowreport.OK(flows) {
		return &exitWith{code: exitError}
	}
	return nil
}

func writeJUnit(path string, flows []flowreport.Flow) error {
	var b bytesWriter
	if err := flowreport.JUnit(&b, "mcpcli test", flows); err != nil {
		return err
	}
	if err := safefile.Replace(path, b.b, 0o644); err != nil {
		return fmt.Errorf("--junit %s: %v", path, err)
	}
	return nil
}

type bytesWriter struct{ b []byte }

func (w *bytesWriter) Write(p []byte) (int, error) { w.b = append(w.b, p...); return len(p), nil }

// flowRun is how a run of flow files reaches its servers, from the run's
// flags: the server on the command line, when one is given, overrides
// each file's.
func (f *Factory) flowRun(cmd *cobra.Command, jobs int, strict bool) (runner.Options, error) {
	fl := f.Flags
	o := runner.Options{Jobs: jobs, Strict: strict, Lint: lint.Options{MaxRounds: fl.MaxRounds}, Env: os.LookupEnv}
	switch {
	case fl.Server != "":
		o.Server = &flow.Server{Name: fl.Server}
	case fl.URL != "":
		o.Server = &flow.Server{URL: fl.URL}
	case fl.Stdio != "" && len(fl.ServerArgv) > 0:
		return o, usageErrorf(cmd, "give the server once: either --stdio \"CMD ARGS\" or the command after --, not both")
	case fl.Stdio != "":
		words, err := shellwords.Split(fl.Stdio)
		if err != nil || len(words) == 0 {
			return o, usageErrorf(cmd, "--stdio %q: give the command to start", fl.Stdio)
		}
		o.Server = &flow.Server{Command: words}
	case len(fl.ServerArgv) > 0:
		o.Server = &flow.Server{Command: fl.ServerArgv}
	}
	o.Dial = f.flowDialer(cmd)
	return o, nil
}

// flowDialer connects to the server a flow names, as every command
// connects (connect.Dial: sign-in, trace, protocol, timeouts), with the
// flow's own answerer and lint watching the wire.
func (f *Factory) flowDialer(cmd *cobra.Command) runner.Dialer {
	var mu sync.Mutex // the config files are read once, by one flow at a time
	con := render.NewConsoleFor(f.Deps.Err, false, f.getenv)
	return func(ctx context.Context, srv flow.Server, a client.Answerer, observe transport.Observer) (*client.Session, error) {
		fl := f.flags()
		fl.Server, fl.Stdio, fl.URL, fl.ServerArgv = "", "", "", nil
		var named *config.Server
		switch {
		case srv.Name != "":
			mu.Lock()
			cfg, err := f.loadConfig(ctx)
			if err == nil {
				named, err = cfg.Server(srv.Name)
			}
			mu.Unlock()
			if err != nil {
				return nil, errors.New(explain(err))
			}
			fl.Server = srv.Name
		case srv.URL != "":
			fl.URL = srv.URL
		default:
			fl.ServerArgv = f.selfCommand(srv.Command)
		}
		t, err := connect.Transport(fl, named, f.machine(), "test")
		if err != nil {
			return nil, err
		}
		if observe != nil {
			t.Observe(observe)
		}
		mu.Lock()
		if f.trace == nil && f.Flags.Trace != "" {
			f.trace = &connect.Trace{Name: f.Flags.Trace, Console: f.Console(), AtEnd: f.atEnd}
		}
		trace := f.trace
		mu.Unlock()
		s, err := connect.Dial(ctx, t, connect.Options{Flags: fl, Console: con, Version: version, Answerer: a, Trace: trace, Undeclared: shell.Undeclared,
			SignIn: f.signIn(false, nil).For})
		if err != nil {
			return nil, errors.New(explain(err))
		}
		return s, nil
	}
}

// selfCommand is argv, except that "mcpcli" where no mcpcli is on $PATH
// is this mcpcli: a flow recorded against `mcpcli demo-server` runs from
// a fresh clone's go build.
func (f *Factory) selfCommand(argv []string) []string {
	if len(argv) == 0 || argv[0] != "mcpcli" || f.Deps.Executable == nil {
		return argv
	}
	if _, err := exec.LookPath("mcpcli"); err == nil {
		return argv
	}
	exe, err := f.Deps.Executable()
	if err != nil {
		return argv
	}
	return append([]string{exe}, argv[1:]...)
}
