package transport

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTP is a Transport to a Streamable HTTP server.
//
// Everything it sends stays with the origin of URL: a redirect to another
// origin is refused (*RedirectError), so that Header, the OAuth token and
// the answers in a request's body reach no one else. Everything it reads
// is bounded by MaxMessage (*TooLargeError).
type HTTP struct {
	URL    string
	Header http.Header // extra headers sent on every request (--header)
	// Base is the RoundTripper underneath; nil means http.DefaultTransport.
	Base http.RoundTripper
	// OAuth, when set, gives each request its bearer token and signs in
	// when the server answers 401 or 403 (the go-sdk's handler).
	OAuth auth.OAuthHandler
	// MaxMessage bounds one response body (after decompression) and one
	// server-sent event; zero means MaxMessageSize.
	MaxMessage int

	// Streamable makes the transport Streamable HTTP only: no fallback to
	// HTTP+SSE when the server refuses the first POST (see Fallback).
	Streamable bool

	obs     []Observer
	filter  ResultFilter
	rec     recorder // the last response to a request, to explain failures
	streams streams  // the GET streams of a 2025-11-25 session
}

// FilterResults implements Filterer: a big final result reaches the
// go-sdk as the stub f gives, as over stdio.
func (h *HTTP) FilterResults(f ResultFilter) { h.filter = f }

// exchange is what is known of the last HTTP response to a request.
type exchange struct {
	method    string
	status    int
	ctype     string
	challenge string      // WWW-Authenticate
	text      string      // the start of a text/plain body of an error status
	sent      Credentials // what the request carried to prove who sent it
}

// Observe implements Transport.
func (h *HTTP) Observe(o Observer) { h.obs = append(h.obs, o) }

// Via implements Transport.
func (h *HTTP) Via() string { return h.URL }

// Close implements Transport; an HTTP server has nothing to stop.
func (h *HTTP) Close() error { return nil }

// Connect implements mcp.Transport, through the go-sdk's Streamable HTTP
// client transport.
func (h *HTTP) Connect(ctx context.Context) (mcp.Connection, error) {
	base := h.Base
	if base == nil {
		base = http.DefaultTransport
	}
	h.rec.url, h.rec.max, h.rec.headers = h.URL, h.MaxMessage, len(h.Header) > 0
	t := &mcp.StreamableClientTransport{
		Endpoint: h.URL,
		HTTPClient: &http.Client{
			Transport:     &roundTripper{base: base, header: h.Header, obs: Observers(h.obs...), rec: &h.rec, filter: h.filter, streams: &h.streams},
			CheckRedirect: h.rec.checkRedirect,
		},
		OAuthHandler: h.OAuth,
		// mcpcli's own bound (eventLimit) comes first, with its own error;
		// an event mcpcli hands on (eventBody) is never longer than the one
		// it read, but for the blank line that ends it when the stream did
		// not.
		MaxEventSize: int(h.rec.maxMessage()) + 2,
	}
	return t.Connect(ctx)
}

// ParseURL checks a --url value and says what to fix when it is wrong.
func ParseURL(raw string) (*url.URL, error) {
	if !strings.Contains(raw, "://") {
		// 127.0.0.1:8080/mcp, localhost:8080/mcp: a URL without its
		// scheme (url.Parse reads the first as a bad path).
		return nil, fmt.Errorf("%q must start with http:// or https:// (http://%s?)", raw, raw)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("%q is not a URL: %v", raw, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("%q must start with http:// or https://", raw)
	}
	if u.Host == "" {
		return nil, fmt.Errorf("%q has no host; write it like http://127.0.0.1:8080/mcp", raw)
	}
	return u, nil
}

// ParseHeader parses one "Name: value" header and adds it to h.
func ParseHeader(h http.Header, flag string) error {
	name, value, ok := strings.Cut(flag, ":")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return fmt.Errorf("%q must look like \"Name: value\"", flag)
	}
	for _, c := range name {
		if c <= ' ' || c >= 0x7f || strings.ContainsRune("()<>@,;:\\\"/[]?={}", c) {
			return fmt.Errorf("%q: %q is not a valid header name", flag, name)
		}
	}
	h.Add(name, strings.TrimSpace(value))
	return nil
}

// roundTripper adds the user's headers and shows observers both the headers
// and the JSON-RPC messages in request and response bodies.
type roundTripper struct {
	base   http.RoundTripper
	header http.Header
	obs    Observer
	// rec keeps the last answer to a request (and, with recordGET, to a
	// GET), to explain failures.
	rec       *recorder
	recordGET bool
	// origin, when set, is the only origin requests may go to.
	origin *url.URL
	// filter, when set, may stub a big result (see ResultFilter).
	filter ResultFilter
	// streams, when set, watches the GET streams (see Settle).
	streams *streams
}

// OriginError is a request that the server told mcpcli to send to another
// origin than the one it was given (an HTTP+SSE endpoint event naming
// another host): mcpcli sends nothing there, credentials least of all.
type OriginError struct {
	URL    string // the URL mcpcli was given
	Target string // where the server pointed
}

func (e *OriginError) Error() string {
	return fmt.Sprintf("server %s pointed mcpcli at another origin (%s); mcpcli sends nothing outside the origin it was given", e.URL, e.Target)
}

func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Host, b.Host)
}

