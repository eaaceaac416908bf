// Package tour is mcpcli demo's guided tour: the demo server's flows, one
// after another on one session, each request sent through the request
// layer and its result printed, narrated on the console.
package tour

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/demoserver"
	"github.com/mcpcli/mcpcli/internal/plural"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/request"
	"github.com/mcpcli/mcpcli/transport"
)

// Options are what a tour needs.
type Options struct {
	Out     io.Writer
	Console *render.Console
	JSON    bool
	Flows   []demoserver.Flow
	Connect func(ctx context.Context) (*client.Session, error)
	// Banner heads the forms of each flow: where the tour is. Chapter
	// marks the start of each flow in the recording (--cast).
	Banner, Chapter func(string)
	// Explain words why a flow did not complete, as the one-shot
	// commands do.
	Explain func(error) string
}

// FailedError is a tour with flows that did not complete.
type FailedError struct {
	Failed []string
	Of     int
}

func (e *FailedError) Error() string {
	return fmt.Sprintf("%d of %d demo flows did not complete: %s", len(e.Failed), e.Of, strings.Join(e.Failed, ", "))
}

// NoFlowError is a flow the tour does not have.
type NoFlowError struct{ Name string }

func (e *NoFlowError) Error() string {
	return fmt.Sprintf("no demo flow %q; use 1-%d or one of the names in 'mcpcli demo --help'", e.Name, len(demoserver.Flows()))
}

// Pick is the flows names (their numbers from 1, or their tool, prompt or
// resource) say; every flow when none is named.
func Pick(names []string) ([]demoserver.Flow, error) {
	if len(names) == 0 {
		return demoserver.Flows(), nil
	}
	var out []demoserver.Flow
	for _, name := range names {
		found := false
		if n, err := strconv.Atoi(name); err == nil && n >= 1 && n <= len(demoserver.Flows()) {
			out, found = append(out, demoserver.Flows()[n-1]), true
		}
		for _, f := range demoserver.Flows() {
			if !found && f.Target == name {
				out, found = append(out, f), true
			}
		}
		if !found {
			return nil, &NoFlowError{Name: name}
		}
	}
	return out, nil
}

// List is the flows, numbered, for the demo command's help.
func List() string {
	var b strings.Builder
	for i, f := range demoserver.Flows() {
		fmt.Fprintf(&b, "  %d. %-30s %s %s\n", i+1, f.Title, f.Method, f.Target)
	}
	return b.String()
}

// Run takes the tour: each flow's request, answered as the run answers,
// its result printed. A flow that fails is said and the tour goes on,
// unless nothing after it could work (the person abandoned, input ended,
// the server exited).
func Run(ctx context.Context, o *Options) error {
	s, err := o.Connect(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	con, flows := o.Console, o.Flows
	// The narration is wrapped by mcpcli, at spaces, to the terminal's
	// width: the terminal would cut it mid-word.
	width := con.Width()
	con.Printf("%s", render.Hang(fmt.Sprintf("mcpcli demo: %s against %s, %s", plural.Count(len(flows), "flow", "flows"), render.Line(s.Server().Display()), s.Server().Protocol), width, 2))
	var failed []string
	for i, fl := range flows {
		title := fmt.Sprintf("Tour %d/%d · %s", i+1, len(flows), fl.Title)
		if o.Chapter != nil {
			o.Chapter(title)
		}
		heading := fmt.Sprintf("[%d/%d] ", i+1, len(flows))
		con.Printf("\n%s\n%s", render.Hang(heading+fl.Title, width, len(heading)), render.Hang("      "+fl.Explain, width, 0))
		if o.Banner != nil {
			o.Banner(title)
		}
		// A tool that answers with an error result reached its end too:
		// the result says how.
		res, err := request.Send(ctx, s, &request.Request{Method: fl.Method, Target: fl.Target, Args: fl.Args}, 0)
		if err == nil {
			err = render.PrintResult(o.Out, res, o.JSON)
		}
		if err != nil {
			err = s.Explain(err)
			var exited *transport.ExitError
			if errors.Is(err, client.ErrAbandoned) || ctx.Err() != nil || errors.Is(err, render.ErrNoInput) || errors.As(err, &exited) {
				// Every flow after this one would fail the same way.
				return err
			}
			con.Printf("mcpcli: %s", render.Line(o.Explain(err)))
			failed = append(failed, fl.Target)
		}
	}
	if len(failed) > 0 {
		return &FailedError{Failed: failed, Of: len(flows)}
	}
	con.Printf("\nDone: %s completed.", plural.Count(len(flows), "flow", "flows"))
	return nil
}
