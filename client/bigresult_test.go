package client

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// decodeToolResult reads big results in place; it must read them as the
// go-sdk does.
func TestDecodeToolResultAgreesWithTheGoSDK(t *testing.T) {
	for _, raw := range []string{
		`{"content":[{"type":"text","text":"hello"}]}`,
		`{"content":[{"type":"text","text":"a\nb \u00e9 \"q\"","annotations":{"audience":["user"],"priority":0.5},"_meta":{"k":"v"}}],"isError":true,"_meta":{"m":1}}`,
		`{"content":[{"type":"image","data":"aGVsbG8=","mimeType":"image/png"},{"type":"audio","data":"aGk=","mimeType":"audio/wav"}]}`,
		`{"content":[{"type":"resource_link","uri":"file:///r.txt","name":"r","mimeType":"text/plain"}]}`,
		`{"content":[{"type":"resource","resource":{"uri":"x://a","mimeType":"text/plain","text":"inside"}}],"structuredContent":{"total":3,"list":[1,"a",null]}}`,
		`{"resultType":"complete","content":[]}`,
		`{"content":[{"type":"text","text":"` + strings.Repeat("x", 5000) + `"},{"type":"text","text":"second"}]}`,
		// Keys as the go-sdk reads them (issue 22): spelled exactly, the
		// last of a repeated one counting.
		`{"content":[{"type":"text","text":"said","Text":"smuggled"}]}`,
		`{"content":[{"type":"text","text":"first"}],"content":[{"type":"text","text":"last"}]}`,
		`{"Content":[{"type":"text","text":"smuggled"}],"content":[{"type":"text","text":"said"}],"IsError":true}`,
		`{"content":[{"type":"text","text":"x"}],"isError":true,"isError":false}`,
	} {
		want := &mcp.CallToolResult{}
		if err := json.Unmarshal([]byte(raw), want); err != nil {
			t.Fatalf("the go-sdk cannot read %s: %v", raw, err)
		}
		got, err := decodeToolResult(json.RawMessage(raw))
		if err != nil {
			t.Errorf("decodeToolResult(%.60s): %v", raw, err)
			continue
		}
		// Compare as the wire sees them, but for resultType, which the
		// go-sdk keeps unexported (mcpcli reads it from the raw bytes).
		wb, _ := json.Marshal(want)
		wb = []byte(strings.Replace(string(wb), `,"resultType":"complete"`, "", 1))
		gb, _ := json.Marshal(got)
		if d := cmp.Diff(string(wb), string(gb)); d != "" {
			t.Errorf("decodeToolResult(%.60s) differs from the go-sdk (-want +got):\n%s", raw, d)
		}
	}
	for _, bad := range []string{`{"content":[{"type":"text"}]}`, `{"content":{}}`, `{"content":[{"type":"text","text":1}]}`} {
		if _, err := decodeToolResult(json.RawMessage(bad)); err == nil {
			t.Errorf("decodeToolResult(%s) accepted it", bad)
		}
	}
}
