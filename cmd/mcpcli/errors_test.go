package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// A server's message that repeats its code ("MCP error -32602: …", as the
// TypeScript SDK writes them) is shown once, with the code mcpcli names.
func TestRPCMessage(t *testing.T) {
	for _, tc := range []struct {
		code     int64
		msg, out string
	}{
		{-32602, "MCP error -32602: Resource nope://x not found", "Resource nope://x not found"},
		{-32602, "  Prompt nope not found ", "Prompt nope not found"},
		{-32603, "MCP error -32602: mismatched", "MCP error -32602: mismatched"}, // another code: kept
	} {
		if got := rpcMessage(tc.code, tc.msg); got != tc.out {
			t.Errorf("rpcMessage(%d, %q) = %q, want %q", tc.code, tc.msg, got, tc.out)
		}
	}
}

// A -32021 names what the server asked for (data.requiredCapabilities),
// with the flag that declares it: not always --elicitation.
func TestMissingCapabilitiesNamed(t *testing.T) {
	for _, tc := range []struct {
		data      string
		want, not []string
	}{
		{`{"requiredCapabilities":{"sampling":{}}}`, []string{"needs sampling, which mcpcli did not declare (-32021", "pass --sampling", "turn sampling on in the session"}, []string{"--elicitation", "--root"}},
		{`{"requiredCapabilities":{"roots":{}}}`, []string{"needs roots,", "pass --root DIR"}, []string{"--elicitation", "--sampling"}},
		{`{"requiredCapabilities":{"elicitation":{"url":{}}}}`, []string{"needs elicitation (url mode),", "--elicitation form,url"}, []string{"--sampling"}},
		{`{"requiredCapabilities":{"sampling":{},"roots":{}}}`, []string{"needs roots and sampling,", "--root DIR", "--sampling"}, nil},
		{`{"requiredCapabilities":{"extensions":{"io.example/\u001b[31mx":{}}}}`, []string{`the extension "io.example/x"`, "does not support that extension"}, []string{"\x1b"}},
		{``, []string{"(-32021 missing required client capabilities): sampling is required", "did not say which"}, []string{"--elicitation"}},
	} {
		got := explain(&jsonrpc.Error{Code: -32021, Message: "sampling is required", Data: json.RawMessage(tc.data)})
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("explain(-32021, data %s) = %q, want it to say %q", tc.data, got, w)
			}
		}
		for _, n := range tc.not {
			if strings.Contains(got, n) {
				t.Errorf("explain(-32021, data %s) = %q, which says %q", tc.data, got, n)
			}
		}
	}
}
