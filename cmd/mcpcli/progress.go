package main

import (
	"context"
	"io"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/term"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/render"
)

// progressView is the run's progress display on stderr, made on first use:
// live when stderr is a terminal.
func (a *app) progressView() *render.Progress {
	a.progOnce.Do(func() {
		o := render.ProgressOptions{Live: a.deps.ErrTTY}
		if o.Live {
			if f, ok := a.deps.Err.(interface{ Fd() uintptr }); ok {
				if w, _, err := term.GetSize(int(f.Fd())); err == nil {
					o.Width = w
				}
			}
			o.Color = a.getenv("NO_COLOR") == "" && a.getenv("TERM") != "dumb"
		}
		a.prog = render.NewProgress(a.deps.Err, o)
	})
	return a.prog
}

// clearProgress takes the live progress line off the screen before
// something else is written to stderr, and when a request ends.
func (a *app) clearProgress() { a.progressView().Clear() }

// endProgress clears the progress line of a request that has its answer.
func (a *app) endProgress() { a.progressView().Done() }

func (a *app) getenv(k string) string {
	if a.deps.Getenv == nil {
		return ""
	}
	return a.deps.Getenv(k)
}

// clearingWriter clears the progress line before each write.
type clearingWriter struct {
	w     io.Writer
	clear func()
}

func (c clearingWriter) Write(p []byte) (int, error) {
	c.clear()
	return c.w.Write(p)
}

// clearingAnswerer clears the progress line before a round is asked: the
// request that reported progress has ended, and a form needs the screen.
func (a *app) clearingAnswerer(inner client.Answerer) client.Answerer {
	if inner == nil {
		return nil
	}
	return progressAnswerer{inner, a.clearProgress}
}

type progressAnswerer struct {
	inner client.Answerer
	clear func()
}

func (p progressAnswerer) Answer(ctx context.Context, r client.Round) (map[string]*mcp.ElicitResult, error) {
	p.clear()
	return p.inner.Answer(ctx, r)
}

// onStep is told about each round trip: the progress line of a request
// goes when its answer comes, and with --verbose the step is shown.
func (a *app) onStep(st client.Step) {
	if st.Kind != client.StepSend {
		outMu.Lock()
		a.endProgress()
		outMu.Unlock()
	}
	if a.flags.verbose {
		a.showStep(st)
	}
}
