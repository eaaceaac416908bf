package demoserver

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/schema"
)

// session connects a raw go-sdk client (its own MRTR loop off) to a demo.
func session(t *testing.T, d *Demo, caps *mcp.ClientCapabilities) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := d.Server().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	if caps == nil {
		caps = &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}, URL: &mcp.URLElicitationCapabilities{}}}
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, &mcp.ClientOptions{
		Capabilities: caps, MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true},
	})
	cs, err := c.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func newDemo(t *testing.T, opts Options) *Demo {
	t.Helper()
	d, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any, responses mcp.InputResponseMap, state string) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args, InputResponses: responses, RequestState: state})
	if err != nil {
		t.Fatalf("CallTool(%s) = %v", name, err)
	}
	return res
}

func textOf(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func TestDeleteProjectAnswers(t *testing.T) {
	cs := session(t, newDemo(t, Options{}), nil)
	first := call(t, cs, "delete_project", map[string]any{"project": "p"}, nil, "")
	if !first.NeedsInput() || first.InputRequests["confirm_delete"] == nil || first.RequestState != "" {
		t.Fatalf("first call = %+v, want input_required asking confirm_delete without requestState", first)
	}
	tests := []struct {
		answer *mcp.ElicitResult
		want   string
	}{
		{&mcp.ElicitResult{Action: "accept", Content: map[string]any{"confirm": true}}, `Deleted project "p"`},
		{&mcp.ElicitResult{Action: "accept", Content: map[string]any{"confirm": false}}, `Kept project "p"`},
		{&mcp.ElicitResult{Action: "decline"}, "Declined: deleting project p."},
		{&mcp.ElicitResult{Action: "cancel"}, "Cancelled: you dismissed the request"},
	}
	for _, tt := range tests {
		res := call(t, cs, "delete_project", map[string]any{"project": "p"}, mcp.InputResponseMap{"confirm_delete": tt.answer}, "")
		if got := textOf(res); !strings.HasPrefix(got, tt.want) {
			t.Errorf("delete_project answered %s %v = %q, want it to start %q", tt.answer.Action, tt.answer.Content, got, tt.want)
		}
	}
}

func TestWizardStateIsProtected(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	d := newDemo(t, Options{Now: func() time.Time { return now }, StateTTL: time.Minute})
	cs := session(t, d, nil)
	args := map[string]any{"owner": "ada"}
	r1 := call(t, cs, "create_repo", args, nil, "")
	if r1.RequestState == "" || r1.InputRequests["basics"] == nil {
		t.Fatalf("round 1 = %+v, want basics and a requestState", r1)
	}
	basics := mcp.InputResponseMap{"basics": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "n", "visibility": "public"}}}
	tampered := []byte(r1.RequestState)
	tampered[3] ^= 1
	bad := []struct {
		name  string
		args  map[string]any
		state string
		at    time.Time
	}{
		{"tampered", args, string(tampered), now},
		{"other arguments", map[string]any{"owner": "mallory"}, r1.RequestState, now},
		{"expired", args, r1.RequestState, now.Add(2 * time.Minute)},
		{"garbage", args, "not-a-state", now},
	}
	for _, b := range bad {
		t.Run(b.name, func(t *testing.T) {
			old := now
			now = b.at
			defer func() { now = old }()
			_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "create_repo", Arguments: b.args, InputResponses: basics, RequestState: b.state})
			var je *jsonrpc.Error
			if !errors.As(err, &je) || je.Code != jsonrpc.CodeInvalidParams || !strings.Contains(je.Message, "requestState failed verification") {
				t.Fatalf("CallTool(create_repo, %s state) error = %v, want -32602 naming requestState", b.name, err)
			}
		})
	}
	r2 := call(t, cs, "create_repo", args, basics, r1.RequestState)
	if r2.InputRequests["details"] == nil || r2.RequestState == r1.RequestState {
		t.Fatalf("round 2 = %+v, want details with a new requestState", r2)
	}
	r3 := call(t, cs, "create_repo", args, mcp.InputResponseMap{"details": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"license": "MIT", "readme": true}}}, r2.RequestState)
	if got := textOf(r3); got != "Created public repository ada/n (license: MIT, with a README)." {
		t.Errorf("round 3 = %q", got)
	}
}

func TestConnectPageCompletesTheStep(t *testing.T) {
	d := newDemo(t, Options{})
	cs := session(t, d, nil)
	args := map[string]any{"service": "mail"}
	r1 := call(t, cs, "connect_account", args, nil, "")
	ask, ok := r1.InputRequests["connect"].(*mcp.ElicitParams)
	if !ok || ask.Mode != "url" || !strings.HasPrefix(ask.URL, "http://127.0.0.1:") {
		t.Fatalf("connect_account round 1 = %+v, want a URL ask on loopback", r1.InputRequests)
	}
	u, _ := url.Parse(ask.URL)
	// The page renders a form; posting it marks the step done.
	resp, err := http.Get(ask.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("GET %s = %d", ask.URL, resp.StatusCode)
	}
	resp, err = http.PostForm(d.PageURL()+"/connect", url.Values{"id": {u.Query().Get("id")}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	accept := mcp.InputResponseMap{"connect": &mcp.ElicitResult{Action: "accept"}}
	r2 := call(t, cs, "connect_account", args, accept, r1.RequestState)
	if got := textOf(r2); !strings.HasPrefix(got, "Connected your mail account") {
		t.Errorf("connect_account after the page = %q, want Connected", got)
	}
	// An id the server never issued is refused.
	resp, _ = http.PostForm(d.PageURL()+"/connect", url.Values{"id": {"forged"}})
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("POST with a forged id = %d, want 404", resp.StatusCode)
	}
}

func TestConnectWithoutURLModeSaysSo(t *testing.T) {
	cs := session(t, newDemo(t, Options{}), &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}}})
	res := call(t, cs, "connect_account", nil, nil, "")
	if res.NeedsInput() || !strings.Contains(textOf(res), "did not declare URL-mode elicitation") {
		t.Errorf("connect_account from a form-only client = %+v, want a readable refusal", res)
	}
}

