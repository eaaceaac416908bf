package transport

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/mcpcli/mcpcli/internal/jsonpeek"
)

// MaxNesting is how deeply a message's JSON may nest: the go-sdk's decoder
// refuses more, and mcpcli says so before handing it over.
const MaxNesting = 1000

// MessageKind is what a JSON-RPC message is.
type MessageKind uint8

const (
	// KindNone: no message was decoded (an event of HTTP headers, or an
	// Event made by hand: Event.Envelope decodes it then).
	KindNone MessageKind = iota
	// KindRequest is a request: a method and an id.
	KindRequest
	// KindNotification is a method without an id (or with a null one).
	KindNotification
	// KindResult is a response without an error.
	KindResult
	// KindError is a response with an error. Its ID is invalid when the
	// server sent it with id null: an answer to no request.
	KindError
	// KindInvalid is not a message the go-sdk reads: Envelope.Err says why.
	KindInvalid
)

// Envelope is one JSON-RPC message read as the go-sdk reads it (see
// Decode): what it is, its id and method, and its params and result as
// slices of the message's bytes, never copies. A transport decodes each
// message it reads or sends once, and shows it in the Event: what it
// hands the go-sdk, the result stubs it asks its ResultFilter for, and
// every observer (the session's wire, the Activity view, lint) read this,
// not the bytes again.
type Envelope struct {
	Kind MessageKind
	// ID is invalid for a notification, and for an error with id null.
	ID     jsonrpc.ID
	Method string
	// Params and Result are nil when absent, "null" when null.
	Params json.RawMessage
	Result json.RawMessage
	// Error is the error member decoded as the go-sdk decodes it (several
	// error members read into one: not a slice of any one of them); nil
	// when absent or null.
	Error *jsonrpc.Error
	// Err is why the message is KindInvalid.
	Err error
}

// decoded is one message of what a transport read: its bytes and its
// envelope.
type decoded struct {
	msg []byte
	env Envelope
}

// lineMessages is what a stdio line holds: each message of a batch on its
// own (a trace has one message a line; the session matches each result to
// its request), or the line as one message.
func lineMessages(line []byte) []decoded {
	if line[0] == '[' {
		var batch []decoded
		err := jsonpeek.Array(line, func(v []byte) bool {
			batch = append(batch, decoded{msg: v, env: Decode(v)})
			return true
		})
		if err == nil && len(batch) > 0 {
			return batch
		}
	}
	return []decoded{{msg: line, env: Decode(line)}}
}

// lineResult is what the go-sdk gets of a line holding ms (lineMessages):
// its messages, or why the line cannot be read.
func lineResult(line []byte, ms []decoded) ([]jsonrpc.Message, error) {
	if line[0] == '[' {
		err := error(nil)
		switch {
		case jsonpeek.Deeper(line, MaxNesting):
			err = &NestingError{Max: MaxNesting}
		case len(ms[0].msg) == len(line): // not read as a batch
			if err = jsonpeek.Array(line, func([]byte) bool { return true }); err == nil {
				err = errors.New("an empty batch")
			}
		}
		if err != nil {
			return nil, &DecodeError{Line: shortLine(line), Err: err}
		}
	}
	msgs := make([]jsonrpc.Message, 0, len(ms))
	for _, d := range ms {
		m, err := d.env.Message()
		if err != nil {
			return nil, &DecodeError{Line: shortLine(line), Err: err}
		}
		msgs = append(msgs, m)
	}
	return msgs, nil
}

// decodeLine decodes one line: a message, or a batch of them.
func decodeLine(line []byte) ([]jsonrpc.Message, error) {
	return lineResult(line, lineMessages(line))
}

// DecodeMessage reads one JSON-RPC message as the go-sdk's
// jsonrpc.DecodeMessage does (see Decode). It says more where the go-sdk
// falls short: a response with a null id is *NullIDError, not "invalid
// request".
func DecodeMessage(b []byte) (jsonrpc.Message, error) {
	return Decode(b).Message()
}

