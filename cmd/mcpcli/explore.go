package main

import (
	"context"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpcli/mcpcli/explore"
	"github.com/mcpcli/mcpcli/flow"
	"github.com/mcpcli/mcpcli/internal/safefile"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/request"
	"github.com/mcpcli/mcpcli/shell"
)

// ExploreOptions are what explore needs.
type ExploreOptions struct {
	Out     io.Writer
	Console *render.Console
	JSON    bool
	Spec    explore.Spec
	Server  flow.Server // what --write's flow files name
	Write   string      // --write DIR
	// Ledger proves the files mcpcli wrote: --write writes over a flow
	// file only when it says mcpcli wrote it.
	Ledger *safefile.Ledger
}

// NewCmdExplore is the explore command.
func NewCmdExplore(f *Factory, runF func(context.Context, *ExploreOptions) error) *cobra.Command {
	var (
		all             bool
		argsJSON, write string
		max             int
	)
	cmd := &cobra.Command{
		Use:         "explore TOOL [KEY=VALUE ...] | --all",
		Short:       "Answer what a tool asks every way (accept, decline, cancel) and show what the server does",
		Annotations: helpPage("explore"),
		Args:        cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			var tools, words []string
			for _, a := range splitOwn(f, cmd, args) {
				if strings.Contains(a, "=") {
					words = append(words, a)
				} else {
					tools = append(tools, a)
				}
			}
			switch {
			case all && len(tools) > 0:
				return usageErrorf(cmd, "give the tools to explore or --all, not both")
			case !all && len(tools) == 0:
				return usageErrorf(cmd, "name the tool to explore: mcpcli explore TOOL [KEY=VALUE ...], or --all; 'mcpcli tools' lists them")
			case (len(words) > 0 || argsJSON != "") && len(tools) != 1:
				return usageErrorf(cmd, "arguments (KEY=VALUE, --args) go with one tool; explore one tool at a time with them")
			case max < 1:
				return usageErrorf(cmd, "--max-branches %d: give at least 1", max)
			}
			sp := explore.Spec{Tools: tools, All: all, Max: max, Note: shell.Words{}.NoteOn(f.Console())}
			if len(words) > 0 || argsJSON != "" {
				base, err := parseArgsFlag(cmd, argsJSON)
				if err != nil {
					return err
				}
				if sp.Pairs, err = request.ParsePairs(words, "argument"); err != nil {
					return asUsage(cmd, err)
				}
				sp.Base = base
			}
			sp, err := f.exploring(cmd, sp) // the server given, before anything starts
			if err != nil {
				return err
			}
			opts := &ExploreOptions{Out: f.Deps.Out, Console: f.Console(), JSON: f.JSON(), Spec: sp, Server: f.flowServer(), Write: write, Ledger: f.ledger()}
			return asUsage(cmd, runOr(cmd, runF, exploreRun, opts))
		},
	}
	cmd.Flags().BoolVar(&all, "all", false, "explore every tool the server lists")
	cmd.Flags().StringVar(&argsJSON, "args", "", "the tool's arguments as a JSON object, or @FILE")
	cmd.Flags().StringVar(&write, "write", "", "write each branch as a flow file in `DIR`")
	cmd.Flags().IntVar(&max, "max-branches", explore.DefaultMaxBranches, "make at most `N` requests of each tool")
	return cmd
}

func exploreRun(ctx context.Context, opts *ExploreOptions) error {
	trees, err := explore.Explore(ctx, opts.Spec, nil)
	if err != nil {
		return err
	}
	if err := explore.Print(opts.Out, trees, opts.JSON, shell.Words{}.SkippedOn(opts.Console)); err != nil || opts.Write == "" {
		return err
	}
	n, err := explore.WriteFlows(opts.Write, opts.Server, trees, opts.Ledger)
	if err != nil {
		return err
	}
	opts.Console.Printf("mcpcli: wrote %d flow files in %s; run them with: mcpcli test %s", n, render.Line(opts.Write), render.Line(opts.Write))
	return nil
}
