package tui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"sort"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/internal/jsonpeek"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/request"
	"github.com/mcpcli/mcpcli/schema"
)

// Answerer answers rounds for the session: each round takes the terminal
// (Feed.Share) and is answered by Inner exactly as a one-shot command
// would (Feed.Hooks records it for the call's timeline).
type Answerer struct {
	Inner client.Answerer
	Feed  *Feed
}

// Answer implements client.Answerer.
func (a *Answerer) Answer(ctx context.Context, r client.Round) (map[string]*mcp.ElicitResult, error) {
	var (
		out map[string]*mcp.ElicitResult
		err error
	)
	cctx, stop, ended := a.Feed.whileConnected(ctx)
	defer stop()
	if serr := a.Feed.shareAsk(cctx, r.Call, roundWhat(r), func() { out, err = a.Inner.Answer(cctx, r) }); serr != nil {
		err = serr
	}
	return out, ended(err)
}

// roundWhat says in a few words what a round asks, for the line that
// says it waits: "asks: Publish release 3.0?", "round 2 asks 2 things:
// repo, team", "asks you to open a link".
func roundWhat(r client.Round) string {
	what := "asks"
	if r.Number > 1 && !r.Legacy {
		what = fmt.Sprintf("round %d asks", r.Number)
	}
	switch {
	case len(r.Asks) == 0:
		return what
	case len(r.Asks) > 1:
		keys := make([]string, len(r.Asks))
		for i, a := range r.Asks {
			keys[i] = render.Line(a.Key)
		}
		return fmt.Sprintf("%s %d things: %s", what, len(r.Asks), strings.Join(keys, ", "))
	case r.Asks[0].Mode() == "url":
		return what + " you to open a link"
	}
	a := r.Asks[0]
	if a.Params != nil && strings.TrimSpace(a.Params.Message) != "" {
		return what + ": " + render.Line(a.Params.Message)
	}
	return what + ": " + render.Line(a.Key)
}

// Sampler answers sampling requests for the session as Answerer answers
// asks: with the terminal lent to Inner (the one-shot sampling form).
type Sampler struct {
	Inner client.Sampler
	Feed  *Feed
}

// Sample implements client.Sampler.
func (s *Sampler) Sample(ctx context.Context, r client.SamplingRound) (*client.SamplingAnswer, error) {
	var (
		out *client.SamplingAnswer
		err error
	)
	cctx, stop, ended := s.Feed.whileConnected(ctx)
	defer stop()
	what := "asks for a model reply (sampling)"
	if r.Number > 1 {
		what = fmt.Sprintf("round %d %s", r.Number, what)
	}
	if serr := s.Feed.shareAsk(cctx, r.Call, what, func() { out, err = s.Inner.Sample(cctx, r) }); serr != nil {
		err = serr
	}
	return out, ended(err)
}

type callState int

const (
	stateRunning callState = iota
	stateDone
	stateFailed
	stateCancelled
)

// call is one request of the session, running or done: the History tab
// lists them, the call view shows one.
type call struct {
	id      int
	method  string // tools/call, prompts/get, resources/read
	target  string
	args    map[string]any // tool arguments; prompt arguments as strings
	state   callState
	started time.Time
	ended   time.Time
	cancel  context.CancelCauseFunc

	rounds   []request.Round // as recorded (Feed.rec), the last time it said
	progress *mcp.ProgressNotificationParams
	task     *client.TaskStatus // the task the call runs as, if it does
	result   *client.Result
	errText  string
	err      error  // stateFailed: the error as the client returned it (a flow file's expected error)
	lost     string // the connection ended (or was restarted) while it ran: said so
	view     *resultView
	rerunOf  int
	caps     *request.Caps // the roots and sampling it was sent with (nil: not known)
}

func (c *call) running() bool { return c.state == stateRunning }

func (c *call) took(now time.Time) time.Duration {
	end := c.ended
	if end.IsZero() {
		end = now
	}
	return end.Sub(c.started)
}

// label is "tool create_repo", "prompt notes", "read demo://x".
func (c *call) label() string {
	switch c.method {
	case "prompts/get":
		return "prompt " + render.Name(c.target)
	case "resources/read":
		return "read " + render.Line(c.target)
	}
	return render.Name(c.target)
}

// argText is the arguments as k=v, sanitized.
func argText(args map[string]any) string {
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, render.Line(k)+"="+valueText(args[k]))
	}
	return strings.Join(parts, " ")
}

func valueText(v any) string {
	if s, ok := v.(string); ok {
		return render.Line(s)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return render.Line(fmt.Sprint(v))
	}
	return render.Line(string(b))
}

// Messages of a call.

type callDoneMsg struct {
	id   int
	res  *client.Result
	err  error
	view *resultView
}

