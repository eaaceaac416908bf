package render

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/internal/plural"
)

// FormAnswerer answers a round on the full screen: each form-mode ask as a
// form built with huh, paged to fit the terminal, with a review before
// anything is sent; each URL-mode ask through URL.
//
// It draws on Term, which must be a terminal (stderr, or /dev/tty), never
// stdout: stdout carries the results. After each ask it leaves one status
// line on the terminal saying which answer was sent.
type FormAnswerer struct {
	Term *Terminal
	// Status receives the line left after each ask (the Console); nil
	// means Term.Out.
	Status io.Writer
	// Banner, when set, heads every form: where the person is (the
	// demo's "Tour 3/7 · …").
	Banner string
	// URL answers a URL-mode ask; the urlmode package provides it.
	URL func(ctx context.Context, r client.Round, i int) (*mcp.ElicitResult, error)
	// InSession says the forms show inside the interactive session: a
	// second ctrl+c abandons the request, and mcpcli goes on.
	InSession bool

	// onView sees every frame (tests).
	onView func(string)
}

// Answer implements client.Answerer.
func (a *FormAnswerer) Answer(ctx context.Context, r client.Round) (map[string]*mcp.ElicitResult, error) {
	out := make(map[string]*mcp.ElicitResult, len(r.Asks))
	for i, ask := range r.Asks {
		var (
			res        *mcp.ElicitResult
			cancelRest bool
			err        error
		)
		if ask.Mode() == "url" {
			if a.URL == nil {
				return nil, errors.New("mcpcli cannot ask about URLs in this run")
			}
			res, err = a.URL(ctx, r, i)
			if err == nil && res != nil && res.Action == client.Cancel && i+1 < len(r.Asks) {
				m := newAskModel(r, i)
				m.inSession = a.InSession
				m.result = res
				m.screen, m.cursor = screenCancelRest, 0
				_, cancelRest, err = a.run(ctx, m)
			}
		} else {
			m := newAskModel(r, i)
			m.inSession = a.InSession
			m.banner = a.Banner
			m.fill(ask.Given) // the answers given last time, to review
			m.layout()
			res, cancelRest, err = a.run(ctx, m)
		}
		if err != nil {
			return nil, err
		}
		if res == nil {
			res = &mcp.ElicitResult{Action: client.Cancel}
		}
		out[ask.Key] = res
		fmt.Fprintln(a.status(), statusLine(r, i, res))
		if cancelRest {
			for j := i + 1; j < len(r.Asks); j++ {
				out[r.Asks[j].Key] = &mcp.ElicitResult{Action: client.Cancel}
				fmt.Fprintln(a.status(), statusLine(r, j, out[r.Asks[j].Key]))
			}
			break
		}
	}
	return out, nil
}

func (a *FormAnswerer) status() io.Writer {
	if a.Status != nil {
		return a.Status
	}
	return a.Term.Out
}

// run shows one ask until it is answered.
func (a *FormAnswerer) run(ctx context.Context, m *askModel) (*mcp.ElicitResult, bool, error) {
	m.onView = a.onView
	final, err := a.Term.Run(ctx, m)
	if errors.Is(err, ErrCancelled) {
		return &mcp.ElicitResult{Action: client.Cancel}, true, nil
	}
	if err != nil {
		return nil, false, err
	}
	fm, _ := final.(*askModel)
	if fm != nil && fm.abandon {
		return nil, false, client.ErrAbandoned
	}
	if fm == nil || fm.result == nil {
		return &mcp.ElicitResult{Action: client.Cancel}, false, nil
	}
	return fm.result, fm.cancelRest, nil
}

// statusLine says which answer went to the server. The line prompter and
// the forms say it alike.
func statusLine(r client.Round, i int, res *mcp.ElicitResult) string {
	which := ""
	if len(r.Asks) > 1 {
		which = fmt.Sprintf(" %d of %d", i+1, len(r.Asks))
	}
	who := Line(r.Server.Display())
	switch res.Action {
	case client.Accept:
		if r.Asks[i].Mode() == "url" {
			return fmt.Sprintf("→ accept%s sent to %s (you agreed to continue at the URL)", which, who)
		}
		n := len(res.Content)
		return fmt.Sprintf("→ accept%s sent to %s with %d value%s", which, who, n, plural.S(n))
	case client.Decline:
		return fmt.Sprintf("→ decline%s sent to %s", which, who)
	}
	return fmt.Sprintf("→ %s%s sent to %s", Line(res.Action), which, who)
}
