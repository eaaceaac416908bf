package shell

import (
	"context"
	"errors"
	"os"
	"strings"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/internal/interrupt"
	"github.com/mcpcli/mcpcli/render"
)

// Watch is mcpcli watch on s: it says so on con, subscribes to the
// resources uris, and waits while s's notifications are shown (by the
// client's OnNotification) until ctx ends. Ctrl+C (or a test's cancel)
// is its normal end, nil; SIGTERM or SIGHUP end it as they end any run.
func Watch(ctx context.Context, s *client.Session, con *render.Console, uris []string) error {
	what := "notifications"
	if len(uris) > 0 {
		what += ", and changes to " + render.Line(strings.Join(uris, ", "))
	}
	con.Printf("mcpcli: watching %s for %s; Ctrl+C stops", render.Line(s.Server().Display()), what)
	for _, uri := range uris {
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
}

// stopped is how watch ends when its context does.
func stopped(ctx context.Context) error {
	var sig interrupt.Signal
	if errors.As(context.Cause(ctx), &sig) && sig.Sig != os.Interrupt {
		return ctx.Err()
	}
	return nil
}
