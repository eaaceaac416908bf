package transport

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// deafTransport is a server side that never sees server/discover, as a
// 2025-11-25 server that ignores every request before initialize.
type deafTransport struct{ mcp.Transport }

func (t deafTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return deafConn{c}, nil
}

type deafConn struct{ mcp.Connection }

func (c deafConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		m, err := c.Connection.Read(ctx)
		if req, ok := m.(*jsonrpc.Request); ok && err == nil && req.Method == "server/discover" {
			continue
		}
		return m, err
	}
}

// probedTransport is the client side wrapped as Stdio wraps it.
type probedTransport struct {
	mcp.Transport
	wait time.Duration
	warn func(string)
}

func (t probedTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return withDiscoverProbe(c, t.wait, t.warn), nil
}

func TestSilentLegacyServerGetsTheInitializeHandshake(t *testing.T) {
	ct, st := mcp.NewInMemoryTransports()
	srv := mcp.NewServer(&mcp.Implementation{Name: "deaf-legacy", Version: "1"},
		&mcp.ServerOptions{SupportedProtocolVersions: []string{"2025-11-25"}})
	srv.AddTool(&mcp.Tool{Name: "ping", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "pong"}}}, nil
		})
	ctx := context.Background()
	ss, err := srv.Connect(ctx, deafTransport{st}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()

	var mu sync.Mutex
	var warned []string
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	// Without the probe's answer Connect waits for ever; the deadline only
	// turns that hang into a failure.
	cctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	cs, err := c.Connect(cctx, probedTransport{ct, time.Millisecond, func(s string) {
		mu.Lock()
		warned = append(warned, s)
		mu.Unlock()
	}}, nil)
	if err != nil {
		t.Fatalf("Connect to a server that ignores server/discover: %v", err)
	}
	defer cs.Close()
	if got := cs.InitializeResult().ProtocolVersion; got != "2025-11-25" {
		t.Errorf("negotiated %q, want the initialize handshake's 2025-11-25", got)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "ping"})
	if err != nil {
		t.Fatalf("CallTool after the fallback: %v", err)
	}
	if tc, ok := res.Content[0].(*mcp.TextContent); !ok || tc.Text != "pong" {
		t.Errorf("CallTool = %v, want pong", res.Content)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(warned) != 1 || !strings.Contains(warned[0], "server/discover") {
		t.Errorf("warnings = %q, want one naming server/discover", warned)
	}
}

func TestAnsweredProbeIsLeftAlone(t *testing.T) {
	ct, st := mcp.NewInMemoryTransports()
	srv := mcp.NewServer(&mcp.Implementation{Name: "modern", Version: "1"}, nil)
	ctx := context.Background()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	warned := false
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	// The probe's timer is long: the server answers first, and the timer
	// must be stopped, not fire later into the session.
	p := probedTransport{ct, time.Hour, func(string) { warned = true }}
	cs, err := c.Connect(ctx, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if got := cs.InitializeResult().ProtocolVersion; got < "2026-07-28" {
		t.Errorf("negotiated %q with a modern server, want 2026-07-28 or later", got)
	}
	if warned {
		t.Error("warned about a fallback with a server that answered server/discover")
	}
}

func TestProbeWaitsForAServerThatHasNotReadIt(t *testing.T) {
	ct, st := mcp.NewInMemoryTransports()
	srv := mcp.NewServer(&mcp.Implementation{Name: "slow-start", Version: "1"}, nil)
	ctx := context.Background()
	// The server starts only after the probe's timer has fired three
	// times; until then nothing has read the probe, as with a server that
	// npx is still downloading.
	var calls int
	started := make(chan *mcp.ServerSession, 1)
	unread := func() (int, bool) {
		calls++
		if calls == 3 {
			go func() {
				ss, err := srv.Connect(ctx, st, nil)
				if err != nil {
					t.Error(err)
				}
				started <- ss
			}()
		}
		return 1, true
	}
	warned := false
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	cs, err := c.Connect(cctx, unreadTransport{probedTransport{ct, time.Millisecond, func(string) { warned = true }}, unread}, nil)
	if err != nil {
		t.Fatalf("Connect to a server slow to start: %v", err)
	}
	defer cs.Close()
	defer func() { (<-started).Close() }()
	if got := cs.InitializeResult().ProtocolVersion; got < "2026-07-28" {
		t.Errorf("negotiated %q, want the modern version: a server that has not read the probe is not legacy", got)
	}
	if warned {
		t.Error("fell back to initialize while the server had not read server/discover")
	}
}

type unreadTransport struct {
	probedTransport
	unread func() (int, bool)
}

func (t unreadTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.probedTransport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	c.(*probeConn).unread = t.unread
	return c, nil
}

// slowTransport is a server side whose server/discover answer comes only
// after delay, as from a modern server busy starting up. (The answer is
// written here, for the go-sdk's server, never seeing the request, then
// takes an initialize that comes meanwhile as an older server would.)
type slowTransport struct {
	mcp.Transport
	delay time.Duration
}

func (t slowTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &slowConn{Connection: c, delay: t.delay}, nil
}

type slowConn struct {
	mcp.Connection
	delay time.Duration
}

func (c *slowConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		m, err := c.Connection.Read(ctx)
		if req, ok := m.(*jsonrpc.Request); ok && err == nil && req.Method == "server/discover" {
			time.AfterFunc(c.delay, func() {
				c.Connection.Write(context.Background(), &jsonrpc.Response{ID: req.ID, Result: json.RawMessage(
					`{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"slow","version":"1"}}}`)})
			})
			continue
		}
		return m, err
	}
}

