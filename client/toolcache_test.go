package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/internal/toolcache"
	"github.com/mcpcli/mcpcli/transport"
)

// cachingServer is a server whose tools/list says how long it stays fresh
// (ttlMs) and for whom (cacheScope), with one tool, echo, whose region
// argument is mirrored in Mcp-Param-Region over HTTP.
func cachingServer(ttl time.Duration, scope string) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "caching", Version: "0.1"}, &mcp.ServerOptions{
		SetCacheable: func(_ context.Context, req mcp.Request, c *mcp.Cacheable) {
			if _, ok := req.(*mcp.ListToolsRequest); ok {
				c.TTLMs, c.CacheScope = int(ttl/time.Millisecond), scope
			}
		},
	})
	srv.AddTool(&mcp.Tool{Name: "echo", InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"},"region":{"type":"string","x-mcp-header":"Region"}},"required":["text"]}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(req.Params.Arguments)}}}, nil
		})
	return srv
}

// cacheFor is a tool cache in a fresh directory, for the server called name.
func cacheFor(t *testing.T, name string) *client.ToolCache {
	return &client.ToolCache{Store: &toolcache.Store{Dir: filepath.Join(t.TempDir(), "tools")}, Server: name}
}

// lookUp connects, asks for tool echo as a call would, and reports how
// many tools/list requests that took.
func lookUp(t *testing.T, srv *mcp.Server, tc *client.ToolCache) (lists int, list *client.ToolList) {
	t.Helper()
	s, w := connect(t, srv, client.Options{ToolCache: tc})
	tool, list, err := s.Tool(context.Background(), "echo")
	if err != nil || tool == nil {
		t.Fatalf("Tool(echo) = %v, %v", tool, err)
	}
	s.Close()
	return len(w.calls(t, "tools/list")), list
}

func TestToolCacheHit(t *testing.T) {
	srv := cachingServer(time.Minute, "public")
	tc := cacheFor(t, "stdio\x00./caching")
	if n, list := lookUp(t, srv, tc); n != 1 || !list.Kept.IsZero() {
		t.Fatalf("first run: %d tools/list, kept %v; want 1 and a list read live", n, list.Kept)
	}
	n, list := lookUp(t, srv, tc)
	if n != 0 {
		t.Errorf("second run within ttlMs: %d tools/list, want 0 (the kept list)", n)
	}
	if list.Kept.IsZero() || list.Raw["echo"] == nil {
		t.Errorf("second run: list kept at %v with echo %s; want the kept list, echo as the server sent it", list.Kept, list.Raw["echo"])
	}
	other := *tc
	other.Server = "stdio\x00./another"
	if n, _ := lookUp(t, srv, &other); n != 1 {
		t.Errorf("another server: %d tools/list, want 1 (its own list)", n)
	}
}

func TestToolCacheMissWithoutTTL(t *testing.T) {
	srv := cachingServer(0, "public") // the go-sdk's default: ttlMs 0
	tc := cacheFor(t, "stdio\x00./caching")
	lookUp(t, srv, tc)
	if n, _ := lookUp(t, srv, tc); n != 1 {
		t.Errorf("second run of a server that says ttlMs 0: %d tools/list, want 1", n)
	}
}

func TestToolCacheExpiry(t *testing.T) {
	srv := cachingServer(time.Minute, "public")
	tc := cacheFor(t, "stdio\x00./caching")
	lookUp(t, srv, tc)
	tc.Store.Now = func() time.Time { return time.Now().Add(time.Minute) }
	if n, _ := lookUp(t, srv, tc); n != 1 {
		t.Errorf("a run after ttlMs: %d tools/list, want 1 (the kept list is stale)", n)
	}
}

func TestToolCacheCapabilitiesInKey(t *testing.T) {
	srv := cachingServer(time.Minute, "public")
	tc := cacheFor(t, "stdio\x00./caching")
	lookUp(t, srv, tc)
	s, w := connect(t, srv, client.Options{ToolCache: tc, Roots: []*mcp.Root{{URI: "file:///tmp"}}})
	if _, _, err := s.Tool(context.Background(), "echo"); err != nil {
		t.Fatal(err)
	}
	if n := len(w.calls(t, "tools/list")); n != 1 {
		t.Errorf("a run that declares roots: %d tools/list, want 1 (a server may list other tools to it)", n)
	}
}

