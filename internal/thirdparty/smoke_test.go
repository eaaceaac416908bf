package thirdparty_test

import (
	"context"
	"errors"
	"net/http"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpcli/mcpcli/internal/thirdparty"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// bearer adds an Authorization header to every request.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

func stdio(argv func(t *testing.T) []string) func(t *testing.T) mcp.Transport {
	return func(t *testing.T) mcp.Transport {
		a := argv(t)
		return &mcp.CommandTransport{Command: exec.Command(a[0], a[1:]...)}
	}
}

func streamable(endpoint func(t *testing.T) string) func(t *testing.T) mcp.Transport {
	return func(t *testing.T) mcp.Transport {
		return &mcp.StreamableClientTransport{Endpoint: endpoint(t), MaxRetries: -1}
	}
}

func sse(endpoint func(t *testing.T) string) func(t *testing.T) mcp.Transport {
	return func(t *testing.T) mcp.Transport {
		return &mcp.SSEClientTransport{Endpoint: endpoint(t)}
	}
}

// TestHandshake starts every server the helpers know, connects the go-sdk
// client (server/discover, falling back to initialize), and records the
// protocol version each negotiates and a tool it lists. The TypeScript
// servers (SDK 1.32.2) know nothing newer than 2025-11-25 and answer
// server/discover with an error; the go-sdk's examples speak 2026-07-28 over
// stdio only.
func TestHandshake(t *testing.T) {
	const (
		legacy = "2025-11-25"
		modern = "2026-07-28"
	)
	tests := []struct {
		name        string
		transport   func(t *testing.T) mcp.Transport
		wantVersion string
		// wantTool is a tool the server lists; "" when it has no tools.
		wantTool string
	}{
		{"server-everything stdio", stdio(func(t *testing.T) []string { return thirdparty.Everything(t) }), legacy, "trigger-elicitation-request"},
		{"server-everything streamableHttp", streamable(func(t *testing.T) string { return thirdparty.EverythingHTTP(t) }), legacy, "trigger-elicitation-request"},
		{"server-everything sse", sse(func(t *testing.T) string { return thirdparty.EverythingSSE(t) }), legacy, "trigger-elicitation-request"},
		{"server-filesystem with root", stdio(func(t *testing.T) []string { argv, _ := thirdparty.Filesystem(t); return argv }), legacy, "read_text_file"},
		{"server-filesystem without root", stdio(func(t *testing.T) []string { return thirdparty.FilesystemNoRoot(t) }), legacy, "list_allowed_directories"},
		{"server-memory", stdio(func(t *testing.T) []string { argv, _ := thirdparty.Memory(t); return argv }), legacy, "create_entities"},

		{"sdk elicitationFormExample", streamable(func(t *testing.T) string { return thirdparty.SDKExampleHTTP(t, "elicitationFormExample") }), legacy, "register_user"},
		{"sdk elicitationUrlExample", func(t *testing.T) mcp.Transport {
			u := thirdparty.SDKExampleHTTP(t, "elicitationUrlExample")
			client := &http.Client{Transport: bearer{thirdparty.DemoOAuthToken(t, u), http.DefaultTransport}}
			return &mcp.StreamableClientTransport{Endpoint: u, HTTPClient: client, MaxRetries: -1}
		}, legacy, "payment-confirm"},
		{"sdk honoWebStandardStreamableHttp", streamable(func(t *testing.T) string { return thirdparty.SDKExampleHTTP(t, "honoWebStandardStreamableHttp") }), legacy, "greet"},
		{"sdk jsonResponseStreamableHttp", streamable(func(t *testing.T) string { return thirdparty.SDKExampleHTTP(t, "jsonResponseStreamableHttp") }), legacy, "multi-greet"},
		{"sdk simpleSseServer", sse(func(t *testing.T) string { return thirdparty.SDKExampleSSE(t, "simpleSseServer") }), legacy, "start-notification-stream"},
		{"sdk simpleStatelessStreamableHttp", streamable(func(t *testing.T) string { return thirdparty.SDKExampleHTTP(t, "simpleStatelessStreamableHttp") }), legacy, "start-notification-stream"},
		{"sdk simpleStreamableHttp", streamable(func(t *testing.T) string { return thirdparty.SDKExampleHTTP(t, "simpleStreamableHttp") }), legacy, "collect-user-info"},
		{"sdk simpleTaskInteractive", streamable(func(t *testing.T) string { return thirdparty.SDKExampleHTTP(t, "simpleTaskInteractive") }), legacy, "confirm_delete"},
		{"sdk sseAndStreamableHttpCompatibleServer streamable", streamable(func(t *testing.T) string {
			return thirdparty.SDKExampleHTTP(t, "sseAndStreamableHttpCompatibleServer")
		}), legacy, "start-notification-stream"},
		{"sdk sseAndStreamableHttpCompatibleServer sse", sse(func(t *testing.T) string {
			return thirdparty.SDKExampleSSE(t, "sseAndStreamableHttpCompatibleServer")
		}), legacy, "start-notification-stream"},
		{"sdk ssePollingExample", streamable(func(t *testing.T) string { return thirdparty.SDKExampleHTTP(t, "ssePollingExample") }), legacy, "long-task"},
		{"sdk standaloneSseWithGetStreamableHttp", streamable(func(t *testing.T) string {
			return thirdparty.SDKExampleHTTP(t, "standaloneSseWithGetStreamableHttp")
		}), legacy, ""},
		{"sdk mcpServerOutputSchema", stdio(func(t *testing.T) []string { return thirdparty.SDKExample(t, "mcpServerOutputSchema") }), legacy, "get_weather"},
		{"sdk progressExample", stdio(func(t *testing.T) []string { return thirdparty.SDKExample(t, "progressExample") }), legacy, "count"},

		{"go-sdk everything stdio", stdio(func(t *testing.T) []string { return thirdparty.GoSDKServer(t, "everything") }), modern, "elicit (form)"},
		// The go-sdk serves 2026-07-28 over HTTP only when its handler is
		// stateless, and over HTTP+SSE never; the examples' handlers are
		// stateful.
		{"go-sdk everything http", streamable(func(t *testing.T) string { return thirdparty.GoSDKServerHTTP(t, "everything") }), legacy, "elicit (url)"},
		{"go-sdk memory stdio", stdio(func(t *testing.T) []string { return thirdparty.GoSDKServer(t, "memory") }), modern, "create_entities"},
		{"go-sdk sse", sse(func(t *testing.T) string { return thirdparty.GoSDKServerHTTP(t, "sse") }), legacy, "greet1"},
	}
	// Handlers make the client declare elicitation and sampling, so that
	// server-everything registers the tools that need them. None is called.
	refuse := errors.New("this test answers no server requests")
	opts := &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) { return nil, refuse },
		CreateMessageHandler: func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			return nil, refuse
		},
		Capabilities: &mcp.ClientCapabilities{
			RootsV2:     &mcp.RootCapabilities{ListChanged: true},
			Elicitation: &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}, URL: &mcp.URLElicitationCapabilities{}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			transport := tt.transport(t)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			client := mcp.NewClient(&mcp.Implementation{Name: "mcpcli-thirdparty-test", Version: "0"}, opts)
			session, err := client.Connect(ctx, transport, nil)
			if err != nil {
				t.Fatalf("Connect() = %v", err)
			}
			defer session.Close()
			if got := session.InitializeResult().ProtocolVersion; got != tt.wantVersion {
				t.Errorf("negotiated protocol version %q, want %q", got, tt.wantVersion)
			}
			if tt.wantTool == "" {
				if caps := session.InitializeResult().Capabilities; caps != nil && caps.Tools != nil {
					t.Errorf("server declares tools %+v, want none", caps.Tools)
				}
				return
			}
			res, err := session.ListTools(ctx, nil)
			if err != nil {
				t.Fatalf("ListTools() = %v", err)
			}
			var names []string
			for _, tool := range res.Tools {
				names = append(names, tool.Name)
			}
			if !slices.Contains(names, tt.wantTool) {
				t.Errorf("ListTools() = %q, want it to include %q", names, tt.wantTool)
			}
		})
	}
}

// TestToolWithSampleServerBanner records that the SDK's toolWithSampleServer
// prints "MCP server is running..." on stdout, its protocol channel, before
// any message, and that the go-sdk client gives up on that line.
func TestToolWithSampleServerBanner(t *testing.T) {
	argv := thirdparty.SDKExample(t, "toolWithSampleServer")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "mcpcli-thirdparty-test", Version: "0"}, nil)
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: exec.Command(argv[0], argv[1:]...)}, nil)
	if err == nil {
		session.Close()
		t.Fatal("Connect() succeeded, want it to fail on the server's stdout banner")
	}
	const want = "invalid character 'M' looking for beginning of value"
	if !strings.Contains(err.Error(), want) {
		t.Errorf("Connect() = %v, want an error containing %q", err, want)
	}
}