// A modern server slower than the probe: taken for an older one, and when
// its answer comes after all, the person is told why and what to do. With
// the probe off (--protocol 2026-07-28), it is waited for.
func TestSlowModernServerAndTheProbe(t *testing.T) {
	for _, tc := range []struct {
		name     string
		wait     time.Duration
		version  string
		warnings []string
	}{
		{"probe shorter than the server", 20 * time.Millisecond, "2025-11-25", []string{"did not answer server/discover within 20ms", "answered server/discover after all"}},
		{"probe off", NoDiscoverProbe, "2026-07-28", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ct, st := mcp.NewInMemoryTransports()
			srv := mcp.NewServer(&mcp.Implementation{Name: "slow", Version: "1"}, nil)
			ctx := context.Background()
			ss, err := srv.Connect(ctx, slowTransport{st, 300 * time.Millisecond}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer ss.Close()
			var mu sync.Mutex
			var warned []string
			c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
			cs, err := c.Connect(ctx, probedTransport{ct, tc.wait, func(s string) {
				mu.Lock()
				warned = append(warned, s)
				mu.Unlock()
			}}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			if got := cs.InitializeResult().ProtocolVersion; got != tc.version {
				t.Errorf("negotiated %q, want %s", got, tc.version)
			}
			// The late answer reaches the connection while it is read.
			deadline := time.Now().Add(5 * time.Second)
			for len(tc.warnings) > 0 && time.Now().Before(deadline) {
				mu.Lock()
				n := len(warned)
				mu.Unlock()
				if n >= len(tc.warnings) {
					break
				}
				cs.Ping(ctx, nil)
				time.Sleep(20 * time.Millisecond)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(warned) != len(tc.warnings) {
				t.Fatalf("warnings = %q; want %q", warned, tc.warnings)
			}
			for i, w := range tc.warnings {
				if !strings.Contains(warned[i], w) {
					t.Errorf("warning %d = %q; want %q", i, warned[i], w)
				}
			}
			if len(warned) == 2 && !strings.Contains(warned[1], "--timeout") {
				t.Errorf("the late answer's warning %q does not say what to do", warned[1])
			}
		})
	}
}

// A probe answered on the server's behalf is no longer a request waiting
// on the stdio connection: an error with id null later goes to the request
// that does wait, and closing does not take the run for one given up on.
func TestExpiredProbeIsNotLeftWaiting(t *testing.T) {
	probe, _ := jsonrpc.MakeID(float64(1))
	c := &conn{pending: map[jsonrpc.ID]bool{probe: true}}
	pc := withDiscoverProbe(c, time.Hour, nil)
	pc.pending[probe] = time.AfterFunc(time.Hour, func() {})
	pc.expire(probe)
	if len(c.pending) != 0 {
		t.Errorf("after the probe expired, the connection still waits on %v", c.pending)
	}
	if m := <-pc.fake; m.(*jsonrpc.Response).ID != probe {
		t.Errorf("the probe's answer went to %v, want %v", m.(*jsonrpc.Response).ID, probe)
	}
}
