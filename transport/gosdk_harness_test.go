package transport

import (
	"context"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The gosdk_*_test.go files each show the go-sdk alone (v1.8.0, no
// mcpcli) behaving as the gosdk_*.go file beside them works around. When
// one fails after an upgrade, the go-sdk changed: the workaround it names
// may go, or must change.

// bareHTTP connects a go-sdk client of its own (its Streamable HTTP
// transport, none of mcpcli's) to url.
func bareHTTP(t *testing.T, url string, opts *mcp.ClientOptions) (*mcp.ClientSession, *mcp.Client) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c := mcp.NewClient(&mcp.Implementation{Name: "bare", Version: "1"}, opts)
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		t.Fatalf("the go-sdk alone: Connect(%s): %v", url, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, c
}

func bareCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}
