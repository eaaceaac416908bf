package client

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/transport"
)

// LegacyVersion is the newest protocol version with the initialize
// handshake.
const LegacyVersion = "2025-11-25"

// DiscoverOutcome is what became of server/discover while connecting.
type DiscoverOutcome int

const (
	// DiscoverNotSent: a legacy version was asked for, so the initialize
	// handshake came first.
	DiscoverNotSent DiscoverOutcome = iota
	// DiscoverAnswered: the server answered, and a modern version both
	// sides speak was picked.
	DiscoverAnswered
	// DiscoverRefused: the server answered with an error (JSON-RPC, or an
	// HTTP status without one).
	DiscoverRefused
	// DiscoverUnanswered: no answer came (a stdio server that ignores
	// requests before initialize), or the request never arrived.
	DiscoverUnanswered
	// DiscoverNoModern: the server answered, but named no version of
	// 2026-07-28 or later that mcpcli speaks.
	DiscoverNoModern
)

// Negotiation says how the session's protocol version was reached.
type Negotiation struct {
	// Asked is the version asked for first.
	Asked string
	// Pinned means no other version was accepted (Options.PinProtocol).
	Pinned bool
	// Discover is what became of server/discover.
	Discover DiscoverOutcome
	// DiscoverErr is why server/discover did not lead to a modern session:
	// the server's JSON-RPC error, or the transport's explanation of an
	// HTTP answer without one. Nil when it did.
	DiscoverErr error
	// Retried is set when the server refused the version first asked for
	// (-32022) and named others, and mcpcli asked again with one of them.
	Retried bool
	// Handshake is "server/discover" or "initialize": how the session
	// started.
	Handshake string
}

// HTTPRefusal is an HTTP error status whose body is a JSON-RPC error
// without an id: the server's reason, which the go-sdk cannot read.
type HTTPRefusal struct {
	Status int
	RPC    *jsonrpc.Error
}

func (e *HTTPRefusal) Error() string {
	return fmt.Sprintf("HTTP %d, JSON-RPC error %d: %s", e.Status, e.RPC.Code, e.RPC.Message)
}

func (e *HTTPRefusal) Unwrap() error { return e.RPC }

// PinError is a server that would not speak the version --protocol pinned.
type PinError struct {
	Server  string
	Version string // the pinned version
	// Got is the version the server answered initialize with; empty when
	// the session never got that far.
	Got string
	// Discover is why server/discover failed, when the pin was modern.
	Discover error
}

func (e *PinError) Error() string {
	if e.Got != "" {
		return fmt.Sprintf("server (%s) answered initialize with protocol version %s, not the pinned %s", e.Server, e.Got, e.Version)
	}
	if e.Discover != nil {
		return fmt.Sprintf("server (%s) did not start a %s session with server/discover (%v), and the version is pinned, so mcpcli did not fall back to the initialize handshake", e.Server, e.Version, e.Discover)
	}
	return fmt.Sprintf("server (%s) would not speak the pinned protocol version %s", e.Server, e.Version)
}

func (e *PinError) Unwrap() error { return e.Discover }

// negotiator watches the handshake: it records what became of
// server/discover and refuses what a pinned version forbids.
type negotiator struct {
	s *Session

	mu  sync.Mutex
	neg Negotiation
	// versionRefused: a server/discover was refused with -32022.
	versionRefused bool
}

// reset starts recording a new attempt at connecting.
func (n *negotiator) reset(neg Negotiation) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.neg, n.versionRefused = neg, false
}

// Negotiation reports how the session's protocol version was reached.
func (s *Session) Negotiation() Negotiation {
	s.neg.mu.Lock()
	defer s.neg.mu.Unlock()
	return s.neg.neg
}

// middleware is a sending middleware on the go-sdk client.
func (n *negotiator) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch method {
		case "server/discover":
			seen := n.s.wire.discoverAnswers()
			orphans, _ := n.s.wire.orphanErrors()
			res, err := next(ctx, method, req)
			var orphan *jsonrpc.Error
			if now, last := n.s.wire.orphanErrors(); now > orphans {
				orphan = last
			}
			n.discovered(err, n.s.wire.discoverAnswers() > seen, orphan)
			return res, err
		case "initialize":
			n.mu.Lock()
			neg := n.neg
			n.mu.Unlock()
			if neg.Pinned && neg.Asked >= ModernVersion {
				return nil, &PinError{Server: n.s.t.Via(), Version: neg.Asked, Discover: neg.DiscoverErr}
			}
			res, err := next(ctx, method, req)
			if err != nil {
				return res, err
			}
			n.mu.Lock()
			n.neg.Handshake = "initialize"
			n.mu.Unlock()
			if ir, ok := res.(*mcp.InitializeResult); ok && neg.Pinned && ir.ProtocolVersion != neg.Asked {
				return nil, &PinError{Server: n.s.t.Via(), Version: neg.Asked, Got: ir.ProtocolVersion}
			}
			return res, err
		}
		return next(ctx, method, req)
	}
}

// discovered records one server/discover: answered says whether the
// server's own JSON-RPC answer was seen on the wire; orphan is an error
// response without an id that arrived meanwhile (the go-sdk cannot read
// those, but it is the server's word on why).
func (n *negotiator) discovered(err error, answered bool, orphan *jsonrpc.Error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if err == nil {
		n.neg.Discover, n.neg.DiscoverErr, n.neg.Handshake = DiscoverAnswered, nil, "server/discover"
		n.neg.Retried = n.versionRefused
		return
	}
	var (
		je *jsonrpc.Error
		se *transport.StatusError
	)
	isRPC := errors.As(err, &je) && je.Code != transport.CodeRejectedByTransport
	// An HTTP answer: with a JSON-RPC error the wire could not match to
	// the request (servers answer id null), or with none at all.
	httpStatus := !answered && errors.As(n.s.t.Explain(err), &se)
	switch {
	case answered && isRPC && je.Code == mcp.CodeUnsupportedProtocolVersion && n.s.wire.discoverResult():
		// The go-sdk's own verdict on an answer without a modern
		// version in common.
		n.neg.Discover = DiscoverNoModern
	case answered && isRPC && je.Code == mcp.CodeUnsupportedProtocolVersion:
		n.neg.Discover, n.versionRefused = DiscoverRefused, true
	case answered, httpStatus && isRPC:
		n.neg.Discover = DiscoverRefused
	case httpStatus && orphan != nil:
		n.neg.Discover, err = DiscoverRefused, &HTTPRefusal{Status: se.Status, RPC: orphan}
	case httpStatus:
		n.neg.Discover, err = DiscoverRefused, se
	default:
		n.neg.Discover = DiscoverUnanswered
	}
	n.neg.DiscoverErr = err
}
