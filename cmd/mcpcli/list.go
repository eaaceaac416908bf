package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/internal/suggest"
	"github.com/mcpcli/mcpcli/render"
)

// ListOptions are what tools, prompts and resources need.
type ListOptions struct {
	Out     io.Writer
	Console *render.Console
	Connect connector
	JSON    bool
	// Name, for tools and prompts, shows that one in full.
	Name string
	// Width is stdout's, when a terminal: text is wrapped to it.
	Width int
}

// newListCmd wires one of the list commands; named says it takes an
// optional NAME.
func newListCmd(f *Factory, c *cobra.Command, named bool, runF, run func(context.Context, *ListOptions) error) *cobra.Command {
	c.Args = noArgs(f)
	if named {
		c.Args = func(cmd *cobra.Command, args []string) error {
			if rest := splitDash(f, cmd, args); len(rest) > 1 {
				return usageErrorf(cmd, "%s takes at most one name (got %q); put a server command after --", cmd.Name(), rest)
			}
			return nil
		}
	}
	c.RunE = func(cmd *cobra.Command, args []string) error {
		connect, err := f.connector(cmd)
		if err != nil {
			return err
		}
		opts := &ListOptions{Out: f.Deps.Out, Console: f.Console(), Connect: connect, JSON: f.JSON()}
		if f.Deps.OutWidth != nil {
			opts.Width = f.Deps.OutWidth()
		}
		if rest := args; named {
			if i := cmd.ArgsLenAtDash(); i >= 0 {
				rest = args[:i]
			}
			if len(rest) == 1 {
				opts.Name = rest[0]
			}
		}
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
		Use:   "tools [NAME]",
		Short: "List the server's tools and their arguments, or show one in full",
		Long: `tools lists each tool with its arguments as KEY=TYPE in the server's order,
the optional ones in brackets, and its description: what
'mcpcli call TOOL KEY=VALUE ...' takes. -o json prints every tool exactly as
the server sent it.

tools NAME shows one tool in full: its title and description, its
annotations (read-only, destructive, idempotent, open world), whether it runs
as a task, and each argument with its type, what it allows (choices, range,
length, array items, object keys), its default and its description. In the
list, a tool that runs as a task (2025-11-25 execution.taskSupport) says so:
(task: required) or (task: optional).

Over HTTP, tools whose x-mcp-header annotations are invalid are left out,
with a warning that names the tool and the reason.`,
		Example: `  mcpcli tools -- mcpcli demo-server
  mcpcli tools create_repo -- mcpcli demo-server
  mcpcli tools --url http://127.0.0.1:8080/mcp -o json`,
	}, true, runF, toolsRun)
}

