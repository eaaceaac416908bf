package request

import (
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// The errors of preparing a request. They carry facts, not words: the
// front end that shows one words it (shell.Words), with its own
// way of naming what lists things ("mcpcli tools", or "tools" in the line
// shell). Error gives a plain sentence for logs and tests.

// WordError is a word that is not KEY=VALUE.
type WordError struct {
	What string // argument, variable, --var
	Word string
}

func (e *WordError) Error() string {
	return fmt.Sprintf("%s %q must look like KEY=VALUE", e.What, e.Word)
}

// TwiceError is a key given twice: one value would be lost.
type TwiceError struct{ What, Key string }

func (e *TwiceError) Error() string { return fmt.Sprintf("%s %s is given twice", e.What, e.Key) }

// ObjectError is arguments given whole that are not one JSON object.
type ObjectError struct{ Err error }

func (e *ObjectError) Error() string { return "the arguments must be a JSON object: " + e.Err.Error() }
func (e *ObjectError) Unwrap() error { return e.Err }

// UnknownError is a tool or prompt the server does not list.
type UnknownError struct {
	Server string
	What   string // tool or prompt
	Name   string
	// Maybe are the names it may have been meant to be.
	Maybe []string
	// Dropped, for a tool the server lists that mcpcli leaves out, is why
	// (its inputSchema is invalid).
	Dropped string
	// Undeclared are the capabilities mcpcli did not declare (sampling,
	// roots) that some servers list a tool only for; set when nothing
	// close was found.
	Undeclared []string
}

func (e *UnknownError) Error() string {
	if e.Dropped != "" {
		return fmt.Sprintf("server %q lists %s %q, but leaves it out: %s", e.Server, e.What, e.Name, e.Dropped)
	}
	return fmt.Sprintf("server %q has no %s %q", e.Server, e.What, e.Name)
}

// ShownError is a name typed as mcpcli shows it (with markers for what a
// terminal cannot show) that several names show as.
type ShownError struct {
	Server, What, Name string
	Real               []string
}

func (e *ShownError) Error() string {
	return fmt.Sprintf("server %q has no %s %q, and %d %ss show as that", e.Server, e.What, e.Name, len(e.Real), e.What)
}

// MissingError is a request without values it needs: a tool's or
// prompt's required arguments, a template's variables.
type MissingError struct {
	What    string // tool, prompt or template
	Name    string
	Missing []string
	// Asker says someone could have been asked, but not on a form (a
	// form mcpcli cannot show); without one nobody could.
	Asker bool
	// Refusal is the server's message, when a call sent without the tool
	// list was refused and the list says these were missing.
	Refusal string
}

func (e *MissingError) Error() string {
	return fmt.Sprintf("%s %q needs %v", e.What, e.Name, e.Missing)
}

// NoSuchArgumentError is a key the tool, prompt or template does not
// take. Open says the tool's schema allows other keys: it is sent anyway
// (a Note then, not an error).
type NoSuchArgumentError struct {
	What  string // tool, prompt or template
	Name  string
	Key   string
	Maybe []string // the names it may have been meant to be
	Names []string // every name it takes
	Open  bool
}

func (e *NoSuchArgumentError) Error() string {
	return fmt.Sprintf("%s %q has no argument %q", e.What, e.Name, e.Key)
}

// ArgumentError is a KEY=VALUE the tool's inputSchema refuses.
type ArgumentError struct {
	Key, Value string
	Err        error
}

func (e *ArgumentError) Error() string {
	return fmt.Sprintf("argument %s=%q: %v", e.Key, e.Value, e.Err)
}
func (e *ArgumentError) Unwrap() error { return e.Err }

// NotTemplateError is variables given for a URI that is not a template.
type NotTemplateError struct{ URI string }

func (e *NotTemplateError) Error() string { return fmt.Sprintf("%q is not a URI template", e.URI) }

// TemplateError is a URI template that cannot be read or filled.
type TemplateError struct {
	Template string
	Expand   bool // filling it failed, not reading it
	Err      error
}

func (e *TemplateError) Error() string {
	if e.Expand {
		return fmt.Sprintf("expanding %q: %v", e.Template, e.Err)
	}
	return fmt.Sprintf("%q is not a URI template: %v", e.Template, e.Err)
}
func (e *TemplateError) Unwrap() error { return e.Err }

// AskError is what asking a person failed with, before anything was
// sent: the person cancelled (ErrCancelled), input ended, a signal came.
type AskError struct{ Err error }

func (e *AskError) Error() string { return e.Err.Error() }
func (e *AskError) Unwrap() error { return e.Err }

// A Note is something preparing did that the person should know of. The
// front end words it.
type Note interface{ note() }

// ShownNote is a name typed as mcpcli shows it, taken for the real one.
type ShownNote struct{ Server, What, Typed, Real string }

// OpenKeyNote is a key a tool's open schema does not name, sent anyway;
// said when it looks like a typo of one it names (Maybe).
type OpenKeyNote struct {
	Tool, Key string
	Maybe     []string
}

// FilledNote is a template filled in: the URI read.
type FilledNote struct{ URI string }

func (*ShownNote) note()   {}
func (*OpenKeyNote) note() {}
func (*FilledNote) note()  {}

// UnreadableError is a resource the server could not read: it answered
// resources/read with -32602 (2026-07-28) or -32002 (older servers).
type UnreadableError struct {
	Server, URI string
	RPC         *jsonrpc.Error
}

func (e *UnreadableError) Error() string {
	return fmt.Sprintf("server %q could not read %q (%d: %s)", e.Server, e.URI, e.RPC.Code, e.RPC.Message)
}

// Unreadable is err from reading uri of server as an *UnreadableError
// when the server said it has no such resource, or err as it is.
func Unreadable(server, uri string, err error) error {
	var je *jsonrpc.Error
	if errors.As(err, &je) && (je.Code == jsonrpc.CodeInvalidParams || je.Code == -32002) {
		return &UnreadableError{Server: server, URI: uri, RPC: je}
	}
	return err
}

// IsUsage says whether err is a mistake in what was typed (a word that is
// not KEY=VALUE, a key given twice, an argument missing or unknown, a
// template that does not fit), rather than something the server said: a
// one-shot command's usage error.
func IsUsage(err error) bool {
	var (
		ue *UnknownError
		se *ShownError
		te *TemplateError
		ae *AskError
	)
	switch {
	case errors.As(err, &ue), errors.As(err, &se), errors.As(err, &ae), errors.As(err, &te) && te.Expand:
		return false
	}
	var (
		we *WordError
		tw *TwiceError
		oe *ObjectError
		me *MissingError
		ne *NoSuchArgumentError
		ar *ArgumentError
		nt *NotTemplateError
	)
	return errors.As(err, &we) || errors.As(err, &tw) || errors.As(err, &oe) || errors.As(err, &me) ||
		errors.As(err, &ne) || errors.As(err, &ar) || errors.As(err, &nt) || errors.As(err, &te)
}
