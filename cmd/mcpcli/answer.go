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
	con := f.Console()
	consent := &urlmode.Consent{Open: f.Deps.Open, Out: con}
	if f.Flags.Answers != "" {
		s, err := f.script(cmd)
		if err != nil {
			return nil, err
		}
		// A scripted accept of a URL is the script's consent: opened with
		// --open-urls, printed otherwise; refused schemes become decline.
		return consent.Script(s, f.Flags.OpenURLs), nil
	}
	if fa := f.forms(); fa != nil {
		consent.Term = fa.Term
		fa.URL = consent.TUI
		return fa, nil
	}
	p := f.prompter()
	p.URL = func(ctx context.Context, r client.Round, i int) (*mcp.ElicitResult, error) {
		return consent.Line(ctx, p, r, i)
	}
	return p, nil
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
	} else {
		p.Echo = true
	}
	f.linePrompter = p
	return p
}

// argumentAsker asks a person for a request's missing arguments.
type argumentAsker interface {
	AskArguments(ctx context.Context, a render.Arguments) (map[string]any, error)
}

// arguments is how this run asks for missing arguments: a form on a
// terminal, lines with --accessible on one; nil without a terminal, or
// when the run is scripted with --answers.
func (f *Factory) arguments() argumentAsker {
	if !f.Deps.InTTY || f.Flags.Answers != "" {
		return nil
	}
	if fa := f.forms(); fa != nil {
		return fa
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
	return s, nil
}
