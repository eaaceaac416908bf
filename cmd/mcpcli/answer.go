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
		consent.Term = con.Terminal(f.Deps.In)
		fa := &render.FormAnswerer{Term: consent.Term, Status: con, URL: consent.TUI}
		return fa, fa, nil
	}
	p := render.NewPrompter(f.Deps.In, con)
	p.URL = func(ctx context.Context, r client.Round, i int) (*mcp.ElicitResult, error) {
		return consent.Line(ctx, p, r, i)
	}
	if f.Deps.InTTY {
		fd := f.Deps.InFd
		p.ReadSecret = func() (string, error) {
			b, err := term.ReadPassword(fd)
			return string(b), err
		}
	} else {
		p.Echo = true
	}
	return p, p, nil
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
