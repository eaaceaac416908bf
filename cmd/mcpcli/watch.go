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

// WatchOptions are what watch needs.
type WatchOptions struct {
	Out     io.Writer
	Console *render.Console
	Connect connector
	JSON    bool

	Resources []string // --resource URIs to subscribe to
}

// NewCmdWatch is the watch command.
func NewCmdWatch(f *Factory, runF func(context.Context, *WatchOptions) error) *cobra.Command {
	var resources []string
	cmd := &cobra.Command{
		Use:         "watch [--resource URI ...]",
		Short:       "Print the server's notifications as they arrive, until Ctrl+C",
		Annotations: helpPage("watch"),
		Args:        noArgs(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			out := render.NewNotifications(f.Deps.Out, f.JSON())
			connect, err := f.connector(cmd, dial{adjust: func(o *client.Options) {
				o.Listen = true
				o.OnNotification = out.Write
				// Every notification is printed on stdout: not on stderr
				// as well.
				o.OnLog, o.OnProgress = nil, nil
			}})
			if err != nil {
				return err
			}
			opts := &WatchOptions{Out: f.Deps.Out, Console: f.Console(), JSON: f.JSON(), Resources: resources, Connect: connect}
			return runOr(cmd, runF, watchRun, opts)
		},
	}
	cmd.Flags().StringArrayVar(&resources, "resource", nil, "subscribe to the resource `URI` too (repeatable): notifications/resources/updated when it changes")
	return cmd
}

func watchRun(ctx context.Context, opts *WatchOptions) error {
	return connect.With(ctx, opts.Console, opts.Connect, func(s *client.Session) error {
		return shell.Watch(ctx, s, opts.Console, opts.Resources)
	})
}
