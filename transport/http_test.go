package transport_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/internal/wiretest"
	"github.com/mcpcli/mcpcli/transport"
)

const modern = "2026-07-28"

// connect starts a session with the server at url through transport.HTTP.
func connect(t *testing.T, url string, opts client.Options) *client.Session {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := client.Connect(ctx, &transport.HTTP{URL: url}, opts)
	if err != nil {
		t.Fatalf("Connect(%s): %v", url, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// listTools lists through the session (and the SDK, which also keeps the
// tools for the Mcp-Param-* headers of later calls).
func listTools(t *testing.T, s *client.Session) *client.ToolList {
	t.Helper()
	res, err := s.ListTools(testCtx(t))
	if err != nil {
		t.Fatalf("ListTools: %v", err)
	}
	return res
}

// recorded is one POST as a real server saw it, and how it answered.
type recorded struct {
	header      http.Header
	method      string
	params      map[string]any
	contentType string
}

type recorder struct {
	mu   sync.Mutex
	reqs []recorded
	next http.Handler
}

func (rec *recorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		rec.next.ServeHTTP(w, r)
		return
	}
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	var m struct {
		Method string         `json:"method"`
		Params map[string]any `json:"params"`
	}
	json.Unmarshal(body, &m)
	rec.mu.Lock()
	rec.reqs = append(rec.reqs, recorded{header: r.Header.Clone(), method: m.Method, params: m.Params})
	i := len(rec.reqs) - 1
	rec.mu.Unlock()
	rec.next.ServeHTTP(&captureWriter{ResponseWriter: w, set: func(ct string) {
		rec.mu.Lock()
		rec.reqs[i].contentType = ct
		rec.mu.Unlock()
	}}, r)
}

func (rec *recorder) all() []recorded {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return append([]recorded(nil), rec.reqs...)
}

// captureWriter notes the Content-Type of the answer as it is sent.
type captureWriter struct {
	http.ResponseWriter
	set func(string)
}

func (c *captureWriter) WriteHeader(status int) {
	c.set(c.Header().Get("Content-Type"))
	c.ResponseWriter.WriteHeader(status)
}

func (c *captureWriter) Write(b []byte) (int, error) {
	c.set(c.Header().Get("Content-Type"))
	return c.ResponseWriter.Write(b)
}

func (c *captureWriter) Flush() { c.ResponseWriter.(http.Flusher).Flush() }

// sdkServer is a go-sdk server with one tool (with an x-mcp-header
// parameter), one prompt and one resource.
func sdkServer(opts *mcp.ServerOptions) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "weather", Version: "2.1"}, opts)
	srv.AddTool(&mcp.Tool{
		Name:        "get_weather",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"},"days":{"type":"integer"}},"required":["region"]}`),
	}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "sunny: " + string(req.Params.Arguments)}}}, nil
	})
	srv.AddPrompt(&mcp.Prompt{Name: "forecast"}, func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "what is the weather?"}}}}, nil
	})
	srv.AddResource(&mcp.Resource{URI: "file:///stations.txt", Name: "stations"}, func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, Text: "KSEA"}}}, nil
	})
	return srv
}