func TestProfileHasEveryKind(t *testing.T) {
	form, err := schema.Parse(json.RawMessage(ProfileSchema))
	if err != nil || !form.Renderable() {
		t.Fatalf("schema.Parse(ProfileSchema) = %v, problems %v", err, form.Problems)
	}
	kinds := map[schema.Kind]int{}
	formats := map[string]bool{}
	for _, f := range form.Fields {
		kinds[f.Kind]++
		formats[f.Format] = true
	}
	for _, k := range []schema.Kind{schema.String, schema.Number, schema.Integer, schema.Boolean, schema.Select, schema.MultiSelect} {
		if kinds[k] == 0 {
			t.Errorf("ProfileSchema has no %s field", k)
		}
	}
	for _, f := range []string{"email", "uri", "date", "date-time"} {
		if !formats[f] {
			t.Errorf("ProfileSchema has no %s string", f)
		}
	}
	if got := form.Fields[0].Name; got != "name" {
		t.Errorf("first field = %q, want name (the order written)", got)
	}
}

func TestEcho(t *testing.T) {
	cs := session(t, newDemo(t, Options{}), nil)
	if got := textOf(call(t, cs, "echo", map[string]any{"text": "hello"}, nil, "")); got != "hello" {
		t.Errorf("echo text=hello = %q, want hello", got)
	}
}

// toggle_beta adds beta_forecast, and takes it away; a client listening
// for list changes hears of each.
func TestToggleBetaChangesTheToolList(t *testing.T) {
	d := newDemo(t, Options{})
	changed := make(chan struct{}, 4)
	ct, st := mcp.NewInMemoryTransports()
	ss, err := d.Server().Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	c := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} },
	})
	cs, err := c.Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	has := func() bool {
		res, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, tool := range res.Tools {
			if tool.Name == "beta_forecast" {
				return true
			}
		}
		return false
	}
	for i, want := range []bool{true, false} {
		call(t, cs, "toggle_beta", nil, nil, "")
		select {
		case <-changed:
		case <-time.After(5 * time.Second):
			t.Fatalf("toggle_beta #%d: no notifications/tools/list_changed", i+1)
		}
		if got := has(); got != want {
			t.Errorf("after toggle_beta #%d, beta_forecast listed = %v, want %v", i+1, got, want)
		}
	}
	if got := textOf(call(t, cs, "toggle_beta", nil, nil, "")); !strings.HasPrefix(got, "Added beta_forecast") {
		t.Errorf("toggle_beta = %q", got)
	}
	if got := textOf(call(t, cs, "beta_forecast", map[string]any{"city": "Paris"}, nil, "")); !strings.Contains(got, "Tomorrow in Paris") {
		t.Errorf("beta_forecast city=Paris = %q", got)
	}
}

// The demo's HTTP endpoints refuse a web page of another origin (issue
// 22; streamable-http.mdx: an invalid Origin MUST get 403), and let
// through requests without Origin, from a loopback origin, or from the
// server's own.
func TestHTTPRefusesAForeignOrigin(t *testing.T) {
	d := newDemo(t, Options{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.ServeHTTP(ctx, ln) }()
	t.Cleanup(func() { cancel(); <-done })
	base := "http://" + ln.Addr().String()
	body := `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`
	for _, tc := range []struct {
		origin string // "" for none
		path   string
		ok     bool
	}{
		{"", "/mcp", true},
		{"http://localhost:5173", "/mcp", true},
		{"http://127.0.0.1:9999", "/mcp", true},
		{"http://[::1]:3000", "/mcp", true},
		{base, "/mcp", true},
		{"https://evil.example", "/mcp", false},
		{"http://127.0.0.1.evil.example", "/mcp", false},
		{"http://localhost.evil.example:80", "/mcp", false},
		{"null", "/mcp", false},
		{"https://evil.example", "/sse", false},
	} {
		req, _ := http.NewRequest(http.MethodPost, base+tc.path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
		if tc.origin != "" {
			req.Header.Set("Origin", tc.origin)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("POST %s (Origin %q): %v", tc.path, tc.origin, err)
		}
		resp.Body.Close()
		if forbidden := resp.StatusCode == http.StatusForbidden; forbidden == tc.ok {
			t.Errorf("POST %s with Origin %q = HTTP %d; want 403: %v", tc.path, tc.origin, resp.StatusCode, !tc.ok)
		}
	}
}
