package transport

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
)

// redactedHeaders are the headers whose values never reach a trace file.
var redactedHeaders = []string{"Authorization", "Cookie", "Set-Cookie", "Proxy-Authorization"}

// Tracer writes every event as one JSON line:
//
//	{"time":"…","dir":"send","msg":{…}}
//	{"time":"…","dir":"recv","http":{"status":200,"headers":{…}}}
type Tracer struct {
	mu  sync.Mutex
	w   io.Writer
	err error
}

// NewTracer returns a Tracer writing to w.
func NewTracer(w io.Writer) *Tracer { return &Tracer{w: w} }

// Observe is the Tracer's Observer.
func (t *Tracer) Observe(ev Event) {
	line := struct {
		Time string          `json:"time"`
		Dir  Direction       `json:"dir"`
		Msg  json.RawMessage `json:"msg,omitempty"`
		HTTP *HTTPHeaders    `json:"http,omitempty"`
	}{Time: ev.Time.UTC().Format(time.RFC3339Nano), Dir: ev.Dir, HTTP: ev.HTTP}
	if len(ev.Msg) > 0 {
		if json.Valid(ev.Msg) {
			line.Msg = ev.Msg
		} else {
			// A peer sent something that is not JSON: keep it, as a string.
			b, _ := json.Marshal(string(ev.Msg))
			line.Msg = b
		}
	}
	if line.HTTP != nil {
		h := *line.HTTP
		h.Header = Redact(h.Header)
		line.HTTP = &h
	}
	b, err := json.Marshal(line)
	if err != nil {
		return
	}
	b = append(b, '\n')
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.err == nil {
		_, t.err = t.w.Write(b)
	}
}

// Err reports the first write error, if any.
func (t *Tracer) Err() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.err
}

// Redact returns a copy of h with credential-bearing values replaced.
func Redact(h http.Header) http.Header {
	out := h.Clone()
	if out == nil {
		out = http.Header{}
	}
	for k, vs := range out {
		if isRedacted(k) {
			red := make([]string, len(vs))
			for i := range vs {
				red[i] = "[redacted]"
			}
			out[k] = red
		}
	}
	return out
}

func isRedacted(name string) bool {
	for _, r := range redactedHeaders {
		if strings.EqualFold(name, r) {
			return true
		}
	}
	return false
}
