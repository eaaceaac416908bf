package oauth

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// protectedMCP is a real go-sdk MCP server behind bearer checks against
// as: a 401 names the metadata and the scope; tools/call needs mcp:write
// too, and answers 403 insufficient_scope without it.
func protectedMCP(t *testing.T, as *fakeAS) (*httptest.Server, *[]string) {
	t.Helper()
	server := mcp.NewServer(&mcp.Implementation{Name: "protected", Version: "1"}, nil)
	server.AddTool(&mcp.Tool{Name: "write", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "written"}}}, nil
		})
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
	var mu sync.Mutex
	var seen []string
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/.well-known/oauth-protected-resource/mcp" {
			writeJSON(w, 200, map[string]any{"resource": srv.URL + "/mcp", "authorization_servers": []string{as.URL()}})
			return
		}
		mu.Lock()
		seen = append(seen, r.Header.Get("Authorization"))
		mu.Unlock()
		need := []string{"mcp:read"}
		var body []byte
		if r.Body != nil {
			body, _ = io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		if bytes.Contains(body, []byte(`"tools/call"`)) {
			need = []string{"mcp:write"}
		}
		prm := srv.URL + "/.well-known/oauth-protected-resource/mcp"
		scopes, ok := as.scopesOf(bearerValue(r.Header.Get("Authorization")))
		if !ok {
			w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer resource_metadata=%q, scope=%q`, prm, strings.Join(need, " ")))
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		if !subset(need, scopes) {
			w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer error="insufficient_scope", resource_metadata=%q, scope=%q`, prm, strings.Join(need, " ")))
			w.WriteHeader(http.StatusForbidden)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, &seen
}

// TestWithStreamableClientTransport is the integration the CLI uses: the
// Handler as the go-sdk transport's OAuthHandler (mcpcli's transport keeps
// credentials to the server's origin itself). It
// signs in on the first 401, steps up on the 403 of tools/call, and the
// next session uses the kept token without a browser.
func TestWithStreamableClientTransport(t *testing.T) {
	as := newFakeAS(t, nil)
	srv, seen := protectedMCP(t, as)
	store := newMemStore()
	b := &browser{}
	session := func() *mcp.ClientSession {
		t.Helper()
		h := newHandler(t, &fakeRS{srv: srv}, store, b, nil)
		tr := &mcp.StreamableClientTransport{Endpoint: srv.URL + "/mcp", OAuthHandler: h, HTTPClient: &http.Client{}}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(), tr, nil)
		if err != nil {
			t.Fatalf("Connect: %v", err)
		}
		t.Cleanup(func() { cs.Close() })
		return cs
	}
	cs := session()
	if _, err := cs.ListTools(context.Background(), nil); err != nil {
		t.Fatalf("ListTools: %v", err)
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "write"})
	if err != nil {
		t.Fatalf("CallTool after step-up: %v", err)
	}
	if txt, _ := res.Content[0].(*mcp.TextContent); txt == nil || txt.Text != "written" {
		t.Errorf("CallTool = %+v", res)
	}
	_, auths, _ := as.snapshot()
	if len(auths) != 2 || auths[0].Get("scope") != "mcp:read" || sortedScopes(auths[1].Get("scope")) != "mcp:read mcp:write" {
		var scopes []string
		for _, a := range auths {
			scopes = append(scopes, a.Get("scope"))
		}
		t.Errorf("authorization scopes %q, want [mcp:read] then [mcp:read mcp:write]", scopes)
	}
	opened := b.count()

	cs2 := session()
	if _, err := cs2.CallTool(context.Background(), &mcp.CallToolParams{Name: "write"}); err != nil {
		t.Fatalf("second session CallTool: %v", err)
	}
	if b.count() != opened {
		t.Errorf("the second session opened the browser; the kept token should do")
	}
	for _, a := range *seen {
		if a != "" && !strings.HasPrefix(a, "Bearer access-") {
			t.Errorf("the server saw Authorization %q", a)
		}
	}
}
