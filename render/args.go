package render

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/request"
)

// Arguments are what a request needs from the person before it is sent: a
// tool's or a prompt's arguments, as a form built from its schema with the
// same engine as elicitation forms.
type Arguments = request.Arguments

// argsTitle heads the arguments form.
func argsTitle(a *Arguments) string {
	what := "tool"
	if a.Method == "prompts/get" {
		what = "prompt"
	}
	return fmt.Sprintf("Arguments for %s %s", what, Clip(Line(a.Target), maxServerName))
}

// argsRound is the arguments as a round of one ask, for the form model.
func argsRound(a *Arguments) client.Round {
	ask := client.Ask{Key: "arguments", Params: &mcp.ElicitParams{Message: a.Description}, Form: a.Form}
	return client.Round{Server: a.Server, Method: a.Method, Target: a.Target, Asks: []client.Ask{ask}}
}

// AskArguments shows the arguments form on the full screen and returns the
// arguments to send, or ErrCancelled when the person cancelled.
func (a *FormAnswerer) AskArguments(ctx context.Context, args Arguments) (map[string]any, error) {
	m := newAskModel(argsRound(&args), 0)
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
