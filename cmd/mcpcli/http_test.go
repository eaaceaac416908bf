package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/internal/wiretest"
	"github.com/mcpcli/mcpcli/render"
)

// cli runs mcpcli in process, with no terminal and nothing on stdin.
func cli(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	deps := &Deps{
		Streams:    Streams{In: strings.NewReader(""), Out: &out, Err: &errb},
		Getenv:     func(string) string { return "" },
		Executable: os.Executable,
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	code = Run(ctx, args, deps)
	return code, out.String(), errb.String()
}

// serve serves srv over Streamable HTTP: stateless (modern), or with
// sessions (what a 2025-11-25 server needs).
func serve(t *testing.T, srv *mcp.Server, stateless bool) string {
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{Stateless: stateless}))
	t.Cleanup(hs.Close)
	return hs.URL
}

// weatherServer logs and reports progress from its one tool.
func weatherServer(opts *mcp.ServerOptions) *mcp.Server {
	if opts == nil {
		opts = &mcp.ServerOptions{}
	}
	opts.Instructions = "Ask for a region first.\nThen ask for the forecast."
	srv := mcp.NewServer(&mcp.Implementation{Name: "weather", Title: "Weather Service", Version: "2.1"}, opts)
	srv.AddTool(&mcp.Tool{Name: "forecast", InputSchema: json.RawMessage(`{"type":"object","properties":{"region":{"type":"string"}}}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "debug", Logger: "radar", Data: "raw radar frames"})
			req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "info", Logger: "radar", Data: "fetching radar"})
			if token := req.Params.GetProgressToken(); token != nil {
				req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token, Progress: 1, Total: 2, Message: "radar"})
				req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token, Progress: 2, Total: 2, Message: "models"})
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "sunny"}}}, nil
		})
	return srv
}

func TestDiscover(t *testing.T) {
	modern := serve(t, weatherServer(nil), true)
	legacy := serve(t, weatherServer(&mcp.ServerOptions{SupportedProtocolVersions: []string{"2025-11-25"}}), false)
	wt := wiretest.New(t, map[string]wiretest.Handler{
		"server/discover": wiretest.Discover([]string{"2026-07-28", "2025-11-25"},
			`{"tools":{"listChanged":true},"resources":{"subscribe":true},"extensions":{"io.modelcontextprotocol/ui":{}}}`),
	})
	for _, tc := range []struct {
		name, url string
		text      []string
		json      render.Discovery
	}{
		{
			name: "modern", url: modern,
			text: []string{
				"Server:       weather 2.1 (Weather Service)",
				"Protocol:     2026-07-28, modern (server/discover; every request stands alone)",
				"Capabilities: tools (list changes), logging",
				"Instructions:\n  Ask for a region first.\n  Then ask for the forecast.",
			},
			json: render.Discovery{Name: "weather", Title: "Weather Service", Version: "2.1", ProtocolVersion: "2026-07-28", Era: "modern", Transport: "streamable-http",
				Negotiation: render.Negotiation{Asked: "2026-07-28", Handshake: "server/discover", Discover: "answered", Reason: "negotiated with server/discover"}},
		},
		{
			name: "legacy with a session", url: legacy,
			text: []string{
				"Server:       weather 2.1 (Weather Service)",
				"Protocol:     2025-11-25, legacy (initialize handshake, HTTP session)",
				"Supports:     2025-11-25\n",
				"Capabilities: tools (list changes), logging",
			},
			json: render.Discovery{Name: "weather", Title: "Weather Service", Version: "2.1", ProtocolVersion: "2025-11-25", Era: "legacy", HTTPSession: true, Transport: "streamable-http",
				Negotiation: render.Negotiation{Asked: "2026-07-28", Handshake: "initialize", Discover: "refused",
					Reason: "fallback: the server refused server/discover (-32022: unsupported protocol version); mcpcli used the initialize handshake"}},
		},
		{
			name: "extensions", url: wt.URL,
			text: []string{
				"Server:       wiretest 1.0\n",
				"Supports:     2026-07-28, 2025-11-25\n",
				"Capabilities: tools (list changes), resources (subscribe)\n",
				"Extensions:   io.modelcontextprotocol/ui\n",
			},
			json: render.Discovery{Name: "wiretest", Version: "1.0", ProtocolVersion: "2026-07-28", Era: "modern", SupportedVersions: []string{"2026-07-28", "2025-11-25"}, Transport: "streamable-http",
				Negotiation: render.Negotiation{Asked: "2026-07-28", Handshake: "server/discover", Discover: "answered", Reason: "negotiated with server/discover"}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := cli(t, "discover", "--url", tc.url)
			if code != 0 {
				t.Fatalf("discover exited %d: %s", code, errs)
			}
			for _, want := range tc.text {
				if !strings.Contains(out, want) {
					t.Errorf("discover does not show %q:\n%s", want, out)
				}
			}
			code, out, errs = cli(t, "discover", "--url", tc.url, "-o", "json")
			if code != 0 {
				t.Fatalf("discover -o json exited %d: %s", code, errs)
			}
			var got render.Discovery
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("discover -o json is not JSON: %v\n%s", err, out)
			}
			var caps mcp.ServerCapabilities
			if err := json.Unmarshal(got.Capabilities, &caps); err != nil || caps.Tools == nil {
				t.Errorf("discover -o json capabilities = %s, want tools", got.Capabilities)
			}
			got.Capabilities, got.Instructions = nil, ""
			if tc.json.SupportedVersions == nil {
				got.SupportedVersions = nil
			}
			if d := cmp.Diff(tc.json, got, cmpopts.IgnoreUnexported(render.Discovery{})); d != "" {
				t.Errorf("discover -o json (-want +got):\n%s", d)
			}
		})
	}
}

func TestLogLevelShowsTheServersLogLines(t *testing.T) {
	for _, tc := range []struct {
		name string
		url  string
	}{
		{"modern, level in _meta", serve(t, weatherServer(nil), true)},
		{"legacy, logging/setLevel", serve(t, weatherServer(&mcp.ServerOptions{SupportedProtocolVersions: []string{"2025-11-25"}}), false)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := cli(t, "call", "forecast", "--url", tc.url, "--log-level", "info")
			if code != 0 {
				t.Fatalf("call exited %d: %s", code, errs)
			}
			if !strings.Contains(out, "sunny") {
				t.Errorf("stdout = %q", out)
			}
			if !strings.Contains(errs, "[server info radar] fetching radar\n") {
				t.Errorf("stderr has no info log line:\n%s", errs)
			}
			if strings.Contains(errs, "raw radar frames") {
				t.Errorf("stderr shows a debug line at --log-level info:\n%s", errs)
			}
			// Without --log-level, no logs.
			_, _, errs = cli(t, "call", "forecast", "--url", tc.url)
			if strings.Contains(errs, "[server") {
				t.Errorf("stderr shows log lines without --log-level:\n%s", errs)
			}
		})
	}
}

func TestProgressIsPlainLinesWithoutATerminal(t *testing.T) {
	url := serve(t, weatherServer(nil), true)
	code, out, errs := cli(t, "call", "forecast", "--url", url)
	if code != 0 {
		t.Fatalf("call exited %d: %s", code, errs)
	}
	want := "progress:  50% (1/2) radar\nprogress: 100% (2/2) models\n"
	if !strings.Contains(errs, want) {
		t.Errorf("stderr does not show %q:\n%s", want, errs)
	}
	if strings.Contains(errs, "\x1b") || strings.Contains(out, "progress") {
		t.Errorf("progress leaked escapes or reached stdout:\nstdout %q\nstderr %q", out, errs)
	}
}

func TestHTTPFailuresAreExplained(t *testing.T) {
	call := func(status, code int, message string) wiretest.Handler {
		return func(w http.ResponseWriter, r *wiretest.Request, n int) {
			wiretest.Error(w, r, status, code, message, "")
		}
	}
	for _, tc := range []struct {
		name     string
		handlers map[string]wiretest.Handler
		args     []string
		want     []string
		notWant  []string
	}{
		{
			name: "401",
			handlers: map[string]wiretest.Handler{"server/discover": func(w http.ResponseWriter, r *wiretest.Request, n int) {
				// Metadata nobody serves (port 1 refuses): no network is asked.
				w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="http://127.0.0.1:1/.well-known/oauth-protected-resource"`)
				w.WriteHeader(http.StatusUnauthorized)
			}, "initialize": func(w http.ResponseWriter, r *wiretest.Request, n int) {
				w.WriteHeader(http.StatusUnauthorized)
			}},
			args: []string{"tools"},
			want: []string{"requires you to sign in (HTTP 401)", "this run cannot ask you (no terminal)", "sign in first with 'mcpcli auth login --url http://127.0.0.1:"},
		},
		{
			name: "403 on a call",
			handlers: map[string]wiretest.Handler{"tools/call": func(w http.ResponseWriter, r *wiretest.Request, n int) {
				w.WriteHeader(http.StatusForbidden)
			}, "tools/list": wiretest.Tools(`[{"name":"t","inputSchema":{"type":"object"}}]`)},
			args: []string{"call", "t"},
			want: []string{"refused the request (HTTP 403 Forbidden)", "mcpcli sent no credentials: sign in with 'mcpcli auth login --url"},
			// No header was given: the advice does not send the person
			// to check one (issue 22).
			notWant: []string{"check the --header", "--header values"},
		},
		{
			name: "403 on a call with a header given",
			handlers: map[string]wiretest.Handler{"tools/call": func(w http.ResponseWriter, r *wiretest.Request, n int) {
				w.WriteHeader(http.StatusForbidden)
			}, "tools/list": wiretest.Tools(`[{"name":"t","inputSchema":{"type":"object"}}]`)},
			args: []string{"call", "t", "--header", "X-Api-Key: k"},
			want: []string{"refused the request (HTTP 403 Forbidden)", "the --header values (or the headers of the server's config entry) do not allow it"},
		},
		{
			name: "no version in common",
			handlers: map[string]wiretest.Handler{
				"server/discover": func(w http.ResponseWriter, r *wiretest.Request, n int) {
					wiretest.Error(w, r, 400, -32022, "Unsupported protocol version", `{"supported":["2099-01-01"],"requested":"2026-07-28"}`)
				},
				"initialize": func(w http.ResponseWriter, r *wiretest.Request, n int) {
					wiretest.Error(w, r, 400, -32600, "initialize is not a method of 2099-01-01", "")
				},
			},
			args: []string{"discover"},
			want: []string{"supports only protocol version 2099-01-01", "mcpcli speaks 2026-07-28, 2025-11-25", "-32022"},
		},
		{
			name:     "-32020",
			handlers: map[string]wiretest.Handler{"tools/call": call(400, -32020, "Mcp-Name header value 'a' does not match body value 'b'"), "tools/list": wiretest.Tools(`[{"name":"t","inputSchema":{"type":"object"}}]`)},
			args:     []string{"call", "t"},
			want:     []string{"HTTP headers did not match the request body (-32020 header mismatch)", "does not match body value"},
		},
		{
			name:     "-32021",
			handlers: map[string]wiretest.Handler{"tools/call": call(400, -32021, "sampling is required"), "tools/list": wiretest.Tools(`[{"name":"t","inputSchema":{"type":"object"}}]`)},
			args:     []string{"call", "t"},
			want:     []string{"needs a client capability mcpcli did not declare (-32021", "sampling is required"},
		},
		{
			name:     "-32022 on a call",
			handlers: map[string]wiretest.Handler{"tools/call": call(400, -32022, "Unsupported protocol version"), "tools/list": wiretest.Tools(`[{"name":"t","inputSchema":{"type":"object"}}]`)},
			args:     []string{"call", "t"},
			want:     []string{"supports none of mcpcli's protocol versions (-32022"},
		},
		{
			name:     "-32602 under a 500",
			handlers: map[string]wiretest.Handler{"tools/call": call(500, -32602, "region must be a string"), "tools/list": wiretest.Tools(`[{"name":"t","inputSchema":{"type":"object"}}]`)},
			args:     []string{"call", "t"},
			want:     []string{"refused the request's parameters (-32602 invalid params): region must be a string"},
		},
		{
			name: "a URL with the wrong path",
			handlers: map[string]wiretest.Handler{
				"server/discover": func(w http.ResponseWriter, r *wiretest.Request, n int) { w.WriteHeader(http.StatusNotFound) },
				"initialize":      func(w http.ResponseWriter, r *wiretest.Request, n int) { w.WriteHeader(http.StatusNotFound) },
			},
			args: []string{"tools"},
			want: []string{"answers neither Streamable HTTP (POST: HTTP 404 Not Found) nor HTTP+SSE (GET: HTTP 405 Method Not Allowed); check the URL's path"},
		},
		{
			name: "a URL with the wrong path, Streamable HTTP only",
			handlers: map[string]wiretest.Handler{
				"server/discover": func(w http.ResponseWriter, r *wiretest.Request, n int) { w.WriteHeader(http.StatusNotFound) },
				"initialize":      func(w http.ResponseWriter, r *wiretest.Request, n int) { w.WriteHeader(http.StatusNotFound) },
			},
			args: []string{"tools", "--transport", "streamable"},
			want: []string{"answered HTTP 404 Not Found: nothing there answers the request; check the URL's path"},
		},
		{
			name: "a web page",
			handlers: map[string]wiretest.Handler{
				"server/discover": htmlPage,
			},
			args: []string{"tools"},
			want: []string{"answered HTTP 200 OK with Content-Type text/html, not application/json or text/event-stream: that URL is not an MCP endpoint"},
		},
		{
			name: "a 500 with no JSON-RPC error",
			handlers: map[string]wiretest.Handler{"tools/call": func(w http.ResponseWriter, r *wiretest.Request, n int) {
				http.Error(w, "panic: nil map", http.StatusInternalServerError)
			}, "tools/list": wiretest.Tools(`[{"name":"t","inputSchema":{"type":"object"}}]`)},
			args: []string{"call", "t"},
			want: []string{"answered HTTP 500 Internal Server Error with no JSON-RPC error saying why"},
		},
		{
			name: "a 202 to a request",
			handlers: map[string]wiretest.Handler{"tools/call": func(w http.ResponseWriter, r *wiretest.Request, n int) {
				w.WriteHeader(http.StatusAccepted)
			}, "tools/list": wiretest.Tools(`[{"name":"t","inputSchema":{"type":"object"}}]`)},
			args: []string{"call", "t"},
			want: []string{"answered HTTP 202 Accepted to a request, with no body"},
		},
		{
			name: "a stream that breaks",
			handlers: map[string]wiretest.Handler{"tools/call": func(w http.ResponseWriter, r *wiretest.Request, n int) {
				if n > 1 {
					t.Errorf("tools/call sent %d times", n)
				}
				wiretest.Stream(w, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}`)
				wiretest.Break()
			}, "tools/list": wiretest.Tools(`[{"name":"t","inputSchema":{"type":"object"}}]`)},
			args: []string{"call", "t"},
			want: []string{`closed the response stream for tools/call "t" before sending the result; mcpcli did not send it again`,
				`then send it again yourself if that is safe (run the same command again)`},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := wiretest.New(t, tc.handlers)
			code, _, errs := cli(t, append(tc.args, "--url", srv.URL)...)
			if code != 1 {
				t.Errorf("exit status %d, want 1", code)
			}
			for _, want := range tc.want {
				if !strings.Contains(errs, want) {
					t.Errorf("stderr does not say %q:\n%s", want, errs)
				}
			}
			for _, not := range tc.notWant {
				if strings.Contains(errs, not) {
					t.Errorf("stderr says %q:\n%s", not, errs)
				}
			}
		})
	}
}

func htmlPage(w http.ResponseWriter, r *wiretest.Request, n int) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write([]byte("<html><body>Welcome</body></html>"))
}

func TestToolsWithInvalidHeaderAnnotationsAreLeftOut(t *testing.T) {
	srv := wiretest.New(t, map[string]wiretest.Handler{
		"tools/list": wiretest.Tools(`[
			{"name":"valid_tool","inputSchema":{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"},"opts":{"type":"object","properties":{"zone":{"type":"string","x-mcp-header":"Zone"}}}}}},
			{"name":"invalid_number","inputSchema":{"type":"object","properties":{"score":{"type":"number","x-mcp-header":"Score"}}}},
			{"name":"invalid_in_items","inputSchema":{"type":"object","properties":{"list":{"type":"array","items":{"type":"object","properties":{"id":{"type":"string","x-mcp-header":"Id"}}}}}}},
			{"name":"invalid_in_anyof","inputSchema":{"type":"object","anyOf":[{"properties":{"a":{"type":"string","x-mcp-header":"A"}}}]}},
			{"name":"invalid_in_defs","inputSchema":{"type":"object","$defs":{"r":{"type":"string","x-mcp-header":"R"}},"properties":{"r":{"$ref":"#/$defs/r"}}}}
		]`),
		"tools/call": wiretest.Text("called"),
	})
	code, out, errs := cli(t, "tools", "--url", srv.URL)
	if code != 0 {
		t.Fatalf("tools exited %d: %s", code, errs)
	}
	if strings.TrimSpace(out) != "valid_tool [region=string] [opts=object]" {
		t.Errorf("tools listed:\n%s", out)
	}
	for _, want := range []string{
		`mcpcli: warning: tool "invalid_number" is left out: its inputSchema is invalid (property "score": x-mcp-header can only be applied to primitive types`,
		`tool "invalid_in_items" is left out: its inputSchema is invalid (x-mcp-header at properties.list.items.properties.id is not on a property reached through "properties" alone)`,
		`tool "invalid_in_anyof" is left out: its inputSchema is invalid (x-mcp-header at anyOf.0.properties.a`,
		`tool "invalid_in_defs" is left out: its inputSchema is invalid (x-mcp-header at $defs.r`,
	} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr does not say %q:\n%s", want, errs)
		}
	}
	if code, _, errs := cli(t, "call", "invalid_in_items", "--url", srv.URL); code != 1 || !strings.Contains(errs, `lists tool "invalid_in_items", but its inputSchema is invalid (x-mcp-header at properties.list.items.properties.id is not on a property reached through "properties" alone), so mcpcli leaves it out`) {
		t.Errorf("calling a left-out tool: exit %d, stderr:\n%s", code, errs)
	}
	if code, _, errs := cli(t, "call", "invalid_number", "--url", srv.URL); code != 1 || !strings.Contains(errs, `lists tool "invalid_number", but its inputSchema is invalid (property "score": x-mcp-header can only be applied to primitive types`) {
		t.Errorf("calling a tool the go-sdk left out: exit %d, stderr:\n%s", code, errs)
	}
	if code, _, errs := cli(t, "call", "nonesuch", "--url", srv.URL); code != 1 || !strings.Contains(errs, `has no tool "nonesuch"`) {
		t.Errorf("calling a tool the server does not have: exit %d, stderr:\n%s", code, errs)
	}
	if code, out, errs := cli(t, "call", "valid_tool", "region=eu", "--url", srv.URL); code != 0 || !strings.Contains(out, "called") {
		t.Errorf("calling the valid tool: exit %d, stdout %q, stderr:\n%s", code, out, errs)
	}
	if got := srv.Calls("tools/call")[0].Header.Get("Mcp-Param-Region"); got != "eu" {
		t.Errorf("Mcp-Param-Region = %q, want eu", got)
	}
}

func TestToolsJSONKeepsTheServersSchemaVerbatim(t *testing.T) {
	schema := `{"type":"object","$schema":"https://json-schema.org/draft/2020-12/schema","properties":{"zeta":{"type":"integer","maximum":9007199254740993},"alpha":{"$ref":"#/$defs/a"}},"$defs":{"a":{"$anchor":"A","type":"string"}},"allOf":[{"anyOf":[{"required":["zeta"]},{"required":["alpha"]}]}],"if":{"required":["zeta"]},"then":{"required":["alpha"]},"else":{},"additionalProperties":false}`
	srv := wiretest.New(t, map[string]wiretest.Handler{
		"tools/list": wiretest.Tools(`[{"name":"rich","inputSchema":` + schema + `}]`),
	})
	code, out, errs := cli(t, "tools", "-o", "json", "--url", srv.URL)
	if code != 0 {
		t.Fatalf("tools -o json exited %d: %s", code, errs)
	}
	var got struct {
		Tools []struct {
			InputSchema json.RawMessage `json:"inputSchema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || len(got.Tools) != 1 {
		t.Fatalf("tools -o json = %v\n%s", err, out)
	}
	var compact bytes.Buffer
	json.Compact(&compact, got.Tools[0].InputSchema)
	if compact.String() != schema {
		t.Errorf("inputSchema is not the server's own:\n got %s\nwant %s", compact.String(), schema)
	}
}

// An answers file is used for a legacy server's own elicitation/create too.
func TestLegacyHTTPServerElicitationThroughTheAnswersFile(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "old", Version: "1"}, &mcp.ServerOptions{SupportedProtocolVersions: []string{"2025-11-25"}})
	srv.AddTool(&mcp.Tool{Name: "greet", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "Your name?",
			RequestedSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`)})
		if err != nil {
			return nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "Hello, " + res.Content["name"].(string)}}}, nil
	})
	url := serve(t, srv, false)
	answers := filepath.Join(t.TempDir(), "a.json")
	os.WriteFile(answers, []byte(`{"elicitation": {"action": "accept", "content": {"name": "Grace"}}}`), 0o600)
	code, out, errs := cli(t, "call", "greet", "--answers", answers, "--url", url)
	if code != 0 || strings.TrimSpace(out) != "Hello, Grace" {
		t.Errorf("exit %d, stdout %q, stderr:\n%s", code, out, errs)
	}

	// Answers without the key: that is the error, not the 202 the server
	// gave to mcpcli's error response, nor the server's account of it.
	os.WriteFile(answers, []byte(`{"other": {"action": "decline"}}`), 0o600)
	code, _, errs = cli(t, "call", "greet", "--answers", answers, "--url", url)
	if want := `mcpcli: answers have nothing for "elicitation" (round 1)`; code != 1 || !strings.HasPrefix(errs, want) {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 1 and %q", code, errs, want)
	}
}

// On a terminal progress is one live line, taken away before anything
// else is written and when the result comes.
func TestProgressIsALiveLineOnATerminal(t *testing.T) {
	url := serve(t, weatherServer(nil), true)
	var out, errb bytes.Buffer
	deps := &Deps{
		Streams:    Streams{In: strings.NewReader(""), Out: &out, Err: &errb, ErrTTY: true},
		Getenv:     func(k string) string { return map[string]string{"NO_COLOR": "1"}[k] },
		Executable: os.Executable,
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if code := Run(ctx, []string{"call", "forecast", "--url", url}, deps); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	const clear = "\r\x1b[2K"
	errs := errb.String()
	for _, want := range []string{
		clear + "############------------  50% 1/2  radar",
		clear + "######################## 100% 2/2  models",
	} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr does not draw %q:\n%q", want, errs)
		}
	}
	if !strings.HasSuffix(errs, "models"+clear) {
		t.Errorf("the live line is still on screen after the result:\n%q", errs)
	}
	if strings.Contains(errs, "progress:") {
		t.Errorf("plain progress lines on a terminal:\n%q", errs)
	}
}

// Ctrl+C (the run's context) during an HTTP request: the response stream
// closes, which a modern server takes as the cancellation, and mcpcli
// exits 130 at once.
func TestInterruptDuringAnHTTPRequest(t *testing.T) {
	started, closed := make(chan struct{}), make(chan struct{})
	srv := wiretest.New(t, map[string]wiretest.Handler{
		"tools/list": wiretest.Tools(`[{"name":"wait","inputSchema":{"type":"object"}}]`),
		"tools/call": func(w http.ResponseWriter, r *wiretest.Request, n int) {
			wiretest.Stream(w, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"working"}}`)
			close(started)
			<-r.Context.Done()
			close(closed)
		},
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		<-started
		cancel()
	}()
	var out, errb bytes.Buffer
	deps := &Deps{Streams: Streams{In: strings.NewReader(""), Out: &out, Err: &errb}, Getenv: func(string) string { return "" }, Executable: os.Executable}
	if code := Run(ctx, []string{"call", "wait", "--url", srv.URL}, deps); code != exitAbandoned {
		t.Errorf("exit %d, want %d; stderr:\n%s", code, exitAbandoned, errb.String())
	}
	select {
	case <-closed:
	case <-time.After(10 * time.Second):
		t.Fatal("the response stream stayed open")
	}
}

// -o json prints the result the server sent, re-indented: nothing the go-sdk
// would add on the way (ttlMs and cacheScope the server never sent), the
// server's own key order, and its strings as it wrote them.
func TestJSONOutputIsWhatTheServerSent(t *testing.T) {
	srv := wiretest.New(t, map[string]wiretest.Handler{
		"resources/read": func(w http.ResponseWriter, r *wiretest.Request, n int) {
			wiretest.Result(w, r, `{"contents":[{"uri":"note://1","text":"<b>hi</b> & bye","mimeType":"text/plain"}]}`)
		},
	})
	code, out, errs := cli(t, "read", "note://1", "-o", "json", "--url", srv.URL)
	if code != 0 {
		t.Fatalf("read exited %d: %s", code, errs)
	}
	want := "{\n  \"contents\": [\n    {\n      \"uri\": \"note://1\",\n      \"text\": \"<b>hi</b> & bye\",\n      \"mimeType\": \"text/plain\"\n    }\n  ]\n}\n"
	if diff := cmp.Diff(want, out); diff != "" {
		t.Errorf("read -o json is not the server's result, indented (-want +got):\n%s", diff)
	}
}