func TestEveryPostCarriesTheRequestMetadata(t *testing.T) {
	for _, tc := range []struct {
		name        string
		json        bool
		contentType string
	}{
		{"SSE responses", false, "text/event-stream"},
		{"JSON responses", true, "application/json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := sdkServer(nil)
			rec := &recorder{next: mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{JSONResponse: tc.json, Stateless: true})}
			hs := httptest.NewServer(rec)
			t.Cleanup(hs.Close)

			s := connect(t, hs.URL, client.Options{ClientVersion: "1.2.3"})
			if got := s.Server().Protocol; got != modern {
				t.Fatalf("negotiated %q, want %q", got, modern)
			}
			ctx := testCtx(t)
			listTools(t, s)
			// The server checks the headers against the body too: a
			// mismatch would come back as -32020.
			res, err := s.CallTool(ctx, "get_weather", map[string]any{"region": "us-west1", "days": 3})
			if err != nil {
				t.Fatalf("CallTool: %v", err)
			}
			if got := res.Tool.Content[0].(*mcp.TextContent).Text; !strings.Contains(got, "us-west1") {
				t.Errorf("CallTool result = %q", got)
			}
			if _, err := s.GetPrompt(ctx, "forecast", nil); err != nil {
				t.Fatalf("GetPrompt: %v", err)
			}
			if _, err := s.ReadResource(ctx, "file:///stations.txt"); err != nil {
				t.Fatalf("ReadResource: %v", err)
			}

			seen := map[string]bool{}
			for _, r := range rec.all() {
				if r.method == "" || strings.HasPrefix(r.method, "notifications/") {
					continue
				}
				seen[r.method] = true
				accept := r.header.Get("Accept")
				if !strings.Contains(accept, "application/json") || !strings.Contains(accept, "text/event-stream") {
					t.Errorf("%s: Accept = %q, want application/json and text/event-stream", r.method, accept)
				}
				meta, _ := r.params["_meta"].(map[string]any)
				if got, want := r.header.Get("Mcp-Protocol-Version"), meta["io.modelcontextprotocol/protocolVersion"]; got != want || got != modern {
					t.Errorf("%s: MCP-Protocol-Version %q, _meta protocolVersion %v, want both %q", r.method, got, want, modern)
				}
				if info, _ := meta["io.modelcontextprotocol/clientInfo"].(map[string]any); info["name"] != "mcpcli" || info["version"] != "1.2.3" {
					t.Errorf("%s: _meta clientInfo = %v, want mcpcli 1.2.3 on every request", r.method, meta["io.modelcontextprotocol/clientInfo"])
				}
				if _, ok := meta["io.modelcontextprotocol/clientCapabilities"]; !ok {
					t.Errorf("%s: _meta has no clientCapabilities", r.method)
				}
				if got := r.header.Get("Mcp-Method"); got != r.method {
					t.Errorf("%s: Mcp-Method = %q", r.method, got)
				}
				wantName := map[string]string{"tools/call": "get_weather", "prompts/get": "forecast", "resources/read": "file:///stations.txt"}[r.method]
				if got := r.header.Get("Mcp-Name"); got != wantName {
					t.Errorf("%s: Mcp-Name = %q, want %q", r.method, got, wantName)
				}
				if r.method == "tools/call" {
					if got := r.header.Get("Mcp-Param-Region"); got != "us-west1" {
						t.Errorf("tools/call: Mcp-Param-Region = %q, want us-west1", got)
					}
				}
				if r.contentType != tc.contentType && r.method != "server/discover" {
					t.Errorf("%s: the server answered %q, want %q (this test covers both kinds)", r.method, r.contentType, tc.contentType)
				}
			}
			for _, m := range []string{"server/discover", "tools/list", "tools/call", "prompts/get", "resources/read"} {
				if !seen[m] {
					t.Errorf("no %s request was seen", m)
				}
			}
		})
	}
}

// The spec's own encoding examples (streamable-http, "Value Encoding"),
// and its rules for null and absent values.
func TestMcpParamHeadersAndTheirEncoding(t *testing.T) {
	tool := `[{"name":"t","inputSchema":{"type":"object","properties":{
		"region":{"type":"string","x-mcp-header":"Region"},
		"greeting":{"type":"string","x-mcp-header":"Greeting"},
		"text":{"type":"string","x-mcp-header":"Text"},
		"multi":{"type":"string","x-mcp-header":"Multi"},
		"val":{"type":"string","x-mcp-header":"Val"},
		"priority":{"type":"integer","x-mcp-header":"Priority"},
		"verbose":{"type":"boolean","x-mcp-header":"Verbose"},
		"absent":{"type":"string","x-mcp-header":"Absent"},
		"nothing":{"type":"string","x-mcp-header":"Nothing"},
		"query":{"type":"string"},
		"opts":{"type":"object","properties":{"zone":{"type":"string","x-mcp-header":"Zone"}}}
	}}},{"name":"Grüße","inputSchema":{"type":"object"}}]`
	srv := wiretest.New(t, map[string]wiretest.Handler{
		"tools/list": wiretest.Tools(tool),
		"tools/call": wiretest.Text("ok"),
	})
	s := connect(t, srv.URL, client.Options{})
	listTools(t, s)
	args := map[string]any{
		"region": "us-west1", "greeting": "Hello, 世界", "text": " padded ", "multi": "line1\nline2",
		"val": "=?base64?literal?=", "priority": 42, "verbose": false, "nothing": nil,
		"query": "SELECT 1", "opts": map[string]any{"zone": "b"},
	}
	if _, err := s.CallTool(testCtx(t), "t", args); err != nil {
		t.Fatalf("CallTool: %v", err)
	}
	if _, err := s.CallTool(testCtx(t), "Grüße", nil); err != nil {
		t.Fatalf("CallTool(Grüße): %v", err)
	}
	calls := srv.Calls("tools/call")
	got := map[string]string{}
	for k, v := range calls[0].Header {
		if strings.HasPrefix(k, "Mcp-Param-") {
			got[k] = v[0]
		}
	}
	want := map[string]string{
		"Mcp-Param-Region":   "us-west1",
		"Mcp-Param-Greeting": "=?base64?SGVsbG8sIOS4lueVjA==?=",
		"Mcp-Param-Text":     "=?base64?IHBhZGRlZCA=?=",
		"Mcp-Param-Multi":    "=?base64?bGluZTEKbGluZTI=?=",
		"Mcp-Param-Val":      "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=",
		"Mcp-Param-Priority": "42",
		"Mcp-Param-Verbose":  "false",
		"Mcp-Param-Zone":     "b",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Mcp-Param-* headers (-want +got):\n%s", d)
	}
	// A name outside the safe set travels Base64-encoded, like a value.
	if got, want := calls[1].Header.Get("Mcp-Name"), "=?base64?R3LDvMOfZQ==?="; got != want {
		t.Errorf("Mcp-Name for %q = %q, want %q", "Grüße", got, want)
	}
}

