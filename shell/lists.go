package shell

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/request"
)

// Lists show what a server lists, as the one-shot commands (tools,
// prompts, resources) and the line shell do alike.
type Lists struct {
	Out     io.Writer // the lists
	Console *render.Console
	JSON    bool // -o json: the items as the server sent them
	Width   int  // stdout's, when a terminal: text is wrapped to it
	// ReadTemplate says how to read a resource template where the lists
	// are shown: "mcpcli read 'TEMPLATE' --var NAME=VALUE".
	ReadTemplate string
}

// Tools lists the tools, or shows the one called name in full.
func (l Lists) Tools(ctx context.Context, s *client.Session, name string) error {
	list, err := s.ListTools(ctx)
	if err != nil {
		return err
	}
	render.WarnDropped(l.Console, list)
	tools := list.Tools
	if name != "" {
		t, _, err := s.Tool(ctx, name)
		if err != nil {
			return err
		}
		if t == nil {
			return request.UnknownTool(s, list, name)
		}
		tools = []*mcp.Tool{t}
	}
	if l.JSON {
		return render.RawList(l.Out, "tools", tools, func(t *mcp.Tool) json.RawMessage { return list.Raw[t.Name] })
	}
	if name != "" {
		render.ToolDetail(l.Out, tools[0], list.Raw[name], l.Width)
		if _, ok := s.Capabilities().Extensions[client.TasksExtension]; ok && s.Server().Modern() && render.TaskSupport(list.Raw[name]) == "" {
			fmt.Fprintln(l.Out, "  "+render.ServerRunsTasks)
		}
		return nil
	}
	if len(tools) == 0 {
		fmt.Fprintln(l.Out, "(the server has no tools)")
	}
	for _, t := range tools {
		render.ToolEntry(l.Out, t, list.Raw[t.Name], l.Width)
	}
	return nil
}

// Prompts lists the prompts, or shows the one called name in full.
func (l Lists) Prompts(ctx context.Context, s *client.Session, name string) error {
	list, err := s.ListPrompts(ctx)
	if name == "" && render.NotOffered(l.Out, l.Console, l.JSON, err) {
		return nil
	}
	if err != nil {
		return err
	}
	prompts := list.Prompts
	if name != "" {
		prompts = nil
		for _, p := range list.Prompts {
			if p.Name == name {
				prompts = []*mcp.Prompt{p}
			}
		}
		if prompts == nil {
			return request.UnknownPrompt(s.Server().Display(), list, name)
		}
	}
	if l.JSON {
		return render.RawList(l.Out, "prompts", prompts, func(p *mcp.Prompt) json.RawMessage { return list.Raw[p.Name] })
	}
	if name != "" {
		render.PromptDetail(l.Out, prompts[0], l.Width)
		return nil
	}
	if len(prompts) == 0 {
		fmt.Fprintln(l.Out, "(the server has no prompts)")
	}
	for _, p := range prompts {
		render.PromptEntry(l.Out, p, l.Width)
	}
	return nil
}

// Resources lists the resources, then the resource templates.
func (l Lists) Resources(ctx context.Context, s *client.Session) error {
	list, err := s.ListResources(ctx)
	if render.NotOffered(l.Out, l.Console, l.JSON, err) {
		return nil
	}
	if err != nil {
		return err
	}
	templates, err := request.Templates(ctx, s)
	if err != nil {
		return err
	}
	return render.Resources(l.Out, list, templates, l.JSON, l.ReadTemplate)
}
