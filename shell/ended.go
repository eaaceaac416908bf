package shell

import (
	"context"
	"errors"
	"fmt"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/internal/interrupt"
	"github.com/mcpcli/mcpcli/internal/plural"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/transport"
)

// Ended words a run the person ended, or a request they abandoned: a
// signal (sig, whose exit code the run ends with), a shell stopped, a
// task cancelled, a sampling request declined. ok is false for any other
// error. ctx is the run's: its cause names the signal that ended it.
func (Words) Ended(ctx context.Context, err error) (msg string, sig *interrupt.Signal, ok bool) {
	var (
		ended *Stopped
		s     interrupt.Signal
		tce   *client.TaskCancelledError
		de    *client.DeclinedError
	)
	cause := func() *interrupt.Signal {
		if errors.As(context.Cause(ctx), &s) {
			return &s
		}
		return nil
	}
	switch {
	case errors.As(err, &ended):
		return ended.Error(), &ended.Sig, true
	case errors.As(err, &s):
		// Stopped while reading the person's own input: nothing was sent.
		return fmt.Sprintf("stopped on %s before anything was sent", s.Name()), &s, true
	case errors.As(err, &tce) && tce.Abandoned && errors.As(err, &de):
		return fmt.Sprintf("you declined the sampling request %q of %s, so mcpcli cancelled the task it came from: %s", render.Line(de.Key), render.Line(de.Server), render.Line(tce.Error())), nil, true
	case errors.As(err, &tce) && tce.Abandoned:
		return "cancelled; " + render.Line(tce.Error()), cause(), true
	case errors.As(err, &de):
		return fmt.Sprintf("you declined the sampling request %q of %s; by the spec that ends the request (it is not sent again)", render.Line(de.Key), render.Line(de.Server)), nil, true
	case errors.Is(err, client.ErrAbandoned) || ctx.Err() != nil && errors.Is(err, context.Canceled):
		if sig := cause(); sig != nil {
			return fmt.Sprintf("cancelled on %s; the request was abandoned", sig.Name()), sig, true
		}
		return "cancelled; the request was abandoned", nil, true
	}
	return "", nil, false
}

// ServerStderr is the last lines a stdio server wrote to its stderr
// before err, as they follow the error's line; none when err kept none.
func (Words) ServerStderr(err error) []string {
	tail := transport.StderrTail(err)
	if len(tail) == 0 {
		return nil
	}
	lines := []string{fmt.Sprintf("  last %d line%s of the server's stderr:", len(tail), plural.S(len(tail)))}
	for _, l := range tail {
		lines = append(lines, "  | "+render.Line(l))
	}
	return lines
}
