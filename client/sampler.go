package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/internal/jsonpeek"
)

// Sampler answers a server's sampling requests (sampling/createMessage):
// in mcpcli a person reads the request and writes the model's reply, or
// declines. Setting Options.Sampler declares the sampling capability.
//
// It is apart from Answerer so that every answerer of elicitations keeps
// working unchanged; the answerers mcpcli builds implement both.
type Sampler interface {
	Sample(ctx context.Context, r SamplingRound) (*SamplingAnswer, error)
}

// SamplerFunc adapts a function to the Sampler interface.
type SamplerFunc func(ctx context.Context, r SamplingRound) (*SamplingAnswer, error)

// Sample calls f.
func (f SamplerFunc) Sample(ctx context.Context, r SamplingRound) (*SamplingAnswer, error) {
	return f(ctx, r)
}

// SamplingRound is one sampling request and who asks it, in which request.
type SamplingRound struct {
	Server Server
	// Call is the request's number in the session (as in Round).
	Call int
	// Method and Target are the request it came with (as in Round).
	Method string
	Target string
	// Number is the round of that request, from 1.
	Number int
	// Key is the input request's key; "sampling" for a legacy request.
	Key string
	// Legacy is true for a server-initiated sampling/createMessage
	// request (protocol versions before 2026-07-28).
	Legacy bool
	// Params is the request; Raw is its params as the server wrote them.
	Params *mcp.CreateMessageWithToolsParams
	Raw    json.RawMessage
}

// SamplingAnswer is a person's answer to a sampling request: a reply, or
// a refusal.
type SamplingAnswer struct {
	Decline bool
	Result  *mcp.CreateMessageWithToolsResult
}

// LegacySamplingKey is the answers-file key of a legacy sampling request.
const LegacySamplingKey = "sampling"

// DeclinedError is a sampling request the person declined, in a multi
// round-trip request: by the spec the client does not retry, so the
// request ends there.
type DeclinedError struct {
	Server string
	Key    string
}

func (e *DeclinedError) Error() string {
	return fmt.Sprintf("the sampling request %q of server \"%s\" was declined, so the request was not sent again", e.Key, e.Server)
}

// checkSample guards the wire against a sampler's mistakes.
func checkSample(key string, a *SamplingAnswer) error {
	switch {
	case a == nil:
		return fmt.Errorf("no answer was given for the sampling request %q", key)
	case a.Decline:
		if a.Result != nil {
			return fmt.Errorf("answer for %q: a declined sampling request carries no result", key)
		}
		return nil
	case a.Result == nil:
		return fmt.Errorf("answer for %q: a sampling answer is a reply or a decline", key)
	case a.Result.Role != "assistant":
		return fmt.Errorf("answer for %q: the reply's role is %q; a sampling reply comes from the assistant", key, a.Result.Role)
	case len(a.Result.Content) == 0:
		return fmt.Errorf("answer for %q: the reply has no content", key)
	case a.Result.Model == "":
		return fmt.Errorf("answer for %q: the reply names no model", key)
	}
	return nil
}

// sampling turns a sampling input request's params into the go-sdk's
// richer type (tools, array content).
func sampling(p mcp.InputRequest) *mcp.CreateMessageWithToolsParams {
	switch p := p.(type) {
	case *mcp.CreateMessageWithToolsParams:
		return p
	case *mcp.CreateMessageParams:
		msgs := make([]*mcp.SamplingMessageV2, 0, len(p.Messages))
		for _, m := range p.Messages {
			msgs = append(msgs, &mcp.SamplingMessageV2{Role: m.Role, Content: []mcp.Content{m.Content}})
		}
		return &mcp.CreateMessageWithToolsParams{Meta: p.Meta, IncludeContext: p.IncludeContext, MaxTokens: p.MaxTokens, Messages: msgs,
			Metadata: p.Metadata, ModelPreferences: p.ModelPreferences, StopSequences: p.StopSequences, SystemPrompt: p.SystemPrompt, Temperature: p.Temperature}
	}
	return nil
}

// sampleLegacy serves a server-initiated sampling/createMessage (protocol
// versions before 2026-07-28) through the Sampler.
func (s *Session) sampleLegacy(ctx context.Context, req *mcp.CreateMessageWithToolsRequest) (*mcp.CreateMessageWithToolsResult, error) {
	p := req.Params
	raw := s.wire.takeRequest("sampling/createMessage", func(params json.RawMessage) bool {
		var q struct {
			MaxTokens    int64  `json:"maxTokens"`
			SystemPrompt string `json:"systemPrompt"`
		}
		return jsonpeek.Unmarshal(params, &q) == nil && q.MaxTokens == p.MaxTokens && q.SystemPrompt == p.SystemPrompt
	})
	if !s.Sampling() {
		// Declared at initialize, turned off since: declined, as the
		// person would.
		s.warn(fmt.Sprintf("server \"%s\" sent a sampling request while sampling is off; it was declined", s.server.Display()))
		return nil, &jsonrpc.Error{Code: -1, Message: "User rejected sampling request"}
	}
	ctx, fl, number, done := s.legacyRound(ctx)
	defer done()
	round := SamplingRound{Server: s.server, Call: fl.call, Method: fl.method, Target: fl.target, Number: number, Key: LegacySamplingKey, Legacy: true, Params: p, Raw: raw}
	fl.timer.pause()
	defer fl.timer.resume()
	ans, err := s.opts.Sampler.Sample(ctx, round)
	if err == nil {
		err = checkSample(round.Key, ans)
	}
	if err != nil {
		if errors.Is(err, ErrAbandoned) {
			s.mu.Lock()
			fl.abandoned = true
			s.mu.Unlock()
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the user abandoned the request"}
		}
		s.failLegacy(fl, &AnswerError{Key: round.Key, Round: round.Number, Err: err})
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the client could not answer the sampling request"}
	}
	if ans.Decline {
		// 2025-11-25 client/sampling, Error Handling: the user rejected it.
		return nil, &jsonrpc.Error{Code: -1, Message: "User rejected sampling request"}
	}
	return ans.Result, nil
}
