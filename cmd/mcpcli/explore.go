package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/explore"
	"github.com/mcpcli/mcpcli/flow"
	"github.com/mcpcli/mcpcli/flow/runner"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/request"
	"github.com/mcpcli/mcpcli/transport"
)

// ExploreOptions are what explore needs.
type ExploreOptions struct {
	Out     io.Writer
	Console *render.Console
	JSON    bool
	// Dial connects with the explorer's answerer, observe watching.
	Dial   func(ctx context.Context, a client.Answerer, observe transport.Observer) (*client.Session, error)
	Server flow.Server // what --write's flow files name

	Tools []string
	All   bool
	// Base and Pairs are the calls' arguments (one tool); nil both: made
	// up from each tool's inputSchema.
	Base  map[string]any
	Pairs []request.Pair
	Write string // --write DIR
	Max   int    // --max-branches
}

// NewCmdExplore is the explore command.
func NewCmdExplore(f *Factory, runF func(context.Context, *ExploreOptions) error) *cobra.Command {
	var (
		all      bool
		argsJSON string
		write    string
		max      int
	)
	cmd := &cobra.Command{
		Use:   "explore TOOL [KEY=VALUE ...] | --all",
		Short: "Answer what a tool asks every way (accept, decline, cancel) and show what the server does",
		Long:  page("explore"), Example: examples("explore"),
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			args = splitOwn(f, cmd, args)
			var tools, words []string
			for _, a := range args {
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
			opts := &ExploreOptions{Out: f.Deps.Out, Console: f.Console(), JSON: f.JSON(), Tools: tools, All: all, Write: write, Max: max}
			if len(words) > 0 || argsJSON != "" {
				base, err := parseArgsFlag(cmd, argsJSON)
				if err != nil {
					return err
				}
				if opts.Pairs, err = request.ParsePairs(words, "argument"); err != nil {
					return asUsage(cmd, err)
				}
				opts.Base = base
			}
			if _, err := f.Transport(cmd); err != nil { // the server given, before anything starts
				return err
			}
			opts.Server = f.flowServer()
			dial := f.flowDialer(cmd)
			opts.Dial = func(ctx context.Context, a client.Answerer, observe transport.Observer) (*client.Session, error) {
				return dial(ctx, opts.Server, a, observe)
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return asUsage(cmd, exploreRun(cmd.Context(), opts))
		},
	}
	cmd.Flags().BoolVar(&all, "all", false, "explore every tool the server lists")
	cmd.Flags().StringVar(&argsJSON, "args", "", "the tool's arguments as a JSON object, or @FILE")
	cmd.Flags().StringVar(&write, "write", "", "write each branch as a flow file in `DIR`")
	cmd.Flags().IntVar(&max, "max-branches", explore.DefaultMaxBranches, "make at most `N` requests of each tool")
	return cmd
}

func exploreRun(ctx context.Context, opts *ExploreOptions) error {
	trees, err := exploreTools(ctx, opts, nil)
	if err != nil {
		return err
	}
	return printTrees(opts, trees)
}

// exploreTools connects and explores opts' tools, observe watching.
func exploreTools(ctx context.Context, opts *ExploreOptions, observe transport.Observer) ([]explore.ToolTree, error) {
	plug := &explore.Plug{}
	s, err := opts.Dial(ctx, plug, observe)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	var args map[string]any
	if opts.Base != nil || opts.Pairs != nil {
		p := &request.Preparer{Session: s, Note: noteOn(opts.Console)}
		r, err := p.Call(ctx, opts.Tools[0], opts.Base, opts.Pairs)
		if err != nil {
			return nil, err
		}
		args = r.Args
	}
	trees, err := explore.Tools(ctx, s, plug, opts.Tools, opts.All, args, explore.Options{MaxBranches: opts.Max})
	return trees, s.Explain(err)
}

func printTrees(opts *ExploreOptions, trees []explore.ToolTree) error {
	if opts.JSON {
		type branch struct {
			Path    string `json:"path"`
			Outcome string `json:"outcome"`
			Rounds  int    `json:"rounds"`
			IsError bool   `json:"isError,omitempty"`
			Error   string `json:"error,omitempty"`
			Cut     bool   `json:"cut,omitempty"`
		}
		type tree struct {
			Tool     string         `json:"tool"`
			Args     map[string]any `json:"arguments,omitempty"`
			Skipped  string         `json:"skipped,omitempty"`
			Branches []branch       `json:"branches"`
		}
		out := []tree{}
		for _, t := range trees {
			tr := tree{Tool: t.Tool, Args: t.Args, Skipped: t.Skipped, Branches: []branch{}}
			for _, b := range t.Branches {
				br := branch{Path: b.PathString(), Outcome: b.Outcome(), Rounds: len(b.Path), Cut: b.Cut}
				if b.Run.Err != nil {
					br.Error = b.Run.Err.Error()
				}
				br.IsError = b.Run.Result != nil && b.Run.Result.IsError()
				tr.Branches = append(tr.Branches, br)
			}
			out = append(out, tr)
		}
		if err := render.WriteJSON(opts.Out, out); err != nil {
			return err
		}
	} else {
		for i, t := range trees {
			if t.Skipped != "" {
				opts.Console.Printf("mcpcli: skipped %s: %s", render.Line(t.Tool), render.Line(t.Skipped))
				continue
			}
			if i > 0 {
				fmt.Fprintln(opts.Out)
			}
			if err := explore.Table(opts.Out, t.Tool, t.Branches); err != nil {
				return err
			}
		}
	}
	if opts.Write == "" {
		return nil
	}
	n := 0
	for _, t := range trees {
		for _, b := range t.Branches {
			path := filepath.Join(opts.Write, branchFile(t.Tool, b))
			if _, err := runner.SaveRuns(path, opts.Server, []flow.Run{b.Run}); err != nil {
				return err
			}
			n++
		}
	}
	opts.Console.Printf("mcpcli: wrote %d flow files in %s; run them with: mcpcli test %s", n, render.Line(opts.Write), render.Line(opts.Write))
	return nil
}

var notFileChar = regexp.MustCompile(`[^A-Za-z0-9_.-]+`)

// branchFile names a branch's flow file: create_repo.basics-accept.details-decline.flow.
func branchFile(tool string, b explore.Branch) string {
	parts := []string{tool}
	for _, s := range b.Path {
		var keys []string
		for _, k := range s.Keys {
			a := s.Choice[k]
			if a == "" {
				a = "accept"
			}
			keys = append(keys, k+"-"+a)
		}
		parts = append(parts, strings.Join(keys, "+"))
	}
	name := notFileChar.ReplaceAllString(strings.Join(parts, "."), "_")
	if len(name) > 200 {
		name = name[:200]
	}
	return name + ".flow"
}
