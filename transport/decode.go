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

// decodeLine decodes one line: a message, or a batch of them.
func decodeLine(line []byte) ([]jsonrpc.Message, error) {
	if jsonpeek.Deeper(line, MaxNesting) {
		return nil, &DecodeError{Line: shortLine(line), Err: &NestingError{Max: MaxNesting}}
	}
	if line[0] != '[' {
		m, err := DecodeMessage(line)
		if err != nil {
			return nil, &DecodeError{Line: shortLine(line), Err: err}
		}
		return []jsonrpc.Message{m}, nil
	}
	var msgs []jsonrpc.Message
	var derr error
	err := jsonpeek.Array(line, func(v []byte) bool {
		m, err := DecodeMessage(v)
		if err != nil {
			derr = err
			return false
		}
		msgs = append(msgs, m)
		return true
	})
	if err == nil {
		err = derr
	}
	if err == nil && len(msgs) == 0 {
		err = errors.New("an empty batch")
	}
	if err != nil {
		return nil, &DecodeError{Line: shortLine(line), Err: err}
	}
	return msgs, nil
}

// DecodeMessage reads one JSON-RPC message as the go-sdk's
// jsonrpc.DecodeMessage does, member by member, with the same decoder for
// each (jsonpeek.Unmarshal: keys spelled exactly, every repeated member
// decoded, the last one counting, a null leaving a string as it was), but
// without copying: a result or params is a slice of b, not a copy of it
// (a 100 MB result was decoded three times over). It says more where the
// go-sdk falls short: a response with a null id is *NullIDError, not
// "invalid request". Everything mcpcli reads of a server's messages, it
// reads through this: the transports and the session's view of the wire.
func DecodeMessage(b []byte) (jsonrpc.Message, error) {
	if jsonpeek.Deeper(b, MaxNesting) {
		return nil, &NestingError{Max: MaxNesting}
	}
	var (
		version                string
		idv                    any
		seen                   bool // a jsonrpc member
		id                     []byte
		method, params, result []byte
		we                     *jsonrpc.Error
		memberErr              error
	)
	err := jsonpeek.Object(b, func(k string, v []byte) bool {
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
	if err != nil {
		return nil, fmt.Errorf("not a JSON object: %w", err)
	}
	if memberErr != nil {
		return nil, memberErr
	}
	if version != "2.0" {
		what := "missing"
		if seen {
			what = strconv.Quote(version)
		}
		return nil, fmt.Errorf("its jsonrpc member is %s, not \"2.0\"", what)
	}
	rid, err := jsonrpc.MakeID(idv)
	if err != nil {
		return nil, fmt.Errorf("its id %s is neither a number nor a string", id)
	}
	if method != nil {
		var name string // null reads as "", as in the go-sdk
		if err := jsonpeek.Unmarshal(method, &name); err != nil {
			return nil, fmt.Errorf("its method %s is not a string", method)
		}
		return &jsonrpc.Request{Method: name, ID: rid, Params: nullAsNone(params)}, nil
	}
	if !rid.IsValid() {
		if we != nil {
			return nil, &NullIDError{Code: we.Code, Message: we.Message}
		}
		return nil, errors.New("it is a response without an id")
	}
	resp := &jsonrpc.Response{ID: rid, Result: nullAsNone(result)}
	if we != nil {
		resp.Error = we
	}
	return resp, nil
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
