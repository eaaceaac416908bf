package transport_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/transport"
)

// sseServer serves a go-sdk server over HTTP+SSE (2024-11-05) at /sse:
// GET opens the stream, POST without a session id is refused with 400.
func sseServer(t *testing.T) string {
	srv := mcp.NewServer(&mcp.Implementation{Name: "sse-test", Version: "1"}, nil)
	srv.AddTool(&mcp.Tool{Name: "hello", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "hello over sse"}}}, nil
	})
	mux := http.NewServeMux()
	mux.Handle("/sse", mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	hs := httptest.NewServer(mux)
	t.Cleanup(hs.Close)
	return hs.URL + "/sse"
}

// events records what observers see.
type events struct {
	mu   sync.Mutex
	msgs [][]byte
	http []*transport.HTTPHeaders
}

func (e *events) observe(ev transport.Event) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if ev.Msg != nil {
		e.msgs = append(e.msgs, ev.Msg)
	}
	if ev.HTTP != nil {
		e.http = append(e.http, ev.HTTP)
	}
}

func TestSSEFallbackFromStreamableHTTP(t *testing.T) {
	url := sseServer(t)
	var seen events
	h := &transport.HTTP{URL: url}
	h.Observe(seen.observe)
	s, err := client.Connect(testCtx(t), h, client.Options{})
	if err != nil {
		t.Fatalf("Connect(%s) = %v, want the fallback to HTTP+SSE to work", url, err)
	}
	defer s.Close()
	sse, ok := s.Transport().(*transport.SSE)
	if !ok {
		t.Fatalf("Session.Transport() = %T, want *transport.SSE after the fallback", s.Transport())
	}
	if sse.Streamable == nil || sse.Streamable.Status != http.StatusBadRequest || sse.Streamable.Text != "sessionid must be provided" {
		t.Errorf("SSE.Streamable = %+v, want the refused POST: 400 with its text", sse.Streamable)
	}
	if p := s.Server().Protocol; p != "2025-11-25" {
		t.Errorf("protocol over HTTP+SSE = %q, want 2025-11-25 (the initialize handshake)", p)
	}
	res, err := s.CallTool(testCtx(t), "hello", nil)
	if err != nil {
		t.Fatalf("CallTool(hello) over HTTP+SSE = %v", err)
	}
	if got := res.Tool.Content[0].(*mcp.TextContent).Text; got != "hello over sse" {
		t.Errorf("CallTool(hello) = %q", got)
	}
	if !strings.Contains(string(res.Raw), "hello over sse") {
		t.Errorf("Result.Raw = %s, want the server's bytes from the event stream", res.Raw)
	}
	seen.mu.Lock()
	defer seen.mu.Unlock()
	var gets, results int
	for _, m := range seen.msgs {
		if !json.Valid(m) {
			t.Errorf("observers saw %q, which is not a JSON-RPC message (the endpoint event must not reach them)", m)
		}
		if strings.Contains(string(m), `"result"`) {
			results++
		}
	}
	for _, hh := range seen.http {
		if hh.Method == http.MethodGet {
			gets++
		}
	}
	if gets != 1 || results != 2 {
		t.Errorf("observers saw %d GET(s) and %d results, want the one GET stream and the results of initialize and tools/call", gets, results)
	}
}

func TestSSEForced(t *testing.T) {
	url := sseServer(t)
	s, err := client.Connect(testCtx(t), &transport.SSE{URL: url}, client.Options{})
	if err != nil {
		t.Fatalf("Connect(SSE %s) = %v", url, err)
	}
	defer s.Close()
	if n := s.Negotiation(); n.Asked != "2025-11-25" || n.Discover != client.DiscoverNotSent {
		t.Errorf("Negotiation() = %+v, want initialize at 2025-11-25 with no server/discover", n)
	}
}

func TestStreamableOnlyDoesNotFallBack(t *testing.T) {
	url := sseServer(t)
	_, err := client.Connect(testCtx(t), &transport.HTTP{URL: url, Streamable: true}, client.Options{})
	var se *transport.StatusError
	if !errors.As(err, &se) || se.Status != http.StatusBadRequest || se.Text != "sessionid must be provided" {
		t.Fatalf("Connect(Streamable only) = %v, want a *StatusError for the 400 with its text", err)
	}
}

func TestNoFallbackWhenTheServerAnswersInJSONRPC(t *testing.T) {
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var m struct {
			ID json.RawMessage `json:"id"`
		}
		json.NewDecoder(r.Body).Decode(&m)
		if r.Method == http.MethodGet {
			t.Errorf("mcpcli sent a GET to a server that answered its POST in JSON-RPC")
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32600,"message":"no thanks"}}`, m.ID)
	}))
	defer hs.Close()
	_, err := client.Connect(testCtx(t), &transport.HTTP{URL: hs.URL}, client.Options{})
	var je *jsonrpc.Error
	if !errors.As(err, &je) || je.Message != "no thanks" {
		t.Fatalf("Connect = %v, want the server's JSON-RPC error, and no fallback", err)
	}
}

func TestNeitherTransport(t *testing.T) {
	hs := httptest.NewServer(http.NotFoundHandler())
	defer hs.Close()
	_, err := client.Connect(testCtx(t), &transport.HTTP{URL: hs.URL + "/nothing"}, client.Options{})
	var se *transport.SSEError
	if !errors.As(err, &se) {
		t.Fatalf("Connect = %v, want a *SSEError saying what was tried", err)
	}
	want := fmt.Sprintf("server %s/nothing answers neither Streamable HTTP (POST: HTTP 404 Not Found, body \"404 page not found\") nor HTTP+SSE (GET: HTTP 404 Not Found, body \"404 page not found\")", hs.URL)
	if se.Error() != want {
		t.Errorf("SSEError.Error() =\n%s\nwant\n%s", se.Error(), want)
	}
}

func TestSSEEndpointOnAnotherOrigin(t *testing.T) {
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("the other origin got a %s with headers %v", r.Method, r.Header)
	}))
	defer other.Close()
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "event: endpoint\ndata: %s/steal\n\n", other.URL)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	defer hs.Close()
	_, err := client.Connect(testCtx(t), &transport.SSE{URL: hs.URL, Header: http.Header{"Authorization": {"Bearer s3cret"}}}, client.Options{})
	var oe *transport.OriginError
	if !errors.As(err, &oe) || !strings.Contains(oe.Target, other.URL) {
		t.Fatalf("Connect = %v, want an *OriginError naming %s", err, other.URL)
	}
}

// Over HTTP+SSE every POST is answered 202 with no body (the answers come
// on the stream): that is no failure, and mcpcli's own errors (a tool the
// server does not have, a command it does not know) pass Explain as they
// are, not as "HTTP 202 … a bug in the server".
func TestSSEExplainLeavesOtherErrorsAlone(t *testing.T) {
	url := sseServer(t)
	s, err := client.Connect(testCtx(t), &transport.HTTP{URL: url}, client.Options{})
	if err != nil {
		t.Fatalf("Connect(%s) = %v", url, err)
	}
	defer s.Close()
	if _, err := s.CallTool(testCtx(t), "hello", nil); err != nil {
		t.Fatalf("CallTool(hello) = %v", err)
	}
	mine := errors.New(`server "x" has no tool "nope"`)
	if got := s.Explain(mine); got != mine {
		t.Errorf("Explain(%v) = %v, want it unchanged", mine, got)
	}
}
