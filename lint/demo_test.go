package lint_test

import (
	"context"
	"encoding/json"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/demoserver"
	"github.com/mcpcli/mcpcli/explore"
	"github.com/mcpcli/mcpcli/lint"
	"github.com/mcpcli/mcpcli/schema"
	"github.com/mcpcli/mcpcli/transport"
)

// acceptWithValues accepts every form with values that fit it (public
// for the wizard's visibility when public is set), and declines URL asks.
func acceptWithValues(t *testing.T, public bool) client.Answerer {
	return client.AnswererFunc(func(ctx context.Context, r client.Round) (map[string]*mcp.ElicitResult, error) {
		out := map[string]*mcp.ElicitResult{}
		for _, a := range r.Asks {
			if a.Mode() == "url" {
				out[a.Key] = &mcp.ElicitResult{Action: client.Decline}
				continue
			}
			content, err := explore.Values(a.Form)
			if err != nil {
				t.Errorf("Values for the demo's %q: %v", a.Key, err)
				out[a.Key] = &mcp.ElicitResult{Action: client.Cancel}
				continue
			}
			if public && a.Key == "basics" {
				content["visibility"] = "public"
			}
			out[a.Key] = &mcp.ElicitResult{Action: client.Accept, Content: content}
		}
		return out, nil
	})
}

// Every ask the demo server makes, on every tool, prompt and resource,
// both ways through the wizard, is clean.
func TestLintFindsNothingOnTheDemo(t *testing.T) {
	for _, public := range []bool{false, true} {
		d, err := demoserver.New(demoserver.Options{TaskStep: time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { d.Close() })
		l := lint.New(lint.Options{})
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		cr, sw := io.Pipe()
		sr, cw := io.Pipe()
		ct := transport.Wrap(&mcp.IOTransport{Reader: cr, Writer: cw}, "demo")
		ct.Observe(l.Observe)
		var stateMu sync.Mutex
		maxState := 0 // the largest requestState the demo sends
		ct.Observe(func(ev transport.Event) {
			var m struct {
				Result struct {
					RequestState string `json:"requestState"`
				} `json:"result"`
			}
			if ev.Dir == transport.Recv && json.Unmarshal(ev.Msg, &m) == nil {
				stateMu.Lock()
				maxState = max(maxState, len(m.Result.RequestState))
				stateMu.Unlock()
			}
		})
		ss, err := d.Server().Connect(ctx, &mcp.IOTransport{Reader: sr, Writer: sw}, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ss.Close() })
		s, err := client.Connect(ctx, ct, client.Options{
			Modes:    client.Modes{Form: true, URL: true},
			Answerer: acceptWithValues(t, public),
			Sampler: client.SamplerFunc(func(ctx context.Context, r client.SamplingRound) (*client.SamplingAnswer, error) {
				return &client.SamplingAnswer{Result: &mcp.CreateMessageWithToolsResult{Role: "assistant", Model: "test",
					Content: []mcp.Content{&mcp.TextContent{Text: "Version 2.0 is out."}}, StopReason: "endTurn"}}, nil
			}),
			Roots:   []*mcp.Root{{URI: "file:///tmp/project", Name: "project"}},
			Backoff: func(int) time.Duration { return 0 },
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		tools, err := s.ListTools(ctx)
		if err != nil {
			t.Fatal(err)
		}
		asked := 0
		for _, tool := range tools.Tools {
			raw, _ := json.Marshal(tool.InputSchema)
			form, err := schema.ParseArguments(raw)
			if err != nil {
				t.Fatalf("%s's input schema: %v", tool.Name, err)
			}
			args, err := explore.Values(form)
			if err != nil {
				t.Fatalf("arguments for %s: %v", tool.Name, err)
			}
			res, err := s.CallTool(ctx, tool.Name, args)
			if err != nil {
				t.Errorf("CallTool(%s) = %v", tool.Name, err)
				continue
			}
			asked += res.Rounds
		}
		prompts, err := s.ListPrompts(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range prompts.Prompts {
			args := map[string]string{}
			for _, a := range p.Arguments {
				args[a.Name] = "x"
			}
			res, err := s.GetPrompt(ctx, p.Name, args)
			if err != nil {
				t.Errorf("GetPrompt(%s) = %v", p.Name, err)
				continue
			}
			asked += res.Rounds
		}
		resources, err := s.ListResources(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range resources.Resources {
			res, err := s.ReadResource(ctx, r.URI)
			if err != nil {
				t.Errorf("ReadResource(%s) = %v", r.URI, err)
				continue
			}
			asked += res.Rounds
		}
		if asked < 10 {
			t.Errorf("the demo asked in %d rounds in all; the run does not reach its asks", asked)
		}
		stateMu.Lock()
		defer stateMu.Unlock()
		// DefaultMaxState's doc says the demo's state is under 300 bytes.
		t.Logf("the demo's largest requestState: %d bytes, over %d rounds", maxState, asked)
		if maxState == 0 || maxState >= 300 {
			t.Errorf("the demo's largest requestState is %d bytes; DefaultMaxState's doc says under 300", maxState)
		}
		if fs := l.Findings(); len(fs) > 0 {
			for _, f := range fs {
				t.Errorf("lint on the demo (public %v): %s %s: %s", public, f.Rule, f.Where, f.Message)
			}
		}
	}
}