func TestToolsWithInvalidHeaderAnnotationsAreDroppedWithAWarning(t *testing.T) {
	srv := wiretest.New(t, map[string]wiretest.Handler{
		"tools/list": wiretest.Tools(`[
			{"name":"valid_tool","inputSchema":{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}}}},
			{"name":"invalid_number","inputSchema":{"type":"object","properties":{"score":{"type":"number","x-mcp-header":"Score"}}}},
			{"name":"invalid_space","inputSchema":{"type":"object","properties":{"v":{"type":"string","x-mcp-header":"My Region"}}}},
			{"name":"invalid_duplicate","inputSchema":{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"MyField"},"b":{"type":"string","x-mcp-header":"myfield"}}}}
		]`),
		"tools/call": wiretest.Text("ok"),
	})
	s := connect(t, srv.URL, client.Options{})
	list := listTools(t, s)
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
	}
	if d := cmp.Diff([]string{"valid_tool"}, names); d != "" {
		t.Errorf("listed tools (-want +got):\n%s", d)
	}
	reasons := map[string]string{}
	for _, d := range list.Dropped {
		reasons[d.Name] = d.Reason
	}
	for name, reason := range map[string]string{"invalid_number": "primitive types", "invalid_space": "invalid character", "invalid_duplicate": "duplicate"} {
		if !strings.Contains(reasons[name], reason) {
			t.Errorf("ListTools().Dropped says %q for %s, want a reason with %q", reasons[name], name, reason)
		}
	}
	if _, err := s.CallTool(testCtx(t), "valid_tool", map[string]any{"region": "eu"}); err != nil {
		t.Errorf("the valid tool is not usable: %v", err)
	}
}

func TestSSEResponseWithNotificationsBeforeTheResult(t *testing.T) {
	srv := wiretest.New(t, map[string]wiretest.Handler{
		"tools/call": func(w http.ResponseWriter, r *wiretest.Request, n int) {
			token, _ := json.Marshal(r.Meta()["progressToken"])
			wiretest.Stream(w,
				fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":%s,"progress":1,"total":2,"message":"halfway"}}`, token),
				`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"working"}}`,
				wiretest.ResultEvent(r, `{"content":[{"type":"text","text":"done"}]}`))
		},
	})
	var (
		mu       sync.Mutex
		progress []string
		logged   []string
	)
	s := connect(t, srv.URL, client.Options{
		LogLevel: "info",
		OnProgress: func(p *mcp.ProgressNotificationParams) {
			mu.Lock()
			progress = append(progress, fmt.Sprintf("%g/%g %s", p.Progress, p.Total, p.Message))
			mu.Unlock()
		},
		OnLog: func(p *mcp.LoggingMessageParams) {
			mu.Lock()
			logged = append(logged, fmt.Sprint(p.Data))
			mu.Unlock()
		},
	})
	res, err := s.CallTool(testCtx(t), "slow", nil)
	if err != nil {
		t.Fatalf("CallTool: %v", err)
	}
	if got := res.Tool.Content[0].(*mcp.TextContent).Text; got != "done" {
		t.Errorf("result = %q, want done", got)
	}
	// No result type means complete (SEP-2322).
	meta := srv.Calls("tools/call")[0].Meta()
	if meta["io.modelcontextprotocol/logLevel"] != "info" {
		t.Errorf("_meta logLevel = %v, want info", meta["io.modelcontextprotocol/logLevel"])
	}
	// Notifications are handled apart from responses: they may be handled
	// just after the result is returned.
	waitFor(t, "the progress and log notifications", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(progress) > 0 && len(logged) > 0
	})
	mu.Lock()
	defer mu.Unlock()
	if d := cmp.Diff([]string{"1/2 halfway"}, progress); d != "" {
		t.Errorf("progress (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"working"}, logged); d != "" {
		t.Errorf("log messages (-want +got):\n%s", d)
	}
}

