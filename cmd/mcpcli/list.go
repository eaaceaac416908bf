package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
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
	// Name is the one tool to show (tools NAME).
	Name string
}

// newListCmd wires one of the list commands.
func newListCmd(f *Factory, c *cobra.Command, runF, run func(context.Context, *ListOptions) error) *cobra.Command {
	c.Args = noArgs(f)
	c.RunE = func(cmd *cobra.Command, args []string) error {
		connect, err := f.connector(cmd)
		if err != nil {
			return err
		}
		opts := &ListOptions{Out: f.Deps.Out, Console: f.Console(), Connect: connect, JSON: f.JSON(), Name: f.toolName}
		if runF != nil {
			return runF(cmd.Context(), opts)
		}
		return run(cmd.Context(), opts)
	}
	return c
}

// NewCmdTools is the tools command.
func NewCmdTools(f *Factory, runF func(context.Context, *ListOptions) error) *cobra.Command {
	c := newListCmd(f, &cobra.Command{
		Use:   "tools [NAME]",
		Short: "List the server's tools and their arguments, or show one",
		Long: `tools lists each tool with its arguments as KEY=TYPE, the optional ones in
brackets, and its description: what 'mcpcli call TOOL KEY=VALUE ...' takes.
A tool that runs as a task says so: (task: required) or (task: optional),
from its execution.taskSupport (2025-11-25). tools NAME shows one tool in
full. -o json prints every tool (or the one) exactly as the server sent it.

Over HTTP, tools whose x-mcp-header annotations are invalid are left out,
with a warning that names the tool and the reason.`,
		Example: `  mcpcli tools -- mcpcli demo-server
  mcpcli tools build_release -- mcpcli demo-server
  mcpcli tools --url http://127.0.0.1:8080/mcp -o json`,
	}, runF, toolsRun)
	c.Args = func(cmd *cobra.Command, args []string) error {
		rest := splitDash(f, cmd, args)
		if len(rest) > 1 {
			return usageErrorf(cmd, "tools takes at most one tool name (got %d); put a server command after --", len(rest))
		}
		if len(rest) == 1 {
			f.toolName = rest[0]
		}
		return nil
	}
	return c
}

func toolsRun(ctx context.Context, opts *ListOptions) error {
	return withSession(ctx, opts.Console, opts.Connect, func(s *client.Session) error {
		list, err := s.ListTools(ctx)
		if err != nil {
			return err
		}
		warnDropped(opts.Console, list)
		if opts.Name != "" {
			return toolDetail(opts, s, list)
		}
		if opts.JSON {
			raw := make([]json.RawMessage, 0, len(list.Tools))
			for _, t := range list.Tools {
				raw = append(raw, list.Raw[t.Name])
			}
			return render.WriteJSON(opts.Out, map[string]any{"tools": raw})
		}
		if len(list.Tools) == 0 {
			fmt.Fprintln(opts.Out, "(the server has no tools)")
		}
		for _, t := range list.Tools {
			fmt.Fprintf(opts.Out, "%s", render.Line(t.Name))
			if args := argSummary(jsonpeek.Get(list.Raw[t.Name], "inputSchema")); args != "" {
				fmt.Fprintf(opts.Out, " %s", args)
			}
			if ts := client.TaskSupport(list.Raw[t.Name]); ts == "required" || ts == "optional" {
				fmt.Fprintf(opts.Out, " (task: %s)", ts)
			}
			fmt.Fprintln(opts.Out)
			if t.Description != "" {
				fmt.Fprintf(opts.Out, "    %s\n", render.Line(t.Description))
			}
		}
		return nil
	})
}

