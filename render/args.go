package render

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/schema"
)

// Arguments are what a request needs from the person before it is sent: a
// tool's or a prompt's arguments, as a form built from its schema with the
// same engine as elicitation forms.
type Arguments struct {
	Server client.Server
	// Method is tools/call or prompts/get; Target the tool or prompt.
	Method, Target string
	// Description is the tool's or prompt's description.
	Description string
	Form        *schema.Form
	// Given are the values already given (KEY=VALUE, --args): the form
	// starts with them.
	Given map[string]any
}

func (a *Arguments) title() string {
	what := "tool"
	if a.Method == "prompts/get" {
		what = "prompt"
	}
	return fmt.Sprintf("Arguments for %s %s", what, clip(Line(a.Target), maxServerName))
}

// round is the arguments as a round of one ask, for the form model.
func (a *Arguments) round() client.Round {
	ask := client.Ask{Key: "arguments", Params: &mcp.ElicitParams{Message: a.Description}, Form: a.Form}
	return client.Round{Server: a.Server, Method: a.Method, Target: a.Target, Asks: []client.Ask{ask}}
}

// AskArguments shows the arguments form on the full screen and returns the
// arguments to send, or ErrCancelled when the person cancelled.
func (a *FormAnswerer) AskArguments(ctx context.Context, args Arguments) (map[string]any, error) {
	m := newAskModel(args.round(), 0)
	m.inSession = a.InSession
	m.args = &args
	m.fill(args.Given)
	m.onView = a.onView
	final, err := a.Term.Run(ctx, m)
	if err != nil {
		return nil, err
	}
	fm, _ := final.(*askModel)
	if fm != nil && fm.abandon {
		return nil, client.ErrAbandoned
	}
	if fm == nil || fm.result == nil || fm.result.Action != client.Accept {
		return nil, ErrCancelled
	}
	return fm.result.Content, nil
}

// fill starts the form's fields from given (by name), where each value
// fits its field.
func (m *askModel) fill(given map[string]any) {
	if m.fields == nil {
		return
	}
	for name, v := range given {
		s := m.fields.Slot(name)
		if s == nil || v == nil {
			continue
		}
		if tv, err := s.Field.FromAny(jsonValue(v)); err == nil {
			s.set(tv)
		}
	}
}

// PromptSchema is a prompt's arguments as an inputSchema of strings.
func PromptSchema(p *mcp.Prompt) json.RawMessage {
	props := map[string]any{}
	var order []string
	var required []string
	for _, a := range p.Arguments {
		prop := map[string]any{"type": "string"}
		if a.Title != "" {
			prop["title"] = a.Title
		}
		if a.Description != "" {
			prop["description"] = a.Description
		}
		props[a.Name] = prop
		order = append(order, a.Name)
		if a.Required {
			required = append(required, a.Name)
		}
	}
	// The form keeps the order of properties as written: write them in the
	// prompt's order.
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	for i, n := range order {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(n)
		v, _ := json.Marshal(props[n])
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteString(`}`)
	if len(required) > 0 {
		r, _ := json.Marshal(required)
		b.WriteString(`,"required":`)
		b.Write(r)
	}
	b.WriteString(`}`)
	return json.RawMessage(b.String())
}
