// Package wiretest has hand-made Streamable HTTP MCP servers for tests: they
// answer exactly what a test tells them, record every request, and can
// misbehave in ways an SDK server never would (a stream that breaks, an
// error under a 500, an UnsupportedProtocolVersion on the first try).
package wiretest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// Request is one HTTP request the server received.
type Request struct {
	HTTPMethod string
	Header     http.Header
	Body       []byte
	// The JSON-RPC message in Body.
	ID     json.RawMessage
	Method string
	Params json.RawMessage
	// Context is the HTTP request's: done when the client goes away.
	Context context.Context
}

// Meta returns params._meta.
func (r *Request) Meta() map[string]any {
	var p struct {
		Meta map[string]any `json:"_meta"`
	}
	json.Unmarshal(r.Params, &p)
	return p.Meta
}

// Handler answers one JSON-RPC request; n counts the requests for the same
// method so far, from 1.
type Handler func(w http.ResponseWriter, r *Request, n int)

// Server is a hand-made MCP endpoint at URL.
type Server struct {
	*httptest.Server
	t        testing.TB
	mu       sync.Mutex
	requests []*Request
	counts   map[string]int
	handlers map[string]Handler
}

// New starts a server answering with handlers (JSON-RPC method → handler).
// Unless given, server/discover says 2026-07-28 with tools, prompts and
// resources; notifications get 202; other methods get 404 and -32601; GET
// and DELETE get 405, as a modern server's would.
//
// A handler the test gave that no request reached fails the test when it
// ends: a scripted answer nobody asked for means the test does not
// exercise what it sets up.
func New(t testing.TB, handlers map[string]Handler) *Server {
	s := &Server{t: t, counts: map[string]int{}, handlers: map[string]Handler{
		"server/discover": Discover([]string{"2026-07-28"}, `{"tools":{},"prompts":{},"resources":{}}`),
	}}
	for k, h := range handlers {
		s.handlers[k] = h
	}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(func() {
		s.Close()
		s.verify(t, handlers)
	})
	return s
}

// verify fails t for each of handlers no request reached.
func (s *Server) verify(t testing.TB, handlers map[string]Handler) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for method := range handlers {
		if s.counts[method] == 0 {
			t.Errorf("wiretest: no request reached the handler for %q; remove it, or make the test send one", method)
		}
	}
}

func (s *Server) serve(w http.ResponseWriter, hr *http.Request) {
	body, _ := io.ReadAll(hr.Body)
	r := &Request{HTTPMethod: hr.Method, Header: hr.Header.Clone(), Body: body, Context: hr.Context()}
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	json.Unmarshal(body, &m)
	r.ID, r.Method, r.Params = m.ID, m.Method, m.Params
	s.mu.Lock()
	s.requests = append(s.requests, r)
	s.counts[r.Method]++
	n := s.counts[r.Method]
	h := s.handlers[r.Method]
	s.mu.Unlock()
	switch {
	case hr.Method != http.MethodPost:
		w.WriteHeader(http.StatusMethodNotAllowed)
	case h != nil:
		h(w, r, n)
	case len(r.ID) == 0:
		w.WriteHeader(http.StatusAccepted)
	default:
		Error(w, r, http.StatusNotFound, -32601, "Method not found: "+r.Method, "")
	}
}

// Requests returns every request so far.
func (s *Server) Requests() []*Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*Request(nil), s.requests...)
}

// Calls returns the requests for one JSON-RPC method.
func (s *Server) Calls(method string) []*Request {
	var out []*Request
	for _, r := range s.Requests() {
		if r.Method == method {
			out = append(out, r)
		}
	}
	return out
}

// Result answers r with 200 and a JSON-RPC result (raw JSON).
func Result(w http.ResponseWriter, r *Request, result string) {
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, r.ID, result)
}

// Error answers r with status and a JSON-RPC error; data is raw JSON or "".
func Error(w http.ResponseWriter, r *Request, status int, code int, message, data string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	id := string(r.ID)
	if id == "" {
		id = "null"
	}
	msg, _ := json.Marshal(message)
	if data != "" {
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":%d,"message":%s,"data":%s}}`, id, code, msg, data)
		return
	}
	fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":%d,"message":%s}}`, id, code, msg)
}

// ResultEvent is the SSE data of a JSON-RPC result for r.
func ResultEvent(r *Request, result string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`, r.ID, result)
}

// Stream starts an SSE response and writes each event ("data: …" lines, or
// whole events when they already contain a newline), flushing each.
func Stream(w http.ResponseWriter, events ...string) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	for _, e := range events {
		if !strings.Contains(e, "\n") {
			e = "data: " + e + "\n\n"
		}
		io.WriteString(w, e)
		w.(http.Flusher).Flush()
	}
}

// Break ends the response abruptly: the client sees the connection drop.
func Break() { panic(http.ErrAbortHandler) }

// Discover answers server/discover with versions and capabilities (raw
// JSON), as server "wiretest" 1.0.
func Discover(versions []string, capabilities string) Handler {
	vs, _ := json.Marshal(versions)
	return func(w http.ResponseWriter, r *Request, n int) {
		Result(w, r, fmt.Sprintf(`{"resultType":"complete","supportedVersions":%s,"capabilities":%s,"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"wiretest","version":"1.0"}}}`, vs, capabilities))
	}
}

// Tools answers tools/list with tools (a raw JSON array).
func Tools(tools string) Handler {
	return func(w http.ResponseWriter, r *Request, n int) {
		Result(w, r, `{"resultType":"complete","tools":`+tools+`}`)
	}
}

// Text answers with a tool result holding one text content.
func Text(text string) Handler {
	t, _ := json.Marshal(text)
	return func(w http.ResponseWriter, r *Request, n int) {
		Result(w, r, `{"resultType":"complete","content":[{"type":"text","text":`+string(t)+`}]}`)
	}
}