// Servers disagree on the HTTP status of a JSON-RPC error: whatever it is,
// the error in the body is what the caller gets.
func TestTheJSONRPCErrorInTheBodyWhateverTheStatus(t *testing.T) {
	for _, status := range []int{200, 400, 404, 422, 429, 500, 503} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			srv := wiretest.New(t, map[string]wiretest.Handler{
				"tools/call": func(w http.ResponseWriter, r *wiretest.Request, n int) {
					if n == 1 {
						wiretest.Error(w, r, status, -32602, "unknown argument: colour", "")
						return
					}
					wiretest.Text("fine")(w, r, n)
				},
			})
			s := connect(t, srv.URL, client.Options{})
			_, err := s.CallTool(testCtx(t), "paint", map[string]any{"colour": "red"})
			var je *jsonrpc.Error
			if !errors.As(err, &je) {
				t.Fatalf("CallTool error = %v (%T), want a *jsonrpc.Error", err, err)
			}
			if je.Code != -32602 || je.Message != "unknown argument: colour" {
				t.Errorf("error = %d %q, want -32602 %q", je.Code, je.Message, "unknown argument: colour")
			}
			if _, err := s.CallTool(testCtx(t), "paint", nil); err != nil {
				t.Errorf("the session did not survive the error: %v", err)
			}
		})
	}
}

// A request whose response stream broke after the server had it is never
// sent again: the server may have acted on it (run a side-effecting
// tool), whatever the protocol version, whatever the tool says of itself.
// 2026-07-28 has no resumption; a 2025-11-25 stream is resumed only by
// the go-sdk's GET with Last-Event-ID, which sends no request twice. The
// error says so, and the person decides.
func TestABrokenStreamIsNeverSentAgain(t *testing.T) {
	note := `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"starting"}}`
	legacy := map[string]wiretest.Handler{
		"server/discover": func(w http.ResponseWriter, r *wiretest.Request, n int) {
			wiretest.Error(w, r, http.StatusBadRequest, -32601, "Method not found", "")
		},
		"initialize": func(w http.ResponseWriter, r *wiretest.Request, n int) {
			wiretest.Result(w, r, `{"protocolVersion":"2025-11-25","capabilities":{"tools":{},"prompts":{}},"serverInfo":{"name":"old","version":"1"}}`)
		},
		"tools/list": wiretest.Tools(`[{"name":"once","inputSchema":{"type":"object"}},{"name":"again","inputSchema":{"type":"object"},"annotations":{"idempotentHint":true,"readOnlyHint":true}}]`),
	}
	for _, tc := range []struct {
		name   string
		legacy bool
		method string // tools/call or prompts/get
		target string
		event  string
	}{
		{"2026-07-28, events without ids", false, "tools/call", "once", note},
		// A modern stream is never resumed: an id must not lead to a GET.
		{"2026-07-28, events with ids", false, "tools/call", "once", "id: 17\nretry: 10\ndata: " + note + "\n\n"},
		{"2026-07-28, a prompt", false, "prompts/get", "p", note},
		{"2025-11-25", true, "tools/call", "once", note},
		{"2025-11-25, a tool that says it is idempotent", true, "tools/call", "again", note},
	} {
		t.Run(tc.name, func(t *testing.T) {
			handlers := map[string]wiretest.Handler{
				tc.method: func(w http.ResponseWriter, r *wiretest.Request, n int) {
					wiretest.Stream(w, tc.event)
					wiretest.Break()
				},
			}
			if tc.legacy {
				for k, h := range legacy {
					handlers[k] = h
				}
			}
			srv := wiretest.New(t, handlers)
			var warned strings.Builder
			s := connect(t, srv.URL, client.Options{Warn: func(msg string) { warned.WriteString(msg + "\n") }})
			if tc.legacy {
				listTools(t, s)
			}
			var err error
			if tc.method == "tools/call" {
				_, err = s.CallTool(testCtx(t), tc.target, map[string]any{"x": 1})
			} else {
				_, err = s.GetPrompt(testCtx(t), tc.target, nil)
			}
			var se *client.StreamError
			if !errors.As(err, &se) {
				t.Fatalf("%s %s error = %v (%T), want a *client.StreamError", tc.method, tc.target, err, err)
			}
			for _, want := range []string{fmt.Sprintf("%s %q", tc.method, tc.target), "before sending the result", "did not send it again"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not say %q", err, want)
				}
			}
			if n := len(srv.Calls(tc.method)); n != 1 {
				t.Errorf("%d %s requests reached the server, want 1", n, tc.method)
			}
			for _, r := range srv.Requests() {
				if r.HTTPMethod != http.MethodPost && !tc.legacy {
					t.Errorf("mcpcli sent %s %v to a modern server (resumption is not part of 2026-07-28)", r.HTTPMethod, r.Header)
				}
			}
			if warned.Len() > 0 {
				t.Errorf("warnings: %s", warned.String())
			}
		})
	}
}

