package transport

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTP is a Transport to a Streamable HTTP server.
type HTTP struct {
	URL    string
	Header http.Header // extra headers sent on every request (--header)
	// Base is the RoundTripper underneath; nil means http.DefaultTransport.
	Base http.RoundTripper

	obs []Observer

	mu   sync.Mutex
	last exchange // the last response to a request, to explain failures
}

// exchange is what is known of the last HTTP response to a request.
type exchange struct {
	status    int
	ctype     string
	challenge string // WWW-Authenticate
	text      string // the start of a text/plain body of an error status
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
	t := &mcp.StreamableClientTransport{
		Endpoint:   h.URL,
		HTTPClient: &http.Client{Transport: &roundTripper{base: base, header: h.Header, obs: Observers(h.obs...), h: h}},
	}
	return t.Connect(ctx)
}

// ParseURL checks a --url value and says what to fix when it is wrong.
func ParseURL(raw string) (*url.URL, error) {
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
	h      *HTTP
}

func (rt *roundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	name := req.Header.Get(nameHeader)
	fixName := name != "" && needsBase64(name)
	if len(rt.header) > 0 || fixName {
		req = req.Clone(req.Context())
		for k, vs := range rt.header {
			req.Header.Del(k)
			for _, v := range vs {
				req.Header.Add(k, v)
			}
		}
		if fixName {
			req.Header.Set(nameHeader, encodeBase64(name))
		}
	}
	var body []byte
	if req.Method == http.MethodPost && req.Body != nil && req.GetBody != nil {
		if rc, err := req.GetBody(); err == nil {
			body, _ = io.ReadAll(rc)
			rc.Close()
		}
		if b := bodyWithReason(req.Context(), body); len(b) != len(body) || string(b) != string(body) {
			// A cancellation says why (WithCancelReason).
			req = req.Clone(req.Context())
			body = b
			req.Body = io.NopCloser(bytes.NewReader(b))
			req.ContentLength = int64(len(b))
			req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }
		}
	}
	if rt.obs != nil {
		rt.obs(Event{Time: time.Now(), Dir: Send, HTTP: &HTTPHeaders{Method: req.Method, URL: req.URL.String(), Header: req.Header.Clone()}, Ctx: req.Context()})
		rt.emitBody(req.Context(), Send, body)
	}
	resp, err := rt.base.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	if rt.obs != nil {
		rt.obs(Event{Time: time.Now(), Dir: Recv, HTTP: &HTTPHeaders{Status: resp.StatusCode, Header: resp.Header.Clone()}})
	}
	if rt.h != nil && req.Method == http.MethodPost && isCall(body) {
		rt.h.record(resp)
	}
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch mt {
	case "text/event-stream":
		if rt.obs != nil {
			resp.Body = &sseTee{rc: resp.Body, obs: rt.obs}
		}
		if req.Method == http.MethodPost && modern(req.Header.Get(versionHeader)) {
			resp.Body = &sseIDFilter{rc: resp.Body}
		}
	case "application/json":
		if rt.obs != nil {
			resp.Body = &jsonTee{rc: resp.Body, obs: rt.obs}
		}
		if req.Method == http.MethodPost && bodyIgnored(resp.StatusCode) {
			deliverRPCError(resp, requestID(body))
		}
	}
	return resp, nil
}

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

// requestID is the id of the JSON-RPC request in body, or nil.
func requestID(body []byte) json.RawMessage {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(body, &m) != nil || len(m.ID) == 0 || string(m.ID) == "null" {
		return nil
	}
	return m.ID
}

// bodyIgnored reports the statuses whose bodies the go-sdk does not read
// (it treats them as transient and reports only the status text).
func bodyIgnored(status int) bool {
	switch status {
	case http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable,
		http.StatusGatewayTimeout, http.StatusTooManyRequests:
		return true
	}
	return false
}

// maxErrorBody bounds how much of an error response is read to look for a
// JSON-RPC error.
const maxErrorBody = 1 << 20

