package request

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
)

// Round is one round of a request as it went: what the server asked,
// and what was answered.
type Round struct {
	Number int
	// Legacy: a server-initiated request (elicitation/create,
	// sampling/createMessage, roots/list) before 2026-07-28, or the asks
	// of a -32042 error.
	Legacy bool
	// URLRequired: the asks came in a -32042 error, and the request went
	// again as it was once they were done.
	URLRequired bool
	// Method is a legacy round's request: elicitation/create,
	// sampling/createMessage or roots/list.
	Method string
	// Keys are the keys the server asked, in its order.
	Keys []string
	// Asks are the elicitations as received, and Answers what was
	// answered, by key.
	Asks    []client.Ask
	Answers map[string]*mcp.ElicitResult
	// Samples are the sampling requests' replies, by key (nil: none was
	// given).
	Samples map[string]*client.SamplingAnswer
	// Roots are the root URIs mcpcli sent, by key (roots/list).
	Roots map[string][]string
	// StateIn and StateOut are the sizes of the requestState received
	// with the asks and sent back with the answers; -1 for none.
	StateIn, StateOut int
	Asked, Answered   time.Time
	// Err is why the round went unanswered, or failed.
	Err error
}

// Call is one request as it went.
type Call struct {
	ID     int
	Rounds []Round
	// Task is the task the request ran as, as last heard of; nil when it
	// ran as none.
	Task *client.TaskStatus
	// Result is the result as the server sent it (the same bytes, not a
	// copy); nil until Finish is told of one.
	Result json.RawMessage
	Err    error
}

// Recorder keeps, for each request of a session (by its client.WithCall
// number), every round as it happens: the asks as received and the
// answers given, sampling replies, roots sent, -32042 rounds, the task,
// and how it ended. It sits between the client and whoever answers:
// Answerer and Sampler wrap theirs, Step and Task are the client's hooks.
//
// What it keeps is what the answers files, the saved scripts, the
// re-runs' starting answers, and the flow files of a recording are
// written from.
type Recorder struct {
	// Now is the clock (nil: time.Now).
	Now func() time.Time
	// Changed, when set, is told which request's record changed, after
	// each change (the recorder's lock is not held): a view shows it.
	Changed func(call int)

	mu     sync.Mutex
	calls  map[int]*Call
	order  []int                               // calls in the order first heard of
	starts map[int]map[string][]map[string]any // by call, by ask key: the answers a re-run starts from
}

func (r *Recorder) changed(call int) {
	if r.Changed != nil {
		r.Changed(call)
	}
}

func (r *Recorder) now() time.Time {
	if r.Now != nil {
		return r.Now()
	}
	return time.Now()
}

// call is the record of id, made on first use; r.mu is held.
func (r *Recorder) call(id int) *Call {
	if r.calls == nil {
		r.calls = map[int]*Call{}
	}
	c := r.calls[id]
	if c == nil {
		c = &Call{ID: id}
		r.calls[id] = c
		r.order = append(r.order, id)
	}
	return c
}

// round is call c's round number n (legacy or not), or nil.
func (c *Call) round(n int, legacy bool) *Round {
	for i := range c.Rounds {
		if c.Rounds[i].Number == n && c.Rounds[i].Legacy == legacy {
			return &c.Rounds[i]
		}
	}
	return nil
}

func (c *Call) add(rd Round) *Round {
	c.Rounds = append(c.Rounds, rd)
	return &c.Rounds[len(c.Rounds)-1]
}

// Step is client.Options.OnStep: the rounds as the loop sees them.
func (r *Recorder) Step(st client.Step) {
	if r.step(st) {
		r.changed(st.Call)
	}
}

func (r *Recorder) step(st client.Step) (changed bool) {
	now := r.now()
	r.mu.Lock()
	defer r.mu.Unlock()
	c := r.call(st.Call)
	switch st.Kind {
	case client.StepSend:
		rd := c.round(st.Round, false)
		if st.Round == 0 || rd == nil {
			return false
		}
		rd.StateOut = st.StateLen
		if st.RootsSent != nil {
			rd.Roots = st.RootsSent
		}
		if rd.Answered.IsZero() {
			rd.Answered = now
		}
	case client.StepInputRequired:
		rd := c.round(st.Round, false)
		if rd == nil {
			rd = c.add(Round{Number: st.Round, StateOut: -1})
		}
		rd.Keys, rd.StateIn, rd.Asked, rd.URLRequired = st.Asked, st.StateLen, now, st.URLRequired
	case client.StepRootsListed:
		c.add(Round{Number: st.Round, Legacy: true, Method: "roots/list", Keys: []string{"roots"},
			StateIn: -1, StateOut: -1, Asked: now, Answered: now, Roots: st.RootsSent})
	default:
		return false
	}
	return true
}

