package tui

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/yosida95/uritemplate/v3"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/schema"
)

// Values asked one at a time, with the server's completion/complete
// suggestions: prompt arguments and resource template variables, as the
// one-shot prompt and read commands ask them.

// wanted is one value a request needs.
type wanted struct {
	name, description string
	required          bool
}

// templateKey marks a template among the Resources tab's entries.
const templateKey = "template:"

// valuesMsg is the values asked, for a request to send.
type valuesMsg struct {
	method, target string // the target filled in (a template: its URI)
	args           map[string]any
	err            error
	rerunOf        int
}

// askValues asks each wanted value not in given, one by one, with the
// terminal lent to the value screens, and sends the request with them.
func (m *Model) askValues(method, target, what string, ref *mcp.CompleteReference, want []wanted, given map[string]string, expand func(map[string]string) (string, error), rerunOf int) tea.Cmd {
	c, vals, feed, ctx := m.c, m.o.Values, m.feed, m.ctx
	server := m.server
	complete := m.c.Capabilities().Completions != nil
	return func() tea.Msg {
		got := map[string]string{}
		for k, v := range given {
			got[k] = v
		}
		var err error
		if serr := feed.Share(ctx, func() {
			for _, w := range want {
				if _, ok := got[w.name]; ok {
					continue
				}
				q := render.Question{Server: server, For: what, Name: w.name, Description: w.description, Required: w.required}
				if complete {
					if cpl, cerr := c.Complete(ctx, ref, w.name, "", got); cerr == nil {
						q.Suggestions, q.More = cpl.Values, cpl.More
					}
				}
				var v string
				v, err = vals.AskValue(ctx, q)
				if errors.Is(err, render.ErrSkipped) {
					err = nil
					continue
				}
				if err != nil {
					return
				}
				got[w.name] = v
			}
		}); serr != nil {
			err = serr
		}
		msg := valuesMsg{method: method, target: target, err: err, rerunOf: rerunOf}
		if err != nil {
			return msg
		}
		if expand != nil {
			msg.target, msg.err = expand(got)
			return msg
		}
		msg.args = map[string]any{}
		for k, v := range got {
			msg.args[k] = v
		}
		return msg
	}
}

func (m *Model) valuesDone(msg valuesMsg) tea.Cmd {
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
	return m.start(msg.method, msg.target, msg.args, msg.rerunOf)
}

// askPromptValues asks a prompt's arguments one by one with the server's
// completions.
func (m *Model) askPromptValues(p *mcp.Prompt, given map[string]any, rerunOf int) tea.Cmd {
	var want []wanted
	for _, a := range p.Arguments {
		if a != nil {
			want = append(want, wanted{name: a.Name, description: a.Description, required: a.Required})
		}
	}
	g := map[string]string{}
	for k, v := range given {
		g[k] = fmt.Sprint(v)
	}
	ref := &mcp.CompleteReference{Type: "ref/prompt", Name: p.Name}
	return m.askValues("prompts/get", p.Name, "prompt "+p.Name, ref, want, g, nil, rerunOf)
}

// readTemplate fills a resource template's variables in and reads it:
// one by one with completions when the server offers them (or when there
// is no form), else in one arguments form.
func (m *Model) readTemplate(t *mcp.ResourceTemplate) tea.Cmd {
	tmpl, err := uritemplate.New(t.URITemplate)
	if err != nil {
		m.setStatus(fmt.Sprintf("the server's template %q cannot be read: %s", render.Line(t.URITemplate), render.Line(err.Error())), true)
		return nil
	}
	names := tmpl.Varnames()
	expand := func(vars map[string]string) (string, error) {
		vals := uritemplate.Values{}
		for k, v := range vars {
			vals.Set(k, uritemplate.String(v))
		}
		u, err := tmpl.Expand(vals)
		if err != nil {
			return "", fmt.Errorf("filling in %q: %v", t.URITemplate, err)
		}
		return u, nil
	}
	if len(names) == 0 {
		u, err := expand(nil)
		if err != nil {
			m.setStatus(render.Line(err.Error()), true)
			return nil
		}
		return m.start("resources/read", u, nil, 0)
	}
	if m.o.Values != nil && (m.c.Capabilities().Completions != nil || m.o.Forms == nil) {
		want := make([]wanted, len(names))
		for i, n := range names {
			want[i] = wanted{name: n, required: true}
		}
		ref := &mcp.CompleteReference{Type: "ref/resource", URI: t.URITemplate}
		return m.askValues("resources/read", t.URITemplate, "resource template "+t.URITemplate, ref, want, nil, expand, 0)
	}
	form, err := schema.ParseArguments(variablesSchema(names))
	if err != nil {
		m.setStatus(render.Line(err.Error()), true)
		return nil
	}
	forms, feed, ctx := m.o.Forms, m.feed, m.ctx
	a := render.Arguments{Server: m.server, Method: "resources/read", Target: t.URITemplate, Description: t.Description, Form: form}
	if forms == nil {
		return nil
	}
	return func() tea.Msg {
		var (
			got map[string]any
			err error
		)
		if serr := feed.Share(ctx, func() { got, err = forms.AskArguments(ctx, a) }); serr != nil {
			err = serr
		}
		msg := valuesMsg{method: "resources/read", err: err}
		if err == nil {
			vars := map[string]string{}
			for k, v := range got {
				vars[k] = fmt.Sprint(v)
			}
			msg.target, msg.err = expand(vars)
		}
		return msg
	}
}

// variablesSchema is a template's variables as an inputSchema of required
// strings, in the template's order.
func variablesSchema(names []string) json.RawMessage {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	for i, n := range names {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(n)
		b.Write(k)
		b.WriteString(`:{"type":"string"}`)
	}
	b.WriteString(`},"required":`)
	r, _ := json.Marshal(names)
	b.Write(r)
	b.WriteString(`}`)
	return json.RawMessage(b.String())
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
