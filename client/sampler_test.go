package client_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
)

// samplerOf answers every sampling request with reply (or declines, when
// reply is ""), and records the rounds.
type samplerOf struct {
	mu     sync.Mutex
	reply  string
	rounds []client.SamplingRound
}

func (s *samplerOf) Sample(ctx context.Context, r client.SamplingRound) (*client.SamplingAnswer, error) {
	s.mu.Lock()
	s.rounds = append(s.rounds, r)
	s.mu.Unlock()
	if s.reply == "" {
		return &client.SamplingAnswer{Decline: true}, nil
	}
	return &client.SamplingAnswer{Result: &mcp.CreateMessageWithToolsResult{Role: "assistant", Model: "m", Content: []mcp.Content{&mcp.TextContent{Text: s.reply}}}}, nil
}

var askSample = &mcp.CreateMessageParams{SystemPrompt: "be brief", MaxTokens: 9, Messages: []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: "hi?"}}}}

// samplingServer's tool "ask" needs a model reply: as an input request,
// or (legacy) as a sampling/createMessage request.
func samplingServer(legacy bool) *mcp.Server {
	srv := newServer()
	srv.AddTool(&mcp.Tool{Name: "ask", InputSchema: emptyObject}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var text string
		if legacy {
			res, err := req.Session.CreateMessage(ctx, askSample)
			if err != nil {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "refused: " + err.Error()}}}, nil
			}
			text = res.Content.(*mcp.TextContent).Text
		} else {
			if req.Params.InputResponses == nil {
				return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"llm": askSample}}, nil
			}
			r := req.Params.InputResponses["llm"].(*mcp.CreateMessageWithToolsResult)
			text = r.Content[0].(*mcp.TextContent).Text
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "the model said " + text}}}, nil
	})
	return srv
}

func TestSampling(t *testing.T) {
	for _, tc := range []struct {
		name, reply string
		legacy      bool
		want        string
		wantErr     error
	}{
		{name: "input request", reply: "hello", want: "the model said hello"},
		{name: "input request declined", wantErr: &client.DeclinedError{Server: "loop-test", Key: "llm"}},
		{name: "legacy request", legacy: true, reply: "hello", want: "the model said hello"},
		{name: "legacy request declined", legacy: true, want: `refused: calling "sampling/createMessage": User rejected sampling request`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sampler := &samplerOf{reply: tc.reply}
			opts := client.Options{Sampler: sampler}
			if tc.legacy {
				opts.ProtocolVersion = client.LegacyVersion
			}
			s, _ := connect(t, samplingServer(tc.legacy), opts)
			res, err := s.CallTool(context.Background(), "ask", nil)
			if tc.wantErr != nil {
				var de *client.DeclinedError
				if !errors.As(err, &de) || *de != *tc.wantErr.(*client.DeclinedError) {
					t.Fatalf("CallTool(ask) = %v, want %v", err, tc.wantErr)
				}
			} else {
				if err != nil {
					t.Fatalf("CallTool(ask) = %v", err)
				}
				if got := res.Tool.Content[0].(*mcp.TextContent).Text; !strings.HasPrefix(got, tc.want) {
					t.Errorf("CallTool(ask) = %q, want %q", got, tc.want)
				}
			}
			if len(sampler.rounds) != 1 {
				t.Fatalf("the sampler was asked %d times, want once", len(sampler.rounds))
			}
			r := sampler.rounds[0]
			wantKey := "llm"
			if tc.legacy {
				wantKey = client.LegacySamplingKey
			}
			if r.Key != wantKey || r.Legacy != tc.legacy || r.Method != "tools/call" || r.Target != "ask" || r.Number != 1 {
				t.Errorf("SamplingRound = key %q legacy %v %s %s round %d, want key %q legacy %v tools/call ask round 1", r.Key, r.Legacy, r.Method, r.Target, r.Number, wantKey, tc.legacy)
			}
			if r.Params == nil || r.Params.SystemPrompt != "be brief" || !strings.Contains(string(r.Raw), `"systemPrompt":"be brief"`) {
				t.Errorf("SamplingRound params %+v, raw %s: want the request as sent", r.Params, r.Raw)
			}
		})
	}
}

func TestUndeclaredLegacySamplingFailsTheCall(t *testing.T) {
	s, _ := connect(t, samplingServer(true), client.Options{ProtocolVersion: client.LegacyVersion})
	_, err := s.CallTool(context.Background(), "ask", nil)
	var ue *client.UndeclaredError
	if !errors.As(err, &ue) || ue.Capability != "sampling" || !ue.Legacy {
		t.Fatalf("CallTool(ask) without a Sampler = %v, want an *UndeclaredError for legacy sampling", err)
	}
}
