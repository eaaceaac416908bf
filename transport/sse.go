package transport

import (
	"context"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// LegacySSEVersion is the protocol version that defined the HTTP+SSE
// transport; servers that speak it know nothing newer than 2025-11-25
// over it.
const LegacySSEVersion = "2024-11-05"

// SSE is a Transport to an HTTP+SSE server (the transport of protocol
// 2024-11-05): a GET to URL opens a stream whose first event, "endpoint",
// names where to POST messages; the server's messages come on the stream.
// It is the go-sdk's SSEClientTransport with mcpcli's round tripper (the
// user's headers, observers, explained failures).
type SSE struct {
	URL    string
	Header http.Header // extra headers sent on every request (--header)
	// Base is the RoundTripper underneath; nil means http.DefaultTransport.
	Base http.RoundTripper
	// MaxMessage bounds one response body and one server-sent event, as
	// HTTP's does; zero means MaxMessageSize.
	MaxMessage int
	// Streamable, when set, is the Streamable HTTP POST that was refused
	// before mcpcli fell back to HTTP+SSE (see HTTP.Fallback).
	Streamable *StatusError

	obs    []Observer
	filter ResultFilter
	rec    recorder

	mu     sync.Mutex
	cancel context.CancelFunc // ends the GET stream
}

// Observe implements Transport.
func (s *SSE) Observe(o Observer) { s.obs = append(s.obs, o) }

// Via implements Transport.
func (s *SSE) Via() string { return s.URL }

// FilterResults implements Filterer, as HTTP's does.
func (s *SSE) FilterResults(f ResultFilter) { s.filter = f }

// Close implements Transport: the GET stream ends.
func (s *SSE) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cancel != nil {
		s.cancel()
	}
	return nil
}

// Connect implements mcp.Transport: it opens the GET stream and waits for
// the endpoint event. The stream outlives ctx (which bounds only the
// wait); Close ends it.
func (s *SSE) Connect(ctx context.Context) (mcp.Connection, error) {
	base := s.Base
	if base == nil {
		base = http.DefaultTransport
	}
	origin, err := url.Parse(s.URL)
	if err != nil {
		return nil, err
	}
	s.rec.url, s.rec.max, s.rec.headers = s.URL, s.MaxMessage, len(s.Header) > 0
	rt := &roundTripper{base: base, header: s.Header, obs: Observers(s.obs...), rec: &s.rec, recordGET: true, origin: origin, filter: s.filter}
	streamCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	stop := context.AfterFunc(ctx, cancel)
	t := &mcp.SSEClientTransport{
		Endpoint:   s.URL,
		HTTPClient: &http.Client{Transport: rt, CheckRedirect: s.rec.checkRedirect},
		// mcpcli's own bound (eventLimit) comes first, with its own error
		// (an event handed on is at most a byte longer: see HTTP.Connect).
		MaxEventSize: int(s.rec.maxMessage()) + 2,
	}
	conn, err := t.Connect(streamCtx)
	stop()
	if err != nil {
		cancel()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, s.connectError(err)
	}
	s.mu.Lock()
	s.cancel = cancel
	s.mu.Unlock()
	return conn, nil
}

// connectError says why the GET did not open an HTTP+SSE stream.
func (s *SSE) connectError(err error) error {
	var oe *OriginError
	if errors.As(err, &oe) {
		return oe
	}
	ex := s.rec.get()
	e := &SSEError{URL: s.URL, Streamable: s.Streamable, Cause: err}
	if ex.method == http.MethodGet {
		e.Status, e.Text = ex.status, ex.text
		e.ContentType, _, _ = mime.ParseMediaType(ex.ctype)
	}
	switch {
	case e.Status == http.StatusUnauthorized || e.Status == http.StatusForbidden:
		return &AuthError{URL: s.URL, Status: e.Status, Challenge: ex.challenge, Sent: ex.sent, Cause: err}
	case e.Status >= 200 && e.Status < 300 && e.ContentType != "text/event-stream":
		e.Problem = "its answer is " + e.ContentType + ", not an event stream"
	case e.Status >= 200 && e.Status < 300:
		e.Problem = "the stream did not start with an endpoint event"
	}
	return e
}

// Explain implements Transport.
func (s *SSE) Explain(err error) error {
	var se *SSEError
	if errors.As(err, &se) {
		return se
	}
	return s.rec.explain(s.URL, err, true)
}

// SSEError is an HTTP+SSE server that could not be reached: its GET did
// not open a stream that starts with an endpoint event.
type SSEError struct {
	URL string
	// Status, ContentType and Text are what the GET got (Status 0: no
	// answer at all).
	Status      int
	ContentType string
	Text        string
	// Problem is what was wrong with a 2xx answer.
	Problem string
	// Streamable is the Streamable HTTP POST refused before, when mcpcli
	// tried HTTP+SSE as a fallback.
	Streamable *StatusError
	Cause      error
}

func (e *SSEError) Error() string {
	got := e.got()
	if e.Streamable != nil {
		return fmt.Sprintf("server %s answers neither Streamable HTTP (POST: %s) nor HTTP+SSE (GET: %s)", e.URL, describeStatus(e.Streamable.Status, e.Streamable.Text), got)
	}
	return fmt.Sprintf("server %s did not open an HTTP+SSE stream (GET: %s)", e.URL, got)
}

func (e *SSEError) got() string {
	switch {
	case e.Status == 0:
		return fmt.Sprintf("no answer: %v", e.Cause)
	case e.Problem != "":
		return fmt.Sprintf("HTTP %d, but %s", e.Status, e.Problem)
	}
	return describeStatus(e.Status, e.Text)
}

func (e *SSEError) Unwrap() error { return e.Cause }

func describeStatus(status int, text string) string {
	s := fmt.Sprintf("HTTP %d %s", status, http.StatusText(status))
	if text != "" {
		s += fmt.Sprintf(", body %q", text)
	}
	return s
}

// Fallback returns the HTTP+SSE transport to try when connecting over
// Streamable HTTP failed because the server refused the first POST with
// 400, 404 or 405 and no JSON-RPC error (the backwards-compatibility steps
// of the 2025-11-25 transports page), or nil when err is something else,
// or h.Streamable forbids it. The new transport has h's observers.
func (h *HTTP) Fallback(err error) Transport {
	if h.Streamable || err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return nil
	}
	var je *jsonrpc.Error
	if errors.As(err, &je) && je.Code != CodeRejectedByTransport {
		return nil // the server answered in JSON-RPC: it speaks Streamable HTTP
	}
	ex := h.rec.get()
	if ex.method != http.MethodPost {
		return nil
	}
	switch ex.status {
	case http.StatusBadRequest, http.StatusNotFound, http.StatusMethodNotAllowed:
	default:
		return nil
	}
	mt, _, _ := mime.ParseMediaType(ex.ctype)
	refused := &StatusError{URL: h.URL, Status: ex.status, ContentType: mt, Text: ex.text, Cause: err}
	return &SSE{URL: h.URL, Header: h.Header, Base: h.Base, MaxMessage: h.MaxMessage, Streamable: refused, obs: append([]Observer(nil), h.obs...)}
}

// Fallbacker is a transport that knows another way to reach its server
// when connecting failed (HTTP: HTTP+SSE).
type Fallbacker interface {
	Fallback(err error) Transport
}
