package client_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/transport"
)

// signingIn is a transport whose first write, every tools/call and every
// tools/list page wait, as a write does while the person signs in to the
// server (the OAuth handler runs inside the transport's write), pausing
// the timeout.
type signingIn struct {
	transport.Transport
	wait  time.Duration
	pause bool
}

func (s *signingIn) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := s.Transport.Connect(ctx)
	return &signingInConn{Connection: c, s: s}, err
}

type signingInConn struct {
	mcp.Connection
	s     *signingIn
	first sync.Once
}

func (c *signingInConn) Write(ctx context.Context, m jsonrpc.Message) error {
	req, _ := m.(*jsonrpc.Request)
	signIn := false
	c.first.Do(func() { signIn = true })
	if signIn || req != nil && (req.Method == "tools/call" || req.Method == "tools/list") {
		if c.s.pause {
			defer client.PauseTimeout(ctx)()
		}
		time.Sleep(c.s.wait)
	}
	return c.Connection.Write(ctx, m)
}

func TestTimeoutDoesNotCountSigningIn(t *testing.T) {
	for _, pause := range []bool{true, false} {
		srv := newServer()
		srv.AddTool(&mcp.Tool{Name: "t", InputSchema: emptyObject}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil
		})
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		ct, st := pipes(&wire{})
		ss, err := srv.Connect(ctx, st, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer ss.Close()
		// Signing in takes longer than the timeout.
		s, err := client.Connect(ctx, &signingIn{Transport: ct, wait: 1500 * time.Millisecond, pause: pause}, client.Options{Timeout: time.Second, ConnectTimeout: time.Second})
		if !pause {
			var te *client.TimeoutError
			if !errors.As(err, &te) || !te.Connecting {
				t.Errorf("Connect with a sign-in that does not pause = %v, want a TimeoutError while connecting", err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("Connect with a 1.5s sign-in under a 1s timeout = %v; signing in must not count toward --timeout", err)
		}
		defer s.Close()
		if _, err := s.ListTools(ctx); err != nil {
			t.Errorf("ListTools with a 1.5s sign-in under a 1s timeout = %v; signing in must not count toward --timeout", err)
		}
		if _, err := s.CallTool(ctx, "t", nil); err != nil {
			t.Errorf("CallTool with a 1.5s sign-in under a 1s timeout = %v; signing in must not count toward --timeout", err)
		}
	}
}
