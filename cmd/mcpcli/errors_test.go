package main

import "testing"

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