// request starts a request for the entry under the cursor: its arguments
// first when it takes some.
func (m *Model) request(jsonArgs bool) tea.Cmd {
	e := m.lists[m.tab].current()
	if e == nil {
		return nil
	}
	switch m.tab {
	case tabTools:
		return m.askTool(e.key, nil, jsonArgs, 0)
	case tabPrompts:
		return m.askPrompt(e.key, nil, 0)
	case tabResources:
		if t := m.template(e.key); t != nil && strings.HasPrefix(e.key, templateKey) {
			return m.readTemplate(t)
		}
		return m.start("resources/read", e.key, nil, 0)
	}
	return nil
}

// askTool opens the arguments form of a tool (starting from given), or
// calls it at once when it takes no arguments.
func (m *Model) askTool(name string, given map[string]any, jsonArgs bool, rerunOf int) tea.Cmd {
	t, raw := m.tool(name)
	if t == nil {
		m.setStatus(fmt.Sprintf("the server no longer lists tool %q", render.Line(name)), true)
		return nil
	}
	inputSchema := jsonpeek.Get(raw, "inputSchema")
	form, err := schema.ParseArguments(inputSchema)
	if jsonArgs || err != nil || !form.Renderable() {
		// The whole arguments object as one JSON field, validated
		// against the tool's inputSchema.
		form, err = schema.ParseArguments(jsonArgsSchema(inputSchema))
		if err != nil {
			m.setStatus("the tool's inputSchema cannot be read: "+render.Line(err.Error()), true)
			return nil
		}
		if given != nil {
			given = map[string]any{"arguments": given}
		}
		jsonArgs = true
	}
	if len(form.Fields) == 0 {
		if rerunOf == 0 {
			// Nothing to fill in, so no review: enter from the list
			// never calls it bare. y does.
			return m.confirmNoArgs(name)
		}
		return m.confirmThenStart("tools/call", name, map[string]any{}, rerunOf)
	}
	return m.askArgs(render.Arguments{
		Server: m.server, Method: "tools/call", Target: name, Description: t.Description, Form: form, Given: given,
	}, jsonArgs, rerunOf)
}

// jsonArgsSchema wraps an inputSchema as the one field "arguments".
func jsonArgsSchema(inputSchema json.RawMessage) json.RawMessage {
	if len(inputSchema) == 0 {
		inputSchema = json.RawMessage(`{"type":"object"}`)
	}
	return json.RawMessage(`{"type":"object","properties":{"arguments":` + string(inputSchema) + `},"required":["arguments"]}`)
}

// askArgs shows a tool's arguments form, with the terminal lent to it;
// unwrap takes the arguments out of the one JSON field they were asked in.
func (m *Model) askArgs(a render.Arguments, unwrap bool, rerunOf int) tea.Cmd {
	if m.o.Forms == nil {
		r := &request.Request{Method: a.Method, Target: a.Target, Args: map[string]any{}}
		maps.Copy(r.Args, a.Given)
		return func() tea.Msg { return preparedMsg{r: r, rerunOf: rerunOf} }
	}
	return m.prepare(rerunOf, func(ctx context.Context, p *request.Preparer) (*request.Request, error) {
		args, err := p.Form.AskArguments(ctx, a)
		if err != nil {
			return nil, err
		}
		if unwrap {
			obj, _ := args["arguments"].(map[string]any)
			args = obj
		}
		if args == nil {
			args = map[string]any{}
		}
		return &request.Request{Method: a.Method, Target: a.Target, Args: args}, nil
	})
}

// confirmThenStart asks before calling a destructive tool.
func (m *Model) confirmThenStart(method, target string, args map[string]any, rerunOf int) tea.Cmd {
	if t, _ := m.tool(target); t != nil && destructive(t) {
		m.confirm(fmt.Sprintf("%s is marked destructive: it may delete or overwrite things.", render.Line(target)),
			"Call it"+argSuffix(args)+"?",
			func() tea.Cmd { return m.start(method, target, args, rerunOf) },
			func() { m.setStatus("not called: nothing was sent", false) })
		return nil
	}
	return m.start(method, target, args, rerunOf)
}

// confirmNoArgs asks on the footer line before calling a tool that takes
// no arguments from the list (a destructive one, over the body).
func (m *Model) confirmNoArgs(name string) tea.Cmd {
	if t, _ := m.tool(name); t != nil && destructive(t) {
		return m.confirmThenStart("tools/call", name, map[string]any{}, 0)
	}
	m.confirm("", fmt.Sprintf("Call %s? It takes no arguments.", clip(render.Line(name), 32)),
		func() tea.Cmd { return m.start("tools/call", name, map[string]any{}, 0) },
		func() { m.setStatus("not called: nothing was sent", false) })
	return nil
}

func argSuffix(args map[string]any) string {
	if len(args) == 0 {
		return ""
	}
	return " with " + argText(args)
}

