package transport

import (
	"encoding/json"
	"errors"
	"fmt"

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
		m, err := decodeMessage(line)
		if err != nil {
			return nil, &DecodeError{Line: shortLine(line), Err: err}
		}
		return []jsonrpc.Message{m}, nil
	}
	var msgs []jsonrpc.Message
	var derr error
	err := jsonpeek.Array(line, func(v []byte) bool {
		m, err := decodeMessage(v)
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

// decodeMessage is jsonrpc.DecodeMessage, reading the envelope without
// copying: a result or params is a slice of the line, not a copy of it (a
// 100 MB result was decoded three times over). It follows the go-sdk's
// rules, and says more where they fall short: a response with a null id
// is *NullIDError, not "invalid request".
func decodeMessage(b []byte) (jsonrpc.Message, error) {
	var version, id, method, params, result, rpcErr []byte
	err := jsonpeek.Object(b, func(k string, v []byte) bool {
		switch k {
		case "jsonrpc":
			version = v
		case "id":
			id = v
		case "method":
			method = v
		case "params":
			params = v
		case "result":
			result = v
		case "error":
			rpcErr = v
		}
		return true
	})
	if err != nil {
		return nil, fmt.Errorf("not a JSON object: %w", err)
	}
	if v, ok := jsonpeek.String(version); !ok || v != "2.0" {
		return nil, fmt.Errorf("its jsonrpc member is %s, not \"2.0\"", orMissing(version))
	}
	var idv any
	if id != nil {
		if err := json.Unmarshal(id, &idv); err != nil {
			return nil, fmt.Errorf("its id: %v", err)
		}
	}
	rid, err := jsonrpc.MakeID(idv)
	if err != nil {
		return nil, fmt.Errorf("its id %s is neither a number nor a string", id)
	}
	if method != nil {
		name, ok := jsonpeek.String(method)
		if !ok && !jsonpeek.IsNull(method) { // null reads as "", as in the go-sdk
			return nil, fmt.Errorf("its method %s is not a string", method)
		}
		return &jsonrpc.Request{Method: name, ID: rid, Params: nullAsNone(params)}, nil
	}
	var we *jsonrpc.Error
	if rpcErr != nil && !jsonpeek.IsNull(rpcErr) {
		we = &jsonrpc.Error{}
		if err := json.Unmarshal(rpcErr, we); err != nil {
			return nil, fmt.Errorf("its error member is not a JSON-RPC error object: %v", err)
		}
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

func orMissing(v []byte) string {
	if v == nil {
		return "missing"
	}
	return string(v)
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
