package flow_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/demoserver"
	"github.com/mcpcli/mcpcli/flow"
)

// acceptWizard answers the wizard's two rounds with accept.
var acceptWizard = answerFunc(func(r client.Round, a client.Ask) *mcp.ElicitResult {
	switch a.Key {
	case "basics", "setup":
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "hello", "visibility": "private"}}
	case "details":
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"license": "MIT", "readme": true}}
	}
	return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"ok": true}}
})

func record(t *testing.T, srv *mcp.Server, inner client.Answerer, reqs ...flow.Request) *flow.File {
	t.Helper()
	c := connect(t, srv)
	var runs []flow.Run
	for _, req := range reqs {
		runs = append(runs, c.do(t, flow.Record(req, inner), req))
	}
	f, err := flow.FromRecording("test.flow", flow.Server{Command: []string{"wizard", "--port", "0"}}, false, runs)
	if err != nil {
		t.Fatalf("FromRecording: %v", err)
	}
	return f
}

var createReq = flow.Request{Kind: flow.Call, Target: "create", Args: json.RawMessage(`{"owner":"octo"}`)}

func TestRecordWritesEveryAskAnswerAndResult(t *testing.T) {
	f := record(t, wizard(variant{}), acceptWizard, createReq)
	want := `# Recorded by mcpcli. ` + "`mcpcli test`" + ` replays it; ` + "`mcpcli test --update`" + ` rewrites its expectations and keeps its answers and comments.
server command wizard --port 0

call create {"owner": "octo"}
  round 1
    ask basics form
      message == "New repository (step 1 of 2)."
      fields == ["name", "visibility"]
      required == ["name", "visibility"]
      type name == "string"
      type visibility == "string"
      enum visibility == ["public", "private"]
    answer basics accept {"name": "hello", "visibility": "private"}
  round 2
    ask details form
      message == "Step 2 of 2: details."
      fields == ["license", "readme"]
      required == ["license"]
      type license == "string"
      type readme == "boolean"
      enum license == ["MIT", "Apache-2.0"]
    answer details accept {"license": "MIT", "readme": true}
  result
    rounds == 2
    isError == false
    text == "Created the repository."
    structuredContent == {"created": true, "license": "MIT", "tags": ["a", "b"]}
`
	if diff := cmp.Diff(want, string(f.Format())); diff != "" {
		t.Errorf("FromRecording(create) (-want +got):\n%s", diff)
	}
	// And it replays green.
	if ms := flow.Check(f, replay(t, connect(t, wizard(variant{})), f, nil)); len(ms) > 0 {
		t.Errorf("Check(replay of the recording) = %v, want no mismatch", ms)
	}
}

// The demo server's flows record and replay green: the wizard carried in
// an HMAC-protected requestState (the live one is echoed, never a recorded
// one: none is recorded), a prompt's ask and a resource's.
func TestDemoRecordsAndReplays(t *testing.T) {
	d, err := demoserver.New(demoserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	answers := answerFunc(func(r client.Round, a client.Ask) *mcp.ElicitResult {
		switch a.Key {
		case "basics":
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "hello-mcp", "visibility": "public"}}
		case "details":
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"license": "MIT", "readme": true}}
		case "audience":
			return &mcp.ElicitResult{Action: "decline"}
		case "detail":
			return &mcp.ElicitResult{Action: "cancel"}
		}
		return &mcp.ElicitResult{Action: "cancel"}
	})
	reqs := []flow.Request{
		{Kind: flow.Call, Target: "create_repo", Args: json.RawMessage(`{"owner":"octo"}`)},
		{Kind: flow.Prompt, Target: "release_notes", Args: json.RawMessage(`{"version":"2.0"}`)},
		{Kind: flow.Read, Target: "demo://reports/q3"},
	}
	f := record(t, d.Server(), answers, reqs...)
	src := string(f.Format())
	for _, want := range []string{
		`text == "Created public repository octo/hello-mcp (license: MIT, with a README)."`,
		`answer audience decline`,
		`text == "Write release notes for version 2.0. The readers are everyone (you declined to choose)."`,
		`read demo://reports/q3`,
		`enum audience == ["developers", "customers"]`,
	} {
		if !strings.Contains(src, want) {
			t.Errorf("the recording has no line %q:\n%s", want, src)
		}
	}
	if strings.Contains(src, "requestState") {
		t.Errorf("the recording keeps a requestState; it must never:\n%s", src)
	}
	runs := replay(t, connect(t, d.Server()), f, nil)
	if ms := flow.Check(f, runs); len(ms) > 0 {
		t.Errorf("Check(replay of the demo recording) = %v, want none", ms)
	}
}

func TestSecretAnswersComeFromTheEnvironment(t *testing.T) {
	srv := loginServer()
	typed := answerFunc(func(r client.Round, a client.Ask) *mcp.ElicitResult {
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"user": "ada", "password": "hunter2-very-secret"}}
	})
	req := flow.Request{Kind: flow.Call, Target: "login"}
	f := record(t, srv, typed, req)
	src := string(f.Format())
	if strings.Contains(src, "hunter2") {
		t.Fatalf("the recording holds the password:\n%s", src)
	}
	if !strings.Contains(src, `answer login accept {"user": "ada", "password": "$env:MCPCLI_FLOW_LOGIN_PASSWORD"}`) {
		t.Fatalf("the recording does not take the password from the environment:\n%s", src)
	}
	// The recording's result says what the server made of the password:
	// replayed with the same one from the environment, it passes.
	env := func(name string) (string, bool) {
		if name == "MCPCLI_FLOW_LOGIN_PASSWORD" {
			return "hunter2-very-secret", true
		}
		return "", false
	}
	c := connect(t, srv)
	if ms := flow.Check(f, replay(t, c, f, env)); len(ms) > 0 {
		t.Errorf("Check(replay with the password set) = %v, want none", ms)
	}
	// Without it, the step fails with an error that names the variable.
	runs := replay(t, c, f, func(string) (string, bool) { return "", false })
	if runs[0].Err == nil || !strings.Contains(runs[0].Err.Error(), "MCPCLI_FLOW_LOGIN_PASSWORD") {
		t.Fatalf("replay without the variable: err = %v, want one naming MCPCLI_FLOW_LOGIN_PASSWORD", runs[0].Err)
	}
}