func toolsRun(ctx context.Context, opts *ListOptions) error {
	return withSession(ctx, opts.Console, opts.Connect, func(s *client.Session) error {
		list, err := s.ListTools(ctx)
		if err != nil {
			return err
		}
		warnDropped(opts.Console, list)
		tools := list.Tools
		if opts.Name != "" {
			t, _, err := s.Tool(ctx, opts.Name)
			if err != nil {
				return err
			}
			if t == nil {
				return unknownTool(s, list, opts.Name, "mcpcli tools")
			}
			tools = []*mcp.Tool{t}
		}
		if opts.JSON {
			return writeRawList(opts.Out, "tools", tools, func(t *mcp.Tool) json.RawMessage { return list.Raw[t.Name] })
		}
		if opts.Name != "" {
			render.ToolDetail(opts.Out, tools[0], list.Raw[opts.Name], opts.Width)
			if _, ok := s.Capabilities().Extensions[client.TasksExtension]; ok && s.Server().Modern() && render.TaskSupport(list.Raw[opts.Name]) == "" {
				fmt.Fprintln(opts.Out, "  "+render.ServerRunsTasks)
			}
			return nil
		}
		if len(tools) == 0 {
			fmt.Fprintln(opts.Out, "(the server has no tools)")
		}
		for _, t := range tools {
			render.ToolEntry(opts.Out, t, list.Raw[t.Name], opts.Width)
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

// NewCmdPrompts is the prompts command.
func NewCmdPrompts(f *Factory, runF func(context.Context, *ListOptions) error) *cobra.Command {
	return newListCmd(f, &cobra.Command{
		Use:   "prompts [NAME]",
		Short: "List the server's prompts and their arguments, or show one in full",
		Long: `prompts lists each prompt with its arguments, the optional ones in brackets,
and its description: what 'mcpcli prompt NAME KEY=VALUE ...' takes.
prompts NAME shows one prompt in full, with each argument's description.`,
		Example: `  mcpcli prompts -- mcpcli demo-server
  mcpcli prompts release_notes -- mcpcli demo-server`,
	}, true, runF, promptsRun)
}

func promptsRun(ctx context.Context, opts *ListOptions) error {
	return withSession(ctx, opts.Console, opts.Connect, func(s *client.Session) error {
		list, err := s.ListPrompts(ctx)
		if opts.Name == "" && notOffered(opts.Out, opts.Console, opts.JSON, err) {
			return nil
		}
		if err != nil {
			return err
		}
		prompts := list.Prompts
		if opts.Name != "" {
			var names []string
			prompts = nil
			for _, p := range list.Prompts {
				names = append(names, p.Name)
				if p.Name == opts.Name {
					prompts = []*mcp.Prompt{p}
				}
			}
			if prompts == nil {
				return &notFoundError{server: s.Server().Display(), what: "prompt", name: opts.Name, maybe: suggest.Closest(opts.Name, names), list: "mcpcli prompts"}
			}
		}
		if opts.JSON {
			return writeRawList(opts.Out, "prompts", prompts, func(p *mcp.Prompt) json.RawMessage { return list.Raw[p.Name] })
		}
		if opts.Name != "" {
			render.PromptDetail(opts.Out, prompts[0], opts.Width)
			return nil
		}
		if len(prompts) == 0 {
			fmt.Fprintln(opts.Out, "(the server has no prompts)")
		}
		for _, p := range prompts {
			render.PromptEntry(opts.Out, p, opts.Width)
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
	}, false, runF, resourcesRun)
}

func resourcesRun(ctx context.Context, opts *ListOptions) error {
	return withSession(ctx, opts.Console, opts.Connect, func(s *client.Session) error {
		return listResources(ctx, s, opts.Out, opts.Console, opts.JSON, "mcpcli read 'TEMPLATE' --var NAME=VALUE")
	})
}

// notOffered says, when err is a list of what the server does not offer,
// that it does not: on w, or with asJSON on con (stdout carries only what
// the server sent, and it sent nothing). It is not a failure.
func notOffered(w io.Writer, con *render.Console, asJSON bool, err error) bool {
	var no *client.NotOfferedError
	if !errors.As(err, &no) {
		return false
	}
	if asJSON {
		con.Printf("mcpcli: %s", render.Line(no.Error()))
		return true
	}
	fmt.Fprintf(w, "(the server does not offer %s: it declares no %s capability)\n", no.Feature, no.Feature)
	return true
}

// listResources prints the server's resources, then its resource
// templates, with how to read one (readTemplate); with asJSON, both
// lists as the server sent them.
func listResources(ctx context.Context, s *client.Session, w io.Writer, con *render.Console, asJSON bool, readTemplate string) error {
	list, err := s.ListResources(ctx)
	if notOffered(w, con, asJSON, err) {
		return nil
	}
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
	if asJSON {
		resources := make([]any, len(list.Resources))
		for i, r := range list.Resources {
			resources[i] = rawOr(list.Raw[r.URI], r)
		}
		ts := make([]any, len(templates.Templates))
		for i, t := range templates.Templates {
			ts[i] = rawOr(templates.Raw[t.URITemplate], t)
		}
		return render.WriteJSON(w, map[string]any{"resources": resources, "resourceTemplates": ts})
	}
	if len(list.Resources) == 0 && len(templates.Templates) == 0 {
		fmt.Fprintln(w, "(the server has no resources)")
	}
	for _, r := range list.Resources {
		listEntry(w, r.URI, r.Title, r.Name, r.MIMEType, r.Description)
	}
	if len(templates.Templates) > 0 {
		if len(list.Resources) > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "Templates (%s):\n", readTemplate)
		for _, t := range templates.Templates {
			listEntry(w, t.URITemplate, t.Title, t.Name, t.MIMEType, t.Description)
		}
	}
	return nil
}

// rawOr is the server's bytes of an item, or the item as decoded where
// they were not seen.
func rawOr(raw json.RawMessage, v any) any {
	if raw != nil {
		return raw
	}
	return v
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
