package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// interim is what the loop needs from one answer of the server.
type interim struct {
	needsInput bool
	requests   mcp.InputRequestMap
	state      string
	resultType string // as the server sent it; "" when absent
}

// send issues the request once, with the answers and state of the previous
// round (none on the first).
type send func(ctx context.Context, meta mcp.Meta, responses mcp.InputResponseMap, state string) (interim, error)

// CallTool calls a tool, answering every round of input requests.
func (s *Session) CallTool(ctx context.Context, name string, args map[string]any) (*mcp.CallToolResult, error) {
	if args == nil {
		args = map[string]any{}
	}
	var res *mcp.CallToolResult
	err := s.loop(ctx, "tools/call", name, func(ctx context.Context, meta mcp.Meta, responses mcp.InputResponseMap, state string) (interim, error) {
		var err error
		res, err = s.cs.CallTool(ctx, &mcp.CallToolParams{Meta: meta, Name: name, Arguments: args, InputResponses: responses, RequestState: state})
		if err != nil {
			return interim{}, err
		}
		c := *res // resultType, without the content
		c.Content, c.StructuredContent, c.Meta = nil, nil, nil
		return interim{res.NeedsInput(), res.InputRequests, res.RequestState, resultTypeOf(&c)}, nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// GetPrompt gets a prompt, answering every round of input requests.
func (s *Session) GetPrompt(ctx context.Context, name string, args map[string]string) (*mcp.GetPromptResult, error) {
	var res *mcp.GetPromptResult
	err := s.loop(ctx, "prompts/get", name, func(ctx context.Context, meta mcp.Meta, responses mcp.InputResponseMap, state string) (interim, error) {
		var err error
		res, err = s.cs.GetPrompt(ctx, &mcp.GetPromptParams{Meta: meta, Name: name, Arguments: args, InputResponses: responses, RequestState: state})
		if err != nil {
			return interim{}, err
		}
		c := *res
		c.Messages, c.Meta = nil, nil
		return interim{res.NeedsInput(), res.InputRequests, res.RequestState, resultTypeOf(&c)}, nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// ReadResource reads a resource, answering every round of input requests.
func (s *Session) ReadResource(ctx context.Context, uri string) (*mcp.ReadResourceResult, error) {
	var res *mcp.ReadResourceResult
	err := s.loop(ctx, "resources/read", uri, func(ctx context.Context, meta mcp.Meta, responses mcp.InputResponseMap, state string) (interim, error) {
		var err error
		res, err = s.cs.ReadResource(ctx, &mcp.ReadResourceParams{Meta: meta, URI: uri, InputResponses: responses, RequestState: state})
		if err != nil {
			return interim{}, err
		}
		c := *res
		c.Contents, c.Meta = nil, nil
		return interim{res.NeedsInput(), res.InputRequests, res.RequestState, resultTypeOf(&c)}, nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// loop is the multi round-trip loop shared by the three requests.
func (s *Session) loop(ctx context.Context, method, target string, do send) error {
	fl := &inflight{method: method, target: target}
	var (
		responses mcp.InputResponseMap
		state     string
		rounds    int
		stateOnly int
	)
	for {
		s.step(Step{Kind: StepSend, Method: method, Target: target, Round: rounds, Answers: actions(responses), StateLen: stateLen(state)})
		var got interim
		err := s.request(ctx, fl, func(ctx context.Context) error {
			var err error
			got, err = do(ctx, s.meta(), responses, state)
			return err
		})
		s.mu.Lock()
		abandoned, answerErr := fl.abandoned, fl.answerErr
		s.mu.Unlock()
		if abandoned {
			return ErrAbandoned
		}
		if answerErr != nil {
			// A legacy server asked and mcpcli could not answer. Whatever
			// the server made of the error it got instead (a failure of
			// its own, or a result built without the answer), the run
			// did not go as asked, and the cause is mcpcli's to report.
			return answerErr
		}
		if err != nil {
			if i := strings.Index(err.Error(), "unsupported InputRequest method"); i >= 0 {
				// The go-sdk cannot decode the interim result at all.
				return &ProtocolError{Server: s.server.Display(), Detail: fmt.Sprintf(
					"answered %s %q with an input request mcpcli cannot read (%s); input requests are elicitation/create, sampling/createMessage or roots/list, so this is a bug in the server",
					method, target, err.Error()[i:])}
			}
			return err
		}
		switch got.resultType {
		case "", "complete", "input_required":
		default:
			// basic/index, ResultType: a value the client does not
			// recognize MUST be considered invalid.
			return &ProtocolError{Server: s.server.Display(), Detail: fmt.Sprintf(
				"answered %s %q with resultType %q, which mcpcli does not know (it knows complete and input_required); the spec makes such a result invalid",
				method, target, got.resultType)}
		}
		if !got.needsInput {
			s.step(Step{Kind: StepComplete, Method: method, Target: target, Round: rounds})
			return nil
		}
		rounds++
		s.step(Step{Kind: StepInputRequired, Method: method, Target: target, Round: rounds, Asked: slices.Sorted(maps.Keys(got.requests)), StateLen: stateLen(got.state)})
		if rounds > s.opts.MaxRounds {
			return &RoundsError{Server: s.server.Display(), Rounds: s.opts.MaxRounds}
		}
		if len(got.requests) == 0 {
			if got.state == "" {
				return &ProtocolError{Server: s.server.Display(), Detail: fmt.Sprintf(
					"answered %s %q with input_required but sent neither inputRequests nor requestState; the spec requires at least one", method, target)}
			}
			stateOnly++
			if stateOnly > MaxStateOnlyRounds {
				return &RoundsError{Server: s.server.Display(), Rounds: MaxStateOnlyRounds, StateOnly: true}
			}
			if err := sleep(ctx, s.backoff(stateOnly)); err != nil {
				return err
			}
			responses, state = nil, got.state
			continue
		}
		asks, err := s.asks(got.requests)
		if err != nil {
			return err
		}
		if s.opts.Answerer == nil {
			return errors.New("the server asked for input, but mcpcli has no way to answer in this run")
		}
		answers, err := s.opts.Answerer.Answer(ctx, Round{
			Server: s.server, Method: method, Target: target, Number: rounds, Asks: asks,
		})
		if err != nil {
			return err
		}
		responses = make(mcp.InputResponseMap, len(asks))
		for _, a := range asks {
			r := answers[a.Key]
			if r == nil {
				return fmt.Errorf("no answer was given for %q in round %d", a.Key, rounds)
			}
			if err := checkAnswer(a, r); err != nil {
				return err
			}
			responses[a.Key] = r
		}
		state = got.state
	}
}

// resultTypeOf reads the resultType a result arrived with, which the go-sdk
// keeps unexported: only its JSON form carries it.
func resultTypeOf(res any) string {
	b, err := json.Marshal(res)
	if err != nil {
		return ""
	}
	var rt struct {
		ResultType string `json:"resultType"`
	}
	_ = json.Unmarshal(b, &rt)
	return rt.ResultType
}

// asks turns a round's input requests into elicitations, refusing what
// mcpcli did not declare.
func (s *Session) asks(reqs mcp.InputRequestMap) ([]Ask, error) {
	keys := slices.Sorted(maps.Keys(reqs))
	asks := make([]Ask, 0, len(keys))
	for _, k := range keys {
		switch p := reqs[k].(type) {
		case *mcp.ElicitParams:
			if s.opts.Modes.none() {
				return nil, &ProtocolError{Server: s.server.Display(), Detail: fmt.Sprintf(
					"sent an elicitation (%q) although mcpcli declared no elicitation capability (--elicitation none); this is a bug in the server", k)}
			}
			a := Ask{Key: k, Params: p, Schema: s.opts.Schemas.Lookup(p.RequestedSchema)}
			if err := s.checkAsk(a); err != nil {
				return nil, err
			}
			asks = append(asks, a)
		case *mcp.CreateMessageParams, *mcp.CreateMessageWithToolsParams:
			return nil, &ProtocolError{Server: s.server.Display(), Detail: fmt.Sprintf(
				"asked for sampling (sampling/createMessage, key %q), which mcpcli never declares; this is a bug in the server", k)}
		case *mcp.ListRootsParams:
			return nil, &ProtocolError{Server: s.server.Display(), Detail: fmt.Sprintf(
				"asked for roots (roots/list, key %q), which mcpcli never declares; this is a bug in the server", k)}
		default:
			return nil, &ProtocolError{Server: s.server.Display(), Detail: fmt.Sprintf(
				"sent an input request mcpcli does not know (key %q, %T)", k, p)}
		}
	}
	return asks, nil
}

// checkAnswer guards the wire against an answerer's mistakes.
func checkAnswer(a Ask, r *mcp.ElicitResult) error {
	switch r.Action {
	case Accept:
		if a.Mode() == "url" && r.Content != nil {
			return fmt.Errorf("answer for %q: a URL elicitation is accepted without content", a.Key)
		}
	case Decline, Cancel:
		if r.Content != nil {
			return fmt.Errorf("answer for %q: %s carries no content", a.Key, r.Action)
		}
	default:
		return fmt.Errorf("answer for %q: action %q is not accept, decline or cancel", a.Key, r.Action)
	}
	return nil
}

func (s *Session) backoff(n int) time.Duration {
	if s.opts.Backoff != nil {
		return s.opts.Backoff(n)
	}
	if n <= 1 {
		return 0
	}
	return time.Duration(n-1) * 250 * time.Millisecond
}

func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// StepKind says what happened in a round trip.
type StepKind int

const (
	StepSend          StepKind = iota // a request went out (first or retry)
	StepInputRequired                 // the server answered input_required
	StepComplete                      // the final result arrived
)

// Step is one event of the loop, for showing the round trips.
type Step struct {
	Kind   StepKind
	Method string
	Target string
	// Round is the number of interim results so far.
	Round int
	// Asked are the keys the server asked (StepInputRequired).
	Asked []string
	// Answers maps each key sent back to its action (StepSend retries).
	Answers map[string]string
	// StateLen is the length of the requestState sent or received, or -1
	// when there is none.
	StateLen int
}

func (s *Session) step(st Step) {
	if s.opts.OnStep != nil {
		s.opts.OnStep(st)
	}
}

func actions(rs mcp.InputResponseMap) map[string]string {
	if rs == nil {
		return nil
	}
	out := make(map[string]string, len(rs))
	for k, r := range rs {
		if er, ok := r.(*mcp.ElicitResult); ok {
			out[k] = er.Action
		}
	}
	return out
}

func stateLen(s string) int {
	if s == "" {
		return -1
	}
	return len(s)
}