// Hook has o's step and task hooks record into r, before what they did.
func (r *Recorder) Hook(o *client.Options) {
	onStep, onTask := o.OnStep, o.OnTask
	o.OnStep = func(st client.Step) {
		r.Step(st)
		if onStep != nil {
			onStep(st)
		}
	}
	o.OnTask = func(st client.TaskStatus) {
		r.Task(st)
		if onTask != nil {
			onTask(st)
		}
	}
}

// Task is client.Options.OnTask.
func (r *Recorder) Task(st client.TaskStatus) {
	r.mu.Lock()
	r.call(st.Call).Task = &st
	r.mu.Unlock()
	r.changed(st.Call)
}

// Finish records how request call ended. It keeps res.Raw, the bytes as
// received (shared, not copied); a front end that bounds the memory its
// results take passes a nil res and keeps them itself.
func (r *Recorder) Finish(call int, res *client.Result, err error) {
	r.mu.Lock()
	c := r.call(call)
	c.Err = err
	if res != nil {
		c.Result = res.Raw
	}
	r.mu.Unlock()
	r.changed(call)
}

// Answerer wraps inner: each round it answers is recorded, and the forms
// of a re-run start from the answers given before (StartFrom).
func (r *Recorder) Answerer(inner client.Answerer) *Answering {
	return &Answering{Inner: inner, rec: r}
}

// Answering is an Answerer whose rounds a Recorder keeps.
type Answering struct {
	Inner client.Answerer
	rec   *Recorder
}

// Answer implements client.Answerer.
func (a *Answering) Answer(ctx context.Context, round client.Round) (map[string]*mcp.ElicitResult, error) {
	r := a.rec
	round = r.given(round)
	asked := r.now()
	out, err := a.Inner.Answer(ctx, round)
	r.answered(round, asked, out, err)
	r.changed(round.Call)
	return out, err
}

func (r *Recorder) answered(round client.Round, asked time.Time, out map[string]*mcp.ElicitResult, err error) {
	now := r.now()
	r.mu.Lock()
	defer r.mu.Unlock()
	c := r.call(round.Call)
	var rd *Round
	if round.URLRequired {
		// The round its -32042 step began.
		for i := range c.Rounds {
			if c.Rounds[i].URLRequired && c.Rounds[i].Number == round.Number {
				rd = &c.Rounds[i]
			}
		}
	} else {
		rd = c.round(round.Number, round.Legacy)
	}
	if rd == nil {
		rd = c.add(Round{Number: round.Number, Legacy: round.Legacy, StateIn: -1, StateOut: -1, Asked: asked})
		for _, a := range round.Asks {
			rd.Keys = append(rd.Keys, a.Key)
		}
		if round.Legacy && !round.URLRequired {
			rd.Method = "elicitation/create"
		}
	}
	rd.Asks = round.Asks
	rd.Answers = cloneAnswers(out)
	rd.Answered = now
	if err != nil {
		rd.Err = err
	}
}

func cloneAnswers(out map[string]*mcp.ElicitResult) map[string]*mcp.ElicitResult {
	if out == nil {
		return nil
	}
	c := make(map[string]*mcp.ElicitResult, len(out))
	for k, v := range out {
		if v != nil {
			v2 := *v
			v2.Content = maps.Clone(v.Content)
			v = &v2
		}
		c[k] = v
	}
	return c
}

// Sampler wraps inner: each sampling reply it gives (or declines) is
// recorded with its round.
func (r *Recorder) Sampler(inner client.Sampler) client.Sampler {
	return client.SamplerFunc(func(ctx context.Context, sr client.SamplingRound) (*client.SamplingAnswer, error) {
		asked := r.now()
		out, err := inner.Sample(ctx, sr)
		r.sampled(sr, asked, out, err)
		r.changed(sr.Call)
		return out, err
	})
}

func (r *Recorder) sampled(sr client.SamplingRound, asked time.Time, out *client.SamplingAnswer, err error) {
	now := r.now()
	r.mu.Lock()
	defer r.mu.Unlock()
	c := r.call(sr.Call)
	rd := c.round(sr.Number, sr.Legacy)
	if rd == nil {
		rd = c.add(Round{Number: sr.Number, Legacy: sr.Legacy, StateIn: -1, StateOut: -1, Asked: asked})
		if sr.Legacy {
			rd.Method = "sampling/createMessage"
		}
	}
	if !slices.Contains(rd.Keys, sr.Key) {
		rd.Keys = append(rd.Keys, sr.Key)
	}
	if rd.Samples == nil {
		rd.Samples = map[string]*client.SamplingAnswer{}
	}
	rd.Samples[sr.Key] = out
	rd.Answered = now
	if err != nil && rd.Err == nil {
		rd.Err = err
	}
}

// Call is request id as recorded so far (a copy: the recorder goes on).
func (r *Recorder) Call(id int) Call {
	r.mu.Lock()
	defer r.mu.Unlock()
	c, ok := r.calls[id]
	if !ok {
		return Call{ID: id}
	}
	out := *c
	out.Rounds = slices.Clone(c.Rounds)
	return out
}

