package flow

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/internal/lazy"
)

// Run is one step as it went live: each round's asks as the server sent
// them with the answers given, and how the request ended. A Run is what
// Check compares a step with, what Update takes expectations from, and
// what FromRecording writes.
type Run struct {
	Request
	Rounds []LiveRound
	// Result is the request's final result; nil when it ended in Err.
	Result *client.Result
	Err    error
}

// LiveRound is one round of asks as it came.
type LiveRound struct {
	Number int
	Asks   []LiveAsk
}

// LiveAsk is one ask as the server sent it, and the answer it got.
type LiveAsk struct {
	Key     string
	Mode    string // form or url
	Message string
	URL     string
	// Schema is requestedSchema in the server's own bytes (form mode).
	Schema json.RawMessage
	// Answer is the answer given, as a flow file writes it: a secret
	// field's value is an "$env:NAME" reference, never the secret. Its
	// Line is 0.
	Answer Answer
}

// Env looks a variable up, as os.LookupEnv does.
type Env func(name string) (string, bool)

// Tape is a client.Answerer that keeps every round it answers, for the
// Run of one step. It answers through another answerer (Record) or from a
// flow file's answers (Step.Replay). Plug it in as the session's
// Answerer for the step's request, then call Finish with what the
// request returned.
type Tape struct {
	req    Request
	answer func(ctx context.Context, r client.Round) (map[string]*mcp.ElicitResult, map[string]Answer, error)

	mu     sync.Mutex
	rounds []LiveRound
}

// Record is a Tape that answers through inner (a person's form, an
// answers file) and keeps what was asked and answered, for FromRecording.
// A field that looks like it holds a secret (schema.Field.Secret) is kept
// as an "$env:NAME" reference, never as what was typed.
func Record(req Request, inner client.Answerer) *Tape {
	return &Tape{req: req, answer: func(ctx context.Context, r client.Round) (map[string]*mcp.ElicitResult, map[string]Answer, error) {
		out, err := inner.Answer(ctx, r)
		if err != nil {
			return nil, nil, err
		}
		kept := map[string]Answer{}
		for _, a := range r.Asks {
			res := out[a.Key]
			if res == nil {
				continue
			}
			kept[a.Key] = recorded(a, res)
		}
		return out, kept, nil
	}}
}

// recorded is an answer given to a, as a flow file keeps it.
func recorded(a client.Ask, res *mcp.ElicitResult) Answer {
	ans := Answer{Key: a.Key, Action: res.Action}
	if res.Action != client.Accept || res.Content == nil {
		return ans
	}
	content := make(map[string]any, len(res.Content))
	for k, v := range res.Content {
		if s, ok := v.(string); ok && strings.HasPrefix(s, "$env:") {
			v = "$" + s // the literal text, not a reference
		}
		content[k] = v
	}
	if a.Form != nil {
		for _, f := range a.Form.Fields {
			if _, ok := content[f.Name]; ok && f.Secret {
				content[f.Name] = "$env:" + EnvName(a.Key, f.Name)
			}
		}
	}
	ans.Content = encodeObject(content, fieldOrder(a))
	return ans
}

// fieldOrder is the order the ask's form lists its fields in.
func fieldOrder(a client.Ask) []string {
	if a.Form == nil {
		return nil
	}
	names := make([]string, len(a.Form.Fields))
	for i, f := range a.Form.Fields {
		names[i] = f.Name
	}
	return names
}

var notEnvChar = lazy.Value[*regexp.Regexp]{New: func() *regexp.Regexp { return regexp.MustCompile(`[^A-Z0-9_]+`) }}

// EnvName is the variable a recording names for the secret field of an
// ask: MCPCLI_FLOW_KEY_FIELD, upper case.
func EnvName(key, field string) string {
	n := "MCPCLI_FLOW_" + strings.ToUpper(key) + "_" + strings.ToUpper(field)
	return strings.Trim(notEnvChar.Get().ReplaceAllString(n, "_"), "_")
}

// Replay is a Tape that answers each ask by its key from the step's
// answers: the answer the file gives for that key in the same round, or
// else in the nearest round before it, or else in any round. An ask the
// file has no answer for is cancelled (and Check reports it). "$env:NAME"
// values are read through env (os.LookupEnv when nil); one that is not set
// fails the round with an error that names it.
func (s *Step) Replay(env Env) *Tape {
	return &Tape{req: s.Request, answer: func(ctx context.Context, r client.Round) (map[string]*mcp.ElicitResult, map[string]Answer, error) {
		out := make(map[string]*mcp.ElicitResult, len(r.Asks))
		kept := make(map[string]Answer, len(r.Asks))
		for _, a := range r.Asks {
			ans := s.answerFor(r.Number, a.Key)
			if ans == nil {
				kept[a.Key] = Answer{Key: a.Key, Action: client.Cancel}
				out[a.Key] = &mcp.ElicitResult{Action: client.Cancel}
				continue
			}
			res, err := ans.resolve(env, a, r.Number)
			if err != nil {
				return nil, nil, err
			}
			kept[a.Key] = Answer{Key: a.Key, Action: ans.Action, Content: ans.Content}
			out[a.Key] = res
		}
		return out, kept, nil
	}}
}

