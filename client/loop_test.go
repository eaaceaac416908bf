package client_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/schema"
	"github.com/mcpcli/mcpcli/transport"
)

// callParams is tools/call params as they went over the wire.
type callParams struct {
	Name           string                     `json:"name"`
	Arguments      json.RawMessage            `json:"arguments"`
	InputResponses map[string]json.RawMessage `json:"inputResponses"`
	RequestState   *string                    `json:"requestState"`
}

func decodeCalls(t *testing.T, calls []rpc) []callParams {
	t.Helper()
	out := make([]callParams, len(calls))
	for i, c := range calls {
		if err := json.Unmarshal(c.Params, &out[i]); err != nil {
			t.Fatalf("tools/call params %s: %v", c.Params, err)
		}
	}
	return out
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// A state that is hard to echo by accident: escapes, unicode, JSON-looking.
const trickyState = "v1.{\"not\":\"json\"}/☃+é\t\\u0041==\u2028end"

func TestCallToolEchoesRequestStateExactly(t *testing.T) {
	srv := newServer()
	var seen []string
	var mu sync.Mutex
	srv.AddTool(&mcp.Tool{Name: "wizard", InputSchema: emptyObject}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		mu.Lock()
		seen = append(seen, req.Params.RequestState)
		mu.Unlock()
		switch req.Params.RequestState {
		case "":
			return &mcp.CallToolResult{RequestState: trickyState, InputRequests: mcp.InputRequestMap{
				"a": elicitForm("first"), "b": elicitForm("second"),
			}}, nil
		case trickyState:
			return &mcp.CallToolResult{RequestState: trickyState + "#2", InputRequests: mcp.InputRequestMap{"c": elicitForm("third")}}, nil
		case trickyState + "#2":
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil
		}
		return nil, fmt.Errorf("unexpected state %q", req.Params.RequestState)
	})
	ans := acceptAll(map[string]any{"ok": true})
	s, w := connect(t, srv, client.Options{Answerer: ans})
	res, err := s.CallTool(context.Background(), "wizard", map[string]any{"n": 1, "s": "x"})
	if err != nil {
		t.Fatalf("CallTool(wizard) = %v", err)
	}
	if got := res.Tool.Content[0].(*mcp.TextContent).Text; got != "done" {
		t.Errorf("CallTool(wizard) text = %q, want done", got)
	}
	calls := w.calls(t, "tools/call")
	if len(calls) != 3 {
		t.Fatalf("client sent %d tools/call requests, want 3", len(calls))
	}
	params := decodeCalls(t, calls)
	ids := map[string]bool{}
	for i, c := range calls {
		if ids[string(c.ID)] {
			t.Errorf("tools/call #%d reused id %s", i+1, c.ID)
		}
		ids[string(c.ID)] = true
		if string(params[i].Arguments) != string(params[0].Arguments) {
			t.Errorf("tools/call #%d arguments = %s, want the original %s", i+1, params[i].Arguments, params[0].Arguments)
		}
	}
	if params[0].RequestState != nil || params[0].InputResponses != nil {
		t.Errorf("first tools/call carries input state: %+v", params[0])
	}
	wantKeys := [][]string{nil, {"a", "b"}, {"c"}}
	wantState := []string{"", trickyState, trickyState + "#2"}
	for i := 1; i < 3; i++ {
		if got := keys(params[i].InputResponses); !reflect.DeepEqual(got, wantKeys[i]) {
			t.Errorf("retry %d inputResponses keys = %v, want %v", i, got, wantKeys[i])
		}
		if params[i].RequestState == nil || *params[i].RequestState != wantState[i] {
			t.Errorf("retry %d requestState = %v, want %q", i, params[i].RequestState, wantState[i])
		}
	}
	if len(ans.rounds) != 2 || len(ans.rounds[0].Asks) != 2 || ans.rounds[0].Asks[0].Key != "a" || ans.rounds[1].Number != 2 {
		t.Errorf("answerer saw rounds %+v; want round 1 with asks a, b then round 2", ans.rounds)
	}
	if ans.rounds[0].Server.Name != "loop-test" || ans.rounds[0].Method != "tools/call" || ans.rounds[0].Target != "wizard" {
		t.Errorf("round 1 = %+v, want server loop-test, tools/call wizard", ans.rounds[0])
	}
}

