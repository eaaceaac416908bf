package main

import (
	"testing"

	"github.com/mcpcli/mcpcli/transport"
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

// The advice for a 401 or 403 names the --header values only when some
// were given (issue 22: it told people to check headers they never gave).
func TestAuthAdviceNamesHeadersOnlyWhenGiven(t *testing.T) {
	const url = "http://127.0.0.1:1/mcp"
	for _, tc := range []struct {
		err  transport.AuthError
		want string
	}{
		{transport.AuthError{URL: url, Status: 401}, "; sign in with 'mcpcli auth login --url " + url + "'"},
		{transport.AuthError{URL: url, Status: 401, Sent: true}, "; it refused the sign-in mcpcli sent: sign in again with 'mcpcli auth login --url " + url + "'"},
		{transport.AuthError{URL: url, Status: 401, Headers: true, Sent: true}, "; it refused the credentials mcpcli sent: check the --header values (or the server's config entry), or sign in again with 'mcpcli auth login --url " + url + "'"},
		{transport.AuthError{URL: url, Status: 403}, "; your sign-in, if any, does not allow it ('mcpcli auth status --url " + url + "' shows the sign-in)"},
		{transport.AuthError{URL: url, Status: 403, Headers: true}, "; neither the headers given (--header, or the server's config entry) nor your sign-in, if any, allow it ('mcpcli auth status --url " + url + "' shows the sign-in)"},
	} {
		if got := authAdvice(&tc.err); got != tc.want {
			t.Errorf("authAdvice(%+v) = %q\nwant %q", tc.err, got, tc.want)
		}
	}
}
