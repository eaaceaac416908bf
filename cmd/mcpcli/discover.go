package main

import (
	"context"
	"io"

	"github.com/spf13/cobra"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/connect"
	"github.com/mcpcli/mcpcli/render"
)

// DiscoverOptions are what discover needs.
type DiscoverOptions struct {
	Out     io.Writer
	Console *render.Console
	Connect connector
	JSON    bool
}

// NewCmdDiscover is the discover command; runF, when set, runs instead of
// discoverRun (tests of the flags).
func NewCmdDiscover(f *Factory, runF func(context.Context, *DiscoverOptions) error) *cobra.Command {
	return &cobra.Command{
		Use:         "discover",
		Short:       "Show who the server is and what it supports",
		Annotations: helpPage("discover"),
		Args:        noArgs(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			connect, err := f.connector(cmd, dial{})
			if err != nil {
				return err
			}
			opts := &DiscoverOptions{Out: f.Deps.Out, Console: f.Console(), Connect: connect, JSON: f.JSON()}
			return runOr(cmd, runF, discoverRun, opts)
		},
	}
}

func discoverRun(ctx context.Context, opts *DiscoverOptions) error {
	return connect.With(ctx, opts.Console, opts.Connect, func(s *client.Session) error {
		info := render.Describe(s)
		if opts.JSON {
			return render.WriteJSON(opts.Out, info)
		}
		info.Write(opts.Out)
		return nil
	})
}
