package client

import (
	"fmt"
	"strings"
	"time"

	"github.com/mcpcli/mcpcli/internal/plural"
)

// The errors of this package carry what happened in fields; their Error
// strings say it plainly. Which flag to try is for the command line to say.

// ProtocolError is a server breaking the protocol: the request cannot go on.
type ProtocolError struct {
	Server string
	Detail string
}

func (e *ProtocolError) Error() string {
	return fmt.Sprintf("server \"%s\" %s", e.Server, e.Detail)
}

// ModeError is an elicitation in a mode mcpcli did not declare (or does not
// know): a bug in the server.
type ModeError struct {
	Server   string
	Key      string // the ask's key ("elicitation" for a legacy request)
	Mode     string
	Declared Modes
}

func (e *ModeError) Error() string {
	switch e.Mode {
	case "form", "url":
		what := "a form"
		if e.Mode == "url" {
			what = "a URL"
		}
		if e.Declared.none() {
			return fmt.Sprintf("server \"%s\" sent %s elicitation (%q) although mcpcli declared no elicitation capability; this is a bug in the server", e.Server, what, e.Key)
		}
		return fmt.Sprintf("server \"%s\" sent %s elicitation (%q) although mcpcli declared only %s elicitation; this is a bug in the server", e.Server, what, e.Key, e.Declared)
	}
	return fmt.Sprintf("server \"%s\" sent an elicitation (%q) in unknown mode %q; only form and url exist, so this is a bug in the server", e.Server, e.Key, e.Mode)
}

// UndeclaredError is an input request for a capability mcpcli did not
// declare (sampling, roots): a bug in the server.
type UndeclaredError struct {
	Server     string
	Key        string // the input request's key; empty for a legacy request
	Method     string // sampling/createMessage, roots/list
	Capability string // sampling, roots
	// Legacy: the server sent a request (before 2026-07-28) rather than an
	// input request.
	Legacy bool
}

func (e *UndeclaredError) Error() string {
	if e.Legacy {
		return fmt.Sprintf("server \"%s\" sent a %s request, although mcpcli did not declare %s; this is a bug in the server", e.Server, e.Method, e.Capability)
	}
	return fmt.Sprintf("server \"%s\" asked for %s (%s, key %q), which mcpcli did not declare; this is a bug in the server", e.Server, e.Capability, e.Method, e.Key)
}

// RoundsError is a request that went past one of the loop's bounds.
type RoundsError struct {
	Server    string
	Rounds    int
	StateOnly bool // the bound on rounds carrying only requestState
}

func (e *RoundsError) Error() string {
	if e.StateOnly {
		return fmt.Sprintf("server \"%s\" answered %d times in a row with only requestState and no input requests; giving up (it may be overloaded: try again later)",
			e.Server, e.Rounds)
	}
	rounds := "rounds"
	if e.Rounds == 1 {
		rounds = "round"
	}
	return fmt.Sprintf("server \"%s\" still asked for input after %d %s; giving up", e.Server, e.Rounds, rounds)
}

// TimeoutError is a server that did not answer within Options.Timeout.
type TimeoutError struct {
	Server     string
	After      time.Duration
	Connecting bool // it did not finish connecting
}

func (e *TimeoutError) Error() string {
	if e.Connecting {
		return fmt.Sprintf("server (%s) did not finish connecting within %s", e.Server, e.After)
	}
	return fmt.Sprintf("no answer from server \"%s\" within %s", e.Server, e.After)
}

// ConnectError is a failure to start a session.
type ConnectError struct {
	Via string
	Err error
}

func (e *ConnectError) Error() string { return fmt.Sprintf("connecting to %s: %v", e.Via, e.Err) }
func (e *ConnectError) Unwrap() error { return e.Err }

// FallbackError is a stdio server that did not answer server/discover
// within the probe's wait, and then failed the older initialize handshake
// too: perhaps a 2026-07-28 server slower than the wait.
type FallbackError struct {
	Wait time.Duration
	Err  error
}

func (e *FallbackError) Error() string {
	return fmt.Sprintf("the server did not answer server/discover within %s, so mcpcli tried the older initialize handshake, which failed: %v; if it is a slow 2026-07-28 server, give it longer with --timeout (half of it goes to that wait) or pin --protocol 2026-07-28", e.Wait, e.Err)
}

func (e *FallbackError) Unwrap() error { return e.Err }

// VersionError is a server that speaks none of mcpcli's protocol versions.
type VersionError struct {
	Via     string
	Offered []string // what the server said it supports
	Speaks  []string // what mcpcli speaks
	Cause   error
}

func (e *VersionError) Error() string {
	return fmt.Sprintf("server %s supports only protocol version%s %s, and mcpcli speaks %s (-32022 unsupported protocol version)",
		e.Via, plural.S(len(e.Offered)), strings.Join(e.Offered, ", "), strings.Join(e.Speaks, ", "))
}

func (e *VersionError) Unwrap() error { return e.Cause }

// AnswerError is an ask mcpcli could not answer (its answerer failed): the
// request did not go as asked, whatever the server did next.
type AnswerError struct {
	Key   string
	Round int
	Err   error
}

func (e *AnswerError) Error() string { return e.Err.Error() }
func (e *AnswerError) Unwrap() error { return e.Err }

// StreamError is a request whose response stream broke before the result.
// The server had the request and may have acted on it (run a tool), so
// mcpcli does not send it again on its own: only the person can tell
// whether that is safe.
type StreamError struct {
	Server string
	Method string
	Target string
	Cause  error
}

func (e *StreamError) Error() string {
	return fmt.Sprintf("server \"%s\" closed the response stream for %s %q before sending the result; mcpcli did not send it again, "+
		"since the server may have acted on it already (the server may have crashed while handling it, or a proxy in between may cut long responses)",
		e.Server, e.Method, e.Target)
}

func (e *StreamError) Unwrap() error { return e.Cause }

// NoLoggingError is a log level asked of an older server that does not
// declare the logging capability.
type NoLoggingError struct{ Server string }

func (e *NoLoggingError) Error() string {
	return fmt.Sprintf("server \"%s\" does not declare logging, so it takes no log level", e.Server)
}