func TestToolCacheListChanged(t *testing.T) {
	srv := cachingServer(time.Hour, "public")
	tc := cacheFor(t, "stdio\x00./caching")
	lookUp(t, srv, tc)

	changed := make(chan struct{}, 1)
	s, _ := connect(t, srv, client.Options{ToolCache: tc, Listen: true, OnNotification: func(n client.Notification) {
		if n.Method == "notifications/tools/list_changed" {
			select {
			case changed <- struct{}{}:
			default:
			}
		}
	}})
	ctx := context.Background()
	if _, list, err := s.Tool(ctx, "echo"); err != nil || list.Kept.IsZero() {
		t.Fatalf("Tool(echo) = kept %v, %v; want the kept list", list.Kept, err)
	}
	// Wait for the listen stream before changing anything.
	deadline := time.Now().Add(10 * time.Second)
	for i := 0; ; i++ {
		srv.AddTool(&mcp.Tool{Name: "added", InputSchema: emptyObject}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{}, nil
		})
		select {
		case <-changed:
		case <-time.After(50 * time.Millisecond):
			if time.Now().After(deadline) {
				t.Fatal("no notifications/tools/list_changed after AddTool")
			}
			continue
		}
		break
	}
	s.Close()
	if n, list := lookUp(t, srv, tc); n != 1 || list.Find("added") == nil {
		t.Errorf("the run after list_changed: %d tools/list, added %v; want the list read again, with the new tool", n, list.Find("added"))
	}
}

func TestToolCacheKeptListWithoutTheTool(t *testing.T) {
	srv := cachingServer(time.Hour, "public")
	tc := cacheFor(t, "stdio\x00./caching")
	lookUp(t, srv, tc)
	srv.AddTool(&mcp.Tool{Name: "later", InputSchema: emptyObject}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{}, nil
	})
	s, w := connect(t, srv, client.Options{ToolCache: tc})
	tool, _, err := s.Tool(context.Background(), "later")
	if err != nil || tool == nil {
		t.Fatalf("Tool(later), missing from the kept list = %v, %v; want it from the list read again", tool, err)
	}
	if n := len(w.calls(t, "tools/list")); n != 1 {
		t.Errorf("%d tools/list, want 1", n)
	}
}

// httpCaching serves srv over Streamable HTTP and records the Mcp-Param
// headers of each tools/call.
type httpCaching struct {
	*httptest.Server
	mu     sync.Mutex
	region []string
}

func serveHTTP(t *testing.T, srv *mcp.Server) *httpCaching {
	h := &httpCaching{}
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{Stateless: true})
	h.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Mcp-Method") == "tools/call" {
			h.mu.Lock()
			h.region = append(h.region, r.Header.Get("Mcp-Param-Region"))
			h.mu.Unlock()
		}
		handler.ServeHTTP(w, r)
	}))
	t.Cleanup(h.Close)
	return h
}

// overHTTP connects to url with the given headers.
func overHTTP(t *testing.T, url string, header http.Header, tc *client.ToolCache) (*client.Session, *wire) {
	t.Helper()
	w := &wire{}
	ht := &transport.HTTP{URL: url, Header: header, Streamable: true}
	ht.Observe(w.observe)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	s, err := client.Connect(ctx, ht, client.Options{ToolCache: tc})
	if err != nil {
		t.Fatalf("client.Connect: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s, w
}

func TestToolCachePrivateListPerToken(t *testing.T) {
	srv := serveHTTP(t, cachingServer(time.Hour, "private"))
	tc := cacheFor(t, "http\x00"+srv.URL)
	bearer := func(tok string) http.Header { return http.Header{"Authorization": {"Bearer " + tok}} }
	lists := func(tok string) int {
		s, w := overHTTP(t, srv.URL, bearer(tok), tc)
		if _, _, err := s.Tool(context.Background(), "echo"); err != nil {
			t.Fatal(err)
		}
		s.Close()
		return len(w.calls(t, "tools/list"))
	}
	for _, c := range []struct {
		token string
		want  int
	}{{"alice", 1}, {"alice", 0}, {"bob", 1}, {"bob", 0}, {"alice", 0}} {
		if got := lists(c.token); got != c.want {
			t.Errorf("Tool(echo) as %s: %d tools/list, want %d (a private list is kept for its token alone)", c.token, got, c.want)
		}
	}
}

func TestToolCacheMirrorsHeadersOfAKeptTool(t *testing.T) {
	srv := serveHTTP(t, cachingServer(time.Hour, "public"))
	tc := cacheFor(t, "http\x00"+srv.URL)
	ctx := context.Background()
	for run := 1; run <= 2; run++ {
		s, w := overHTTP(t, srv.URL, nil, tc)
		if _, _, err := s.Tool(ctx, "echo"); err != nil {
			t.Fatal(err)
		}
		if n := len(w.calls(t, "tools/list")); n != 2-run {
			t.Fatalf("run %d: %d tools/list, want %d", run, n, 2-run)
		}
		_, err := s.CallTool(ctx, "echo", map[string]any{"text": "hi", "region": "eu-west 1 ü"})
		var je *jsonrpc.Error
		if errors.As(err, &je) {
			t.Fatalf("run %d: CallTool refused: %d %s", run, je.Code, je.Message)
		}
		if err != nil {
			t.Fatalf("run %d: CallTool: %v", run, err)
		}
		s.Close()
	}
	srv.mu.Lock()
	defer srv.mu.Unlock()
	want := "=?base64?ZXUtd2VzdCAxIMO8?="
	if len(srv.region) != 2 || srv.region[0] != want || srv.region[1] != want {
		t.Errorf("Mcp-Param-Region of the two calls = %q, want %q both times (the second from the kept definition)", srv.region, want)
	}
}