// Rounds are request id's rounds so far.
func (r *Recorder) Rounds(id int) []Round { return r.Call(id).Rounds }

// Calls are the numbers of the requests recorded, in the order first
// heard of.
func (r *Recorder) Calls() []int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.order)
}

// StartFrom has the forms of request call (a re-run) start from the
// answers given in rounds (those of the request it repeats): the n-th
// time a key is asked, the n-th content accepted for it before.
func (r *Recorder) StartFrom(call int, rounds []Round) {
	byKey := map[string][]map[string]any{}
	for _, rd := range rounds {
		for _, a := range rd.Asks {
			if ans := rd.Answers[a.Key]; ans != nil && ans.Action == client.Accept && len(ans.Content) > 0 {
				byKey[a.Key] = append(byKey[a.Key], ans.Content)
			}
		}
	}
	if len(byKey) == 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.starts == nil {
		r.starts = map[int]map[string][]map[string]any{}
	}
	r.starts[call] = byKey
}

// given fills in the round's form asks with what their call starts from.
func (r *Recorder) given(round client.Round) client.Round {
	r.mu.Lock()
	defer r.mu.Unlock()
	byKey := r.starts[round.Call]
	if byKey == nil {
		return round
	}
	asks := slices.Clone(round.Asks)
	for i, a := range asks {
		if a.Mode() != "form" || len(byKey[a.Key]) == 0 {
			continue
		}
		asks[i].Given, byKey[a.Key] = byKey[a.Key][0], byKey[a.Key][1:]
	}
	round.Asks = asks
	return round
}

// Answered counts the answers given in every request so far: all of
// them, and those that accept an ask or reply to a sampling request
// (declines and cancels alone are nothing to send again).
func (r *Recorder) Answered() (n, accepted int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, c := range r.calls {
		for _, rd := range c.Rounds {
			for _, a := range rd.Answers {
				if a == nil {
					continue
				}
				n++
				if a.Action == client.Accept {
					accepted++
				}
			}
			for _, s := range rd.Samples {
				if s == nil {
					continue
				}
				n++
				if !s.Decline {
					accepted++
				}
			}
		}
	}
	return n, accepted
}

// Answers is the answers file (client.Script's format) of calls (every
// request recorded, when none is named): each key on a line, in the order
// first asked, with its one answer, or the list of them when it was asked
// in several rounds. secrets counts the values it holds of fields that look
// secret; whole is false when a round went unanswered (its answers so far
// are written all the same).
func (r *Recorder) Answers(calls ...int) (file []byte, secrets int, whole bool) {
	if len(calls) == 0 {
		calls = r.Calls()
	}
	var rounds []Round
	for _, id := range calls {
		rounds = append(rounds, r.Rounds(id)...)
	}
	return AnswersFile(rounds)
}

// AnswersFile is rounds' answers as an answers file (see
// Recorder.Answers); nil when no round was answered.
func AnswersFile(rounds []Round) (file []byte, secrets int, whole bool) {
	whole = true
	byKey := map[string][]any{}
	var order []string
	add := func(key string, v any) {
		if _, seen := byKey[key]; !seen {
			order = append(order, key)
		}
		byKey[key] = append(byKey[key], v)
	}
	for _, rd := range rounds {
		asked := map[string]bool{}
		for _, a := range rd.Asks {
			asked[a.Key] = true
			ans := rd.Answers[a.Key]
			if ans == nil {
				whole = false
				continue
			}
			add(a.Key, ans)
			if a.Form != nil && ans.Action == client.Accept {
				for _, f := range a.Form.Fields {
					if _, ok := ans.Content[f.Name]; ok && f.Secret {
						secrets++
					}
				}
			}
		}
		for _, k := range rd.Keys {
			sa, sampled := rd.Samples[k]
			_, rooted := rd.Roots[k]
			switch {
			case asked[k] || rooted:
			case !sampled || sa == nil:
				whole = false // asked, never answered
			case sa.Decline:
				add(k, map[string]string{"action": client.Decline})
			default:
				add(k, sa.Result)
			}
		}
		if len(rd.Keys) == 0 && len(rd.Asks) == 0 && rd.Err != nil {
			whole = false
		}
	}
	if len(order) == 0 {
		return nil, 0, whole
	}
	var b bytes.Buffer
	b.WriteString("{\n")
	for i, k := range order {
		key, _ := json.Marshal(k)
		var v any = byKey[k]
		if len(byKey[k]) == 1 {
			v = byKey[k][0]
		}
		val, _ := json.Marshal(v)
		b.WriteString("  ")
		b.Write(key)
		b.WriteString(": ")
		b.Write(val)
		if i+1 < len(order) {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("}\n")
	return b.Bytes(), secrets, whole
}
