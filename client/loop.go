package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/internal/jsonpeek"
	"github.com/mcpcli/mcpcli/schema"
	"github.com/mcpcli/mcpcli/transport"
)

// Result is the final answer to a request that may have taken rounds.
type Result struct {
	Method string // tools/call, prompts/get or resources/read
	Target string // the tool, prompt or resource
	// Raw is the result exactly as the server sent it; nil when the
	// transport did not show it.
	Raw json.RawMessage
	// Rounds is how many interim results came before it.
	Rounds int
	// top is what the wire read of Raw's members.
	top sentResult
	// One of these is set, by Method.
	Tool     *mcp.CallToolResult
	Prompt   *mcp.GetPromptResult
	Resource *mcp.ReadResourceResult
}

// IsError reports a tool result with isError set.
func (r *Result) IsError() bool { return r.Tool != nil && r.Tool.IsError }

// Kept is r as a front end keeps it for later (a session's results): its
// decoded forms left out (Raw holds them, and they took most of a small
// result's memory; IsError reads them, so Kept is not for printing), and
// its bytes copied out of the message the transport read them from. r
// itself when Raw is nil.
func (r *Result) Kept() *Result {
	if r == nil || r.Raw == nil {
		return r
	}
	return &Result{Method: r.Method, Target: r.Target, Rounds: r.Rounds, Raw: bytes.Clone(r.Raw)}
}

// interim is what the loop needs from one answer of the server.
type interim struct {
	needsInput bool
	requests   mcp.InputRequestMap
	state      string
}

// send issues the request once, with the answers and state of the previous
// round (none on the first).
type send func(ctx context.Context, meta mcp.Meta, responses mcp.InputResponseMap, state string) (interim, error)

