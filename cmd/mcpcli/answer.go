package main

import (
	"context"
	"io"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/render"
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
	if f.fullScreen() {
		// The forms draw on stderr; stdout keeps carrying only results, so
		// `mcpcli call … -o json | jq` works with a form on screen.
		consent.Term = f.terminal()
		fa := &render.FormAnswerer{Term: consent.Term, Status: con, URL: consent.TUI}
		return fa, fa, nil
	}
	p := f.prompter()
	p.URL = func(ctx context.Context, r client.Round, i int) (*mcp.ElicitResult, error) {
		return consent.Line(ctx, p, r, i)
	}
	return p, p, nil
}

// terminal is the run's one terminal for full-screen programs.
func (f *Factory) terminal() *render.Terminal {
	if f.term == nil {
		f.term = f.Console().Terminal(f.Deps.In)
	}
	return f.term
}

// prompter is the run's one line prompter: every line question of the run
// reads stdin through it, so that none reads ahead of another.
func (f *Factory) prompter() *render.Prompter {
	if f.lines == nil {
		p := render.NewPrompter(f.Deps.In, f.Console())
		if f.Deps.InTTY {
			fd := f.Deps.InFd
			p.ReadSecret = func() (string, error) {
				b, err := term.ReadPassword(fd)
				return string(b), err
			}
		} else {
			p.Echo = true
		}
		f.lines = p
	}
	return f.lines
}

// valueAsker asks a person for a value mcpcli needs before sending a
// request (a missing prompt argument or template variable).
type valueAsker interface {
	AskValue(ctx context.Context, q render.Question) (string, error)
}

// asker is how this run asks for missing values: on the full screen, or
// as lines with --accessible, when stdin is a terminal (and not the
// answers file); nil when nobody can be asked.
func (f *Factory) asker() valueAsker {
	if !f.Deps.InTTY || f.Flags.Answers == "-" {
		return nil
	}
	if f.fullScreen() {
		return &render.ValueForm{Term: f.terminal()}
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
	var r io.Reader
	name := f.Flags.Answers
	if name == "-" {
		r, name = f.Deps.In, "from stdin"
	} else {
		file, err := os.Open(name)
		if err != nil {
			return nil, usageErrorf(cmd, "--answers: %v", err)
		}
		defer file.Close()
		r = file
	}
	s, err := client.ParseScript(r, name)
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
