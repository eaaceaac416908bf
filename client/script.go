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

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Script answers from an answers file:
//
//	{"KEY": ElicitResult | [ElicitResult, ...], "*": ElicitResult | [...]}
//
// The exact key is tried first, then "*". A single result answers every
// round; a list is consumed one entry per round in which the key is asked.
// Legacy server-initiated elicitations have no key: they match
// "elicitation", then "*".
type Script struct {
	entries map[string]*scriptEntry

	// Notify, when set, is told about each answer given (for a status line).
	Notify func(a Ask, r *mcp.ElicitResult, key string)

	mu sync.Mutex
}

type scriptEntry struct {
	results []*mcp.ElicitResult
	list    bool
	used    int
}

// ParseScript reads an answers file. name is used in error messages.
func ParseScript(r io.Reader, name string) (*Script, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("reading answers %s: %v", name, err)
	}
	var top map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&top); err != nil {
		return nil, fmt.Errorf("answers %s is not a JSON object of KEY: {\"action\": ...}: %v", name, err)
	}
	if top == nil {
		return nil, fmt.Errorf("answers %s is null; write an object such as {\"*\": {\"action\": \"decline\"}}", name)
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
				r, err := parseResult(item)
				if err != nil {
					return nil, fmt.Errorf("answers %s, key %q, entry %d: %v", name, key, i+1, err)
				}
				e.results = append(e.results, r)
			}
		} else {
			r, err := parseResult(raw)
			if err != nil {
				return nil, fmt.Errorf("answers %s, key %q: %v", name, key, err)
			}
			e.results = []*mcp.ElicitResult{r}
		}
		s.entries[key] = e
	}
	return s, nil
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
		res, key, err := s.next(a, r)
		if err != nil {
			return nil, err
		}
		if res.Action == Accept {
			if a.Mode() == "url" {
				if res.Content != nil {
					return nil, fmt.Errorf("answers for %q (round %d): a URL elicitation is accepted without content; remove \"content\"", a.Key, r.Number)
				}
			} else {
				if res.Content == nil {
					res.Content = map[string]any{}
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

func (s *Script) next(a Ask, r Round) (*mcp.ElicitResult, string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	keys := []string{a.Key, "*"}
	if r.Legacy && strings.HasPrefix(a.Key, "elicitation-") {
		// The second and later URL asks of a -32042 error: "elicitation"
		// answers them all, unless the file names them one by one.
		keys = []string{a.Key, "elicitation", "*"}
	}
	for _, key := range keys {
		e, ok := s.entries[key]
		if !ok {
			continue
		}
		if !e.list {
			return clone(e.results[0]), key, nil
		}
		if e.used >= len(e.results) {
			return nil, key, fmt.Errorf("answers ran out for %q in round %d: key %q lists %d answer%s; add one more",
				a.Key, r.Number, key, len(e.results), plural(len(e.results)))
		}
		e.used++
		return clone(e.results[e.used-1]), key, nil
	}
	return nil, "", fmt.Errorf("answers have nothing for %q (round %d): add %s %q key or a \"*\" key to the answers file (it has: %s)",
		a.Key, r.Number, article(a.Key), a.Key, strings.Join(quoteAll(s.Keys()), ", "))
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

// article is "an" before a key that starts with a vowel, else "a".
func article(key string) string {
	if key != "" && strings.ContainsRune("aeiouAEIOU", rune(key[0])) {
		return "an"
	}
	return "a"
}
