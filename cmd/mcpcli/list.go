package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/internal/jsonpeek"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/schema"
)

// ListOptions are what tools, prompts and resources need.
type ListOptions struct {
	Out     io.Writer
	Console *render.Console
	Connect connector
	JSON    bool
}

// newListCmd wires one of the list commands.
func newListCmd(f *Factory, c *cobra.Command, runF, run func(context.Context, *ListOptions) error) *cobra.Command {
	c.Args = noArgs(f)
	c.RunE = func(cmd *cobra.Command, args []string) error {
		connect, err := f.connector(cmd)
		if err != nil {
			return err
		}
		opts := &ListOptions{Out: f.Deps.Out, Console: f.Console(), Connect: connect, JSON: f.JSON()}
		if runF != nil {
			return runF(cmd.Context(), opts)
		}
		return run(cmd.Context(), opts)
	}
	return c
}

// NewCmdTools is the tools command.
func NewCmdTools(f *Factory, runF func(context.Context, *ListOptions) error) *cobra.Command {
	return newListCmd(f, &cobra.Command{
		Use:   "tools",
		Short: "List the server's tools and their arguments",
		Long: `tools lists each tool with its arguments as KEY=TYPE, the optional ones in
brackets, and its description: what 'mcpcli call TOOL KEY=VALUE ...' takes.
-o json prints every tool exactly as the server sent it.

Over HTTP, tools whose x-mcp-header annotations are invalid are left out,
with a warning that names the tool and the reason.`,
		Example: `  mcpcli tools -- mcpcli demo-server
  mcpcli tools --url http://127.0.0.1:8080/mcp -o json`,
	}, runF, toolsRun)
}

func toolsRun(ctx context.Context, opts *ListOptions) error {
	return withSession(ctx, opts.Console, opts.Connect, func(s *client.Session) error {
		list, err := s.ListTools(ctx)
		if err != nil {
			return err
		}
		warnDropped(opts.Console, list)
		if opts.JSON {
			return writeRawList(opts.Out, "tools", list.Tools, func(t *mcp.Tool) json.RawMessage { return list.Raw[t.Name] })
		}
		if len(list.Tools) == 0 {
			fmt.Fprintln(opts.Out, "(the server has no tools)")
		}
		for _, t := range list.Tools {
			fmt.Fprintf(opts.Out, "%s", render.Line(t.Name))
			if args := argSummary(jsonpeek.Get(list.Raw[t.Name], "inputSchema")); args != "" {
				fmt.Fprintf(opts.Out, " %s", args)
			}
			fmt.Fprintln(opts.Out)
			if t.Description != "" {
				fmt.Fprintf(opts.Out, "    %s\n", render.Line(t.Description))
			}
		}
		return nil
	})
}

// writeRawList prints {"key": [...]} with each item as the server sent it
// (or as the go-sdk decoded it, where the bytes were not seen).
func writeRawList[T any](w io.Writer, key string, items []T, raw func(T) json.RawMessage) error {
	out := make([]any, len(items))
	for i, it := range items {
		if r := raw(it); r != nil {
			out[i] = r
		} else {
			out[i] = it
		}
	}
	return render.WriteJSON(w, map[string]any{key: out})
}

// warnDropped says which listed tools were left out, and why.
func warnDropped(con *render.Console, list *client.ToolList) {
	for _, d := range list.Dropped {
		con.Warn(fmt.Sprintf("tool %q is left out: its inputSchema is invalid (%s)", d.Name, d.Reason))
	}
}

// argSummary is "name=string [count=integer]" from an input schema.
func argSummary(inputSchema json.RawMessage) string {
	args, err := schema.ParseArgs(inputSchema)
	if err != nil {
		return ""
	}
	names := append([]string(nil), args.Names...)
	sort.Strings(names)
	required := map[string]bool{}
	for _, r := range args.Required {
		required[r] = true
	}
	var parts []string
	for _, n := range names {
		t := args.Props[n].Type()
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

// NewCmdPrompts is the prompts command.
func NewCmdPrompts(f *Factory, runF func(context.Context, *ListOptions) error) *cobra.Command {
	return newListCmd(f, &cobra.Command{
		Use:   "prompts",
		Short: "List the server's prompts and their arguments",
		Long: `prompts lists each prompt with its arguments, the optional ones in brackets,
and its description: what 'mcpcli prompt NAME KEY=VALUE ...' takes.`,
		Example: `  mcpcli prompts -- mcpcli demo-server`,
	}, runF, promptsRun)
}

func promptsRun(ctx context.Context, opts *ListOptions) error {
	return withSession(ctx, opts.Console, opts.Connect, func(s *client.Session) error {
		list, err := s.ListPrompts(ctx)
		if err != nil {
			return err
		}
		if opts.JSON {
			return writeRawList(opts.Out, "prompts", list.Prompts, func(p *mcp.Prompt) json.RawMessage { return list.Raw[p.Name] })
		}
		if len(list.Prompts) == 0 {
			fmt.Fprintln(opts.Out, "(the server has no prompts)")
		}
		for _, p := range list.Prompts {
			fmt.Fprintf(opts.Out, "%s", render.Line(p.Name))
			for _, arg := range p.Arguments {
				if arg.Required {
					fmt.Fprintf(opts.Out, " %s=…", render.Line(arg.Name))
				} else {
					fmt.Fprintf(opts.Out, " [%s=…]", render.Line(arg.Name))
				}
			}
			fmt.Fprintln(opts.Out)
			if p.Description != "" {
				fmt.Fprintf(opts.Out, "    %s\n", render.Line(p.Description))
			}
		}
		return nil
	})
}

// NewCmdResources is the resources command.
func NewCmdResources(f *Factory, runF func(context.Context, *ListOptions) error) *cobra.Command {
	return newListCmd(f, &cobra.Command{
		Use:   "resources",
		Short: "List the server's resources",
		Long: `resources lists each resource's URI, name and MIME type: the URI is what
'mcpcli read URI' takes.`,
		Example: `  mcpcli resources -- mcpcli demo-server`,
	}, runF, resourcesRun)
}

func resourcesRun(ctx context.Context, opts *ListOptions) error {
	return withSession(ctx, opts.Console, opts.Connect, func(s *client.Session) error {
		list, err := s.ListResources(ctx)
		if err != nil {
			return err
		}
		if opts.JSON {
			return writeRawList(opts.Out, "resources", list.Resources, func(r *mcp.Resource) json.RawMessage { return list.Raw[r.URI] })
		}
		if len(list.Resources) == 0 {
			fmt.Fprintln(opts.Out, "(the server has no resources)")
		}
		for _, r := range list.Resources {
			name := r.Title
			if name == "" {
				name = r.Name
			}
			fmt.Fprintf(opts.Out, "%s  %s", render.Line(r.URI), render.Line(name))
			if r.MIMEType != "" {
				fmt.Fprintf(opts.Out, " (%s)", render.Line(r.MIMEType))
			}
			fmt.Fprintln(opts.Out)
			if r.Description != "" {
				fmt.Fprintf(opts.Out, "    %s\n", render.Line(r.Description))
			}
		}
		return nil
	})
}
