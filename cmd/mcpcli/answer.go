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
	"golang.org/x/term"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/request"
	"github.com/mcpcli/mcpcli/urlmode"
)

// Answerer picks how elicitations are answered in this run: an answers
// file, full-screen forms, or line prompts.
func (f *Factory) Answerer(cmd *cobra.Command) (client.Answerer, error) {
	a, _, err := f.Answerers(cmd)
	return a, err
}

// Answerers picks how this run answers: elicitations always, and with
// --sampling the server's sampling requests too (nil otherwise: sampling
// is not declared), the same way (an answers file, the full screen, or
// lines).
func (f *Factory) Answerers(cmd *cobra.Command) (client.Answerer, client.Sampler, error) {
	a, sampler, err := f.answerers(cmd)
	if err != nil || !f.Flags.Sampling {
		return a, nil, err
	}
	return a, sampler, nil
}

func (f *Factory) answerers(cmd *cobra.Command) (client.Answerer, client.Sampler, error) {
	con := f.Console()
	consent := &urlmode.Consent{Open: f.Deps.Open, Out: con}
	if f.Flags.Answers != "" {
		s, err := f.script(cmd)
		if err != nil {
			return nil, nil, err
		}
		// A scripted accept of a URL is the script's consent: opened with
		// --open-urls, printed otherwise; refused schemes become decline.
		return consent.Script(s, f.Flags.OpenURLs), s, nil
	}
	// What the person answers is kept, to be written as an answers file
	// if the retry that carries it fails (or with --save-answers).
	rec := &request.Recorder{}
	f.recorder = rec
	if fa := f.forms(); fa != nil {
		consent.Term = fa.Term
		consent.Banner = func() string { return fa.Banner } // the tour's step, as on its forms
		fa.URL = consent.TUI
		return rec.Answerer(fa), rec.Sampler(fa), nil
	}
	p := f.prompter()
	p.URL = func(ctx context.Context, r client.Round, i int) (*mcp.ElicitResult, error) {
		return consent.Line(ctx, p, r, i)
	}
	return rec.Answerer(p), rec.Sampler(p), nil
}

// keepAnswers writes what the person answered as an answers file: to
// --save-answers, or, when the run failed after they accepted an ask, to a
// file of its own, with the command that sends them again (answers that
// only decline or cancel are nothing to send again).
func (f *Factory) keepAnswers(err error) {
	if f.recorder == nil {
		return
	}
	n, accepted := f.recorder.Answered()
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
	file, _, _ := f.recorder.Answers()
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

// forms is the run's full-screen form answerer, or nil when the run cannot
// show one. The forms draw on stderr; stdout keeps carrying only results,
// so `mcpcli call … -o json | jq` works with a form on screen.
func (f *Factory) forms() *render.FormAnswerer {
	if !f.fullScreen() {
		return nil
	}
	if f.formAnswerer == nil {
		con := f.Console()
		f.formAnswerer = &render.FormAnswerer{Term: con.Terminal(f.Deps.In), Status: con}
	}
	return f.formAnswerer
}

// prompter is the run's line prompter: one, since it reads stdin ahead.
func (f *Factory) prompter() *render.Prompter {
	if f.linePrompter != nil {
		return f.linePrompter
	}
	p := render.NewPrompter(f.Deps.In, f.Console())
	if f.Deps.InTTY {
		fd := f.Deps.InFd
		p.ReadSecret = func() (string, error) {
			b, err := term.ReadPassword(fd)
			return string(b), err
		}
		p.DropTypeahead = func() { render.DropTerminalInput(fd) }
	} else {
		p.Echo = true
	}
	f.linePrompter = p
	return p
}

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
	open := openFile(name)
	if name == "-" {
		name, what = "from stdin", "stdin"
		open = func() (io.ReadCloser, error) { return io.NopCloser(f.Deps.In), nil }
	}
	b, err := readInput(cmd.Context(), what, open)
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
	if f.formAnswerer != nil {
		f.formAnswerer.Banner = b
	}
	if f.linePrompter != nil {
		f.linePrompter.Banner = b
	}
}
