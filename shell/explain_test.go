package shell

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

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

// A refusal blames only what was sent, and names the server as the run
// named it (-s NAME, or --url URL).
func TestAuthAdvice(t *testing.T) {
	const url = "http://127.0.0.1:8080/mcp"
	for _, tc := range []struct {
		name    string
		err     *transport.AuthError
		login   string
		want    string
		notWant string
	}{
		{"401, nothing sent, a transport that signs in", &transport.AuthError{URL: url, Status: 401, SignsIn: true}, "-s linear",
			"; mcpcli sent no credentials: sign in with 'mcpcli auth login -s linear'", "refused the"},
		{"401, nothing sent, HTTP+SSE", &transport.AuthError{URL: url, Status: 401}, "",
			`mcpcli sent no credentials, and signs in by itself over Streamable HTTP only: give them with --header "Authorization: Bearer TOKEN"`, "auth login"},
		{"401, a sign-in's token", &transport.AuthError{URL: url, Status: 401, SignsIn: true, Sent: transport.Credentials{Token: true}}, "",
			"it refused the sign-in token mcpcli sent: sign in again with 'mcpcli auth login --url " + url + "'", "--header"},
		{"401, headers", &transport.AuthError{URL: url, Status: 401, Sent: transport.Credentials{Headers: true}}, "--url " + url,
			"it refused the credentials given: check the --header values", "auth login"},
		{"403, a sign-in's token", &transport.AuthError{URL: url, Status: 403, SignsIn: true, Sent: transport.Credentials{Token: true}}, "-s linear",
			"your sign-in does not allow it ('mcpcli auth status -s linear' shows what it grants; 'mcpcli auth login -s linear' signs in again)", "--header"},
		{"403, headers", &transport.AuthError{URL: url, Status: 403, Sent: transport.Credentials{Headers: true}}, "",
			"the --header values (or the headers of the server's config entry) do not allow it", "sign-in"},
	} {
		got := Words{Login: tc.login}.Error(tc.err)
		if !strings.Contains(got, tc.want) || strings.Contains(got, tc.notWant) {
			t.Errorf("%s: Error = %q, want it to say %q and not %q", tc.name, got, tc.want, tc.notWant)
		}
	}
}

// A 500 to a request that carried a sign-in's token (a server that
// restarted and forgot it, as the TypeScript SDK's do) names auth login;
// a 500 to one that carried none does not.
func TestServerFailedAdvice(t *testing.T) {
	const url = "http://127.0.0.1:8080/mcp"
	withToken := &transport.StatusError{URL: url, Status: 500, Kind: transport.ServerFailed, Sent: transport.Credentials{Token: true}}
	if got, want := (Words{Login: "-s demo"}).Error(withToken), "mcpcli sent the sign-in token kept for it, which a server that restarted may have forgotten: sign in again with 'mcpcli auth login -s demo'"; !strings.Contains(got, want) {
		t.Errorf("Error(500 with a token) = %q, want it to say %q", got, want)
	}
	without := &transport.StatusError{URL: url, Status: 500, Kind: transport.ServerFailed}
	if got := (Words{Login: "-s demo"}).Error(without); strings.Contains(got, "auth login") {
		t.Errorf("Error(500 without a token) = %q: it names auth login", got)
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
		got := Words{}.Error(&jsonrpc.Error{Code: -32021, Message: "sampling is required", Data: json.RawMessage(tc.data)})
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("Error(-32021, data %s) = %q, want it to say %q", tc.data, got, w)
			}
		}
		for _, n := range tc.not {
			if strings.Contains(got, n) {
				t.Errorf("Error(-32021, data %s) = %q, which says %q", tc.data, got, n)
			}
		}
	}
}
