package tui

import (
	"context"
	"errors"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/yosida95/uritemplate/v3"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/request"
	"github.com/mcpcli/mcpcli/transport"
)

// Prompts and templates are prepared as the one-shot commands prepare
// them (request.Preparer), in the session's way: every argument on the
// form, or one by one with the server's completions.

// templateKey marks a template among the Resources tab's entries.
const templateKey = "template:"

// preparedMsg is a request prepared, to send.
type preparedMsg struct {
	r       *request.Request
	err     error
	rerunOf int
}

// asListed is the client as preparing a request in the session sees it:
// the lists as the session read them (nothing is listed again).
type asListed struct {
	Client
	prompts *client.PromptList
}

func (l asListed) ListPrompts(context.Context) (*client.PromptList, error) {
	if l.prompts == nil {
		return &client.PromptList{}, nil
	}
	return l.prompts, nil
}

// The session prepares no tool call through the preparer (its arguments
// form is its own): these are never asked.
func (l asListed) Tool(context.Context, string) (*mcp.Tool, *client.ToolList, error) {
	return nil, &client.ToolList{}, nil
}
func (asListed) RefreshTools(context.Context) (*client.ToolList, error) {
	return &client.ToolList{}, nil
}
func (asListed) Declares(string) bool           { return true }
func (asListed) Transport() transport.Transport { return nil }

// prepare runs prep with the terminal lent to what it asks, and sends the
// request it prepares.
func (m *Model) prepare(rerunOf int, prep func(ctx context.Context, p *request.Preparer) (*request.Request, error)) tea.Cmd {
	p := &request.Preparer{Session: asListed{Client: m.c, prompts: m.prompts}, Edit: true}
	if m.o.Forms != nil {
		p.Form = m.o.Forms
	}
	if m.o.Values != nil {
		p.Value = m.o.Values
	}
	feed, ctx := m.feed, m.ctx
	return func() tea.Msg {
		var (
			r   *request.Request
			err error
		)
		if serr := feed.Share(ctx, func() { r, err = prep(ctx, p) }); serr != nil {
			err = serr
		}
		return preparedMsg{r: r, err: err, rerunOf: rerunOf}
	}
}

// prepared sends a request prepared, or says why it is not sent.
func (m *Model) prepared(msg preparedMsg) tea.Cmd {
	switch {
	case errors.Is(msg.err, render.ErrCancelled), errors.Is(msg.err, client.ErrAbandoned):
		m.setStatus("cancelled: nothing was sent", false)
		return nil
	case msg.err != nil:
		if m.ctx.Err() == nil {
			m.setStatus(m.o.ErrorText(msg.err), true)
		}
		return nil
	}
	if msg.r.Method == request.ToolsCall {
		return m.confirmThenStart(msg.r.Method, msg.r.Target, msg.r.Args, msg.rerunOf)
	}
	return m.start(msg.r.Method, msg.r.Target, msg.r.Args, msg.rerunOf)
}

// askPrompt asks for a prompt's arguments (starting from given) and gets
// it: one by one with the server's suggestions when it offers them and
// nothing was given, else on the form.
func (m *Model) askPrompt(name string, given map[string]any, rerunOf int) tea.Cmd {
	p := m.prompt(name)
	if p == nil {
		m.setStatus(fmt.Sprintf("the server no longer lists prompt %q", render.Line(name)), true)
		return nil
	}
	if len(p.Arguments) == 0 || m.o.Forms == nil && (m.o.Values == nil || m.c.Capabilities().Completions == nil) {
		if given == nil {
			given = map[string]any{}
		}
		return m.start("prompts/get", name, given, rerunOf)
	}
	var g map[string]string
	if given != nil {
		g = request.PromptArgs(given)
	}
	return m.prepare(rerunOf, func(ctx context.Context, pr *request.Preparer) (*request.Request, error) {
		return pr.Prompt(ctx, name, g)
	})
}

// readTemplate fills a resource template's variables in and reads it:
// one by one with completions when the server offers them (or when there
// is no form), else in one arguments form.
func (m *Model) readTemplate(t *mcp.ResourceTemplate) tea.Cmd {
	tmpl, err := request.ParseTemplate(t.URITemplate, nil)
	if err != nil {
		m.setStatus(fmt.Sprintf("the server's template %q cannot be read: %s", render.Line(t.URITemplate), render.Line(errors.Unwrap(err).Error())), true)
		return nil
	}
	if len(tmpl.Names()) == 0 {
		u, err := tmpl.Expand()
		if err != nil {
			m.setStatus(render.Line(err.Error()), true)
			return nil
		}
		return m.start("resources/read", u, nil, 0)
	}
	if m.o.Forms == nil && m.o.Values == nil {
		return nil
	}
	return m.prepare(0, func(ctx context.Context, pr *request.Preparer) (*request.Request, error) {
		return pr.Fill(ctx, tmpl, t.Description)
	})
}

func (m *Model) template(key string) *mcp.ResourceTemplate {
	if m.tmpl == nil {
		return nil
	}
	u := strings.TrimPrefix(key, templateKey)
	for _, t := range m.tmpl.Templates {
		if t.URITemplate == u {
			return t
		}
	}
	return nil
}

func templateDetail(t *mcp.ResourceTemplate, w int) string {
	var b strings.Builder
	head := render.Line(t.Name)
	if t.Title != "" && t.Title != t.Name {
		head += " — " + render.Line(t.Title)
	}
	fmt.Fprintln(&b, head)
	fmt.Fprintf(&b, "  %s\n", render.Line(t.URITemplate))
	if t.Description != "" {
		for _, l := range strings.Split(wrapText(render.Sanitize(t.Description), w-2), "\n") {
			fmt.Fprintf(&b, "  %s\n", l)
		}
	}
	fmt.Fprintln(&b)
	if tmpl, err := uritemplate.New(t.URITemplate); err == nil {
		names := tmpl.Varnames()
		q := make([]string, len(names))
		for i, n := range names {
			q[i] = render.Line(n)
		}
		fmt.Fprintf(&b, "  A template: its variables are %s\n", strings.Join(q, ", "))
	}
	if t.MIMEType != "" {
		fmt.Fprintf(&b, "  Type: %s\n", render.Line(t.MIMEType))
	}
	return b.String()
}
