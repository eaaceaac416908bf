package tui

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/flow"
	"github.com/mcpcli/mcpcli/internal/safefile"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/request"
	"github.com/mcpcli/mcpcli/shell"
	"github.com/mcpcli/mcpcli/transport"
)

// RunOptions are what Run needs.
type RunOptions struct {
	Console  *render.Console
	Terminal *render.Terminal
	Forms    *render.FormAnswerer
	Values   *render.ValueForm
	// Connect connects with the session's hooks going to feed
	// (Feed.Hooks): to a server started again (stdio) or reached again
	// (HTTP) each time.
	Connect func(ctx context.Context, feed *Feed) (*client.Session, error)
	Replay  request.Replay
	// Save is --save FILE: where S, and quitting, write the script.
	Save string
	// Flow is the server a flow file saved with S names.
	Flow flow.Server
	// Ledger proves the files mcpcli wrote, for S to write over its own.
	Ledger *safefile.Ledger
	// ErrorText words an error as the one-shot commands do.
	ErrorText func(error) string
	// KeyGuard is how long the session's own questions ignore keys, as
	// the forms do; ResultBudget the memory its results are kept in.
	KeyGuard     time.Duration
	ResultBudget int64
}

// Run connects, and runs the shell on opts.Terminal until the person
// quits: R replaces the connection. It returns *shell.Ended when ctx
// ended it (a signal), render.ErrCancelled when the person quit before
// it was up.
func Run(ctx context.Context, opts *RunOptions) error {
	feed := NewFeed(nil)
	s, err := opts.Connect(ctx, feed)
	if err != nil && ctx.Err() != nil {
		return &shell.Ended{Connecting: true, Err: err}
	}
	if err != nil {
		return err
	}
	conn := &sessionConn{s: s}
	defer conn.close()
	how, negotiated, via := sessionFacts(s)
	feed.HoldConsole(opts.Console.Hold)
	m := New(Options{
		Context: ctx,
		Client:  s, Feed: feed, Forms: opts.Forms, Values: opts.Values,
		Transport: via, Negotiated: negotiated, How: how,
		Replay: opts.Replay, SavePath: opts.Save, Flow: opts.Flow, Ledger: opts.Ledger,
		ErrorText:    opts.ErrorText,
		KeyGuard:     opts.KeyGuard,
		ResultBudget: opts.ResultBudget,
		Reconnect: func(ctx context.Context) (Reached, error) {
			s, err := conn.replace(func() (*client.Session, error) { return opts.Connect(ctx, feed) })
			if err != nil {
				return Reached{}, err
			}
			how, negotiated, via := sessionFacts(s)
			return Reached{Client: s, Transport: via, Negotiated: negotiated, How: how}, nil
		},
	})
	_, err = opts.Terminal.Run(ctx, m)
	m.Close()
	if err != nil && ctx.Err() != nil {
		return &shell.Ended{Cut: m.Cut(), Err: err}
	}
	if err != nil {
		return err
	}
	if msg := m.Status(); msg != "" && opts.Save != "" {
		opts.Console.Printf("mcpcli: %s", msg)
	}
	return nil
}

// sessionConn is the session's connection of the moment: R replaces it.
type sessionConn struct {
	mu     sync.Mutex
	s      *client.Session // nil after a restart that failed
	closed bool
}

// replace ends the connection (and with it a stdio server, if it still
// runs), and connects again.
func (c *sessionConn) replace(connect func() (*client.Session, error)) (*client.Session, error) {
	c.mu.Lock()
	old := c.s
	c.s = nil
	c.mu.Unlock()
	if old != nil {
		old.Close()
	}
	s, err := connect()
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		// The session ended while it connected.
		s.Close()
		return nil, errClosed
	}
	c.s = s
	return s, nil
}

var errClosed = errors.New("the session ended")

func (c *sessionConn) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	if c.s != nil {
		c.s.Close()
		c.s = nil
	}
}

// sessionFacts say how the session was reached: the negotiation in full
// (for Activity) and in a word (for the bar), and the transport.
func sessionFacts(s *client.Session) (how, short, via string) {
	n := s.Negotiation()
	how = render.DescribeNegotiation(n).Reason
	short = "discover"
	if n.Handshake == "initialize" {
		short = "initialize"
		if n.Discover != client.DiscoverNotSent {
			short = "initialize, fallback"
		}
	}
	if n.Pinned {
		short += ", pinned"
	}
	switch s.Transport().(type) {
	case *transport.Stdio:
		via = "stdio"
	case *transport.HTTP:
		via = "HTTP"
	case *transport.SSE:
		via, short = "HTTP+SSE", "initialize"
		how = "HTTP+SSE (the " + transport.LegacySSEVersion + " transport): the initialize handshake"
	}
	return how, short, via
}