// CallTool calls a tool, answering every round of input requests. When the
// server runs the call as a task, CallTool follows the task to its end.
func (s *Session) CallTool(ctx context.Context, name string, args map[string]any) (*Result, error) {
	if args == nil {
		args = map[string]any{}
	}
	out := &Result{Method: "tools/call", Target: name}
	// A 2025-11-25 tool that requires a task gets "task": {}; at
	// 2026-07-28 the server decides.
	raw := s.cachedTool(name)
	augment := !s.server.Modern() && TaskSupport(raw) == "required"
	if schema := jsonpeek.Get(raw, "inputSchema"); schema != nil {
		// Over HTTP, its x-mcp-header arguments are mirrored in headers,
		// whether the go-sdk listed it or it was kept from an earlier run.
		ctx = transport.WithToolSchema(ctx, schema)
	}
	err := s.loop(ctx, out, func(ctx context.Context, meta mcp.Meta, responses mcp.InputResponseMap, state string) (interim, error) {
		if augment {
			ctx = context.WithValue(ctx, augmentKey{}, true)
		}
		res, err := s.cs.CallTool(ctx, &mcp.CallToolParams{Meta: meta, Name: name, Arguments: args, InputResponses: responses, RequestState: state})
		if err != nil {
			return interim{}, err
		}
		out.Tool = res
		return interim{res.NeedsInput(), res.InputRequests, res.RequestState}, nil
	})
	if err != nil {
		if s.keptList() && staleRefusal(err) {
			// Prepared on a definition kept from an earlier run, and
			// refused as a changed tool would refuse it: the next
			// request reads the list again.
			s.forgetTools()
		}
		return nil, err
	}
	st, poll, ok := createdTask(out.Raw, out.top)
	if !ok && out.top.resultType == "task" {
		return nil, &ProtocolError{Server: s.server.Display(), Detail: fmt.Sprintf(
			"answered tools/call %q with resultType \"task\" but no taskId; the tasks extension requires one", name)}
	}
	if ok && (augment || !st.Legacy) {
		if err := s.runTask(ctx, out, st, poll); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// GetPrompt gets a prompt, answering every round of input requests.
func (s *Session) GetPrompt(ctx context.Context, name string, args map[string]string) (*Result, error) {
	out := &Result{Method: "prompts/get", Target: name}
	err := s.loop(ctx, out, func(ctx context.Context, meta mcp.Meta, responses mcp.InputResponseMap, state string) (interim, error) {
		res, err := s.cs.GetPrompt(ctx, &mcp.GetPromptParams{Meta: meta, Name: name, Arguments: args, InputResponses: responses, RequestState: state})
		if err != nil {
			return interim{}, err
		}
		out.Prompt = res
		return interim{res.NeedsInput(), res.InputRequests, res.RequestState}, nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ReadResource reads a resource, answering every round of input requests.
func (s *Session) ReadResource(ctx context.Context, uri string) (*Result, error) {
	out := &Result{Method: "resources/read", Target: uri}
	err := s.loop(ctx, out, func(ctx context.Context, meta mcp.Meta, responses mcp.InputResponseMap, state string) (interim, error) {
		res, err := s.cs.ReadResource(ctx, &mcp.ReadResourceParams{Meta: meta, URI: uri, InputResponses: responses, RequestState: state})
		if err != nil {
			return interim{}, err
		}
		out.Resource = res
		return interim{res.NeedsInput(), res.InputRequests, res.RequestState}, nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// loop is the multi round-trip loop shared by the three requests.
func (s *Session) loop(ctx context.Context, out *Result, do send) error {
	method, target := out.Method, out.Target
	call := callOf(ctx)
	if call == 0 {
		call = int(s.calls.Add(1))
	}
	fl := &inflight{call: call, method: method, target: target}
	var (
		responses mcp.InputResponseMap
		state     string
		rounds    int
		stateOnly int
	)
	for {
		meta := s.meta(fl) // one per request
		token, _ := meta["progressToken"].(string)
		s.step(Step{Kind: StepSend, Call: call, Method: method, Target: target, Round: rounds, Answers: actions(responses), RootsSent: rootsSent(responses), StateLen: stateLen(state), ProgressToken: token})
		var got interim
		ex := &exchange{}
		err := s.request(ctx, fl, func(ctx context.Context) error {
			var err error
			got, err = do(withExchange(ctx, ex), meta, responses, state)
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
		var je *jsonrpc.Error
		if errors.As(err, &je) && je.Code == mcp.CodeURLElicitationRequired {
			// 2025-11-25: the request cannot go on until the person has
			// been to the URLs in the error. They are asked as URL asks;
			// when every one is done, the request goes again.
			rounds++
			if rounds > s.opts.MaxRounds {
				return &RoundsError{Server: s.server.Display(), Rounds: s.opts.MaxRounds}
			}
			if err := s.urlRequired(ctx, out, je, rounds, call); err != nil {
				return err
			}
			continue
		}
		if err != nil {
			if what, ok := unsupportedInputRequest(err); ok {
				// The go-sdk cannot decode the interim result at all.
				return &ProtocolError{Server: s.server.Display(), Detail: fmt.Sprintf(
					"answered %s %q with an input request mcpcli cannot read (%s); input requests are elicitation/create, sampling/createMessage or roots/list, so this is a bug in the server",
					method, target, what)}
			}
			return err
		}
		raw, sent := ex.read()
		switch sent.resultType {
		case "", "complete", "input_required":
		case "task":
			if method != "tools/call" {
				// tasks extension: a task for a request it does not
				// support is an invalid response.
				return &ProtocolError{Server: s.server.Display(), Detail: fmt.Sprintf(
					"answered %s %q with a task; the tasks extension allows them only for tools/call", method, target)}
			}
		default:
			// basic/index, ResultType: a value the client does not
			// recognize MUST be considered invalid.
			return &ProtocolError{Server: s.server.Display(), Detail: fmt.Sprintf(
				"answered %s %q with resultType %q, which mcpcli does not know (it knows complete and input_required); the spec makes such a result invalid",
				method, target, sent.resultType)}
		}
		if !got.needsInput {
			out.Raw, out.Rounds, out.top = raw, rounds, sent
			if ex.isStubbed() {
				if err := decodeStubbed(out, raw, s.opts.RawOnly); err != nil {
					return &ProtocolError{Server: s.server.Display(), Detail: err.Error()}
				}
			}
			// Progress and logs that came before the result are shown
			// before it: the go-sdk hands them to their handlers apart.
			s.drain()
			s.step(Step{Kind: StepComplete, Call: call, Method: method, Target: target, Round: rounds})
			return nil
		}
		rounds++
		keys := sent.order(got.requests)
		s.step(Step{Kind: StepInputRequired, Call: call, Method: method, Target: target, Round: rounds, Asked: keys, StateLen: stateLen(got.state)})
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
		p, err := s.plan(keys, got.requests, sent.requests)
		if err != nil {
			return err
		}
		responses, err = s.answer(ctx, Round{Server: s.server, Call: call, Method: method, Target: target, Number: rounds}, p)
		if err != nil {
			return err
		}
		state = got.state
	}
}

// URLRequiredError is a request the server would not go on with until the
// person had been to a URL (-32042), which they did not do.
type URLRequiredError struct {
	Server string
	Method string
	Target string
	Action string // decline or cancel
	URL    string
}

func (e *URLRequiredError) Error() string {
	return fmt.Sprintf("server \"%s\" needs you to finish a step at %s before it answers %s %q (-32042); you answered %s, so the request was not sent again",
		e.Server, e.URL, e.Method, e.Target, e.Action)
}

// urlRequired asks the URL asks of a -32042 error, as one round.
func (s *Session) urlRequired(ctx context.Context, out *Result, je *jsonrpc.Error, number, call int) error {
	var data struct {
		Elicitations []json.RawMessage `json:"elicitations"`
	}
	if err := jsonpeek.Unmarshal(je.Data, &data); err != nil || len(data.Elicitations) == 0 {
		return &ProtocolError{Server: s.server.Display(), Detail: fmt.Sprintf(
			"answered %s %q with -32042 (URL elicitation required) but listed no elicitations to do; the spec requires at least one", out.Method, out.Target)}
	}
	round := Round{Server: s.server, Call: call, Method: out.Method, Target: out.Target, Number: number, Legacy: true, URLRequired: true}
	for i, raw := range data.Elicitations {
		var p mcp.ElicitParams
		if err := jsonpeek.Unmarshal(raw, &p); err != nil {
			return &ProtocolError{Server: s.server.Display(), Detail: fmt.Sprintf("sent a -32042 elicitation mcpcli cannot read: %v", err)}
		}
		key := "elicitation"
		if i > 0 {
			key = fmt.Sprintf("elicitation-%d", i+1)
		}
		a := NewAsk(key, &p, nil)
		if a.Mode() != "url" {
			return &ProtocolError{Server: s.server.Display(), Detail: fmt.Sprintf(
				"sent a -32042 error with a %s elicitation in it; the spec allows URL elicitations only", a.Mode())}
		}
		if err := s.checkAsk(a); err != nil {
			return err
		}
		round.Asks = append(round.Asks, a)
	}
	keys := make([]string, len(round.Asks))
	for i, a := range round.Asks {
		keys[i] = a.Key
	}
	s.step(Step{Kind: StepInputRequired, Call: call, Method: out.Method, Target: out.Target, Round: number, Asked: keys, StateLen: -1, URLRequired: true})
	if s.opts.Answerer == nil {
		return errors.New("the server asked for input, but mcpcli has no way to answer in this run")
	}
	answers, err := s.opts.Answerer.Answer(ctx, round)
	if err != nil {
		return err
	}
	for _, a := range round.Asks {
		if r := answers[a.Key]; r == nil || r.Action != Accept {
			action := Cancel
			if r != nil {
				action = r.Action
			}
			return &URLRequiredError{Server: s.server.Display(), Method: out.Method, Target: out.Target, Action: action, URL: a.Params.URL}
		}
	}
	return nil
}

// sentResult is what the session reads of a result in the server's own
// bytes, in one look at its members (the wire's, as the result arrives).
type sentResult struct {
	resultType string
	keys       []string          // inputRequests, in the server's order
	requests   map[string][]byte // and each one's raw JSON
	// task: it has a "task" member (a 2025-11-25 task handle).
	task bool
	// field is the member resultField names for the method, as written
	// (the last of them): a list's items, a completion.
	field []byte
}

// resultField names, for each method whose result the session reads a
// member of, that member.
var resultField = map[string]string{
	"tools/list":               "tools",
	"prompts/list":             "prompts",
	"resources/list":           "resources",
	"resources/templates/list": "resourceTemplates",
	"completion/complete":      "completion",
}

// peekResult reads the members of a result the session needs; field, when
// not "", names one more to keep.
func peekResult(raw json.RawMessage, field string) sentResult {
	var r sentResult
	if raw == nil {
		return r
	}
	_ = jsonpeek.Object(raw, func(k string, v []byte) bool {
		switch k {
		case "resultType":
			r.resultType, _ = jsonpeek.String(v)
		case "inputRequests":
			_ = jsonpeek.Object(v, func(key string, req []byte) bool {
				if r.requests == nil {
					r.requests = map[string][]byte{}
				}
				r.keys = append(r.keys, key)
				r.requests[key] = req
				return true
			})
		case "task":
			r.task = true
		}
		if field != "" && k == field {
			r.field = v
		}
		return true
	})
	return r
}

// order is the keys of reqs in the order the server wrote them; keys the
// bytes did not show (they always should) come after, sorted.
func (r sentResult) order(reqs mcp.InputRequestMap) []string {
	keys := make([]string, 0, len(reqs))
	for _, k := range r.keys {
		if _, ok := reqs[k]; ok && !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	if len(keys) < len(reqs) {
		for _, k := range slices.Sorted(maps.Keys(reqs)) {
			if !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
	}
	return keys
}

// schemaOf is the requestedSchema of one raw input request, as written.
func schemaOf(req []byte) json.RawMessage {
	if req == nil {
		return nil
	}
	return jsonpeek.Get(jsonpeek.Get(req, "params"), "requestedSchema")
}

// plan is what a round of input requests takes: elicitations for the
// Answerer, sampling requests for the Sampler, and what mcpcli answers
// by itself (roots).
type plan struct {
	asks    []Ask
	samples []SamplingRound
	auto    mcp.InputResponseMap
}

// plan sorts a round's input requests by who answers them, refusing what
// mcpcli did not declare.
func (s *Session) plan(keys []string, reqs mcp.InputRequestMap, raw map[string][]byte) (plan, error) {
	var p plan
	for _, k := range keys {
		switch r := reqs[k].(type) {
		case *mcp.ElicitParams:
			a := NewAsk(k, r, schemaOf(raw[k]))
			if err := s.checkAsk(a); err != nil {
				return p, err
			}
			p.asks = append(p.asks, a)
		case *mcp.CreateMessageParams, *mcp.CreateMessageWithToolsParams:
			if !s.Sampling() {
				return p, &UndeclaredError{Server: s.server.Display(), Key: k, Method: "sampling/createMessage", Capability: "sampling"}
			}
			p.samples = append(p.samples, SamplingRound{Key: k, Params: sampling(r), Raw: jsonpeek.Get(raw[k], "params")})
		case *mcp.ListRootsParams:
			roots := s.Roots()
			if len(roots) == 0 {
				return p, &UndeclaredError{Server: s.server.Display(), Key: k, Method: "roots/list", Capability: "roots"}
			}
			if p.auto == nil {
				p.auto = mcp.InputResponseMap{}
			}
			p.auto[k] = &mcp.ListRootsResult{Roots: roots}
		default:
			return p, &ProtocolError{Server: s.server.Display(), Detail: fmt.Sprintf(
				"sent an input request mcpcli does not know (key %q, %T)", k, r)}
		}
	}
	return p, nil
}

// answer answers a round's plan: the elicitations in one call of the
// Answerer, then each sampling request, in the server's order. r is the
// round without its asks.
func (s *Session) answer(ctx context.Context, r Round, p plan) (mcp.InputResponseMap, error) {
	responses := make(mcp.InputResponseMap, len(p.asks)+len(p.samples)+len(p.auto))
	for k, v := range p.auto {
		responses[k] = v
	}
	if len(p.asks) > 0 {
		if s.opts.Answerer == nil {
			return nil, errors.New("the server asked for input, but mcpcli has no way to answer in this run")
		}
		r.Asks = p.asks
		answers, err := s.opts.Answerer.Answer(ctx, r)
		if err != nil {
			return nil, err
		}
		for _, a := range p.asks {
			res := answers[a.Key]
			if res == nil {
				return nil, fmt.Errorf("no answer was given for %q in round %d", a.Key, r.Number)
			}
			if err := checkAnswer(a, res); err != nil {
				return nil, err
			}
			responses[a.Key] = res
		}
	}
	for _, sr := range p.samples {
		sr.Server, sr.Call, sr.Method, sr.Target, sr.Number = r.Server, r.Call, r.Method, r.Target, r.Number
		ans, err := s.opts.Sampler.Sample(ctx, sr)
		if err != nil {
			return nil, err
		}
		if err := checkSample(sr.Key, ans); err != nil {
			return nil, err
		}
		if ans.Decline {
			return nil, &DeclinedError{Server: s.server.Display(), Key: sr.Key}
		}
		responses[sr.Key] = ans.Result
	}
	return responses, nil
}

// checkAsk refuses an elicitation in a mode mcpcli did not declare.
func (s *Session) checkAsk(a Ask) error {
	m := s.opts.Modes
	switch mode := a.Mode(); {
	case mode == "form" && m.Form, mode == "url" && m.URL:
		return nil
	default:
		return &ModeError{Server: s.server.Display(), Key: a.Key, Mode: mode, Declared: m}
	}
}

// legacyRound starts a round of a legacy server's own request (an
// elicitation, a sampling request) made while mcpcli's request fl is in
// flight: its number among them, and a ctx that ends when fl does (Ctrl+C,
// its timeout), so that the person's answering ends with it, as on the
// 2026-07-28 path. done releases ctx.
func (s *Session) legacyRound(ctx context.Context) (_ context.Context, fl *inflight, number int, done func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fl = s.current
	if fl == nil {
		fl = &inflight{}
	}
	fl.legacyRounds++
	if fl.ctx == nil {
		return ctx, fl, fl.legacyRounds, func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(fl.ctx, cancel)
	return ctx, fl, fl.legacyRounds, func() { stop(); cancel() }
}

// answerLegacy serves a server-initiated elicitation/create (protocol
// versions before 2026-07-28) through the same Answerer.
func (s *Session) answerLegacy(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	la, _ := ctx.Value(legacyReached{}).(*legacyAnswer)
	if la != nil {
		la.reached = true
	}
	res, err := s.answerLegacyWith(ctx, req, "")
	if la != nil && res != nil {
		la.sent = &mcp.ElicitResult{Action: res.Action, Content: maps.Clone(res.Content)}
	}
	return res, err
}

// answerLegacyWith answers a legacy elicitation/create; refused, when set,
// is why the go-sdk would not take its form, shown to the person as a
// reason mcpcli cannot show it.
func (s *Session) answerLegacyWith(ctx context.Context, req *mcp.ElicitRequest, refused string) (*mcp.ElicitResult, error) {
	p := req.Params
	raw := s.wire.takeRequest("elicitation/create", func(params json.RawMessage) bool {
		var q struct {
			Message       string `json:"message"`
			Mode          string `json:"mode"`
			URL           string `json:"url"`
			ElicitationID string `json:"elicitationId"`
		}
		return jsonpeek.Unmarshal(params, &q) == nil && q.Message == p.Message && q.Mode == p.Mode && q.URL == p.URL && q.ElicitationID == p.ElicitationID
	})
	ctx, fl, number, done := s.legacyRound(ctx)
	defer done()
	round := Round{Server: s.server, Call: fl.call, Method: fl.method, Target: fl.target, Number: number, Legacy: true}
	ask := NewAsk("elicitation", p, jsonpeek.Get(raw, "requestedSchema"))
	if la, ok := ctx.Value(legacyReached{}).(*legacyAnswer); ok {
		la.ask = ask // to take back a default the go-sdk would add (keepLeftOut)
	}
	if refused != "" && ask.Form != nil && ask.Form.Renderable() {
		ask.Form.Problems = append(ask.Form.Problems, schema.Problem{Reason: refused})
	}
	if err := s.checkAsk(ask); err != nil {
		// The person learns of it from the run's error; the server gets
		// a JSON-RPC error meant for it.
		s.failLegacy(fl, err)
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("elicitation mode %q was not declared by the client (it declared %s)", ask.Mode(), s.opts.Modes)}
	}
	if s.opts.Answerer == nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the client has no way to answer elicitations in this run"}
	}
	round.Asks = []Ask{ask}
	fl.timer.pause()
	defer fl.timer.resume()
	answers, err := s.opts.Answerer.Answer(ctx, round)
	if err != nil {
		if errors.Is(err, ErrAbandoned) {
			s.mu.Lock()
			fl.abandoned = true
			s.mu.Unlock()
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the user abandoned the request"}
		}
		s.failLegacy(fl, &AnswerError{Key: ask.Key, Round: round.Number, Err: err})
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the client could not answer the elicitation"}
	}
	res := answers[ask.Key]
	if res == nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the client gave no answer to the elicitation"}
	}
	return res, nil
}

func (s *Session) failLegacy(fl *inflight, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if fl.answerErr == nil {
		fl.answerErr = err
	}
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
	// StepRootsListed: a server before 2026-07-28 asked for the roots
	// (a roots/list request) while the request Call was in flight, and
	// was sent RootsSent["roots"]; Round numbers it among that request's
	// legacy asks.
	StepRootsListed
)

type callKey struct{}

// WithCall returns ctx carrying id (above 0): the request made with it
// numbers its Steps and Rounds id, so that a caller running several at
// once knows which is which. A session's requests should all carry one, or
// none: without, the session numbers them itself, from 1.
func WithCall(ctx context.Context, id int) context.Context {
	return context.WithValue(ctx, callKey{}, id)
}

func callOf(ctx context.Context) int {
	id, _ := ctx.Value(callKey{}).(int)
	return id
}

// Step is one event of the loop, for showing the round trips.
type Step struct {
	Kind StepKind
	// Call tells apart the requests of one session (several may run at
	// once): each call of CallTool, GetPrompt or ReadResource has its own.
	Call   int
	Method string
	Target string
	// Round is the number of interim results so far.
	Round int
	// Asked are the keys the server asked (StepInputRequired), in its order.
	Asked []string
	// Answers maps each key sent back to its action (StepSend retries).
	Answers map[string]string
	// StateLen is the length of the requestState sent or received, or -1
	// when there is none.
	StateLen int
	// ProgressToken is the token the request sent (StepSend):
	// notifications/progress with it are this call's.
	ProgressToken string
	// URLRequired marks a StepInputRequired that came as a -32042 error:
	// URL asks to finish before the request is sent again as it was.
	URLRequired bool
	// RootsSent maps each roots/list key answered (StepSend retries,
	// StepRootsListed) to the root URIs sent.
	RootsSent map[string][]string
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
		switch r := r.(type) {
		case *mcp.ElicitResult:
			out[k] = r.Action
		case *mcp.ListRootsResult:
			out[k] = "roots"
		case *mcp.CreateMessageResult, *mcp.CreateMessageWithToolsResult:
			out[k] = "reply"
		}
	}
	return out
}

// rootsSent is the roots each roots/list key of rs was answered with.
func rootsSent(rs mcp.InputResponseMap) map[string][]string {
	var out map[string][]string
	for k, r := range rs {
		if rr, ok := r.(*mcp.ListRootsResult); ok {
			if out == nil {
				out = map[string][]string{}
			}
			uris := make([]string, 0, len(rr.Roots))
			for _, root := range rr.Roots {
				uris = append(uris, root.URI)
			}
			out[k] = uris
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
