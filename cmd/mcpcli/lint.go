package main

import (
	"context"
	"io"

	"github.com/spf13/cobra"

	"github.com/mcpcli/mcpcli/explore"
	"github.com/mcpcli/mcpcli/flow/runner"
	"github.com/mcpcli/mcpcli/lint"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/shell"
	"github.com/mcpcli/mcpcli/transport"
)

// LintOptions are what lint needs.
type LintOptions struct {
	Out     io.Writer
	Console *render.Console
	Format  string // text, json or sarif
	SARIF   string // --sarif FILE
	Strict  bool

	Paths   []string       // flow files to replay
	Run     runner.Options // how they run
	Explore *explore.Spec  // or the tools to explore
	Lint    lint.Options
}

// NewCmdLint is the lint command.
func NewCmdLint(f *Factory, runF func(context.Context, *LintOptions) error) *cobra.Command {
	var (
		tools       []string
		all, strict bool
		sarif       string
	)
	cmd := &cobra.Command{
		Use:         "lint [FILE|DIR]... | --tool NAME... | --all",
		Short:       "Check every ask a server makes against the MCP spec",
		Args:        cobra.ArbitraryArgs,
		Annotations: map[string]string{annotHelp: "lint", annotSARIF: "yes"},
		RunE: func(cmd *cobra.Command, args []string) error {
			args = splitDash(f, cmd, args)
			switch {
			case len(args) > 0 && (len(tools) > 0 || all):
				return misused(cmd, usageErrorf(cmd, "give flow files or tools to explore (--tool, --all), not both"))
			case all && len(tools) > 0:
				return misused(cmd, usageErrorf(cmd, "give --tool NAME or --all, not both"))
			}
			opts := &LintOptions{Out: f.Deps.Out, Console: f.Console(), Format: f.Flags.Output, SARIF: sarif, Strict: strict, Lint: lint.Options{MaxRounds: f.Flags.MaxRounds}}
			var err error
			if len(tools) > 0 || all {
				sp, serr := f.exploring(cmd, explore.Spec{Tools: tools, All: all, Max: 64})
				opts.Explore, err = &sp, serr
			} else {
				opts.Paths, opts.Run, err = f.flowRun(cmd, args, defaultJobs(), false)
			}
			if err != nil {
				return misused(cmd, err)
			}
			return runOr(cmd, runF, lintRun, opts)
		},
	}
	cmd.Flags().StringArrayVar(&tools, "tool", nil, "explore the tool `NAME` (repeatable)")
	cmd.Flags().BoolVar(&all, "all", false, "explore every tool the server lists")
	cmd.Flags().BoolVar(&strict, "strict", false, "fail on warnings too")
	cmd.Flags().StringVar(&sarif, "sarif", "", "also write the findings as SARIF 2.1.0 to `FILE`")
	return cmd
}

// annotSARIF marks a command that takes -o sarif.
const annotSARIF = "output-sarif"

func lintRun(ctx context.Context, opts *LintOptions) error {
	var findings []lint.Finding
	failed := false
	if opts.Explore != nil {
		l := lint.New(opts.Lint)
		trees, err := explore.Explore(ctx, *opts.Explore, l.Observe)
		if findings = l.Findings(); err != nil && len(findings) == 0 {
			return err
		} else if err != nil { // what stopped it may be the finding: say both
			opts.Console.Printf("mcpcli: %s", render.Line(shell.Words{}.Error(err)))
			failed = true
		}
		for _, t := range trees {
			if t.Skipped != "" {
				shell.Words{}.SkippedOn(opts.Console)(t.Tool, t.Skipped)
			}
		}
	} else {
		for _, o := range runner.Run(ctx, opts.Paths, opts.Run) {
			if o.Err != nil {
				opts.Console.Printf("mcpcli: %s", render.Line(o.Err.Error()))
				failed = true
			}
			findings = append(findings, o.Findings...)
		}
	}
	if err := lint.Write(opts.Out, opts.Format, findings, version); err != nil {
		return err
	}
	if opts.SARIF != "" {
		if err := writeWhole("--sarif", opts.SARIF, func(w io.Writer) error { return lint.SARIF(w, findings, version) }); err != nil {
			return err
		}
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if failed || lint.Failed(findings, opts.Strict) {
		return &exitWith{code: exitError}
	}
	return nil
}

// lintObserve has the run's --lint linter, one for every connection of
// the run, watch t.
func (f *Factory) lintObserve(t transport.Transport) {
	if f.Flags.Lint {
		if f.lint == nil {
			f.lint = lint.New(lint.Options{MaxRounds: f.Flags.MaxRounds})
		}
		t.Observe(f.lint.Observe)
	}
}

// lintReport says the --lint findings on stderr at the end of the run.
func (f *Factory) lintReport() {
	if f.lint != nil {
		_ = lint.Text(f.Console(), f.lint.Findings())
	}
}
