package transport

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultDiscoverWait is how long a stdio server has to answer the
// server/discover probe before it is taken for a legacy server.
const DefaultDiscoverWait = 5 * time.Second

// NoDiscoverProbe, as a wait, turns the probe off.
const NoDiscoverProbe time.Duration = -1

// probeConn answers, on the server's behalf, a server/discover request the
// server has read and then left unanswered for wait. The stdio spec (Backward Compatibility)
// says a server that "does not respond within a reasonable timeout" is legacy:
// some 2025-11-25 servers ignore any request that comes before initialize.
// The answer is a JSON-RPC error, on which the go-sdk falls back to the
// initialize handshake on the same process. It never reaches a trace: the
// observers see only the bytes the server wrote.
type probeConn struct {
	mcp.Connection
	wait time.Duration
	warn func(string)
	// unread, when set, says how much of what was written the server has
	// not read yet: a server that has not even read the probe is still
	// starting (npx, uvx and the like can take a while), not ignoring it.
	unread func() (int, bool)

	startOnce sync.Once
	in        chan readResult
	fake      chan jsonrpc.Message
	done      chan struct{}
	closeOnce sync.Once

	mu      sync.Mutex
	pending map[jsonrpc.ID]*time.Timer
	expired map[jsonrpc.ID]bool // probes answered for the server
	readErr error               // the underlying connection's last error, once reached
}

func withDiscoverProbe(c mcp.Connection, wait time.Duration, warn func(string)) *probeConn {
	if wait == 0 {
		wait = DefaultDiscoverWait
	}
	return &probeConn{
		Connection: c, wait: wait, warn: warn,
		in: make(chan readResult), fake: make(chan jsonrpc.Message, 1), done: make(chan struct{}),
		pending: map[jsonrpc.ID]*time.Timer{}, expired: map[jsonrpc.ID]bool{},
	}
}

func (c *probeConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if req, ok := msg.(*jsonrpc.Request); ok && req.Method == "server/discover" && req.IsCall() && c.wait > 0 {
		id := req.ID
		c.mu.Lock()
		c.pending[id] = time.AfterFunc(c.wait, func() { c.expire(id) })
		c.mu.Unlock()
	}
	return c.Connection.Write(ctx, msg)
}

// expire answers the probe id for the server, if it still has not.
func (c *probeConn) expire(id jsonrpc.ID) {
	c.mu.Lock()
	_, ok := c.pending[id]
	if ok && c.unread != nil {
		if n, known := c.unread(); known && n > 0 {
			c.pending[id] = time.AfterFunc(c.wait, func() { c.expire(id) })
			c.mu.Unlock()
			return
		}
	}
	delete(c.pending, id)
	if ok {
		c.expired[id] = true
	}
	c.mu.Unlock()
	if !ok {
		return
	}
	// Answered on the server's behalf: not a request left waiting.
	if a, ok := c.Connection.(interface{ answered(jsonrpc.ID) }); ok {
		a.answered(id)
	}
	if c.warn != nil {
		c.warn(fmt.Sprintf("the server did not answer server/discover within %s; trying the 2025-11-25 initialize handshake (older servers ignore requests that come before it)", c.wait))
	}
	resp := &jsonrpc.Response{ID: id, Error: &jsonrpc.Error{
		Code:    jsonrpc.CodeMethodNotFound,
		Message: fmt.Sprintf("no answer to server/discover within %s", c.wait),
	}}
	select {
	case c.fake <- resp:
	case <-c.done:
	}
}

func (c *probeConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	c.startOnce.Do(func() { go c.pump() })
	c.mu.Lock()
	err := c.readErr
	c.mu.Unlock()
	if err != nil {
		return nil, err
	}
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.done:
		return nil, mcp.ErrConnectionClosed
	case m := <-c.fake:
		return m, nil
	case r := <-c.in:
		if r.err != nil {
			c.mu.Lock()
			c.readErr = r.err
			c.mu.Unlock()
			return nil, r.err
		}
		if resp, ok := r.msg.(*jsonrpc.Response); ok {
			c.mu.Lock()
			if t, ok := c.pending[resp.ID]; ok {
				t.Stop()
				delete(c.pending, resp.ID)
			}
			late := c.expired[resp.ID]
			delete(c.expired, resp.ID)
			c.mu.Unlock()
			if late && resp.Error == nil && c.warn != nil {
				c.warn(fmt.Sprintf("the server answered server/discover after all, later than %s: it speaks the 2026-07-28 handshake but was taken for an older server; for a server this slow, give a longer --timeout (half of it goes to the probe) or --protocol 2026-07-28", c.wait))
			}
		}
		return r.msg, nil
	}
}

// pump reads the underlying connection, so that Read can also wait for a
// probe to expire.
func (c *probeConn) pump() {
	for {
		m, err := c.Connection.Read(context.Background())
		select {
		case c.in <- readResult{m, err}:
		case <-c.done:
			return
		}
		if err != nil {
			return
		}
	}
}

func (c *probeConn) Close() error {
	c.closeOnce.Do(func() {
		close(c.done)
		c.mu.Lock()
		for id, t := range c.pending {
			t.Stop()
			delete(c.pending, id)
		}
		c.mu.Unlock()
	})
	return c.Connection.Close()
}
