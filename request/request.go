// Package request is a request to an MCP server as mcpcli makes it: a tool
// call, a prompt or a resource read. A Request is prepared from words
// (KEY=VALUE, a JSON object, a template's variables), from a form or from
// a file (Preparer); sent through client (Send), with its rounds recorded
// as they happen (Recorder); and written back as one-shot commands with
// their answers files (WriteScript, Recorder.Answers).
//
// It knows no terminal and no flag. What goes wrong is a typed error with
// fields, and the front ends (cmd/mcpcli, shell/line, shell/tui) word it;
// what it asks a person goes through a narrow Asker they implement. The
// one-shot commands, the line shell and the full-screen shell differ only
// in how they ask and how they show.
package request

import (
	"context"
	"fmt"
	"maps"

	"github.com/mcpcli/mcpcli/client"
)

// The methods a Request is sent as.
const (
	ToolsCall     = "tools/call"
	PromptsGet    = "prompts/get"
	ResourcesRead = "resources/read"
)

// Request is one request as it is sent.
type Request struct {
	// Method is ToolsCall, PromptsGet or ResourcesRead.
	Method string
	// Target is the tool, the prompt, or the resource's URI.
	Target string
	// Args are a tool's arguments, or a prompt's (strings); nil for a
	// read.
	Args map[string]any
	// Template, for a read, is the URI template Target was filled from,
	// and Vars the values it was filled with.
	Template string
	Vars     map[string]string

	typed *typed // what a call was prepared from (Preparer.Call)
}

// Clone is a copy of r whose maps are its own (their values are shared).
func (r *Request) Clone() *Request {
	c := *r
	c.Args = maps.Clone(r.Args)
	c.Vars = maps.Clone(r.Vars)
	return &c
}

// Verb is the command that makes the request: call, prompt or read.
func (r *Request) Verb() string { return Verb(r.Method) }

// Verb is the command that makes a request of method: call, prompt or
// read ("" for another method).
func Verb(method string) string {
	return map[string]string{ToolsCall: "call", PromptsGet: "prompt", ResourcesRead: "read"}[method]
}

// Sender is what sending needs of a connected client.Session.
type Sender interface {
	CallTool(ctx context.Context, name string, args map[string]any) (*client.Result, error)
	GetPrompt(ctx context.Context, name string, args map[string]string) (*client.Result, error)
	ReadResource(ctx context.Context, uri string) (*client.Result, error)
}

// Send sends r through s, answering every round of input requests the
// way s was connected to. call, when above 0, numbers the request's steps
// and rounds (client.WithCall): a Recorder keeps them under it.
func Send(ctx context.Context, s Sender, r *Request, call int) (*client.Result, error) {
	if call > 0 {
		ctx = client.WithCall(ctx, call)
	}
	switch r.Method {
	case ToolsCall:
		args := r.Args
		if args == nil {
			args = map[string]any{}
		}
		return s.CallTool(ctx, r.Target, args)
	case PromptsGet:
		return s.GetPrompt(ctx, r.Target, PromptArgs(r.Args))
	case ResourcesRead:
		return s.ReadResource(ctx, r.Target)
	}
	return nil, fmt.Errorf("mcpcli sends tools/call, prompts/get and resources/read, not %q", r.Method)
}

// PromptArgs are a prompt's arguments as the strings they are sent as.
func PromptArgs(args map[string]any) map[string]string {
	out := make(map[string]string, len(args))
	for k, v := range args {
		if s, ok := v.(string); ok {
			out[k] = s
		} else {
			out[k] = fmt.Sprint(v)
		}
	}
	return out
}
