package main

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/mcpcli/mcpcli/render"
)

// withSession connects, runs fn, and always closes the session (and with it
// a stdio server), explaining errors with what happened to the server.
func (a *app) withSession(cmd *cobra.Command, fn func(ctx context.Context, s *session) error) error {
	s, err := a.connect(cmd)
	if err != nil {
		return err
	}
	defer s.Close()
	err = fn(cmd.Context(), s)
	if cmd.Context().Err() == nil {
		s.wire.drain()
	}
	a.endProgress()
	return s.explain(err)
}

func (a *app) newToolsCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "tools",
		Short: "List the server's tools and their arguments",
		Long: `tools lists each tool with its arguments as KEY=TYPE, the optional ones in
brackets, and its description: what 'mcpcli call TOOL KEY=VALUE ...' takes.
-o json prints every tool with its inputSchema exactly as the server sent it.

Over HTTP, tools whose x-mcp-header annotations are invalid are left out,
with a warning that names the tool and the reason.`,
		Example: `  mcpcli tools -- mcpcli demo-server
  mcpcli tools --url http://127.0.0.1:8080/mcp -o json`,
		Args: a.noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withSession(cmd, func(ctx context.Context, s *session) error {
				tools, err := listTools(ctx, s)
				if err != nil {
					return err
				}
				if a.flags.output == "json" {
					return render.WriteJSON(a.deps.Out, map[string]any{"tools": s.wire.verbatim(tools)})
				}
				if len(tools) == 0 {
					fmt.Fprintln(a.deps.Out, "(the server has no tools)")
				}
				for _, t := range tools {
					fmt.Fprintf(a.deps.Out, "%s", render.Line(t.Name))
					if args := argSummary(t.InputSchema); args != "" {
						fmt.Fprintf(a.deps.Out, " %s", args)
					}
					fmt.Fprintln(a.deps.Out)
					if t.Description != "" {
						fmt.Fprintf(a.deps.Out, "    %s\n", render.Line(t.Description))
					}
				}
				return nil
			})
		},
	}
}

func listTools(ctx context.Context, s *session) ([]*mcp.Tool, error) {
	all, err := listPages(ctx, s, "tools", func(ctx context.Context, cursor string) ([]*mcp.Tool, string, error) {
		res, err := s.SDK().ListTools(ctx, &mcp.ListToolsParams{Cursor: cursor})
		if err != nil {
			return nil, "", err
		}
		return res.Tools, res.NextCursor, nil
	})
	if err != nil {
		return nil, err
	}
	var tools []*mcp.Tool
	for _, t := range all {
		if err := misplacedHeader(t.InputSchema); err != nil {
			s.warn("excluding tool from tools/list", "tool", t.Name, "error", err)
			continue
		}
		tools = append(tools, t)
	}
	return tools, nil
}

// listPages lists every page of what ("tools", "prompts", "resources"). A
// server whose nextCursor comes back to one it already gave would be listed
// for ever (the go-sdk's iterators follow it blindly): stop and say so.
func listPages[T any](ctx context.Context, s *session, what string, page func(ctx context.Context, cursor string) ([]T, string, error)) ([]T, error) {
	var all []T
	seen := map[string]bool{}
	cursor := ""
	for n := 1; ; n++ {
		items, next, err := page(ctx, cursor)
		if err != nil {
			return nil, fmt.Errorf("listing %s: %w", what, err)
		}
		all = append(all, items...)
		if next == "" {
			return all, nil
		}
		if seen[next] {
			return nil, fmt.Errorf("server %q sent nextCursor %q again on page %d of %s/list: its pages go round in a circle, a bug in the server",
				s.Server().Display(), next, n, what)
		}
		seen[next] = true
		cursor = next
	}
}

