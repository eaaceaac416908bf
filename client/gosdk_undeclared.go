package client

// Works around go-sdk v1.8.0: its Client answers a 2025-11-25 server's
// roots/list from its own root list whatever the client declared (an
// empty list when roots were never declared). This receiving middleware
// is where every request of the server reaches mcpcli first: it answers
// what mcpcli did not declare (roots, sampling) with an error and tells
// the run, and hands elicitation/create to elicitOrExplain
// (gosdk_elicit_refusal.go). gosdk_undeclared_test.go shows the go-sdk
// alone answering an undeclared roots/list: when it fails, the go-sdk
// refuses it itself, and the roots case can go.

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// refuseUndeclared answers a server's request for a capability mcpcli did
// not declare with an error (the go-sdk would answer roots/list with an
// empty list whatever was declared).
func (s *Session) refuseUndeclared(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch {
		case method == "roots/list" && s.caps.initRoots:
			res, err := next(ctx, method, req)
			s.rootsOnce.Do(func() { close(s.rootsServed) })
			if lr, ok := res.(*mcp.ListRootsResult); ok && err == nil {
				s.rootsListed(ctx, lr)
			}
			return res, err
		case method == "roots/list":
			if s.opts.OnUndeclared != nil {
				s.opts.OnUndeclared(&UndeclaredError{Server: s.server.Display(), Method: method, Capability: "roots", Legacy: true})
			}
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "the client did not declare the roots capability"}
		case method == "sampling/createMessage" && !s.caps.initSampling:
			// The person learns of it from the run's error: nobody opted
			// in to answer for a model.
			err := &UndeclaredError{Server: s.server.Display(), Method: method, Capability: "sampling", Legacy: true}
			s.mu.Lock()
			fl := s.current
			s.mu.Unlock()
			switch {
			case fl != nil:
				s.failLegacy(fl, err)
			case s.opts.OnUndeclared != nil:
				s.opts.OnUndeclared(err)
			}
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "the client did not declare the sampling capability"}
		case method == "elicitation/create":
			return s.elicitOrExplain(ctx, method, req, next)
		}
		return next(ctx, method, req)
	}
}