func TestCallToolSendsNoStateWhenNoneWasSent(t *testing.T) {
	srv := newServer()
	srv.AddTool(&mcp.Tool{Name: "confirm", InputSchema: emptyObject}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if req.Params.InputResponses == nil {
			return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"ok": elicitForm("sure?")}}, nil
		}
		r := req.Params.InputResponses["ok"].(*mcp.ElicitResult)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: r.Action}}}, nil
	})
	s, w := connect(t, srv, client.Options{Answerer: &scripted{answer: func(r client.Round) (map[string]*mcp.ElicitResult, error) {
		return map[string]*mcp.ElicitResult{"ok": {Action: client.Decline}}, nil
	}}})
	res, err := s.CallTool(context.Background(), "confirm", nil)
	if err != nil {
		t.Fatalf("CallTool(confirm) = %v", err)
	}
	if got := res.Tool.Content[0].(*mcp.TextContent).Text; got != "decline" {
		t.Errorf("server saw action %q, want decline", got)
	}
	calls := w.calls(t, "tools/call")
	if len(calls) != 2 {
		t.Fatalf("client sent %d tools/call, want 2", len(calls))
	}
	if strings.Contains(string(calls[1].Params), `"requestState"`) {
		t.Errorf("retry carries requestState though the server sent none: %s", calls[1].Params)
	}
	var p callParams
	json.Unmarshal(calls[1].Params, &p)
	if diff := cmp.Diff(`{"action":"decline"}`, string(p.InputResponses["ok"])); diff != "" {
		t.Errorf("retry inputResponses[ok] (-want +got):\n%s", diff)
	}
}

func TestLoopBounds(t *testing.T) {
	tests := []struct {
		name       string
		result     func() *mcp.CallToolResult
		maxRounds  int
		wantCalls  int
		wantErr    string
		stateOnly  bool
		wantWaits  []int
		asStateErr bool
	}{
		{
			name: "server never stops asking",
			result: func() *mcp.CallToolResult {
				return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"again": elicitForm("more")}}
			},
			maxRounds: 3, wantCalls: 4, wantErr: `server "loop-test" still asked for input after 3 rounds`,
		},
		{
			name: "only requestState, forever",
			result: func() *mcp.CallToolResult {
				return &mcp.CallToolResult{RequestState: "busy", InputRequests: mcp.InputRequestMap{}}
			},
			maxRounds: 10, wantCalls: 4, wantErr: "answered 3 times in a row with only requestState", wantWaits: []int{1, 2, 3},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer()
			srv.AddTool(&mcp.Tool{Name: "t", InputSchema: emptyObject}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return tt.result(), nil
			})
			var waits []int
			s, w := connect(t, srv, client.Options{
				Answerer:  acceptAll(map[string]any{}),
				MaxRounds: tt.maxRounds,
				Backoff:   func(n int) time.Duration { waits = append(waits, n); return 0 },
			})
			_, err := s.CallTool(context.Background(), "t", nil)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("CallTool(t) error = %v, want it to contain %q", err, tt.wantErr)
			}
			var re *client.RoundsError
			if !errors.As(err, &re) {
				t.Errorf("CallTool(t) error is %T, want *client.RoundsError", err)
			}
			if got := len(w.calls(t, "tools/call")); got != tt.wantCalls {
				t.Errorf("client sent %d tools/call, want %d", got, tt.wantCalls)
			}
			if tt.wantWaits != nil && !reflect.DeepEqual(waits, tt.wantWaits) {
				t.Errorf("backoff called with %v, want %v", waits, tt.wantWaits)
			}
		})
	}
}