// argSummary is "name=string [count=integer]" from an input schema.
func argSummary(schema any) string {
	props, required := schemaProps(schema)
	names := make([]string, 0, len(props))
	for n := range props {
		names = append(names, n)
	}
	sort.Strings(names)
	var parts []string
	for _, n := range names {
		t := propType(props[n])
		if t == "" {
			t = "value"
		}
		p := fmt.Sprintf("%s=%s", render.Line(n), t)
		if !required[n] {
			p = "[" + p + "]"
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, " ")
}

func (a *app) newPromptsCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "prompts",
		Short: "List the server's prompts and their arguments",
		Long: `prompts lists each prompt with its arguments, the optional ones in brackets,
and its description: what 'mcpcli prompt NAME KEY=VALUE ...' takes.`,
		Example: `  mcpcli prompts -- mcpcli demo-server`,
		Args:    a.noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withSession(cmd, func(ctx context.Context, s *session) error {
				prompts, err := listPages(ctx, s, "prompts", func(ctx context.Context, cursor string) ([]*mcp.Prompt, string, error) {
					res, err := s.SDK().ListPrompts(ctx, &mcp.ListPromptsParams{Cursor: cursor})
					if err != nil {
						return nil, "", err
					}
					return res.Prompts, res.NextCursor, nil
				})
				if err != nil {
					return err
				}
				if a.flags.output == "json" {
					return render.WriteJSON(a.deps.Out, map[string]any{"prompts": prompts})
				}
				if len(prompts) == 0 {
					fmt.Fprintln(a.deps.Out, "(the server has no prompts)")
				}
				for _, p := range prompts {
					fmt.Fprintf(a.deps.Out, "%s", render.Line(p.Name))
					for _, arg := range p.Arguments {
						if arg.Required {
							fmt.Fprintf(a.deps.Out, " %s=…", render.Line(arg.Name))
						} else {
							fmt.Fprintf(a.deps.Out, " [%s=…]", render.Line(arg.Name))
						}
					}
					fmt.Fprintln(a.deps.Out)
					if p.Description != "" {
						fmt.Fprintf(a.deps.Out, "    %s\n", render.Line(p.Description))
					}
				}
				return nil
			})
		},
	}
}

func (a *app) newResourcesCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "resources",
		Short: "List the server's resources",
		Long: `resources lists each resource's URI, name and MIME type: the URI is what
'mcpcli read URI' takes.`,
		Example: `  mcpcli resources -- mcpcli demo-server`,
		Args:    a.noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withSession(cmd, func(ctx context.Context, s *session) error {
				res, err := listPages(ctx, s, "resources", func(ctx context.Context, cursor string) ([]*mcp.Resource, string, error) {
					res, err := s.SDK().ListResources(ctx, &mcp.ListResourcesParams{Cursor: cursor})
					if err != nil {
						return nil, "", err
					}
					return res.Resources, res.NextCursor, nil
				})
				if err != nil {
					return err
				}
				if a.flags.output == "json" {
					return render.WriteJSON(a.deps.Out, map[string]any{"resources": res})
				}
				if len(res) == 0 {
					fmt.Fprintln(a.deps.Out, "(the server has no resources)")
				}
				for _, r := range res {
					name := r.Title
					if name == "" {
						name = r.Name
					}
					fmt.Fprintf(a.deps.Out, "%s  %s", render.Line(r.URI), render.Line(name))
					if r.MIMEType != "" {
						fmt.Fprintf(a.deps.Out, " (%s)", render.Line(r.MIMEType))
					}
					fmt.Fprintln(a.deps.Out)
					if r.Description != "" {
						fmt.Fprintf(a.deps.Out, "    %s\n", render.Line(r.Description))
					}
				}
				return nil
			})
		},
	}
}

// noArgs accepts no arguments but the server command after --.
func (a *app) noArgs(cmd *cobra.Command, args []string) error {
	if rest := a.splitDash(cmd, args); len(rest) > 0 {
		return usageErrorf(cmd, "%s takes no arguments (got %q); put a server command after --", cmd.Name(), rest[0])
	}
	return nil
}
