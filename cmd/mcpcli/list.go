package main

import (
	"context"
	"io"

	"github.com/spf13/cobra"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/connect"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/shell"
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
		connect, err := f.connector(cmd, dial{})
		if err != nil {
			return err
		}
		opts := &ListOptions{Out: f.Deps.Out, Console: f.Console(), Connect: connect, JSON: f.JSON()}
		if f.Deps.OutWidth != nil {
			opts.Width = f.Deps.OutWidth()
		}
		if rest := splitDash(f, cmd, args); named && len(rest) == 1 {
			opts.Name = rest[0]
		}
		return runOr(cmd, runF, run, opts)
	}
	return c
}

// NewCmdTools is the tools command.
func NewCmdTools(f *Factory, runF func(context.Context, *ListOptions) error) *cobra.Command {
	return newListCmd(f, &cobra.Command{
		Use:         "tools [NAME]",
		Short:       "List the server's tools and their arguments, or show one in full",
		Annotations: helpPage("tools"),
	}, true, runF, toolsRun)
}

func toolsRun(ctx context.Context, opts *ListOptions) error {
	return connect.With(ctx, opts.Console, opts.Connect, func(s *client.Session) error {
		return opts.lists().Tools(ctx, s, opts.Name)
	})
}

// lists show the lists as the one-shot commands do.
func (opts *ListOptions) lists() shell.Lists {
	return shell.Lists{Out: opts.Out, Console: opts.Console, JSON: opts.JSON, Width: opts.Width, ReadTemplate: "mcpcli read 'TEMPLATE' --var NAME=VALUE"}
}

// NewCmdPrompts is the prompts command.
func NewCmdPrompts(f *Factory, runF func(context.Context, *ListOptions) error) *cobra.Command {
	return newListCmd(f, &cobra.Command{
		Use:         "prompts [NAME]",
		Short:       "List the server's prompts and their arguments, or show one in full",
		Annotations: helpPage("prompts"),
	}, true, runF, promptsRun)
}

func promptsRun(ctx context.Context, opts *ListOptions) error {
	return connect.With(ctx, opts.Console, opts.Connect, func(s *client.Session) error {
		return opts.lists().Prompts(ctx, s, opts.Name)
	})
}

// NewCmdResources is the resources command.
func NewCmdResources(f *Factory, runF func(context.Context, *ListOptions) error) *cobra.Command {
	return newListCmd(f, &cobra.Command{
		Use:         "resources",
		Short:       "List the server's resources",
		Annotations: helpPage("resources"),
	}, false, runF, resourcesRun)
}

func resourcesRun(ctx context.Context, opts *ListOptions) error {
	return connect.With(ctx, opts.Console, opts.Connect, func(s *client.Session) error {
		return opts.lists().Resources(ctx, s)
	})
}