func TestUnsupportedProtocolVersionIsRetriedWithAMutualVersion(t *testing.T) {
	srv := wiretest.New(t, map[string]wiretest.Handler{
		"server/discover": func(w http.ResponseWriter, r *wiretest.Request, n int) {
			if n == 1 {
				wiretest.Error(w, r, http.StatusBadRequest, -32022, "Unsupported protocol version", `{"supported":["2026-07-28","2025-11-25"],"requested":"2026-07-28"}`)
				return
			}
			wiretest.Discover([]string{"2026-07-28", "2025-11-25"}, `{"tools":{}}`)(w, r, n)
		},
		"tools/list": wiretest.Tools(`[]`),
	})
	s := connect(t, srv.URL, client.Options{})
	if got := s.Server().Protocol; got != modern {
		t.Errorf("negotiated %q, want %q", got, modern)
	}
	listTools(t, s)
	discovers := srv.Calls("server/discover")
	if len(discovers) != 2 {
		t.Fatalf("%d server/discover requests, want 2 (the first, and the retry)", len(discovers))
	}
	if bytes.Equal(discovers[0].ID, discovers[1].ID) {
		t.Errorf("the retry reused id %s", discovers[0].ID)
	}
	for _, r := range srv.Requests() {
		if got, want := r.Header.Get("Mcp-Protocol-Version"), r.Meta()["io.modelcontextprotocol/protocolVersion"]; got != want {
			t.Errorf("%s: header %q, _meta %v", r.Method, got, want)
		}
	}
	if n := len(srv.Calls("initialize")); n != 0 {
		t.Errorf("%d initialize requests to a modern server", n)
	}
}

// A -32022 that offers only legacy versions leads to the initialize
// handshake; from then on requests carry the session and no _meta.
func TestUnsupportedProtocolVersionOfferingOnlyLegacyFallsBackToInitialize(t *testing.T) {
	srv := wiretest.New(t, map[string]wiretest.Handler{
		"server/discover": func(w http.ResponseWriter, r *wiretest.Request, n int) {
			wiretest.Error(w, r, http.StatusBadRequest, -32022, "Unsupported protocol version", `{"supported":["2025-11-25"],"requested":"2026-07-28"}`)
		},
		"initialize": func(w http.ResponseWriter, r *wiretest.Request, n int) {
			w.Header().Set("Mcp-Session-Id", "s-1")
			wiretest.Result(w, r, `{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"old","version":"0.9"}}`)
		},
		"tools/list": wiretest.Tools(`[{"name":"hello","inputSchema":{"type":"object"}}]`),
	})
	s := connect(t, srv.URL, client.Options{})
	if got := s.Server(); got.Protocol != "2025-11-25" || got.Name != "old" {
		t.Errorf("server = %+v, want old speaking 2025-11-25", got)
	}
	listTools(t, s)
	lists := srv.Calls("tools/list")
	if len(lists) != 1 {
		t.Fatalf("%d tools/list requests", len(lists))
	}
	h := lists[0].Header
	if h.Get("Mcp-Session-Id") != "s-1" || h.Get("Mcp-Protocol-Version") != "2025-11-25" {
		t.Errorf("legacy tools/list headers: session %q, version %q; want s-1, 2025-11-25", h.Get("Mcp-Session-Id"), h.Get("Mcp-Protocol-Version"))
	}
	if _, ok := lists[0].Meta()["io.modelcontextprotocol/protocolVersion"]; ok {
		t.Errorf("legacy tools/list carries the modern _meta: %s", lists[0].Body)
	}
}

