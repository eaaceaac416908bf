package render

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// encoding/json escapes C0 controls but writes 8-bit C1 controls (U+009B
// is CSI to a terminal that honours C1), DEL, bidi overrides and other
// invisible format characters as they are. -o json goes to stdout, which
// may be a terminal: they are written as \u escapes, which decode to the
// same JSON.
func TestWriteJSONEscapesWhatATerminalWouldObey(t *testing.T) {
	in := map[string]any{"k\u009b": "\u009b31mRED \u009d0;T\u009c \u202eLIVE\u202c z\u200bw \x7f tag\U000E0041 é😀"}
	var out bytes.Buffer
	if err := WriteJSON(&out, in); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"\u009b", "\u009d", "\u009c", "\u202e", "\u202c", "\u200b", "\x7f", "\U000E0041"} {
		if strings.Contains(out.String(), bad) {
			t.Errorf("-o json carries %q raw:\n%s", bad, out.String())
		}
	}
	if !strings.Contains(out.String(), `\u009b31mRED`) || !strings.Contains(out.String(), `\udb40\udc41`) || !strings.Contains(out.String(), "é😀") {
		t.Errorf("-o json:\n%s", out.String())
	}
	var back map[string]any
	if err := json.Unmarshal(out.Bytes(), &back); err != nil {
		t.Fatalf("-o json is not JSON: %v\n%s", err, out.String())
	}
	if diff := cmp.Diff(in, back); diff != "" {
		t.Errorf("-o json decodes differently (-want +got):\n%s", diff)
	}

	// Shown for people, structuredContent keeps the escape in sight rather
	// than dropping it with the text after it ("\u009b31mRED" read "RED").
	var text bytes.Buffer
	ToolResult(&text, &mcp.CallToolResult{StructuredContent: in})
	if !strings.Contains(text.String(), `\u009b31mRED`) {
		t.Errorf("structuredContent shown as:\n%s", text.String())
	}
}

func TestTextBlobsAreDecoded(t *testing.T) {
	var b bytes.Buffer
	ResourceResult(&b, &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{
		{URI: "x://a", MIMEType: "text/plain; charset=utf-8", Blob: []byte("line one\n\x1b[31mred\x1b[0m\n")},
		{URI: "x://b", MIMEType: "text/plain", Blob: []byte{0xff, 0xfe, 0x00}},
		{URI: "x://c", MIMEType: "application/gzip", Blob: []byte{0x1f, 0x8b}},
	}})
	want := "── x://a ──\n[blob text/plain; charset=utf-8 22 B, decoded]\nline one\nred\n" +
		"── x://b ──\n[blob text/plain 3 B]\n" +
		"── x://c ──\n[blob application/gzip 2 B]\n"
	if got := b.String(); got != want {
		t.Errorf("ResourceResult:\n%q\nwant\n%q", got, want)
	}
}

// structuredContent that only says again what the content shows is not
// printed twice; one that adds something is, without dumping base64.
func TestStructuredContentIsShownOnlyWhenItAddsSomething(t *testing.T) {
	text := func(s string) []mcp.Content { return []mcp.Content{&mcp.TextContent{Text: s}} }
	img := &mcp.ImageContent{MIMEType: "image/png", Data: bytes.Repeat([]byte{7}, 600)}
	tests := []struct {
		name      string
		res       *mcp.CallToolResult
		shown     bool
		mustNotBe string
	}{
		{"the text is its JSON", &mcp.CallToolResult{Content: text(`{"a":1}`), StructuredContent: map[string]any{"a": 1}}, false, ""},
		{"server-filesystem: {content: the text}", &mcp.CallToolResult{Content: text("hello\n"), StructuredContent: map[string]any{"content": "hello\n"}}, false, ""},
		{"server-memory: {entities: the text's JSON}", &mcp.CallToolResult{Content: text(`[{"name":"a"}]`), StructuredContent: map[string]any{"entities": []any{map[string]any{"name": "a"}}}}, false, ""},
		{"server-filesystem media: {content: the blocks}", &mcp.CallToolResult{Content: []mcp.Content{img}, StructuredContent: map[string]any{"content": []mcp.Content{img}}}, false, ""},
		{"something more", &mcp.CallToolResult{Content: text("3 results"), StructuredContent: map[string]any{"total": 3}}, true, ""},
		{"base64 in it", &mcp.CallToolResult{Content: text("saved"), StructuredContent: map[string]any{"file": strings.Repeat("QUJD", 100)}}, true, strings.Repeat("QUJD", 100)},
	}
	for _, tt := range tests {
		var out bytes.Buffer
		ToolResult(&out, tt.res)
		if got := strings.Contains(out.String(), "structuredContent:"); got != tt.shown {
			t.Errorf("%s: structuredContent shown %v, want %v:\n%s", tt.name, got, tt.shown, out.String())
		}
		if tt.mustNotBe != "" && strings.Contains(out.String(), tt.mustNotBe) {
			t.Errorf("%s: base64 dumped:\n%s", tt.name, out.String())
		}
	}
}
