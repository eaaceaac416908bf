package client

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/internal/plural"
	"github.com/mcpcli/mcpcli/schema"
)

// Script answers from an answers file:
//
//	{"KEY": Answer | [Answer, ...], "*": Answer | [...]}
//
// where an Answer is an ElicitResult ({"action": ..., "content": ...}) for
// an elicitation, and for a sampling request a CreateMessageResult
// ({"role": "assistant", "content": {...}, "model": ...}) or
// {"action": "decline"}.
//
// The exact key is tried first, then "*". A single answer answers every
// round; a list is consumed one entry per round in which the key is asked.
// Legacy server-initiated requests have no key: an elicitation matches
// "elicitation", a sampling request "sampling", then "*".
type Script struct {
	entries map[string]*scriptEntry

	// Notify, when set, is told about each answer given (for a status line).
	Notify func(a Ask, r *mcp.ElicitResult, key string)
	// NotifySample is told about each sampling answer given.
	NotifySample func(r SamplingRound, a *SamplingAnswer, key string)

	mu sync.Mutex
}

type scriptEntry struct {
	results []scriptAnswer
	list    bool
	used    int
}

// scriptAnswer is one answer of the file: an elicitation's, or a sampling
// reply.
type scriptAnswer struct {
	elicit *mcp.ElicitResult
	reply  *mcp.CreateMessageWithToolsResult
}

// ParseScript reads an answers file. name is used in error messages.
func ParseScript(r io.Reader, name string) (*Script, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("reading answers %s: %v", name, err)
	}
	data = bytes.TrimPrefix(data, []byte("\uFEFF")) // editors on Windows write one
	if !utf8.Valid(data) {
		at := 0
		for at < len(data) {
			r, n := utf8.DecodeRune(data[at:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			at += n
		}
		return nil, fmt.Errorf("answers %s is not valid UTF-8 (byte %d, line %d); save it as UTF-8", name, at, bytes.Count(data[:at], []byte("\n"))+1)
	}
	var top map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&top); err != nil {
		return nil, fmt.Errorf("answers %s is not a JSON object of KEY: {\"action\": ...}: %v", name, err)
	}
	if top == nil {
		return nil, fmt.Errorf("answers %s is null; write an object such as {\"*\": {\"action\": \"decline\"}}", name)
	}
	// What a JSON decoder lets pass silently (the last of two equal keys
	// wins, text after the object is ignored) would answer something other
	// than the file says.
	if _, err := schema.DecodeJSON(data); err != nil {
		return nil, fmt.Errorf("answers %s: %v", name, err)
	}
	s := &Script{entries: map[string]*scriptEntry{}}
	for key, raw := range top {
		e := &scriptEntry{}
		raw = bytes.TrimSpace(raw)
		if len(raw) > 0 && raw[0] == '[' {
			var list []json.RawMessage
			if err := json.Unmarshal(raw, &list); err != nil {
				return nil, fmt.Errorf("answers %s, key %q: %v", name, key, err)
			}
			if len(list) == 0 {
				return nil, fmt.Errorf("answers %s, key %q: the list is empty; give at least one answer", name, key)
			}
			e.list = true
			for i, item := range list {
				r, err := parseAnswer(item)
				if err != nil {
					return nil, fmt.Errorf("answers %s, key %q, entry %d: %v", name, key, i+1, err)
				}
				e.results = append(e.results, r)
			}
		} else {
			r, err := parseAnswer(raw)
			if err != nil {
				return nil, fmt.Errorf("answers %s, key %q: %v", name, key, err)
			}
			e.results = []scriptAnswer{r}
		}
		s.entries[key] = e
	}
	return s, nil
}

// parseAnswer reads one answer: an ElicitResult when it has "action", a
// sampling reply when it has "role", "content" or "model".
func parseAnswer(raw json.RawMessage) (scriptAnswer, error) {
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(raw, &probe); err != nil || probe == nil {
		return scriptAnswer{}, fmt.Errorf("want an object like {\"action\": \"accept\", \"content\": {...}}, or a sampling reply like {\"role\": \"assistant\", \"content\": {\"type\": \"text\", \"text\": \"...\"}, \"model\": \"...\"}")
	}
	_, action := probe["action"]
	_, role := probe["role"]
	_, model := probe["model"]
	if !action && (role || model) {
		r, err := parseReply(raw)
		return scriptAnswer{reply: r}, err
	}
	r, err := parseResult(raw)
	return scriptAnswer{elicit: r}, err
}

