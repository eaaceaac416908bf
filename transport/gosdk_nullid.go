package transport

// Works around go-sdk v1.8.0: it cannot read an error response whose id
// is null (jsonrpc.DecodeMessage refuses it), which is how a server
// answers a request it could not read. Over stdio, such an error with
// exactly one request waiting is that request's answer; otherwise it is
// skipped with a warning.
// gosdk_nullid_test.go shows the go-sdk alone refusing it: when it fails,
// the go-sdk reads it, and nullID may go.

import (
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// nullID handles an error response with a null id. A server sends one when
// it could not read a request well enough to tell its id. With exactly one
// request waiting it can only be about that one, which gets the error,
// marked as sent without an id; otherwise it is skipped with a warning
// (the requests it concerns wait on, for --timeout).
func (c *conn) nullID(ne *NullIDError) ([]jsonrpc.Message, error) {
	c.pendingMu.Lock()
	var only jsonrpc.ID
	n := len(c.pending)
	for id := range c.pending {
		only = id
	}
	c.pendingMu.Unlock()
	if n == 1 {
		return []jsonrpc.Message{&jsonrpc.Response{ID: only, Error: &jsonrpc.Error{
			Code: ne.Code, Message: ne.Message + " (the server sent this error with id null, tied to no request)"}}}, nil
	}
	if c.warn != nil {
		c.warn(fmt.Sprintf("the server sent %s; skipping it", ne.Error()))
	}
	return nil, nil
}
