package client

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Recorder is an Answerer that keeps every answer its inner answerer gives,
// in order, so that they can be written as an answers file and sent again
// (Script reads it back).
type Recorder struct {
	Inner Answerer

	mu      sync.Mutex
	keys    []string
	answers map[string][]*mcp.ElicitResult
}

// Answer implements Answerer.
func (r *Recorder) Answer(ctx context.Context, round Round) (map[string]*mcp.ElicitResult, error) {
	out, err := r.Inner.Answer(ctx, round)
	if err != nil {
		return out, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.answers == nil {
		r.answers = map[string][]*mcp.ElicitResult{}
	}
	for _, a := range round.Asks {
		res := out[a.Key]
		if res == nil {
			continue
		}
		if _, seen := r.answers[a.Key]; !seen {
			r.keys = append(r.keys, a.Key)
		}
		r.answers[a.Key] = append(r.answers[a.Key], clone(res))
	}
	return out, nil
}

// Len is how many answers were given.
func (r *Recorder) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, rs := range r.answers {
		n += len(rs)
	}
	return n
}

// Accepted is how many of the answers given accept an ask: declines and
// cancels alone are nothing to send again.
func (r *Recorder) Accepted() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, rs := range r.answers {
		for _, a := range rs {
			if a.Action == Accept {
				n++
			}
		}
	}
	return n
}

// Script is the answers given as an answers file: each key in the order it
// was first asked, one answer, or a list of them when it was asked in
// several rounds.
func (r *Recorder) Script() []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	var b bytes.Buffer
	b.WriteString("{\n")
	for i, k := range r.keys {
		key, _ := json.Marshal(k)
		var v any = r.answers[k]
		if len(r.answers[k]) == 1 {
			v = r.answers[k][0]
		}
		val, _ := json.Marshal(v)
		var ind bytes.Buffer
		json.Indent(&ind, val, "  ", "  ")
		b.WriteString("  ")
		b.Write(key)
		b.WriteString(": ")
		b.Write(ind.Bytes())
		if i+1 < len(r.keys) {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("}\n")
	return b.Bytes()
}