func (rt *roundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	if rt.origin != nil && !sameOrigin(rt.origin, req.URL) {
		return nil, &OriginError{URL: rt.origin.String(), Target: req.URL.Redacted()}
	}
	if len(rt.header) > 0 {
		req = req.Clone(req.Context())
		for k, vs := range rt.header {
			req.Header.Del(k)
			for _, v := range vs {
				req.Header.Add(k, v)
			}
		}
	}
	var body []byte
	if req.Method == http.MethodPost && req.Body != nil && req.GetBody != nil {
		if rc, err := req.GetBody(); err == nil {
			body, _ = io.ReadAll(rc)
			rc.Close()
		}
	}
	// The body's message, read once for all that looks at it.
	ms, sent := readBody(body)
	if b, ok := bodyWithReason(req.Context(), sent); ok {
		// A cancellation says why (WithCancelReason).
		req = req.Clone(req.Context())
		body = b
		req.Body = io.NopCloser(bytes.NewReader(b))
		req.ContentLength = int64(len(b))
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }
		ms, sent = readBody(body)
	}
	req = withMcpName(req, sent)
	if req.Context().Value(toolSchemaKey{}) != nil && modern(req.Header.Get(versionHeader)) {
		// x-mcp-header arguments of a tool the go-sdk did not list.
		req = req.Clone(req.Context())
		paramHeaders(req.Context(), req.Header, sent)
	}
	if rt.obs != nil {
		rt.obs(Event{Time: time.Now(), Dir: Send, HTTP: &HTTPHeaders{Method: req.Method, URL: req.URL.String(), Header: req.Header.Clone()}, Ctx: req.Context()})
		emit(rt.obs, req.Context(), Send, ms)
	}
	resp, err := rt.base.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if rt.rec != nil {
		rt.rec.limit(resp, mt == "text/event-stream")
	}
	if rt.obs != nil {
		rt.obs(Event{Time: time.Now(), Dir: Recv, HTTP: &HTTPHeaders{Status: resp.StatusCode, Header: resp.Header.Clone()}})
	}
	isCall := req.Method == http.MethodPost && sent.Kind == KindRequest
	if rt.rec != nil && (isCall || req.Method == http.MethodGet && rt.recordGET) {
		rt.rec.record(req.Method, credentials(req, rt.header), resp)
	}
	var call jsonrpc.ID
	if isCall {
		call = sent.ID
	}
	rd := reading{obs: rt.obs, filter: rt.filter, rec: rt.rec, call: call}
	if rd.rec == nil {
		rd.rec = &recorder{}
	}
	switch mt {
	case "text/event-stream":
		if req.Method == http.MethodPost && modern(req.Header.Get(versionHeader)) {
			resp.Body = &sseIDFilter{rc: resp.Body}
		}
		eb := &eventBody{reading: rd, rc: resp.Body}
		if req.Method == http.MethodGet && rt.streams != nil {
			eb.watch = rt.streams.add()
		}
		resp.Body = eb
	case "application/json":
		if req.Method == http.MethodPost && bodyIgnored(resp.StatusCode) {
			deliverRPCError(resp, sent.ID)
		}
		length := resp.ContentLength
		if resp.StatusCode < 200 || resp.StatusCode > 299 {
			// An error's body says why in a line or two: more is not read.
			resp.Body = &capped{rc: resp.Body, left: maxErrorBody}
			length = min(length, maxErrorBody)
			rd.call = jsonrpc.ID{} // not an answer the go-sdk reads as one
		}
		resp.Body = &messageBody{reading: rd, rc: resp.Body, length: length}
	}
	return resp, nil
}

// capped reads at most left bytes of a body, then ends it.
type capped struct {
	rc   io.ReadCloser
	left int64
}

func (c *capped) Read(p []byte) (int, error) {
	if c.left <= 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.rc.Read(p)
	c.left -= int64(n)
	return n, err
}

func (c *capped) Close() error { return c.rc.Close() }

// Header names, as the go-sdk writes them.
const (
	versionHeader = "Mcp-Protocol-Version"
	nameHeader    = "Mcp-Name"
)

// ModernVersion is the first protocol version without the initialize
// handshake: per-request _meta, no sessions, no resumable streams.
const ModernVersion = "2026-07-28"

func modern(version string) bool { return version >= ModernVersion }

// needsBase64 reports whether a header value must travel as
// =?base64?…?= (streamable-http "Value Encoding"): anything but visible
// ASCII, space and tab; leading or trailing whitespace; or a plain value
// that already looks like the sentinel.
func needsBase64(v string) bool {
	if v == "" {
		return false
	}
	if strings.ContainsAny(v[:1], " \t") || strings.ContainsAny(v[len(v)-1:], " \t") {
		return true
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; (c < 0x20 && c != '\t') || c > 0x7e {
			return true
		}
	}
	return strings.HasPrefix(v, "=?base64?") && strings.HasSuffix(v, "?=")
}

func encodeBase64(v string) string {
	return "=?base64?" + base64.StdEncoding.EncodeToString([]byte(v)) + "?="
}

type readCloser struct {
	io.Reader
	io.Closer
}

// maxErrorBody bounds how much of an error response is read to look for a
// JSON-RPC error.
const maxErrorBody = 1 << 20

// readBody is what a request body holds (see bodyMessages), and the one
// message it is, when it is one (KindNone otherwise).
func readBody(body []byte) (ms []decoded, one Envelope) {
	ms = bodyMessages(body)
	if len(ms) == 1 && len(ms[0].msg) == len(bytes.TrimSpace(body)) {
		one = ms[0].env
	}
	return ms, one
}
