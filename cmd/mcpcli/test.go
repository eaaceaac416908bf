package main

import (
	"context"
	"io"

	"github.com/spf13/cobra"

	flowreport "github.com/mcpcli/mcpcli/flow/report"
	"github.com/mcpcli/mcpcli/flow/runner"
)

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
		Use:         "test [FILE|DIR]... [-- CMD ARGS]",
		Short:       "Replay flow files against the live server and check what it asks",
		Annotations: helpPage("test"),
		Args:        cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			args = splitDash(f, cmd, args)
			switch {
			case f.JSON() && tap > 0:
				return misused(cmd, usageErrorf(cmd, "give one of -o json and --tap: both write on stdout"))
			case tap != 0 && tap != 13 && tap != 14:
				return misused(cmd, usageErrorf(cmd, "--tap=%d: mcpcli writes TAP version 13 (--tap) or 14 (--tap=14)", tap))
			case jobs < 1:
				return misused(cmd, usageErrorf(cmd, "-j %d: give at least 1", jobs))
			}
			paths, ro, err := f.flowRun(cmd, args, jobs, strict)
			if err != nil {
				return misused(cmd, err)
			}
			ro.Update = update
			opts := &TestOptions{Out: f.Deps.Out, Paths: paths, Run: ro, Format: f.Flags.Output, TAP: tap, JUnit: junit}
			if tap > 0 {
				opts.Format = "tap"
			}
			return runOr(cmd, runF, testRun, opts)
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

func testRun(ctx context.Context, opts *TestOptions) error {
	out := runner.Run(ctx, opts.Paths, opts.Run)
	flows := make([]flowreport.Flow, len(out))
	for i, o := range out {
		flows[i] = o.Flow
	}
	if err := flowreport.Write(opts.Out, opts.Format, opts.TAP, flows); err != nil {
		return err
	}
	if opts.JUnit != "" {
		if err := writeWhole("--junit", opts.JUnit, func(w io.Writer) error { return flowreport.JUnit(w, "mcpcli test", flows) }); err != nil {
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
