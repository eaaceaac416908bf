package client_test

import (
	"context"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/transport"
)

// The gosdk_*_test.go files each show the go-sdk alone (v1.8.0, no
// mcpcli) behaving as the gosdk_*.go file beside them works around. When
// one fails after an upgrade, the go-sdk changed: the workaround it names
// may go, or must change.

// bareAsk connects a go-sdk client of its own, made with opts, to
// rawLegacyServerAsking(method, params), calls its tool "ask", and returns
// what the server got for its request: the reply, result or error.
func bareAsk(t *testing.T, opts *mcp.ClientOptions, method, params string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c := mcp.NewClient(&mcp.Implementation{Name: "bare", Version: "1"}, opts)
	cs, err := c.Connect(ctx, rawLegacyServerAsking(t, method, params), &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatalf("the go-sdk alone: Connect: %v", err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "ask"})
	if err != nil {
		t.Fatalf("the go-sdk alone: CallTool(ask): %v", err)
	}
	return res.Content[0].(*mcp.TextContent).Text
}

// bareModern connects a go-sdk client of its own, made with opts, to
// rawServer(result) at 2026-07-28, and returns its session, the client,
// and the messages it sent, as sent.
func bareModern(t *testing.T, opts *mcp.ClientOptions, result func(method string) string) (*mcp.ClientSession, *mcp.Client, *wire) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	w := &wire{}
	ct := transport.Wrap(rawServer(t, result), "raw")
	ct.Observe(w.observe)
	c := mcp.NewClient(&mcp.Implementation{Name: "bare", Version: "1"}, opts)
	cs, err := c.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatalf("the go-sdk alone: Connect: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, c, w
}