// A 2025-11-25 server with sessions: initialize, then a server-initiated
// elicitation/create, answered by the same Answerer as a modern round.
func TestLegacyServerWithSessionsAndServerInitiatedElicitation(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "old-greeter", Version: "1.0"}, &mcp.ServerOptions{SupportedProtocolVersions: []string{"2025-11-25"}})
	srv.AddTool(&mcp.Tool{Name: "greet", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "Your name?",
			RequestedSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`)})
		if err != nil {
			return nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("Hello, %v! (%s)", res.Content["name"], res.Action)}}}, nil
	})
	rec := &recorder{next: mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)}
	hs := httptest.NewServer(rec)
	t.Cleanup(hs.Close)

	var rounds []client.Round
	s := connect(t, hs.URL, client.Options{
		Modes: client.Modes{Form: true, URL: true},
		Answerer: client.AnswererFunc(func(ctx context.Context, r client.Round) (map[string]*mcp.ElicitResult, error) {
			rounds = append(rounds, r)
			return map[string]*mcp.ElicitResult{r.Asks[0].Key: {Action: "accept", Content: map[string]any{"name": "Ada"}}}, nil
		}),
	})
	if got := s.Server(); got.Protocol != "2025-11-25" || got.Modern() {
		t.Fatalf("server = %+v, want legacy 2025-11-25", got)
	}
	res, err := s.CallTool(testCtx(t), "greet", nil)
	if err != nil {
		t.Fatalf("CallTool: %v", err)
	}
	if got := res.Tool.Content[0].(*mcp.TextContent).Text; got != "Hello, Ada! (accept)" {
		t.Errorf("result = %q", got)
	}
	if len(rounds) != 1 || !rounds[0].Legacy || rounds[0].Method != "tools/call" || rounds[0].Target != "greet" || rounds[0].Asks[0].Params.Message != "Your name?" {
		t.Errorf("rounds = %+v, want one legacy round for tools/call greet asking \"Your name?\"", rounds)
	}
	var session string
	for _, r := range rec.all() {
		switch r.method {
		case "initialize", "server/discover":
			continue
		}
		if r.header.Get("Mcp-Session-Id") == "" {
			t.Errorf("%s: no Mcp-Session-Id", r.method)
		}
		if session == "" {
			session = r.header.Get("Mcp-Session-Id")
		} else if got := r.header.Get("Mcp-Session-Id"); got != session {
			t.Errorf("%s: session %q, earlier %q", r.method, got, session)
		}
		if got := r.header.Get("Mcp-Protocol-Version"); got != "2025-11-25" {
			t.Errorf("%s: MCP-Protocol-Version %q, want 2025-11-25", r.method, got)
		}
	}
}

// Cancelling a request closes its response stream: for a modern server,
// that is the cancellation (no notifications/cancelled is expected).
func TestCancellingARequestClosesItsStream(t *testing.T) {
	started := make(chan struct{})
	closed := make(chan struct{})
	srv := wiretest.New(t, map[string]wiretest.Handler{
		"tools/call": func(w http.ResponseWriter, r *wiretest.Request, n int) {
			wiretest.Stream(w, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"working"}}`)
			close(started)
			<-r.Context.Done()
			close(closed)
		},
	})
	s := connect(t, srv.URL, client.Options{})

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := s.CallTool(ctx, "wait", nil)
		done <- err
	}()
	select {
	case <-started:
	case <-time.After(10 * time.Second):
		t.Fatal("the tool never started")
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("CallTool after cancel = %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("CallTool did not return after cancel")
	}
	select {
	case <-closed:
	case <-time.After(10 * time.Second):
		t.Fatal("the response stream stayed open after the request was cancelled")
	}
}