// parseReply reads a CreateMessageResult: role (assistant, the default),
// content (one block or a list) and model are what it has.
func parseReply(raw json.RawMessage) (*mcp.CreateMessageWithToolsResult, error) {
	var r struct {
		Meta       json.RawMessage `json:"_meta"`
		Role       *string         `json:"role"`
		Content    json.RawMessage `json:"content"`
		Model      *string         `json:"model"`
		StopReason string          `json:"stopReason"`
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		if field, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			return nil, fmt.Errorf("unknown field %s; a sampling reply has \"role\", \"content\", \"model\" and \"stopReason\"", field)
		}
		return nil, fmt.Errorf("a sampling reply is an object like {\"role\": \"assistant\", \"content\": {\"type\": \"text\", \"text\": \"...\"}, \"model\": \"...\"}: %v", err)
	}
	if r.Role != nil && *r.Role != "assistant" {
		return nil, fmt.Errorf("role %q: a sampling reply comes from the assistant", *r.Role)
	}
	if len(r.Content) == 0 || string(r.Content) == "null" {
		return nil, fmt.Errorf("\"content\" is missing; give the reply, such as {\"type\": \"text\", \"text\": \"...\"}")
	}
	if r.Model == nil || *r.Model == "" {
		return nil, fmt.Errorf("\"model\" is missing; name the model the reply stands for")
	}
	full := map[string]json.RawMessage{"role": json.RawMessage(`"assistant"`), "content": r.Content}
	b, _ := json.Marshal(full)
	var res mcp.CreateMessageWithToolsResult
	if err := json.Unmarshal(b, &res); err != nil {
		return nil, fmt.Errorf("\"content\": %v", err)
	}
	res.Model, res.StopReason = *r.Model, r.StopReason
	if res.StopReason == "" {
		res.StopReason = "endTurn"
	}
	return &res, nil
}

func parseResult(raw json.RawMessage) (*mcp.ElicitResult, error) {
	var r struct {
		Action  *string         `json:"action"`
		Content json.RawMessage `json:"content"`
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		if field, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			return nil, fmt.Errorf("unknown field %s; an answer has only \"action\" and \"content\"", field)
		}
		return nil, fmt.Errorf("want an object like {\"action\": \"accept\", \"content\": {...}}: %v", err)
	}
	if r.Action == nil {
		return nil, fmt.Errorf("\"action\" is missing; use accept, decline or cancel")
	}
	switch *r.Action {
	case Accept, Decline, Cancel:
	default:
		return nil, fmt.Errorf("action %q is not accept, decline or cancel", *r.Action)
	}
	res := &mcp.ElicitResult{Action: *r.Action}
	if len(r.Content) > 0 && string(r.Content) != "null" {
		if *r.Action != Accept {
			return nil, fmt.Errorf("%s carries no content; remove \"content\" or use accept", *r.Action)
		}
		if err := json.Unmarshal(r.Content, &res.Content); err != nil {
			return nil, fmt.Errorf("\"content\" must be an object of field: value")
		}
	}
	return res, nil
}