// loginServer asks for a user and a password in a form (which the spec
// says belongs in URL mode: lint finds it), and says how long it was.
func loginServer() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "login", Version: "1"}, nil)
	srv.AddTool(&mcp.Tool{Name: "login", InputSchema: json.RawMessage(`{"type":"object"}`)}, loginTool)
	return srv
}

func loginTool(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	r, _ := req.Params.InputResponses["login"].(*mcp.ElicitResult)
	if r == nil {
		return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"login": &mcp.ElicitParams{Message: "Sign in", RequestedSchema: json.RawMessage(
			`{"type":"object","properties":{"user":{"type":"string"},"password":{"type":"string"}},"required":["user","password"]}`)}}}, nil
	}
	pw, _ := r.Content["password"].(string)
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("signed in with a password of %d characters", len(pw))}}}, nil
}

// echoServer asks for a text and says it back.
func echoServer() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "echo", Version: "1"}, nil)
	srv.AddTool(&mcp.Tool{Name: "echo", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		r, _ := req.Params.InputResponses["say"].(*mcp.ElicitResult)
		if r == nil {
			return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"say": &mcp.ElicitParams{Message: "Say what?", RequestedSchema: json.RawMessage(
				`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`)}}}, nil
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprint(r.Content["text"])}}}, nil
	})
	return srv
}

// Text that only looks like an environment reference is kept as text.
func TestALiteralDollarEnvStaysText(t *testing.T) {
	said := answerFunc(func(r client.Round, a client.Ask) *mcp.ElicitResult {
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"text": "$env:HOME"}}
	})
	f := record(t, echoServer(), said, flow.Request{Kind: flow.Call, Target: "echo"})
	if !strings.Contains(string(f.Format()), `answer say accept {"text": "$$env:HOME"}`) {
		t.Fatalf("the recording:\n%s", f.Format())
	}
	env := func(string) (string, bool) { return "/root", true }
	if ms := flow.Check(f, replay(t, connect(t, echoServer()), f, env)); len(ms) > 0 {
		t.Errorf("replay sent something else than $env:HOME:\n%s", diffs(ms))
	}
}

func TestRecordKeepsAURLByItsSchemeHostAndPath(t *testing.T) {
	run := func(u string) flow.Run {
		return flow.Run{Request: flow.Request{Kind: flow.Call, Target: "connect"},
			Rounds: []flow.LiveRound{{Number: 1, Asks: []flow.LiveAsk{{Key: "connect", Mode: "url", Message: "Connect.", URL: u, Answer: flow.Answer{Key: "connect", Action: "decline"}}}}},
			Err:    fmt.Errorf("declined")}
	}
	for _, tc := range []struct {
		url, line, other string
		matches          bool
	}{
		{"http://127.0.0.1:4321/connect?id=abc", `url ~ /^http:\/\/127\.0\.0\.1(:[0-9]+)?\/connect([?#]|$)/`, "http://127.0.0.1:9999/connect?id=xyz", true},
		{"https://example.com:8443/a/b?x=1", `url ~ /^https:\/\/example\.com:8443\/a\/b([?#]|$)/`, "https://example.com:8443/a/b#f", true},
		{"https://example.com/a", `url ~ /^https:\/\/example\.com\/a([?#]|$)/`, "https://example.com/ab", false},
		{"not a url", `url == "not a url"`, "not a url", true},
	} {
		f, err := flow.FromRecording("u.flow", flow.Server{}, false, []flow.Run{run(tc.url)})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(f.Format()), "      "+tc.line+"\n") {
			t.Errorf("recording %s: no line %s in\n%s", tc.url, tc.line, f.Format())
		}
		if ms := flow.Check(f, []flow.Run{run(tc.other)}); (len(ms) == 0) != tc.matches {
			t.Errorf("recorded %s, then came %s: mismatches %v, want match %v", tc.url, tc.other, ms, tc.matches)
		}
	}
}

func TestAnErrorFailsUnlessExpected(t *testing.T) {
	c := connect(t, wizard(variant{}))
	for _, tc := range []struct {
		src  string
		pass bool
	}{
		{"call nosuch\n  result\n    error contains \"nosuch\"\n", true},
		{"call nosuch\n", false},
		{"call nosuch\n  result\n    rounds == 0\n", false},
	} {
		f, err := flow.Parse("e.flow", []byte(tc.src))
		if err != nil {
			t.Fatal(err)
		}
		runs := replay(t, c, f, nil)
		ms := flow.Check(f, runs)
		if (len(ms) == 0) != tc.pass {
			t.Errorf("%q: mismatches %v, want pass %v (the error: %v)", tc.src, ms, tc.pass, runs[0].Err)
		}
		if tc.pass {
			continue
		}
		nf, err := f.Update(runs)
		if err != nil {
			t.Fatal(err)
		}
		if ms := flow.Check(nf, replay(t, c, nf, nil)); len(ms) > 0 {
			t.Errorf("%q after Update:\n%s\n%s", tc.src, nf.Format(), diffs(ms))
		}
	}
}