// Decode reads one JSON-RPC message as the go-sdk's jsonrpc.DecodeMessage
// does, member by member, with the same decoder for each
// (jsonpeek.Unmarshal: keys spelled exactly, every repeated member
// decoded, the last one counting, a null leaving a string as it was), but
// without copying: a result or params is a slice of b, not a copy of it
// (a 100 MB result was decoded three times over). Everything mcpcli reads
// of a server's messages, it reads through this, once: the transports
// decode each message into the Event they show.
func Decode(b []byte) Envelope {
	var (
		version                string
		idv                    any
		seen                   bool // a jsonrpc member
		id                     []byte
		method, params, result []byte
		we                     *jsonrpc.Error
		memberErr              error
	)
	// One pass reads the members and checks the depth.
	err := jsonpeek.ObjectWithin(b, MaxNesting, func(k string, v []byte) bool {
		switch k {
		case "jsonrpc":
			seen = true
			if err := jsonpeek.Unmarshal(v, &version); err != nil {
				memberErr = fmt.Errorf("its jsonrpc member is %s, not \"2.0\"", v)
			}
		case "id":
			id, idv = v, nil
			if err := jsonpeek.Unmarshal(v, &idv); err != nil {
				memberErr = fmt.Errorf("its id: %v", err)
			}
		case "method":
			method = v
		case "params":
			params = v
		case "result":
			result = v
		case "error":
			if jsonpeek.IsNull(v) {
				we = nil
				break
			}
			if we == nil {
				we = &jsonrpc.Error{}
			}
			// Into the same error, as the go-sdk's decoder does: what a
			// later one leaves out, an earlier one gave.
			if err := jsonpeek.Unmarshal(v, we); err != nil {
				memberErr = fmt.Errorf("its error member is not a JSON-RPC error object: %v", err)
			}
		}
		return memberErr == nil
	})
	if de := (*jsonpeek.DepthError)(nil); errors.As(err, &de) {
		return invalid(&NestingError{Max: MaxNesting})
	}
	if err != nil {
		return invalid(fmt.Errorf("not a JSON object: %w", err))
	}
	if memberErr != nil {
		return invalid(memberErr)
	}
	if version != "2.0" {
		what := "missing"
		if seen {
			what = strconv.Quote(version)
		}
		return invalid(fmt.Errorf("its jsonrpc member is %s, not \"2.0\"", what))
	}
	rid, err := jsonrpc.MakeID(idv)
	if err != nil {
		return invalid(fmt.Errorf("its id %s is neither a number nor a string", id))
	}
	if method != nil {
		var name string // null reads as "", as in the go-sdk
		if err := jsonpeek.Unmarshal(method, &name); err != nil {
			return invalid(fmt.Errorf("its method %s is not a string", method))
		}
		kind := KindRequest
		if !rid.IsValid() {
			kind = KindNotification
		}
		return Envelope{Kind: kind, ID: rid, Method: name, Params: nullAsNone(params)}
	}
	if we != nil {
		return Envelope{Kind: KindError, ID: rid, Result: nullAsNone(result), Error: we}
	}
	if !rid.IsValid() {
		return invalid(errors.New("it is a response without an id"))
	}
	return Envelope{Kind: KindResult, ID: rid, Result: nullAsNone(result)}
}

func invalid(err error) Envelope { return Envelope{Kind: KindInvalid, Err: err} }

// Message is the message the go-sdk gets: a *jsonrpc.Request or a
// *jsonrpc.Response, sharing e's slices; or why there is none (an error
// with id null is *NullIDError).
func (e Envelope) Message() (jsonrpc.Message, error) {
	switch e.Kind {
	case KindRequest, KindNotification:
		return &jsonrpc.Request{Method: e.Method, ID: e.ID, Params: e.Params}, nil
	case KindResult:
		return &jsonrpc.Response{ID: e.ID, Result: e.Result}, nil
	case KindError:
		if !e.ID.IsValid() {
			return nil, &NullIDError{Code: e.Error.Code, Message: e.Error.Message}
		}
		return &jsonrpc.Response{ID: e.ID, Result: e.Result, Error: e.Error}, nil
	case KindInvalid:
		return nil, e.Err
	}
	return nil, errors.New("no message")
}

// nullAsNone is v, or nil for an absent member: the go-sdk reads a
// RawMessage member that way (omitempty), and "null" as null.
func nullAsNone(v []byte) json.RawMessage {
	if len(v) == 0 {
		return nil
	}
	return json.RawMessage(v)
}

// NullIDError is an error response whose id is null: the server could not
// tell which request it answers (it could not read one), so it answers
// none of them.
type NullIDError struct {
	Code    int64
	Message string
}

func (e *NullIDError) Error() string {
	return fmt.Sprintf("an error response tied to no request (id null): %d %s", e.Code, e.Message)
}

// NestingError is a message whose JSON nests deeper than mcpcli reads.
type NestingError struct{ Max int }

func (e *NestingError) Error() string {
	return fmt.Sprintf("JSON nested deeper than %d levels (arrays and objects within each other), more than mcpcli reads", e.Max)
}