// toolDetail shows one tool in full (tools NAME).
func toolDetail(opts *ListOptions, s *client.Session, list *client.ToolList) error {
	var tool *mcp.Tool
	for _, t := range list.Tools {
		if t.Name == opts.Name {
			tool = t
		}
	}
	if tool == nil {
		return fmt.Errorf("server %q has no tool %q; run 'mcpcli tools' to list them", s.Server().Display(), opts.Name)
	}
	raw := list.Raw[tool.Name]
	if opts.JSON {
		return render.WriteRaw(opts.Out, raw)
	}
	w := opts.Out
	fmt.Fprintf(w, "%s", render.Line(tool.Name))
	if tool.Title != "" {
		fmt.Fprintf(w, " (%s)", render.Line(tool.Title))
	}
	fmt.Fprintln(w)
	if tool.Description != "" {
		for _, l := range strings.Split(render.Sanitize(tool.Description), "\n") {
			fmt.Fprintf(w, "    %s\n", l)
		}
	}
	if args, err := schema.ParseArgs(jsonpeek.Get(raw, "inputSchema")); err == nil && len(args.Names) > 0 {
		fmt.Fprintln(w, "Arguments:")
		required := map[string]bool{}
		for _, r := range args.Required {
			required[r] = true
		}
		for _, n := range args.Names {
			a := args.Props[n]
			kind := a.Type()
			if kind == "" {
				kind = "value"
			}
			if required[n] {
				kind += ", required"
			}
			line := fmt.Sprintf("  %s  %s", render.Line(n), kind)
			if len(a.Enum) > 0 {
				var vals []string
				for _, e := range a.Enum {
					vals = append(vals, string(e))
				}
				line += "; one of " + render.Line(strings.Join(vals, ", "))
			}
			if len(a.Default) > 0 {
				line += "; default " + render.Line(string(a.Default))
			}
			if a.Description != "" {
				line += " — " + render.Line(a.Description)
			}
			fmt.Fprintln(w, line)
		}
	}
	if an := tool.Annotations; an != nil {
		var hints []string
		if an.ReadOnlyHint {
			hints = append(hints, "read-only")
		}
		if an.DestructiveHint != nil && *an.DestructiveHint {
			hints = append(hints, "destructive")
		}
		if an.IdempotentHint {
			hints = append(hints, "idempotent")
		}
		if an.OpenWorldHint != nil && *an.OpenWorldHint {
			hints = append(hints, "open world")
		}
		if len(hints) > 0 {
			fmt.Fprintf(w, "Annotations: %s\n", strings.Join(hints, ", "))
		}
	}
	switch ts := client.TaskSupport(raw); ts {
	case "required":
		fmt.Fprintln(w, "Task support: required (2025-11-25 tasks): mcpcli calls it as a task and follows it to the end")
	case "optional", "forbidden":
		fmt.Fprintf(w, "Task support: %s (2025-11-25 tasks)\n", ts)
	default:
		if s.Server().Modern() {
			if _, ok := s.Capabilities().Extensions[client.TasksExtension]; ok {
				fmt.Fprintln(w, "Task support: the server has the tasks extension and may run any call as a task; mcpcli follows it")
			}
		}
	}
	return nil
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
			raw := make([]json.RawMessage, 0, len(list.Prompts))
			for _, p := range list.Prompts {
				raw = append(raw, list.Raw[p.Name])
			}
			return render.WriteJSON(opts.Out, map[string]any{"prompts": raw})
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
'mcpcli read URI' takes. Then the resource templates (URIs with
{variables}), which 'mcpcli read TEMPLATE --var NAME=VALUE' fills in.
-o json prints both lists exactly as the server sent them.`,
		Example: `  mcpcli resources -- mcpcli demo-server`,
	}, runF, resourcesRun)
}

func resourcesRun(ctx context.Context, opts *ListOptions) error {
	return withSession(ctx, opts.Console, opts.Connect, func(s *client.Session) error {
		list, err := s.ListResources(ctx)
		if err != nil {
			return err
		}
		templates, err := s.ListResourceTemplates(ctx)
		var je *jsonrpc.Error
		if errors.As(err, &je) && je.Code == jsonrpc.CodeMethodNotFound {
			templates, err = &client.TemplateList{}, nil // a server without templates may not know the method
		}
		if err != nil {
			return err
		}
		if opts.JSON {
			raw := make([]json.RawMessage, 0, len(list.Resources))
			for _, r := range list.Resources {
				raw = append(raw, list.Raw[r.URI])
			}
			rawT := make([]json.RawMessage, 0, len(templates.Templates))
			for _, t := range templates.Templates {
				rawT = append(rawT, templates.Raw[t.URITemplate])
			}
			return render.WriteJSON(opts.Out, map[string]any{"resources": raw, "resourceTemplates": rawT})
		}
		if len(list.Resources) == 0 && len(templates.Templates) == 0 {
			fmt.Fprintln(opts.Out, "(the server has no resources)")
		}
		for _, r := range list.Resources {
			listEntry(opts.Out, r.URI, r.Title, r.Name, r.MIMEType, r.Description)
		}
		if len(templates.Templates) > 0 {
			if len(list.Resources) > 0 {
				fmt.Fprintln(opts.Out)
			}
			fmt.Fprintln(opts.Out, "Templates (mcpcli read 'TEMPLATE' --var NAME=VALUE):")
			for _, t := range templates.Templates {
				listEntry(opts.Out, t.URITemplate, t.Title, t.Name, t.MIMEType, t.Description)
			}
		}
		return nil
	})
}

// listEntry is one resource or template: its URI, name and MIME type,
// then its description, indented.
func listEntry(w io.Writer, uri, title, name, mimeType, description string) {
	if title == "" {
		title = name
	}
	fmt.Fprintf(w, "%s  %s", render.Line(uri), render.Line(title))
	if mimeType != "" {
		fmt.Fprintf(w, " (%s)", render.Line(mimeType))
	}
	fmt.Fprintln(w)
	if description != "" {
		fmt.Fprintf(w, "    %s\n", render.Line(description))
	}
}
