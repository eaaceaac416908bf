package render

import (
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
)

// BenchmarkPrintResult5MB: a 5 MB text result printed for a person, and as
// -o json (the server's bytes, indented and escaped as they stream out).
func BenchmarkPrintResult5MB(b *testing.B) {
	text := strings.Repeat("All work and no play makes Jack a dull boy.\n", 5<<20/44)
	tool := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}
	raw, _ := json.Marshal(tool)
	res := &client.Result{Method: "tools/call", Target: "t", Raw: raw, Tool: tool}
	for _, tc := range []struct {
		name   string
		asJSON bool
	}{{"text", false}, {"json", true}} {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(raw)))
			b.ReportAllocs()
			for b.Loop() {
				if err := PrintResult(io.Discard, res, tc.asJSON); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