// start sends a request and shows its call view. A re-run's forms start
// from the answers given to the request it repeats.
func (m *Model) start(method, target string, args map[string]any, rerunOf int) tea.Cmd {
	if m.gone || m.reconnecting {
		m.setStatus(fmt.Sprintf("not sent: the server is not connected (R %ss it)", m.restartVerb()), true)
		return nil
	}
	id := len(m.calls) + 1
	if prev := m.byID[rerunOf]; prev != nil {
		m.feed.rec.StartFrom(id, m.feed.rec.Rounds(prev.id))
	}
	ctx, cancel := context.WithCancelCause(m.ctx)
	c := &call{id: id, method: method, target: target, args: args, started: m.o.Now(), cancel: cancel, rerunOf: rerunOf}
	if cp := m.caps(); cp != nil {
		c.caps = request.CapsOf(cp.Sampling(), cp.Roots())
	}
	m.calls = append(m.calls, c)
	m.byID[id] = c
	m.viewing = c
	m.running++
	m.setStatus("", false)
	cli := m.c
	r := &request.Request{Method: method, Target: target, Args: args}
	return func() tea.Msg {
		res, err := request.Send(ctx, cli, r, id)
		done := callDoneMsg{id: id, res: res, err: err}
		if err == nil {
			done.view = newResultView(res)
		}
		return done
	}
}

func (m *Model) callDone(msg callDoneMsg) tea.Cmd {
	c := m.byID[msg.id]
	if c == nil {
		return nil
	}
	c.ended = m.o.Now()
	c.cancel(nil)
	m.recorded(c.id)
	m.running--
	if strings.HasPrefix(m.status, fmt.Sprintf("cancelling #%d ", c.id)) {
		m.setStatus("", false)
	}
	switch {
	case msg.err == nil:
		c.state = stateDone
		m.keep(c, msg.res, msg.view)
		return m.layoutCmd(c)
	case c.lost != "":
		// Its own error is the connection's end (or the cancel that
		// came with it): said once, in words.
		c.state = stateFailed
		c.errText = c.lost
	case errors.Is(msg.err, context.Canceled) || errors.Is(msg.err, client.ErrAbandoned):
		c.state = stateCancelled
		if m.ctx.Err() == nil {
			c.errText = "cancelled: mcpcli told the server it no longer wants the answer"
			if errors.Is(msg.err, client.ErrAbandoned) {
				c.errText = "abandoned: you cancelled while answering"
			}
		}
	default:
		c.state = stateFailed
		c.err = msg.err
		c.errText = m.o.ErrorText(m.c.Explain(msg.err))
		if !m.gone && !m.reconnecting && unreachable(msg.err) {
			m.lostConnection(msg.err)
		}
	}
	return nil
}

// Why a request was cancelled, as the server reads it in
// notifications/cancelled.
var (
	errCancelledByUser = errors.New("the user cancelled the request in mcpcli's session")
	errSessionClosed   = errors.New("the user closed mcpcli's session")
	errConnectionLost  = errors.New("the connection to the server ended")
	errRestarting      = errors.New("the user restarted the server from mcpcli's session")
)

// cancelCall cancels a running call: the go-sdk sends
// notifications/cancelled, with the reason in words.
func (m *Model) cancelCall(c *call) {
	if c != nil && c.running() {
		c.cancel(errCancelledByUser)
		m.setStatus(fmt.Sprintf("cancelling #%d %s…", c.id, c.label()), false)
	}
}

// latestRunning is the call Ctrl+C cancels when none is on screen.
func (m *Model) latestRunning() *call {
	for i := len(m.calls) - 1; i >= 0; i-- {
		if m.calls[i].running() {
			return m.calls[i]
		}
	}
	return nil
}

// The round trips, as the client tells them.

// step notes the progress token a call sent: its progress is shown on it.
func (m *Model) step(ev stepEvent) {
	if c := m.byID[ev.st.Call]; c != nil && ev.st.Kind == client.StepSend && ev.st.ProgressToken != "" {
		m.tokens[ev.st.ProgressToken] = c.id
	}
}

// recorded takes call id's rounds and task as recorded now.
func (m *Model) recorded(id int) {
	c := m.byID[id]
	if c == nil {
		return
	}
	rec := m.feed.rec.Call(id)
	c.rounds, c.task = rec.Rounds, rec.Task
}

// roundErr is why a round went unanswered, in a few words.
func roundErr(r request.Round) string {
	switch {
	case r.Err == nil:
		return ""
	case errors.Is(r.Err, client.ErrAbandoned):
		return "abandoned"
	}
	return r.Err.Error()
}

func (m *Model) progress(ev progressEvent) {
	tok, _ := ev.p.ProgressToken.(string)
	if c := m.byID[m.tokens[tok]]; c != nil && c.running() {
		c.progress = ev.p
	}
}
