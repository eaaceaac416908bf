package client_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// On 2026-07-28 the go-sdk alone declares in a request's _meta the
// capabilities its Client was made with, not the roots it has now; and
// it sends notifications/roots/list_changed, which that version no longer
// has (see gosdk_capsmeta.go).
func TestGoSDKDeclaresTheCapabilitiesItStartedWith(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	results := func(string) string { return `{"content":[]}` }
	cs, c, w := bareModern(t, &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}}, results)
	c.AddRoots(&mcp.Root{URI: "file:///tmp", Name: "tmp"})
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "t"}); err != nil {
		t.Fatal(err)
	}
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	calls := w.calls(t, "tools/call")
	if len(calls) != 1 || json.Unmarshal(calls[0].Params, &p) != nil {
		t.Fatalf("the go-sdk alone sent %v", calls)
	}
	var caps map[string]json.RawMessage
	_ = json.Unmarshal(p.Meta[mcp.MetaKeyClientCapabilities], &caps)
	if _, roots := caps["roots"]; roots {
		t.Errorf("the go-sdk alone declared %s with a root added since it started; v1.8.0 declared the capabilities it started with: declareNow may go", p.Meta[mcp.MetaKeyClientCapabilities])
	}

	_, c, w = bareModern(t, &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{RootsV2: &mcp.RootCapabilities{ListChanged: true}}}, results)
	c.AddRoots(&mcp.Root{URI: "file:///tmp", Name: "tmp"})
	deadline := time.Now().Add(10 * time.Second)
	for len(w.calls(t, "notifications/roots/list_changed")) == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if len(w.calls(t, "notifications/roots/list_changed")) == 0 {
		t.Errorf("the go-sdk alone sent no notifications/roots/list_changed at 2026-07-28; v1.8.0 did: declareNow need not drop it")
	}
}