// deliverRPCError lets the JSON-RPC error in an error response reach the
// caller whatever the HTTP status: servers disagree on the status, and the
// go-sdk would otherwise drop a 5xx or 429 body and say only "Internal
// Server Error". When the body is a JSON-RPC error response to this very
// request (same id), the response is handed on as 200 so that the error is
// delivered as the request's answer. Anything else is left as it was.
func deliverRPCError(resp *http.Response, id json.RawMessage) {
	if id == nil {
		return
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	rest := resp.Body
	resp.Body = readCloser{io.MultiReader(bytes.NewReader(b), rest), rest}
	if err != nil {
		return
	}
	var m struct {
		ID    json.RawMessage `json:"id"`
		Error *struct {
			Code int64 `json:"code"`
		} `json:"error"`
	}
	if json.Unmarshal(b, &m) != nil || m.Error == nil || !bytes.Equal(bytes.TrimSpace(m.ID), bytes.TrimSpace(id)) {
		return
	}
	resp.StatusCode = http.StatusOK
	resp.Status = "200 OK"
}

type readCloser struct {
	io.Reader
	io.Closer
}

// sseIDFilter drops the id field of every event of a modern response
// stream. Modern protocol versions have no resumable streams (no GET, no
// Last-Event-ID): a server may still number its events, but if the go-sdk
// saw an id it would try to resume a broken stream with a GET, which a
// modern server refuses with 405, and that failure would end the whole
// session. Without ids a broken stream fails only its own request, which
// the client then sends again.
type sseIDFilter struct {
	rc      io.ReadCloser
	line    []byte // the current line, not yet complete
	out     []byte // filtered bytes not yet returned
	buf     []byte // read buffer, reused
	readErr error
}

func (f *sseIDFilter) Read(p []byte) (int, error) {
	for len(f.out) == 0 && f.readErr == nil {
		if f.buf == nil {
			f.buf = make([]byte, 32*1024)
		}
		n, err := f.rc.Read(f.buf)
		f.feed(f.buf[:n])
		if err != nil {
			f.readErr = err
			if len(f.line) > 0 && !isIDLine(f.line) {
				f.out = append(f.out, f.line...)
			}
			f.line = nil
		}
	}
	n := copy(p, f.out)
	if n == len(f.out) {
		f.out = f.out[:0] // all returned: reuse the space
	} else {
		f.out = f.out[n:]
	}
	if len(f.out) == 0 && f.readErr != nil {
		return n, f.readErr
	}
	return n, nil
}

func (f *sseIDFilter) feed(b []byte) {
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			f.line = append(f.line, b...)
			return
		}
		f.line = append(f.line, b[:i+1]...)
		if !isIDLine(f.line) {
			f.out = append(f.out, f.line...)
		}
		f.line = f.line[:0]
		b = b[i+1:]
	}
}

// isIDLine reports whether an SSE line is the id field: "id", "id:" or
// "id: value", with its line ending.
func isIDLine(line []byte) bool {
	l := bytes.TrimRight(line, "\r\n")
	return bytes.Equal(l, []byte("id")) || bytes.HasPrefix(l, []byte("id:"))
}

func (f *sseIDFilter) Close() error { return f.rc.Close() }

// emitBody reports a JSON body: one message, or each message of a batch.
func (rt *roundTripper) emitBody(ctx context.Context, dir Direction, b []byte) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return
	}
	if b[0] == '[' {
		var batch []json.RawMessage
		if err := json.Unmarshal(b, &batch); err == nil {
			for _, m := range batch {
				rt.obs(Event{Time: time.Now(), Dir: dir, Msg: []byte(m), Ctx: ctx})
			}
			return
		}
	}
	rt.obs(Event{Time: time.Now(), Dir: dir, Msg: b, Ctx: ctx})
}

// jsonTee reports a JSON response body once it has been read to the end.
type jsonTee struct {
	rc   io.ReadCloser
	obs  Observer
	buf  bytes.Buffer
	done bool
}

func (t *jsonTee) Read(p []byte) (int, error) {
	n, err := t.rc.Read(p)
	t.buf.Write(p[:n])
	if errors.Is(err, io.EOF) && !t.done {
		t.done = true
		(&roundTripper{obs: t.obs}).emitBody(nil, Recv, t.buf.Bytes())
	}
	return n, err
}

func (t *jsonTee) Close() error { return t.rc.Close() }

// sseTee reports the data of each server-sent event as it is read. The SDK
// does the real parsing; this only watches the same bytes for the trace.
type sseTee struct {
	rc   io.ReadCloser
	obs  Observer
	line []byte
	data []byte
}

func (t *sseTee) Read(p []byte) (int, error) {
	n, err := t.rc.Read(p)
	rest := p[:n]
	for len(rest) > 0 {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			t.line = append(t.line, rest...)
			break
		}
		t.line = append(t.line, rest[:i]...)
		t.endLine(bytes.TrimRight(t.line, "\r"))
		t.line = t.line[:0]
		rest = rest[i+1:]
	}
	return n, err
}

func (t *sseTee) endLine(line []byte) {
	if len(line) == 0 {
		if len(bytes.TrimSpace(t.data)) > 0 {
			t.obs(Event{Time: time.Now(), Dir: Recv, Msg: append([]byte(nil), bytes.TrimSpace(t.data)...)})
		}
		t.data = t.data[:0]
		return
	}
	if v, ok := bytes.CutPrefix(line, []byte("data:")); ok {
		v = bytes.TrimPrefix(v, []byte(" "))
		if len(t.data) > 0 {
			t.data = append(t.data, '\n')
		}
		t.data = append(t.data, v...)
	}
}

func (t *sseTee) Close() error { return t.rc.Close() }