// Keys lists the keys the script answers, for messages.
func (s *Script) Keys() []string {
	keys := make([]string, 0, len(s.entries))
	for k := range s.entries {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Answer implements Answerer.
func (s *Script) Answer(ctx context.Context, r Round) (map[string]*mcp.ElicitResult, error) {
	out := make(map[string]*mcp.ElicitResult, len(r.Asks))
	for _, a := range r.Asks {
		ans, key, err := s.next(a.Key, r.Number, r.Legacy)
		if err != nil {
			return nil, err
		}
		if ans.elicit == nil {
			return nil, fmt.Errorf("answers for %q (round %d): key %q holds a sampling reply, but the server asked for an elicitation; give {\"action\": ...}", a.Key, r.Number, key)
		}
		res := ans.elicit
		if res.Action == Accept {
			if a.Mode() == "url" {
				if res.Content != nil {
					return nil, fmt.Errorf("answers for %q (round %d): a URL elicitation is accepted without content; remove \"content\"", a.Key, r.Number)
				}
			} else {
				if res.Content == nil {
					res.Content = map[string]any{}
				}
				if a.Form != nil && !a.Form.Renderable() {
					// Its content is not what is wrong: no content fits a
					// form that was refused.
					return nil, fmt.Errorf("answers for %q (round %d) cannot accept: mcpcli refused the form (%s); answer it with \"decline\" or \"cancel\"", a.Key, r.Number, problems(a.Form.Problems))
				}
				if err := checkContent(a, res.Content); err != nil {
					return nil, fmt.Errorf("answers for %q (round %d) do not fit what the server asked: %v", a.Key, r.Number, err)
				}
				if a.Form != nil {
					// What the file leaves out that has a default goes with
					// its default, on every protocol path.
					res.Content = a.Form.WithDefaults(res.Content)
				}
			}
		}
		if s.Notify != nil {
			s.Notify(a, res, key)
		}
		out[a.Key] = res
	}
	return out, nil
}

// Sample implements Sampler.
func (s *Script) Sample(ctx context.Context, r SamplingRound) (*SamplingAnswer, error) {
	ans, key, err := s.next(r.Key, r.Number, r.Legacy)
	if err != nil {
		return nil, err
	}
	var out *SamplingAnswer
	switch {
	case ans.reply != nil:
		out = &SamplingAnswer{Result: ans.reply}
	case ans.elicit.Action == Decline:
		out = &SamplingAnswer{Decline: true}
	default:
		return nil, fmt.Errorf("answers for %q (round %d): key %q holds {\"action\": %q}, but the server asked for a sampling reply; give {\"role\": \"assistant\", \"content\": {\"type\": \"text\", \"text\": \"...\"}, \"model\": \"...\"} or {\"action\": \"decline\"}",
			r.Key, r.Number, key, ans.elicit.Action)
	}
	if s.NotifySample != nil {
		s.NotifySample(r, out, key)
	}
	return out, nil
}

func (s *Script) next(askKey string, round int, legacy bool) (scriptAnswer, string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	keys := []string{askKey, "*"}
	if legacy && strings.HasPrefix(askKey, "elicitation-") {
		// The second and later URL asks of a -32042 error: "elicitation"
		// answers them all, unless the file names them one by one.
		keys = []string{askKey, "elicitation", "*"}
	}
	for _, key := range keys {
		e, ok := s.entries[key]
		if !ok {
			continue
		}
		if !e.list {
			return e.results[0].clone(), key, nil
		}
		if e.used >= len(e.results) {
			return scriptAnswer{}, key, fmt.Errorf("answers ran out for %q in round %d: key %q lists %d answer%s; add one more",
				askKey, round, key, len(e.results), plural.S(len(e.results)))
		}
		e.used++
		return e.results[e.used-1].clone(), key, nil
	}
	return scriptAnswer{}, "", fmt.Errorf("answers have nothing for %q (round %d): add %s %q key or a \"*\" key to the answers file (it has: %s)",
		askKey, round, article(askKey), askKey, strings.Join(quoteAll(s.Keys()), ", "))
}

func (a scriptAnswer) clone() scriptAnswer {
	if a.elicit == nil {
		c := *a.reply
		c.Content = append([]mcp.Content(nil), a.reply.Content...)
		return scriptAnswer{reply: &c}
	}
	return scriptAnswer{elicit: clone(a.elicit)}
}

func clone(r *mcp.ElicitResult) *mcp.ElicitResult {
	c := *r
	if r.Content != nil {
		c.Content = make(map[string]any, len(r.Content))
		for k, v := range r.Content {
			c.Content[k] = v
		}
	}
	return &c
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	if len(out) == 0 {
		return []string{"no keys"}
	}
	return out
}

// checkContent vets scripted content against the requested schema, as a
// form would: content that does not fit is never sent.
func checkContent(a Ask, content map[string]any) error {
	if a.Form == nil {
		return a.FormErr
	}
	typed, err := a.Form.FromContent(content)
	if err != nil {
		return err
	}
	return a.Form.Validate(typed)
}

// problems are why a form was refused, in one line.
func problems(ps []schema.Problem) string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.String()
	}
	return strings.Join(out, "; ")
}

// article is "an" before a key that starts with a vowel, else "a".
func article(key string) string {
	if key != "" && strings.ContainsRune("aeiouAEIOU", rune(key[0])) {
		return "an"
	}
	return "a"
}