// waitFor polls cond until it holds, failing after 10s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// getStreamServer is a 2025-11-25 Streamable HTTP server with a session
// and a GET stream, whose tools/call first sends a log on the GET stream,
// then answers on the request's own.
func getStreamServer(t *testing.T) *httptest.Server {
	var mu sync.Mutex
	var get http.ResponseWriter
	getReady := make(chan struct{})
	var once sync.Once
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodGet:
			w.Header().Set("Content-Type", "text/event-stream")
			w.WriteHeader(http.StatusOK)
			w.(http.Flusher).Flush()
			mu.Lock()
			get = w
			mu.Unlock()
			once.Do(func() { close(getReady) })
			<-r.Context().Done()
			return
		case http.MethodDelete:
			return
		}
		body, _ := io.ReadAll(r.Body)
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		json.Unmarshal(body, &m)
		w.Header().Set("Mcp-Session-Id", "s1")
		w.Header().Set("Content-Type", "application/json")
		switch {
		case len(m.ID) == 0:
			w.WriteHeader(http.StatusAccepted)
		case m.Method == "initialize":
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{},"logging":{}},"serverInfo":{"name":"x","version":"1"}}}`, m.ID)
		case m.Method == "tools/call":
			<-getReady
			mu.Lock()
			io.WriteString(get, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"last words\"}}\n\n")
			get.(http.Flusher).Flush()
			mu.Unlock()
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"done"}]}}`, m.ID)
		default:
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{}}`, m.ID)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// A log a 2025-11-25 server sends on its GET stream just before the
// result, on the request's own stream, is shown before the run ends
// (issue 22: it was lost in 2 runs of 5). Two connections are read apart,
// so the result used to win the race; the session's Drain now waits
// until the GET stream has read what came.
func TestALogOnTheGETStreamJustBeforeTheResultIsKept(t *testing.T) {
	for i := range 10 {
		srv := getStreamServer(t)
		var logs atomic.Int64
		s, err := client.Connect(testCtx(t), &transport.HTTP{URL: srv.URL}, client.Options{
			ProtocolVersion: "2025-11-25", LogLevel: "info",
			OnLog: func(*mcp.LoggingMessageParams) { logs.Add(1) },
		})
		if err != nil {
			t.Fatalf("Connect: %v", err)
		}
		if _, err := s.CallTool(testCtx(t), "x", nil); err != nil {
			t.Fatalf("CallTool: %v", err)
		}
		s.Drain()
		if logs.Load() != 1 {
			t.Errorf("run %d: the log sent on the GET stream before the result was shown %d times, want once", i+1, logs.Load())
		}
		s.Close()
	}
}

// Over HTTP too, a 2025-11-25 request given up on tells the server why in
// words, in the notifications/cancelled the go-sdk sends: the transport
// rewrites the body it posts.
func TestALegacyCancelOverHTTPSaysWhy(t *testing.T) {
	started := make(chan struct{})
	var once sync.Once
	srv := wiretest.New(t, map[string]wiretest.Handler{
		"server/discover": func(w http.ResponseWriter, r *wiretest.Request, n int) {
			wiretest.Error(w, r, http.StatusBadRequest, -32601, "Method not found", "")
		},
		"initialize": func(w http.ResponseWriter, r *wiretest.Request, n int) {
			wiretest.Result(w, r, `{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"old","version":"1"}}`)
		},
		"tools/call": func(w http.ResponseWriter, r *wiretest.Request, n int) {
			once.Do(func() { close(started) })
			<-r.Context.Done()
		},
		"notifications/cancelled": func(w http.ResponseWriter, r *wiretest.Request, n int) {
			w.WriteHeader(http.StatusAccepted)
		},
	})
	s := connect(t, srv.URL, client.Options{})
	ctx, cancel := context.WithCancelCause(testCtx(t))
	go func() { <-started; cancel(errors.New("the user closed the window")) }()
	if _, err := s.CallTool(ctx, "slow", nil); err == nil {
		t.Fatal("CallTool given up on returned no error")
	}
	var reason string
	for deadline := time.Now().Add(10 * time.Second); reason == "" && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		for _, r := range srv.Calls("notifications/cancelled") {
			var p struct{ Reason string }
			_ = json.Unmarshal(r.Params, &p)
			reason = p.Reason
		}
	}
	if reason != "the user closed the window" {
		t.Errorf("notifications/cancelled over HTTP gives the reason %q, want the cause in words", reason)
	}
}