func (s *Step) answerFor(round int, key string) *Answer {
	var before, after *Answer
	bn, an := 0, 0
	for _, r := range s.Rounds {
		for _, a := range r.Answers {
			switch {
			case a.Key != key:
			case r.Number == round:
				return a
			case r.Number < round && r.Number > bn:
				before, bn = a, r.Number
			case r.Number > round && (after == nil || r.Number < an):
				after, an = a, r.Number
			}
		}
	}
	if before != nil {
		return before
	}
	return after
}

func lookup(env Env, name string) (string, bool) {
	if env == nil {
		return os.LookupEnv(name)
	}
	return env(name)
}

// resolve is the answer as sent: its content with each "$env:NAME" read.
func (a *Answer) resolve(env Env, ask client.Ask, round int) (*mcp.ElicitResult, error) {
	res := &mcp.ElicitResult{Action: a.Action}
	if a.Action != client.Accept {
		return res, nil
	}
	if ask.Mode() == "url" {
		return res, nil // a URL ask is accepted without content
	}
	res.Content = map[string]any{}
	if a.Content == nil {
		return res, nil
	}
	if err := json.Unmarshal(a.Content, &res.Content); err != nil {
		return nil, fmt.Errorf("flow: the answer to %q (round %d, line %d) is not an object: %v", a.Key, round, a.Line, err)
	}
	for k, v := range res.Content {
		s, ok := v.(string)
		if !ok {
			continue
		}
		switch {
		case strings.HasPrefix(s, "$$env:"):
			res.Content[k] = s[1:]
		case strings.HasPrefix(s, "$env:"):
			name := s[len("$env:"):]
			val, ok := lookup(env, name)
			if !ok {
				return nil, &EnvError{Name: name, Key: a.Key, Round: round, Line: a.Line}
			}
			res.Content[k] = val
		}
	}
	return res, nil
}

// EnvError is an answer that takes a value from the environment, where
// it is not set.
type EnvError struct {
	Name  string // the variable
	Key   string // the ask answered
	Round int
	Line  int // the answer's line in the file
}

func (e *EnvError) Error() string {
	return fmt.Sprintf("flow: the answer to %q (round %d, line %d) takes %s from the environment, which is not set; set it (the file never holds the secret)", e.Key, e.Round, e.Line, e.Name)
}

// Kept is ask a as it came with the answer res it got, as a recording
// keeps it (Record's way: a secret field's value is an "$env:NAME"
// reference). A front end that recorded a round its own way (the
// session's request.Recorder) turns it into a LiveRound with it.
func Kept(a client.Ask, res *mcp.ElicitResult) LiveAsk {
	la := LiveAsk{Key: a.Key, Mode: a.Mode(), Schema: a.Schema}
	if a.Params != nil {
		la.Message, la.URL = a.Params.Message, a.Params.URL
	}
	la.Answer = Answer{Key: a.Key, Action: client.Cancel} // unanswered: a replay cancels it
	if res != nil {
		la.Answer = recorded(a, res)
	}
	return la
}

// Answer implements client.Answerer.
func (t *Tape) Answer(ctx context.Context, r client.Round) (map[string]*mcp.ElicitResult, error) {
	out, kept, err := t.answer(ctx, r)
	lr := LiveRound{Number: r.Number}
	for _, a := range r.Asks {
		la := LiveAsk{Key: a.Key, Mode: a.Mode(), Schema: a.Schema}
		if a.Params != nil {
			la.Message, la.URL = a.Params.Message, a.Params.URL
		}
		if ans, ok := kept[a.Key]; ok {
			la.Answer = ans
		}
		lr.Asks = append(lr.Asks, la)
	}
	t.mu.Lock()
	t.rounds = append(t.rounds, lr)
	t.mu.Unlock()
	return out, err
}

// Finish ends the step with what the request returned, and gives its Run.
func (t *Tape) Finish(res *client.Result, err error) Run {
	t.mu.Lock()
	defer t.mu.Unlock()
	rounds := append([]LiveRound(nil), t.rounds...)
	sort.SliceStable(rounds, func(i, j int) bool { return rounds[i].Number < rounds[j].Number })
	return Run{Request: t.req, Rounds: rounds, Result: res, Err: err}
}

// encodeObject writes m as a compact JSON object, its keys in order first
// (the rest sorted), as a flow file shows values.
func encodeObject(m map[string]any, order []string) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	n := 0
	write := func(k string) {
		v, ok := m[k]
		if !ok {
			return
		}
		if n > 0 {
			b.WriteString(", ")
		}
		n++
		b.WriteString(jsonText(k))
		b.WriteString(": ")
		b.WriteString(jsonText(v))
	}
	done := map[string]bool{}
	for _, k := range order {
		if !done[k] {
			done[k] = true
			write(k)
		}
	}
	rest := make([]string, 0, len(m))
	for k := range m {
		if !done[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	for _, k := range rest {
		write(k)
	}
	b.WriteByte('}')
	return b.Bytes()
}
