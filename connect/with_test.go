package connect

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/transport"
)

// With runs fn on a session it opens and always closes; a connection
// that fails runs nothing.
func TestWith(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	con := render.NewConsole(&bytes.Buffer{}, render.ConsoleOptions{})
	refused := errors.New("refused")
	ran := false
	if err := With(ctx, con, func(context.Context) (*client.Session, error) { return nil, refused }, func(*client.Session) error { ran = true; return nil }); err != refused || ran {
		t.Errorf("With(a failing dial) = %v, ran fn %v; want the dial's error, fn not run", err, ran)
	}
	var session *client.Session
	dial := func(ctx context.Context) (*client.Session, error) {
		ct, st := mcp.NewInMemoryTransports()
		ss, err := mcp.NewServer(&mcp.Implementation{Name: "desk", Version: "1"}, nil).Connect(ctx, st, nil)
		if err != nil {
			return nil, err
		}
		t.Cleanup(func() { ss.Close() })
		session, err = client.Connect(ctx, transport.Wrap(ct, "desk"), client.Options{})
		return session, err
	}
	failed := errors.New("the tool failed")
	err := With(ctx, con, dial, func(s *client.Session) error {
		if s != session {
			t.Errorf("With ran fn on %p, want the session dialled %p", s, session)
		}
		return failed
	})
	if !errors.Is(err, failed) {
		t.Errorf("With = %v, want fn's error", err)
	}
	if _, lerr := session.ListTools(ctx); lerr == nil {
		t.Errorf("the session With opened still answers after With returned; want it closed")
	}
}
