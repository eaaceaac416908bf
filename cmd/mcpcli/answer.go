package main

import (
	"context"
	"io"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

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
	if f.fullScreen() {
		// The forms draw on stderr; stdout keeps carrying only results, so
		// `mcpcli call … -o json | jq` works with a form on screen.
		consent.Term = con.Terminal(f.Deps.In)
		return &render.FormAnswerer{Term: consent.Term, Status: con, URL: consent.TUI}, nil
	}
	p := f.linePrompter()
	p.URL = func(ctx context.Context, r client.Round, i int) (*mcp.ElicitResult, error) {
		return consent.Line(ctx, p, r, i)
	}
	return p, nil
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
