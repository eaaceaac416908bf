package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/request"
	"github.com/mcpcli/mcpcli/urlmode"
)

// asking is how this run asks the person, made once: from an answers
// file, on full-screen forms, or on lines.
type asking struct {
	answerer client.Answerer
	// sampler answers sampling requests the same way. It is there even
	// without --sampling, off: a session can turn sampling on.
	sampler client.Sampler
	// rec keeps what the person answers (nil with an answers file), to
	// be written as an answers file if the retry that carries it fails,
	// or with --save-answers.
	rec *request.Recorder
	// forms and prompter are the run's full-screen forms (nil: the run
	// cannot show them) and its line prompter (one: it reads stdin ahead).
	forms    *render.FormAnswerer
	prompter *render.Prompter
}

// answerSet is who answers one connection's asks and sampling requests.
type answerSet struct {
	answerer client.Answerer
	sampler  client.Sampler
}

// Answerer is how this run's one-shot commands answer elicitations.
func (f *Factory) Answerer(cmd *cobra.Command) (client.Answerer, error) {
	a, err := f.oneShot(cmd)
	if err != nil {
		return nil, err
	}
	return a.answerer, nil
}

// oneShot is how a one-shot command answers: the run's way of asking,
// each answer recorded.
func (f *Factory) oneShot(cmd *cobra.Command) (*answerSet, error) {
	a, err := f.asking(cmd)
	if err != nil {
		return nil, err
	}
	if a.rec == nil {
		return &answerSet{a.answerer, a.sampler}, nil
	}
	return &answerSet{a.rec.Answerer(a.answerer), a.rec.Sampler(a.sampler)}, nil
}

// asking picks, once, how this run asks: an answers file (--answers), the
// full screen, or lines.
func (f *Factory) asking(cmd *cobra.Command) (*asking, error) {
	if f.ask != nil && f.ask.answerer != nil {
		return f.ask, nil
	}
	a := f.ui()
	con := f.Console()
	consent := &urlmode.Consent{Open: f.Deps.Open, Out: con}
	switch {
	case f.Flags.Answers != "":
		s, err := f.script(cmd)
		if err != nil {
			return nil, err
		}
		// A scripted accept of a URL is the script's consent: opened with
		// --open-urls, printed otherwise; refused schemes become decline.
		a.answerer, a.sampler = consent.Script(s, f.Flags.OpenURLs), s
		return a, nil
	case a.forms != nil:
		consent.Term = a.forms.Term
		consent.Banner = func() string { return a.forms.Banner } // the tour's step, as on its forms
		a.forms.URL = consent.TUI
		a.answerer, a.sampler = a.forms, a.forms
	default:
		p := a.prompter
		p.URL = func(ctx context.Context, r client.Round, i int) (*mcp.ElicitResult, error) {
			return consent.Line(ctx, p, r, i)
		}
		a.answerer, a.sampler = p, p
	}
	a.rec = &request.Recorder{}
	return a, nil
}

// keepAnswers writes what the person answered as an answers file: to
// --save-answers, or, when the run failed after they accepted an ask, to a
// file of its own, with the command that sends them again (answers that
// only decline or cancel are nothing to send again).
func (f *Factory) keepAnswers(err error) {
	if f.ask == nil || f.ask.rec == nil {
		return
	}
	rec := f.ask.rec
	n, accepted := rec.Answered()
	if n == 0 {
		return
	}
	con := f.Console()
	path := f.Flags.SaveAnswers
	if path == "" {
		var ue *usageError
		if err == nil || accepted == 0 || errors.As(err, &ue) || errors.As(err, new(toolError)) || errors.Is(err, client.ErrAbandoned) || errors.Is(err, context.Canceled) {
			return
		}
		file, ferr := os.CreateTemp("", "mcpcli-answers-*.json")
		if ferr != nil {
			con.Warn(fmt.Sprintf("your answers could not be kept: %v", ferr))
			return
		}
		file.Close()
		path = file.Name()
	}
	file, _, _ := rec.Answers()
	if werr := os.WriteFile(path, file, 0o600); werr != nil {
		con.Warn(fmt.Sprintf("your answers could not be saved in %s: %v", path, werr))
		return
	}
	if f.Flags.SaveAnswers != "" {
		con.Printf("mcpcli: your answers are saved in %s (send them again with --answers %s)", path, path)
		return
	}
	line, redacted := request.ResendCommand(f.Args, path)
	if redacted {
		con.Printf("mcpcli: your answers are kept in %s; to send them again (put back what shows as %s): %s", path, request.Redacted, line)
		return
	}
	con.Printf("mcpcli: your answers are kept in %s; to send them again: %s", path, line)
}

