//go:build unix

package e2e

import (
	"context"
	"encoding/json"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// serverEnv makes the test binary serve instead of test.
const serverEnv = "MCPCLI_E2E_SERVER"

// hostile is server text that tries to reach the terminal: a hyperlink, a
// window title, a clipboard write, colors, DCS, 8-bit CSI and OSC, a
// carriage return that would rewrite the line, bidi overrides and
// isolates. What is meant to stay invisible carries a marker (PWNED,
// evil) that must never reach the terminal.
const hostile = "A\x1b]8;;https://evil.example/\x07LINK\x1b]8;;\x07" +
	"\x1b]0;PWNED-title\x07\x1b]2;PWNED-title2\x1b\\" +
	"\x1b]52;c;UFdORUQ=\x07" +
	"\x1b[31mRED\x1b[0m" +
	"\x1bPPWNED-dcs\x1b\\" +
	"\u009b31mC1" + "\u009d0;PWNED-c1\u0007" +
	"x\rOVER" +
	"\u202eRTL\u202c\u2066iso\u2069" +
	"\x07\x08\x7fZ"

var markers = []string{"PWNED", "evil", "\x1b]8;", "\x1b]0;", "\x1b]2;", "\x1b]52", "\x1bP", "\u009b", "\u009d", "\u202e", "\u2066", "\x1b[31mRED"}

func hostileSchema() json.RawMessage {
	prop := func(extra map[string]any) map[string]any {
		m := map[string]any{"title": hostile, "description": hostile}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	// Written in order by hand: encoding/json would sort the keys.
	enc := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	return json.RawMessage(`{"type":"object","properties":{` +
		enc(hostile) + `:` + enc(prop(map[string]any{"type": "string", "default": hostile})) + `,` +
		`"choice":` + enc(prop(map[string]any{"type": "string", "oneOf": []map[string]string{{"const": hostile, "title": hostile}, {"const": "b", "title": "plain"}}, "default": hostile})) + `,` +
		`"many":` + enc(prop(map[string]any{"type": "array", "items": map[string]any{"enum": []string{hostile, "x"}}, "default": []string{hostile}})) + `,` +
		`"yes":` + enc(prop(map[string]any{"type": "boolean", "default": true})) + `,` +
		`"bio":` + enc(prop(map[string]any{"type": "string", "maxLength": 900, "title": "Description " + hostile, "default": hostile + "\n" + hostile})) +
		`},"required":["choice"]}`)
}

// serveHostile is an MCP server on stdio whose every string is hostile:
// its name, its message, its schema's titles, descriptions, options and
// defaults, and its result.
func serveHostile() {
	s := mcp.NewServer(&mcp.Implementation{Name: hostile, Title: hostile, Version: "1.0.0"}, nil)
	s.AddTool(&mcp.Tool{Name: "hostile", Description: hostile, InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			r, _ := req.Params.InputResponses["form"].(*mcp.ElicitResult)
			if r == nil {
				return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{
					"form": &mcp.ElicitParams{Mode: "form", Message: hostile + "\n" + hostile, RequestedSchema: hostileSchema()},
				}}, nil
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "result: " + r.Action + " " + hostile}}}, nil
		})
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		os.Exit(1)
	}
}
