// Package client drives an MCP session and its multi round-trip requests.
//
// It knows nothing about terminals: when a server answers a request with
// resultType "input_required", the loop hands the whole round to an
// [Answerer] and retries the original request with the answers, under a new
// JSON-RPC id, echoing requestState exactly.
//
// The session watches its own wire: [Connect] adds an observer to the
// transport, and every message received is decoded once there and shared
// (the asks' schemas in the server's own bytes and order, pending requests,
// cancellation, what server/discover said, each final result as sent).
package client

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/schema"
	"github.com/mcpcli/mcpcli/transport"
)

// Answerer answers one round of a server's input requests.
//
// It returns one ElicitResult per Ask.Key; the loop sends exactly those keys
// back. Returning ErrAbandoned (or an error wrapping it) stops the request
// without retrying: nothing obliges a client to come back.
type Answerer interface {
	Answer(ctx context.Context, r Round) (map[string]*mcp.ElicitResult, error)
}

// AnswererFunc adapts a function to the Answerer interface.
type AnswererFunc func(ctx context.Context, r Round) (map[string]*mcp.ElicitResult, error)

// Answer calls f.
func (f AnswererFunc) Answer(ctx context.Context, r Round) (map[string]*mcp.ElicitResult, error) {
	return f(ctx, r)
}

// Round is everything a server asked for in one interim result.
type Round struct {
	Server Server
	// Call is the request's number in the session (Step.Call), 0 for a
	// legacy ask that arrived while no request was in flight.
	Call int
	// Method is the request being answered: "tools/call", "prompts/get" or
	// "resources/read"; for a legacy server-initiated request, the request
	// that was in flight when it arrived (empty if none was).
	Method string
	// Target is the tool name, prompt name or resource URI.
	Target string
	// Number counts the rounds of this request, from 1.
	Number int
	// Asks are the elicitations, in the order the server wrote them.
	Asks []Ask
	// Legacy is true when the ask arrived as a server-initiated
	// elicitation/create request (protocol versions before 2026-07-28),
	// or in a -32042 error (URLRequired).
	Legacy bool
	// URLRequired is true when the asks came in a -32042 error (URL
	// elicitation required): the request goes again, as it was, once
	// every one is accepted.
	URLRequired bool
}

// Ask is one elicitation/create request.
type Ask struct {
	Key    string
	Params *mcp.ElicitParams
	// Schema is requestedSchema exactly as the server wrote it, so that its
	// properties keep their order.
	Schema json.RawMessage
	// Form is Schema parsed, once, for a form-mode ask; FormErr says why
	// there is none (a requestedSchema that is not a JSON object).
	Form    *schema.Form
	FormErr error
	// Given, when set, are values a form starts from instead of the
	// schema's defaults: what the person answered the same ask with the
	// last time the request was sent. The person still sees and sends
	// them; the loop never sends them by itself.
	Given map[string]any
}

// NewAsk makes an ask from the go-sdk's params and the server's own bytes
// of its requestedSchema (nil when they were not seen: then the decoded
// schema is encoded again, and its order is lost).
func NewAsk(key string, p *mcp.ElicitParams, raw json.RawMessage) Ask {
	a := Ask{Key: key, Params: p, Schema: raw}
	if a.Mode() != "form" {
		return a
	}
	if a.Schema == nil && p != nil && p.RequestedSchema != nil {
		a.Schema, _ = json.Marshal(p.RequestedSchema)
	}
	a.Form, a.FormErr = schema.Parse(a.Schema)
	return a
}

// Mode is the ask's elicitation mode: "form" or "url" (an omitted mode is form).
func (a Ask) Mode() string {
	if a.Params == nil || a.Params.Mode == "" {
		return "form"
	}
	return a.Params.Mode
}

// Server identifies who is asking.
type Server struct {
	Name    string // serverInfo.name, or Via when the server gave none
	Title   string // serverInfo.title
	Version string
	// Via is how mcpcli reaches it: "stdio: CMD" or the URL.
	Via string
	// Protocol is the negotiated protocol version.
	Protocol string
}

// Display is the name to show a person.
func (s Server) Display() string {
	switch {
	case s.Title != "":
		return s.Title
	case s.Name != "":
		return s.Name
	}
	return s.Via
}

// Modern reports whether the server speaks 2026-07-28 or later.
func (s Server) Modern() bool { return s.Protocol >= ModernVersion }

// ModernVersion is the first protocol version without the initialize
// handshake.
const ModernVersion = transport.ModernVersion

// Action values of an ElicitResult.
const (
	Accept  = "accept"
	Decline = "decline"
	Cancel  = "cancel"
)

// ErrAbandoned means the person gave up on the whole request.
var ErrAbandoned = errors.New("request abandoned")
