package flow_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/flow"
	"github.com/mcpcli/mcpcli/transport"
)

// switcher is the session's Answerer: each step plugs its own Tape in,
// as a runner does.
type switcher struct {
	mu  sync.Mutex
	cur client.Answerer
}

func (s *switcher) Answer(ctx context.Context, r client.Round) (map[string]*mcp.ElicitResult, error) {
	s.mu.Lock()
	a := s.cur
	s.mu.Unlock()
	return a.Answer(ctx, r)
}

func (s *switcher) set(a client.Answerer) {
	s.mu.Lock()
	s.cur = a
	s.mu.Unlock()
}

// conn is a client session to an in-process server.
type conn struct {
	s  *client.Session
	sw *switcher
}

func connect(t testing.TB, srv *mcp.Server) *conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	ct := transport.Wrap(&mcp.IOTransport{Reader: cr, Writer: cw}, "test server")
	ss, err := srv.Connect(ctx, &mcp.IOTransport{Reader: sr, Writer: sw}, nil)
	if err != nil {
		t.Fatalf("server Connect: %v", err)
	}
	t.Cleanup(func() { ss.Close() })
	ans := &switcher{}
	s, err := client.Connect(ctx, ct, client.Options{
		Modes:    client.Modes{Form: true, URL: true},
		Answerer: ans,
		Backoff:  func(int) time.Duration { return 0 },
	})
	if err != nil {
		t.Fatalf("client.Connect: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return &conn{s: s, sw: ans}
}

// do makes one step's request through tape and returns its Run.
func (c *conn) do(t testing.TB, tape *flow.Tape, req flow.Request) flow.Run {
	t.Helper()
	c.sw.set(tape)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var (
		res *client.Result
		err error
	)
	switch req.Kind {
	case flow.Call:
		var args map[string]any
		if req.Args != nil {
			if err := json.Unmarshal(req.Args, &args); err != nil {
				t.Fatalf("args %s: %v", req.Args, err)
			}
		}
		res, err = c.s.CallTool(ctx, req.Target, args)
	case flow.Prompt:
		var args map[string]string
		if req.Args != nil {
			if err := json.Unmarshal(req.Args, &args); err != nil {
				t.Fatalf("args %s: %v", req.Args, err)
			}
		}
		res, err = c.s.GetPrompt(ctx, req.Target, args)
	case flow.Read:
		res, err = c.s.ReadResource(ctx, req.Target)
	}
	return tape.Finish(res, err)
}

// replay runs every step of f on c, each with the file's answers.
func replay(t testing.TB, c *conn, f *flow.File, env flow.Env) []flow.Run {
	t.Helper()
	var runs []flow.Run
	for _, st := range f.Steps {
		runs = append(runs, c.do(t, st.Replay(env), st.Request))
	}
	return runs
}

// answerFunc answers every ask with a function of its key.
type answerFunc func(r client.Round, a client.Ask) *mcp.ElicitResult

func (f answerFunc) Answer(ctx context.Context, r client.Round) (map[string]*mcp.ElicitResult, error) {
	out := map[string]*mcp.ElicitResult{}
	for _, a := range r.Asks {
		out[a.Key] = f(r, a)
	}
	return out, nil
}

// variant is how the wizard server differs from its first version.
type variant struct {
	renameKey      bool // round 1 asks "setup" instead of "basics"
	dropRequired   bool // round 1's schema no longer requires "name"
	extraRound     bool // a third round asks to confirm
	typeChange     bool // "name" becomes an integer
	enumChange     bool // visibility gains "internal"
	declineMessage string
	renameField    bool // "name" becomes "title"
	urlMode        bool // round 1 is a URL ask
}

// wizard is a two-round server in the shape of the demo's create_repo,
// changed as v says.
func wizard(v variant) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "wizard", Version: "1"}, nil)
	srv.AddTool(&mcp.Tool{Name: "create", InputSchema: json.RawMessage(`{"type":"object","properties":{"owner":{"type":"string"}}}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			key1 := "basics"
			if v.renameKey {
				key1 = "setup"
			}
			nameField, nameType := "name", "string"
			if v.renameField {
				nameField = "title"
			}
			if v.typeChange {
				nameType = "integer"
			}
			required := fmt.Sprintf(`["%s","visibility"]`, nameField)
			if v.dropRequired {
				required = `["visibility"]`
			}
			vis := `["public","private"]`
			if v.enumChange {
				vis = `["public","private","internal"]`
			}
			step := req.Params.RequestState
			get := func(key string) *mcp.ElicitResult {
				r, _ := req.Params.InputResponses[key].(*mcp.ElicitResult)
				return r
			}
			switch step {
			case "":
				if v.urlMode {
					return &mcp.CallToolResult{RequestState: "1", InputRequests: mcp.InputRequestMap{
						key1: &mcp.ElicitParams{Mode: "url", Message: "Set it up in the browser.", URL: "https://example.com/setup"},
					}}, nil
				}
				return &mcp.CallToolResult{RequestState: "1", InputRequests: mcp.InputRequestMap{
					key1: &mcp.ElicitParams{Mode: "form", Message: "New repository (step 1 of 2).", RequestedSchema: json.RawMessage(fmt.Sprintf(
						`{"type":"object","properties":{"%s":{"type":"%s"},"visibility":{"type":"string","enum":%s}},"required":%s}`, nameField, nameType, vis, required))},
				}}, nil
			case "1":
				r := get(key1)
				if r == nil || r.Action != "accept" {
					msg := "Declined: nothing was created."
					if v.declineMessage != "" {
						msg = v.declineMessage
					}
					return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: msg}}}, nil
				}
				return &mcp.CallToolResult{RequestState: "2", InputRequests: mcp.InputRequestMap{
					"details": &mcp.ElicitParams{Mode: "form", Message: "Step 2 of 2: details.", RequestedSchema: json.RawMessage(
						`{"type":"object","properties":{"license":{"type":"string","enum":["MIT","Apache-2.0"]},"readme":{"type":"boolean"}},"required":["license"]}`)},
				}}, nil
			case "2":
				r := get("details")
				if r == nil || r.Action != "accept" {
					return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "Declined the details."}}}, nil
				}
				if v.extraRound {
					return &mcp.CallToolResult{RequestState: "3", InputRequests: mcp.InputRequestMap{
						"confirm": &mcp.ElicitParams{Mode: "form", Message: "Sure?", RequestedSchema: json.RawMessage(`{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"]}`)},
					}}, nil
				}
				return created(r), nil
			case "3":
				return created(get("confirm")), nil
			}
			return nil, fmt.Errorf("bad state %q", step)
		})
	return srv
}

func created(r *mcp.ElicitResult) *mcp.CallToolResult {
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: "Created the repository."}},
		StructuredContent: map[string]any{"created": true, "license": "MIT", "tags": []any{"a", "b"}},
	}
}