// ui is the run's forms and line prompter, made once. The forms draw on
// stderr (nil when the run cannot show them: no terminal, --accessible,
// TERM=dumb); stdout keeps carrying only results, so `mcpcli call … -o
// json | jq` works with a form on screen.
func (f *Factory) ui() *asking {
	if f.ask != nil {
		return f.ask
	}
	con := f.Console()
	a := &asking{prompter: render.NewTerminalPrompter(f.Deps.In, con, f.Deps.InTTY, f.Deps.InFd)}
	if f.fullScreen() {
		a.forms = &render.FormAnswerer{Term: con.Terminal(f.Deps.In), Status: con}
	}
	f.ask = a
	return a
}

// forms is the run's full-screen form answerer, or nil.
func (f *Factory) forms() *render.FormAnswerer { return f.ui().forms }

// prompter is the run's line prompter.
func (f *Factory) prompter() *render.Prompter { return f.ui().prompter }

// arguments is how this run asks for missing arguments: a form on a
// terminal, lines with --accessible on one; nil without a terminal, or
// when the run is scripted with --answers.
func (f *Factory) arguments() request.FormAsker {
	if !f.Deps.InTTY || f.Flags.Answers != "" {
		return nil
	}
	if fa := f.forms(); fa != nil {
		return fa
	}
	return f.prompter()
}

// values is how this run asks for such values: on the full screen, or as
// lines with --accessible, when stdin is a terminal and the run is not
// scripted with --answers; nil when nobody can be asked.
func (f *Factory) values() request.ValueAsker {
	if !f.Deps.InTTY || f.Flags.Answers != "" {
		return nil
	}
	if fa := f.forms(); fa != nil {
		return &render.ValueForm{Term: fa.Term}
	}
	return f.prompter()
}

// fullScreen reports whether this run can show full-screen forms: stdin
// and stderr are a terminal, no --accessible, and the terminal is not
// "dumb".
func (f *Factory) fullScreen() bool {
	d := f.Deps
	return !f.Flags.Accessible && d.InTTY && d.ErrTTY && f.getenv("TERM") != "dumb"
}

// script reads --answers.
func (f *Factory) script(cmd *cobra.Command) (*client.Script, error) {
	name, what := f.Flags.Answers, f.Flags.Answers
	open := request.OpenFile(name)
	if name == "-" {
		name, what = "from stdin", "stdin"
		open = func() (io.ReadCloser, error) { return io.NopCloser(f.Deps.In), nil }
	}
	b, err := request.ReadInput(cmd.Context(), what, open)
	if err != nil {
		if cmd.Context().Err() != nil {
			return nil, err
		}
		return nil, usageErrorf(cmd, "--answers: %v", err)
	}
	s, err := client.ParseScript(bytes.NewReader(b), name)
	if err != nil {
		return nil, usageErrorf(cmd, "%v", err)
	}
	con := f.Console()
	s.Notify = func(ask client.Ask, res *mcp.ElicitResult, key string) {
		con.Printf("→ %s: %s (answers file, key %q)", render.Line(ask.Key), res.Action, key)
	}
	s.NotifySample = func(r client.SamplingRound, a *client.SamplingAnswer, key string) {
		what := "decline"
		if !a.Decline {
			what = "reply from model " + render.Line(a.Result.Model)
		}
		con.Printf("→ %s: %s (answers file, key %q)", render.Line(r.Key), what, key)
	}
	return s, nil
}

// setBanner heads the run's forms and line asks with b.
func (f *Factory) setBanner(b string) {
	if a := f.ui(); a.forms != nil {
		a.forms.Banner = b
	}
	f.ui().prompter.Banner = b
}
