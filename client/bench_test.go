package client_test

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
)

// BenchmarkRoundTrip is one tools/call that needs one round of input:
// request, input_required, answer, retry with requestState, result — over
// in-process pipes, with the wire observed as --trace would.
func BenchmarkRoundTrip(b *testing.B) {
	srv := newServer()
	srv.AddTool(&mcp.Tool{Name: "t", InputSchema: emptyObject}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if req.Params.InputResponses == nil {
			return &mcp.CallToolResult{RequestState: "s1", InputRequests: mcp.InputRequestMap{"k": elicitForm("?")}}, nil
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil
	})
	s, w := connect(b, srv, client.Options{Answerer: acceptAll(map[string]any{"ok": true})})
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := s.CallTool(ctx, "t", nil); err != nil {
			b.Fatal(err)
		}
		w.mu.Lock()
		w.msgs = w.msgs[:0]
		w.mu.Unlock()
	}
}
