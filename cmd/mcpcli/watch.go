package main

import (
	"context"
	"errors"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/internal/interrupt"
	"github.com/mcpcli/mcpcli/render"
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
		Use:   "watch [--resource URI ...]",
		Short: "Print the server's notifications as they arrive, until Ctrl+C",
		Long:  page("watch"), Example: examples("watch"),
		Args: noArgs(f),
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
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return watchRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringArrayVar(&resources, "resource", nil, "subscribe to the resource `URI` too (repeatable): notifications/resources/updated when it changes")
	return cmd
}

func watchRun(ctx context.Context, opts *WatchOptions) error {
	return withSession(ctx, opts.Console, opts.Connect, func(s *client.Session) error {
		what := "notifications"
		if len(opts.Resources) > 0 {
			what += ", and changes to " + render.Line(strings.Join(opts.Resources, ", "))
		}
		opts.Console.Printf("mcpcli: watching %s for %s; Ctrl+C stops", render.Line(s.Server().Display()), what)
		for _, uri := range opts.Resources {
			if err := s.Subscribe(ctx, uri); err != nil {
				if ctx.Err() != nil {
					return stopped(ctx) // before the subscriptions were done
				}
				return err
			}
		}
		err := s.Wait(ctx)
		if errors.Is(err, context.Canceled) && ctx.Err() != nil {
			return stopped(ctx)
		}
		return err
	})
}

// stopped is how watch ends when its context does: Ctrl+C (or a test's
// cancel) is its normal end; SIGTERM or SIGHUP end it as they end any run.
func stopped(ctx context.Context) error {
	var sig interrupt.Signal
	if errors.As(context.Cause(ctx), &sig) && sig.Sig != os.Interrupt {
		return ctx.Err()
	}
	return nil
}