func TestLoopRefusesWhatWasNotDeclared(t *testing.T) {
	tests := []struct {
		name    string
		modes   client.Modes
		ask     mcp.InputRequest
		wantErr string
	}{
		{"sampling", client.Modes{Form: true, URL: true},
			&mcp.CreateMessageParams{MaxTokens: 10, Messages: []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: "hi"}}}},
			`asked for sampling (sampling/createMessage, key "k"), which mcpcli did not declare`},
		{"roots", client.Modes{Form: true, URL: true}, &mcp.ListRootsParams{}, `asked for roots (roots/list, key "k"), which mcpcli did not declare`},
		{"url when only form declared", client.Modes{Form: true},
			&mcp.ElicitParams{Mode: "url", Message: "go", URL: "https://example.com/x", ElicitationID: "1"},
			`sent a URL elicitation ("k") although mcpcli declared only form elicitation`},
		{"form when only url declared", client.Modes{URL: true}, elicitForm("hi"),
			`sent a form elicitation ("k") although mcpcli declared only url elicitation`},
		{"unknown mode", client.Modes{Form: true, URL: true}, &mcp.ElicitParams{Mode: "telepathy", Message: "?"},
			`unknown mode "telepathy"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer()
			srv.AddTool(&mcp.Tool{Name: "t", InputSchema: emptyObject}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"k": tt.ask}}, nil
			})
			ans := acceptAll(map[string]any{})
			s, w := connect(t, srv, client.Options{Answerer: ans, Modes: tt.modes})
			_, err := s.CallTool(context.Background(), "t", nil)
			var me *client.ModeError
			var ue *client.UndeclaredError
			if !errors.As(err, &me) && !errors.As(err, &ue) || !strings.Contains(err.Error(), tt.wantErr) || !strings.Contains(err.Error(), "bug in the server") {
				t.Fatalf("CallTool(t) error = %v, want a ModeError or UndeclaredError containing %q and naming a server bug", err, tt.wantErr)
			}
			if got := len(w.calls(t, "tools/call")); got != 1 {
				t.Errorf("client sent %d tools/call, want 1 (no retry after a protocol error)", got)
			}
			if len(ans.rounds) != 0 {
				t.Errorf("answerer was asked %d times, want 0", len(ans.rounds))
			}
		})
	}
}

func TestLoopRefusesEmptyInterimResult(t *testing.T) {
	srv := newServer()
	srv.AddTool(&mcp.Tool{Name: "t", InputSchema: emptyObject}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{}}, nil
	})
	s, _ := connect(t, srv, client.Options{Answerer: acceptAll(nil)})
	_, err := s.CallTool(context.Background(), "t", nil)
	if err == nil || !strings.Contains(err.Error(), "neither inputRequests nor requestState") {
		t.Fatalf("CallTool(t) error = %v, want the neither-nor protocol error", err)
	}
}

func TestAbandonStopsWithoutRetry(t *testing.T) {
	srv := newServer()
	srv.AddTool(&mcp.Tool{Name: "t", InputSchema: emptyObject}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"k": elicitForm("?")}}, nil
	})
	s, w := connect(t, srv, client.Options{Answerer: &scripted{answer: func(client.Round) (map[string]*mcp.ElicitResult, error) {
		return nil, fmt.Errorf("person pressed ctrl+c twice: %w", client.ErrAbandoned)
	}}})
	_, err := s.CallTool(context.Background(), "t", nil)
	if !errors.Is(err, client.ErrAbandoned) {
		t.Fatalf("CallTool(t) error = %v, want ErrAbandoned", err)
	}
	if got := len(w.calls(t, "tools/call")); got != 1 {
		t.Errorf("client sent %d tools/call after abandoning, want 1", got)
	}
}

func TestAnswererMustAnswerEveryKey(t *testing.T) {
	srv := newServer()
	srv.AddTool(&mcp.Tool{Name: "t", InputSchema: emptyObject}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"a": elicitForm("?"), "b": elicitForm("?")}}, nil
	})
	s, w := connect(t, srv, client.Options{Answerer: &scripted{answer: func(client.Round) (map[string]*mcp.ElicitResult, error) {
		return map[string]*mcp.ElicitResult{"a": {Action: client.Cancel}}, nil
	}}})
	_, err := s.CallTool(context.Background(), "t", nil)
	if err == nil || !strings.Contains(err.Error(), `no answer was given for "b"`) {
		t.Fatalf("CallTool(t) error = %v, want one naming key b", err)
	}
	if got := len(w.calls(t, "tools/call")); got != 1 {
		t.Errorf("client sent %d tools/call, want 1", got)
	}
}

func TestPromptAndResourceRoundTrips(t *testing.T) {
	srv := newServer()
	srv.AddPrompt(&mcp.Prompt{Name: "p"}, func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		if req.Params.InputResponses == nil {
			return &mcp.GetPromptResult{RequestState: "p-state", InputRequests: mcp.InputRequestMap{"who": elicitForm("who?")}}, nil
		}
		if req.Params.RequestState != "p-state" {
			return nil, fmt.Errorf("bad state %q", req.Params.RequestState)
		}
		return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "for " + req.Params.Arguments["v"]}}}}, nil
	})
	srv.AddResource(&mcp.Resource{URI: "test://r", Name: "r"}, func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		if req.Params.InputResponses == nil {
			return &mcp.ReadResourceResult{InputRequests: mcp.InputRequestMap{"detail": elicitForm("how much?")}}, nil
		}
		act := req.Params.InputResponses["detail"].(*mcp.ElicitResult).Action
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, Text: act}}}, nil
	})
	ans := acceptAll(map[string]any{"ok": true})
	s, w := connect(t, srv, client.Options{Answerer: ans})
	pr, err := s.GetPrompt(context.Background(), "p", map[string]string{"v": "2.0"})
	if err != nil {
		t.Fatalf("GetPrompt(p) = %v", err)
	}
	if got := pr.Prompt.Messages[0].Content.(*mcp.TextContent).Text; got != "for 2.0" {
		t.Errorf("GetPrompt(p) text = %q, want %q", got, "for 2.0")
	}
	rr, err := s.ReadResource(context.Background(), "test://r")
	if err != nil {
		t.Fatalf("ReadResource(test://r) = %v", err)
	}
	if rr.Resource.Contents[0].Text != "accept" {
		t.Errorf("ReadResource(test://r) text = %q, want accept", rr.Resource.Contents[0].Text)
	}
	if n := len(w.calls(t, "prompts/get")); n != 2 {
		t.Errorf("prompts/get sent %d times, want 2", n)
	}
	if n := len(w.calls(t, "resources/read")); n != 2 {
		t.Errorf("resources/read sent %d times, want 2", n)
	}
	if got := []string{ans.rounds[0].Method, ans.rounds[1].Method}; !reflect.DeepEqual(got, []string{"prompts/get", "resources/read"}) {
		t.Errorf("rounds came from %v, want prompts/get then resources/read", got)
	}
}

func TestLegacyServerElicitsThroughTheSameAnswerer(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "old-server", Version: "0.9"}, &mcp.ServerOptions{SupportedProtocolVersions: []string{"2025-11-25"}})
	srv.AddTool(&mcp.Tool{Name: "legacy", InputSchema: emptyObject}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{
			Message:         "name?",
			RequestedSchema: json.RawMessage(`{"type":"object","properties":{"zeta":{"type":"string"},"alpha":{"type":"string"}}}`),
		})
		if err != nil {
			return nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: res.Action + " " + fmt.Sprint(res.Content["zeta"])}}}, nil
	})
	ans := acceptAll(map[string]any{"zeta": "z"})
	s, _ := connect(t, srv, client.Options{Answerer: ans})
	if s.Server().Modern() {
		t.Fatalf("Server().Protocol = %q, want a legacy version", s.Server().Protocol)
	}
	res, err := s.CallTool(context.Background(), "legacy", nil)
	if err != nil {
		t.Fatalf("CallTool(legacy) = %v", err)
	}
	if got := res.Tool.Content[0].(*mcp.TextContent).Text; got != "accept z" {
		t.Errorf("CallTool(legacy) = %q, want %q", got, "accept z")
	}
	if len(ans.rounds) != 1 || !ans.rounds[0].Legacy || ans.rounds[0].Asks[0].Key != "elicitation" || ans.rounds[0].Target != "legacy" {
		t.Fatalf("answerer saw %+v, want one legacy round for tool legacy with key elicitation", ans.rounds)
	}
	// The raw schema keeps the server's field order, zeta before alpha.
	if got := string(ans.rounds[0].Asks[0].Schema); strings.Index(got, "zeta") > strings.Index(got, "alpha") {
		t.Errorf("legacy ask schema = %s, want the server's order (zeta first)", got)
	}
}

func TestLegacyAnswerFailureIsReportedAsMcpclisOwn(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "old-server", Version: "0.9"}, &mcp.ServerOptions{SupportedProtocolVersions: []string{"2025-11-25"}})
	srv.AddTool(&mcp.Tool{Name: "legacy", InputSchema: emptyObject}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if _, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "name?", RequestedSchema: json.RawMessage(`{"type":"object","properties":{}}`)}); err != nil {
			return nil, fmt.Errorf("server-side wrapping: %w", err)
		}
		return &mcp.CallToolResult{}, nil
	})
	srv.AddTool(&mcp.Tool{Name: "shrug", InputSchema: emptyObject}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		// A server that carries on without the answer.
		req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "name?", RequestedSchema: json.RawMessage(`{"type":"object","properties":{}}`)})
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done anyway"}}}, nil
	})
	noAnswer := errors.New(`answers have nothing for "elicitation"`)
	ans := &scripted{answer: func(client.Round) (map[string]*mcp.ElicitResult, error) { return nil, noAnswer }}
	s, _ := connect(t, srv, client.Options{Answerer: ans})
	for _, tool := range []string{"legacy", "shrug"} {
		_, err := s.CallTool(context.Background(), tool, nil)
		if err == nil || err.Error() != noAnswer.Error() {
			t.Errorf("CallTool(%s) error = %v, want the answerer's own %q, not the server's account of it", tool, err, noAnswer)
		}
	}
}

func TestSchemaKeepsServerOrder(t *testing.T) {
	srv := newServer()
	srv.AddTool(&mcp.Tool{Name: "t", InputSchema: emptyObject}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if req.Params.InputResponses != nil {
			return &mcp.CallToolResult{Content: []mcp.Content{}}, nil
		}
		return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"f": &mcp.ElicitParams{Message: "m",
			RequestedSchema: json.RawMessage(`{"type":"object","properties":{"z":{"type":"string"},"m":{"type":"number"},"a":{"type":"boolean"}}}`)}}}, nil
	})
	ans := acceptAll(map[string]any{})
	s, _ := connect(t, srv, client.Options{Answerer: ans})
	if _, err := s.CallTool(context.Background(), "t", nil); err != nil {
		t.Fatalf("CallTool(t) = %v", err)
	}
	raw := string(ans.rounds[0].Asks[0].Schema)
	if !(strings.Index(raw, `"z"`) < strings.Index(raw, `"m"`) && strings.Index(raw, `"m"`) < strings.Index(raw, `"a"`)) {
		t.Errorf("Ask.Schema = %s, want properties in the server's order z, m, a", raw)
	}
}

func TestTimeoutDoesNotCountAnswering(t *testing.T) {
	srv := newServer()
	srv.AddTool(&mcp.Tool{Name: "t", InputSchema: emptyObject}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if req.Params.InputResponses == nil {
			return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"k": elicitForm("?")}}, nil
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil
	})
	slow := &scripted{answer: func(client.Round) (map[string]*mcp.ElicitResult, error) {
		time.Sleep(1500 * time.Millisecond) // a person thinking, longer than the timeout
		return map[string]*mcp.ElicitResult{"k": {Action: client.Accept, Content: map[string]any{}}}, nil
	}}
	s, _ := connect(t, srv, client.Options{Answerer: slow, Timeout: time.Second})
	if _, err := s.CallTool(context.Background(), "t", nil); err != nil {
		t.Fatalf("CallTool(t) with a slow answerer = %v, want success: answering must not count toward --timeout", err)
	}
}

func TestLegacyTimeoutPausesWhileAnswering(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "old", Version: "1"}, &mcp.ServerOptions{SupportedProtocolVersions: []string{"2025-11-25"}})
	srv.AddTool(&mcp.Tool{Name: "t", InputSchema: emptyObject}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res, err := req.Session.Elicit(ctx, elicitForm("?"))
		if err != nil {
			return nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: res.Action}}}, nil
	})
	slow := &scripted{answer: func(client.Round) (map[string]*mcp.ElicitResult, error) {
		time.Sleep(1500 * time.Millisecond)
		return map[string]*mcp.ElicitResult{"elicitation": {Action: client.Decline}}, nil
	}}
	s, _ := connect(t, srv, client.Options{Answerer: slow, Timeout: time.Second})
	res, err := s.CallTool(context.Background(), "t", nil)
	if err != nil {
		t.Fatalf("CallTool(t) = %v, want success: the legacy ask paused the timeout", err)
	}
	if got := res.Tool.Content[0].(*mcp.TextContent).Text; got != "decline" {
		t.Errorf("server saw %q, want decline", got)
	}
}

func TestTimeoutStopsASilentServer(t *testing.T) {
	srv := newServer()
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	srv.AddTool(&mcp.Tool{Name: "hang", InputSchema: emptyObject}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		select {
		case <-release:
		case <-ctx.Done():
		}
		return nil, ctx.Err()
	})
	s, _ := connect(t, srv, client.Options{Answerer: acceptAll(nil), Timeout: 200 * time.Millisecond})
	_, err := s.CallTool(context.Background(), "hang", nil)
	var te *client.TimeoutError
	if !errors.As(err, &te) || te.After != 200*time.Millisecond || !strings.Contains(err.Error(), "within 200ms") {
		t.Fatalf("CallTool(hang) error = %v, want a TimeoutError after 200ms", err)
	}
}

// Progress says the server is at work: each notification gives the request
// its whole timeout again.
func TestProgressResetsTheTimeout(t *testing.T) {
	srv := newServer()
	srv.AddTool(&mcp.Tool{Name: "slow", InputSchema: emptyObject}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		// 1.5 s in all, past the 1 s timeout; each gap a quarter of it,
		// so a loaded machine's late wake-ups stay well inside.
		for i := 0; i < 6; i++ {
			time.Sleep(250 * time.Millisecond)
			req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: req.Params.GetProgressToken(), Progress: float64(i)})
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil
	})
	s, _ := connect(t, srv, client.Options{Timeout: time.Second, OnProgress: func(*mcp.ProgressNotificationParams) {}})
	if _, err := s.CallTool(context.Background(), "slow", nil); err != nil {
		t.Fatalf("CallTool(slow), with progress every 250ms for 1.5s under a 1s timeout = %v, want the result", err)
	}
}

// Ending a request while the person answers a legacy server's own
// elicitation ends the answering too: nothing is sent for it afterwards.
func TestLegacyAnswerEndsWithItsRequest(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "old-server", Version: "0.9"}, &mcp.ServerOptions{SupportedProtocolVersions: []string{"2025-11-25"}})
	srv.AddTool(&mcp.Tool{Name: "ask", InputSchema: emptyObject}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		_, err := req.Session.Elicit(ctx, elicitForm("ok?"))
		return nil, err
	})
	asked := make(chan struct{})
	answerEnded := make(chan error, 1)
	s, w := connect(t, srv, client.Options{Answerer: client.AnswererFunc(func(ctx context.Context, r client.Round) (map[string]*mcp.ElicitResult, error) {
		close(asked)
		<-ctx.Done() // a person still typing
		answerEnded <- ctx.Err()
		return nil, ctx.Err()
	})})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { _, err := s.CallTool(ctx, "ask", nil); done <- err }()
	<-asked
	cancel() // Ctrl+C
	select {
	case err := <-answerEnded:
		if err == nil {
			t.Errorf("the answer's context ended without an error")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the answer went on after its request was cancelled")
	}
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("CallTool = %v, want context.Canceled", err)
	}
	for _, m := range w.msgs {
		if m.Dir == "send" && strings.Contains(string(m.Raw), `"action":"accept"`) {
			t.Errorf("an accept was sent after the cancel: %s", m.Raw)
		}
	}
}

// When mcpcli cannot answer a legacy server's elicitation, the server gets
// a real JSON-RPC error code and a message meant for it; the person gets
// mcpcli's own words.
func TestLegacyRefusalsUseRealErrorCodes(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "old-server", Version: "0.9"}, &mcp.ServerOptions{SupportedProtocolVersions: []string{"2025-11-25"}})
	got := make(chan *jsonrpc.Error, 1)
	srv.AddTool(&mcp.Tool{Name: "ask", InputSchema: emptyObject}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		_, err := req.Session.Elicit(ctx, elicitForm("ok?"))
		var je *jsonrpc.Error
		errors.As(err, &je)
		got <- je
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "went on without it"}}}, nil
	})
	mine := errors.New(`answers for "elicitation" (round 1) do not fit what the server asked: ok must be true or false`)
	s, _ := connect(t, srv, client.Options{Answerer: client.AnswererFunc(func(context.Context, client.Round) (map[string]*mcp.ElicitResult, error) {
		return nil, mine
	})})
	_, err := s.CallTool(context.Background(), "ask", nil)
	if !errors.Is(err, mine) {
		t.Errorf("CallTool = %v, want mcpcli's own %q", err, mine)
	}
	je := <-got
	if je == nil || je.Code != jsonrpc.CodeInternalError || strings.Contains(je.Message, "round 1") {
		t.Errorf("the server got %+v, want code %d and a message of its own", je, jsonrpc.CodeInternalError)
	}
}

// -32042: the URL asks in the error are asked as a round; when every one is
// accepted the request goes again as it was, with a new id.
func TestURLElicitationRequiredIsAskedThenSentAgain(t *testing.T) {
	for _, tc := range []struct {
		action  string
		wantErr bool
	}{{client.Accept, false}, {client.Decline, true}} {
		t.Run(tc.action, func(t *testing.T) {
			srv := newServer()
			var calls atomic.Int32
			srv.AddTool(&mcp.Tool{Name: "files", InputSchema: emptyObject}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				if calls.Add(1) == 1 {
					return nil, &jsonrpc.Error{Code: mcp.CodeURLElicitationRequired, Message: "This request requires more information.",
						Data: json.RawMessage(`{"elicitations":[{"mode":"url","elicitationId":"e1","url":"https://mcp.example.com/connect?id=e1","message":"Authorize access to your files."}]}`)}
				}
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "3 files"}}}, nil
			})
			ans := &scripted{answer: func(r client.Round) (map[string]*mcp.ElicitResult, error) {
				return map[string]*mcp.ElicitResult{"elicitation": {Action: tc.action}}, nil
			}}
			s, w := connect(t, srv, client.Options{Answerer: ans})
			res, err := s.CallTool(context.Background(), "files", nil)
			var ue *client.URLRequiredError
			if tc.wantErr != (err != nil) || tc.wantErr && !errors.As(err, &ue) {
				t.Fatalf("CallTool after %s = %v, %v", tc.action, res, err)
			}
			if len(ans.rounds) != 1 || ans.rounds[0].Asks[0].Params.URL != "https://mcp.example.com/connect?id=e1" || ans.rounds[0].Asks[0].Mode() != "url" {
				t.Fatalf("rounds asked: %+v", ans.rounds)
			}
			want := 2
			if tc.wantErr {
				want = 1
			}
			sent := w.calls(t, "tools/call")
			if len(sent) != want {
				t.Fatalf("%d tools/call sent, want %d", len(sent), want)
			}
			if want == 2 && string(sent[0].ID) == string(sent[1].ID) {
				t.Errorf("the request went again with the same id %s", sent[0].ID)
			}
		})
	}
}

// The asks of a round come in the order the server wrote them in
// inputRequests, not sorted by key.
func TestAsksComeInTheServersOrder(t *testing.T) {
	result := `{"resultType":"input_required","inputRequests":{` +
		`"zeta":{"method":"elicitation/create","params":{"message":"z","requestedSchema":{"type":"object","properties":{}}}},` +
		`"alpha":{"method":"elicitation/create","params":{"message":"a","requestedSchema":{"type":"object","properties":{}}}},` +
		`"mid":{"method":"elicitation/create","params":{"message":"m","requestedSchema":{"type":"object","properties":{}}}}}}`
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var order []string
	s, err := client.Connect(ctx, transport.Wrap(rawServer(t, func(string) string { return result }), "raw"), client.Options{
		Modes: client.Modes{Form: true}, MaxRounds: 1,
		Answerer: client.AnswererFunc(func(_ context.Context, r client.Round) (map[string]*mcp.ElicitResult, error) {
			out := map[string]*mcp.ElicitResult{}
			for _, a := range r.Asks {
				order = append(order, a.Key)
				out[a.Key] = &mcp.ElicitResult{Action: client.Decline}
			}
			return out, nil
		})})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.CallTool(ctx, "t", nil) // the raw server asks for ever: the bound stops it
	if diff := cmp.Diff([]string{"zeta", "alpha", "mid"}, order); diff != "" {
		t.Errorf("asks order (-want +got):\n%s", diff)
	}
}

// --timeout bounds listing too: a server that never answers a list is
// given up on, not waited for for ever.
func TestTimeoutBoundsListing(t *testing.T) {
	srv := newServer()
	srv.AddTool(&mcp.Tool{Name: "t", InputSchema: emptyObject}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{}, nil
	})
	// Offered, so that mcpcli asks for them.
	srv.AddPrompt(&mcp.Prompt{Name: "p"}, func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return &mcp.GetPromptResult{}, nil
	})
	srv.AddResource(&mcp.Resource{URI: "x://r", Name: "r"}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{}, nil
	})
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if strings.HasSuffix(method, "/list") {
				select {
				case <-release:
				case <-ctx.Done():
				}
				return nil, ctx.Err()
			}
			return next(ctx, method, req)
		}
	})
	s, _ := connect(t, srv, client.Options{Timeout: 150 * time.Millisecond})
	for name, list := range map[string]func() error{
		"tools":     func() error { _, err := s.ListTools(context.Background()); return err },
		"prompts":   func() error { _, err := s.ListPrompts(context.Background()); return err },
		"resources": func() error { _, err := s.ListResources(context.Background()); return err },
	} {
		var te *client.TimeoutError
		if err := list(); !errors.As(err, &te) {
			t.Errorf("listing %s from a server that never answers = %v, want a TimeoutError", name, err)
		}
	}
}

// A final result past 1 MiB is decoded by mcpcli from the server's bytes
// (the go-sdk gets a stub): the Result is whole, with RawOnly too.
func TestBigResultsAreWhole(t *testing.T) {
	big := strings.Repeat("x", 3<<20)
	results := map[string]string{
		"tools/call":     `{"content":[{"type":"text","text":"` + big + `"},{"type":"image","data":"aGk=","mimeType":"image/png"}],"isError":true}`,
		"resources/read": `{"contents":[{"uri":"x://a","text":"` + big + `"}]}`,
		"prompts/get":    `{"messages":[{"role":"user","content":{"type":"text","text":"` + big + `"}}]}`,
	}
	for _, rawOnly := range []bool{false, true} {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		s, err := client.Connect(ctx, transport.Wrap(rawServer(t, func(m string) string { return results[m] }), "raw"), client.Options{RawOnly: rawOnly})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		res, err := s.CallTool(ctx, "t", nil)
		if err != nil {
			t.Fatalf("CallTool (RawOnly %v): %v", rawOnly, err)
		}
		if string(res.Raw) != results["tools/call"] || !res.IsError() {
			t.Errorf("CallTool (RawOnly %v): raw of %d bytes, isError %v; want the server's bytes and isError", rawOnly, len(res.Raw), res.IsError())
		}
		if !rawOnly {
			if len(res.Tool.Content) != 2 || res.Tool.Content[0].(*mcp.TextContent).Text != big || string(res.Tool.Content[1].(*mcp.ImageContent).Data) != "hi" {
				t.Errorf("CallTool: content not whole: %d blocks", len(res.Tool.Content))
			}
			r, err := s.ReadResource(ctx, "x://a")
			if err != nil || len(r.Resource.Contents) != 1 || r.Resource.Contents[0].Text != big {
				t.Errorf("ReadResource: %v, %+v", err, r)
			}
			p, err := s.GetPrompt(ctx, "p", nil)
			if err != nil || len(p.Prompt.Messages) != 1 || p.Prompt.Messages[0].Content.(*mcp.TextContent).Text != big {
				t.Errorf("GetPrompt: %v", err)
			}
		}
	}
}

// rawLegacyServer is a 2025-11-25 server written by hand, free to ask for
// forms the go-sdk's own server would not send: its tool "ask" sends
// elicitation/create with params, and returns the client's reply (result
// or error) as its text.
func rawLegacyServer(t *testing.T, params string) mcp.Transport {
	t.Helper()
	return rawLegacyServerAsking(t, "elicitation/create", params)
}

// rawLegacyServerAsking is rawLegacyServer sending a request of method.
func rawLegacyServerAsking(t *testing.T, method, params string) mcp.Transport {
	t.Helper()
	return pipeServer(t, func(sc *bufio.Scanner, sw io.Writer) {
		var callID json.RawMessage
		for sc.Scan() {
			var m struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
				Result json.RawMessage `json:"result"`
				Error  json.RawMessage `json:"error"`
			}
			if json.Unmarshal(sc.Bytes(), &m) != nil || m.ID == nil {
				continue
			}
			switch m.Method {
			case "initialize":
				fmt.Fprintf(sw, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"raw-legacy","version":"1"}}}`+"\n", m.ID)
			case "tools/list":
				fmt.Fprintf(sw, `{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"ask","inputSchema":{"type":"object"}}]}}`+"\n", m.ID)
			case "tools/call":
				callID = m.ID
				fmt.Fprintf(sw, `{"jsonrpc":"2.0","id":"e1","method":%q,"params":%s}`+"\n", method, params)
			case "":
				reply := m.Result
				if m.Error != nil {
					reply = m.Error
				}
				text, _ := json.Marshal(string(reply))
				fmt.Fprintf(sw, `{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":%s}]}}`+"\n", callID, text)
			default:
				fmt.Fprintf(sw, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"no"}}`+"\n", m.ID)
			}
		}
	})
}

// askLegacy calls rawLegacyServer's tool "ask", which sends params as a
// 2025-11-25 elicitation/create, answering it with answer; it returns the
// asks the answerer saw and the call's result.
func askLegacy(ctx context.Context, t *testing.T, params string, answer *mcp.ElicitResult) ([]client.Ask, *client.Result) {
	t.Helper()
	var seen []client.Ask
	s, err := client.Connect(ctx, transport.Wrap(rawLegacyServer(t, params), "raw"), client.Options{
		Modes: client.Modes{Form: true}, ProtocolVersion: "2025-11-25", PinProtocol: true,
		Answerer: client.AnswererFunc(func(_ context.Context, r client.Round) (map[string]*mcp.ElicitResult, error) {
			seen = append(seen, r.Asks...)
			return map[string]*mcp.ElicitResult{r.Asks[0].Key: answer}, nil
		}),
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	res, err := s.CallTool(ctx, "ask", nil)
	if err != nil {
		t.Fatalf("CallTool(ask) = %v", err)
	}
	return seen, res
}

// A legacy form the go-sdk refuses before mcpcli sees it (a nested object,
// enumNames that do not match enum) is still shown to the person, as a
// form mcpcli cannot show, with the reason; their decline or cancel is what
// the server gets, as on the 2026-07-28 path. Never a silent -32602.
func TestLegacyFormTheSDKRefusesIsShownNotHidden(t *testing.T) {
	for _, tc := range []struct {
		name, schema, reason string
	}{
		{"nested object", `{"type":"object","properties":{"addr":{"type":"object","properties":{"city":{"type":"string"}}}}}`, "addr"},
		{"enumNames mismatch", `{"type":"object","properties":{"c":{"type":"string","enum":["a","b"],"enumNames":["A"]}}}`, "enumNames"},
	} {
		for _, action := range []string{client.Decline, client.Cancel} {
			t.Run(tc.name+"/"+action, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				defer cancel()
				seen, res := askLegacy(ctx, t, `{"message":"Where?","requestedSchema":`+tc.schema+`}`, &mcp.ElicitResult{Action: action})
				if len(seen) != 1 || seen[0].Form == nil || seen[0].Form.Renderable() {
					t.Fatalf("the answerer saw %+v, want one ask whose form cannot be shown", seen)
				}
				if got := fmt.Sprint(seen[0].Form.Problems); !strings.Contains(got, tc.reason) {
					t.Errorf("the form's problems %s do not name %q", got, tc.reason)
				}
				if got, want := res.Tool.Content[0].(*mcp.TextContent).Text, `{"action":"`+action+`"}`; got != want {
					t.Errorf("the server got %s, want %s", got, want)
				}
			})
		}
	}
}

// A default mcpcli leaves out because it does not fit its field (outside
// its enum) is not sent on the 2025-11-25 path either, although the go-sdk
// applies every default to what an accepted answer omits; a default that
// fits still goes, as the review shows.
func TestLegacyDefaultLeftOutIsNotSent(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	schema := `{"type":"object","properties":{"c":{"type":"string","enum":["a","b"],"default":"zzz"},"n":{"type":"integer","default":3}}}`
	seen, res := askLegacy(ctx, t, `{"message":"Pick","requestedSchema":`+schema+`}`, &mcp.ElicitResult{Action: client.Accept, Content: map[string]any{}})
	if len(seen) != 1 || seen[0].Form.Field("c").DefaultProblem == "" {
		t.Fatalf("the answerer saw %+v, want c's default left out", seen)
	}
	if got, want := res.Tool.Content[0].(*mcp.TextContent).Text, `{"action":"accept","content":{"n":3}}`; got != want {
		t.Errorf("the server got %s, want %s", got, want)
	}
}

// SEP-1330's titled multi-select as the spec's example (and the go-sdk's
// own conformance server) writes it, with "type": "string" beside the
// items' anyOf, was refused by the go-sdk's check on the 2025-11-25 path
// before mcpcli saw it (issue 22); 2026-07-28 took it. It is answered
// now, and what the server gets is the person's choice.
func TestLegacyTitledMultiSelectWithItemsTypeIsAnswered(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	requested := `{"type":"object","properties":{"titledMulti":{"type":"array","minItems":1,"maxItems":3,"items":{"type":"string","anyOf":[{"const":"value1","title":"First Option"},{"const":"value2","title":"Second Option"},{"const":"value3","title":"Third Option"}]}}},"required":["titledMulti"]}`
	seen, res := askLegacy(ctx, t, `{"message":"Pick some","requestedSchema":`+requested+`}`, &mcp.ElicitResult{Action: client.Accept, Content: map[string]any{"titledMulti": []any{"value1", "value3"}}})
	if len(seen) != 1 || seen[0].Form == nil || !seen[0].Form.Renderable() {
		t.Fatalf("the answerer saw %+v, want one form it can show", seen)
	}
	f := seen[0].Form.Field("titledMulti")
	if f == nil || f.Kind != schema.MultiSelect || len(f.Options) != 3 || f.Options[1].Title != "Second Option" {
		t.Fatalf("the field is %+v; want a multi-select of three titled options", f)
	}
	if got, want := res.Tool.Content[0].(*mcp.TextContent).Text, `{"action":"accept","content":{"titledMulti":["value1","value3"]}}`; got != want {
		t.Errorf("the server got %s, want %s", got, want)
	}
}
