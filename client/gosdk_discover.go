package client

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Works around go-sdk v1.8.0: its ClientSession falls back to the
// initialize handshake on any failed server/discover, a cancelled one too
// (its Connect ignores why discover failed). A person who pressed Ctrl+C,
// or a --timeout that ran out, while mcpcli connected wants nothing more
// sent. gosdk_discover_test.go shows the go-sdk alone sending initialize
// after a cancelled discover: when it fails, the go-sdk no longer does,
// and this middleware can go.

// noInitializeWhenStopped is a sending middleware: an initialize whose
// context is done (the server/discover before it was cancelled) is not
// sent.
func noInitializeWhenStopped(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method == "initialize" {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		return next(ctx, method, req)
	}
}
