package request

import (
	"context"
	"errors"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/schema"
)

// Arguments is a request's arguments to ask for on one form: the tool's
// inputSchema, a prompt's arguments or a template's variables as a form,
// starting from what was given.
type Arguments struct {
	Server client.Server
	// Method is tools/call, prompts/get or resources/read; Target the
	// tool, prompt or URI template.
	Method, Target string
	// Description is the tool's, prompt's or template's description.
	Description string
	Form        *schema.Form
	// Given are the values already given (KEY=VALUE, --args): the form
	// starts with them.
	Given map[string]any
}

// Question is one value to ask for before a request is sent: a prompt
// argument or a template variable, with the server's suggestions.
type Question struct {
	Server client.Server
	// For says what the value is for: "prompt code_review", "resource
	// template file:///{path}".
	For         string
	Name        string
	Description string
	Required    bool
	// Suggestions are the server's completion/complete values; More is set
	// when it has more than these.
	Suggestions []string
	More        bool
}

// FormAsker asks a person for a request's arguments on one form.
type FormAsker interface {
	AskArguments(ctx context.Context, a Arguments) (map[string]any, error)
}

// ValueAsker asks a person for one value, with the server's suggestions.
// An optional value left unset is ErrSkipped.
type ValueAsker interface {
	AskValue(ctx context.Context, q Question) (string, error)
}

var (
	// ErrSkipped is an optional value the person left unset.
	ErrSkipped = errors.New("left unset")
	// ErrCancelled is a person who cancelled what they were asked (Esc,
	// Ctrl+C on a form).
	ErrCancelled = errors.New("cancelled")
)
