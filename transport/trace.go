package transport

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mcpcli/mcpcli/internal/textsafe"
)

// redactedHeaders are the headers whose values never reach a trace file.
var redactedHeaders = []string{"Authorization", "Cookie", "Set-Cookie", "Proxy-Authorization"}

// Tracer writes every event as one JSON line:
//
//	{"time":"…","dir":"send","msg":{…}}
//	{"time":"…","dir":"recv","http":{"status":200,"headers":{…}}}
type Tracer struct {
	// EscapeControls writes C1 controls, DEL and invisible format
	// characters (bidi overrides, zero-width) inside strings as \u escapes:
	// the same JSON, but inert on a terminal (--trace -). Off, a trace
	// keeps the server's bytes as sent.
	EscapeControls bool
	// RedactHeaders names more headers whose values never reach the
	// trace: every header the person gave (--header, a config file's
	// headers), whatever its name, since any of them may be a key.
	RedactHeaders []string

	mu  sync.Mutex
	w   io.Writer
	err error
}

// NewTracer returns a Tracer writing to w. Set EscapeControls when w may
// be a terminal.
func NewTracer(w io.Writer) *Tracer { return &Tracer{w: w} }

// Observe is the Tracer's Observer.
func (t *Tracer) Observe(ev Event) {
	if ev.HTTP == nil && len(ev.Msg) > 0 && json.Valid(ev.Msg) {
		t.message(ev)
		return
	}
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
		h.Header = Redact(h.Header, t.RedactHeaders...)
		line.HTTP = &h
	}
	// Not json.Marshal: it rewrites <, > and & (and U+2028, U+2029) in the
	// message as \u escapes, so the trace would no longer show the
	// server's strings as they were sent. Only insignificant whitespace is
	// dropped, to keep one message per line.
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(line); err != nil {
		return
	}
	out := b.Bytes()
	if t.EscapeControls {
		out = textsafe.EscapeJSON(out)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.err == nil {
		_, t.err = t.w.Write(out)
	}
}

// message writes a message event. The line is written around the
// message's own bytes, not built as a copy of it (a 100 MB result took
// twice its size more to trace), unless it has whitespace between its
// tokens, which is dropped as json.Compact drops it: one message a line.
func (t *Tracer) message(ev Event) {
	msg := []byte(ev.Msg)
	if !compacted(msg) {
		var b bytes.Buffer
		b.Grow(len(msg))
		if json.Compact(&b, msg) != nil {
			return
		}
		msg = b.Bytes()
	}
	if t.EscapeControls {
		msg = textsafe.EscapeJSON(msg)
	}
	head := fmt.Appendf(nil, `{"time":%q,"dir":%q,"msg":`, ev.Time.UTC().Format(time.RFC3339Nano), ev.Dir)
	parts := [][]byte{head, msg, []byte("}\n")}
	if len(msg) < 64<<10 {
		// One write a line, as other writers to the same stream (--trace -)
		// may write between two.
		parts = [][]byte{append(append(head, msg...), parts[2]...)}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, part := range parts {
		if t.err == nil {
			_, t.err = t.w.Write(part)
		}
	}
}

// compacted reports whether the valid JSON text b has no whitespace
// between its tokens (json.Compact would leave it as it is).
func compacted(b []byte) bool {
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			return false
		case '"':
			// Skip the string: find its closing quote, one an even
			// number of backslashes precedes.
			for j := i + 1; ; j++ {
				k := bytes.IndexByte(b[j:], '"')
				if k < 0 {
					return false
				}
				j += k
				n := 0
				for p := j - 1; p > i && b[p] == '\\'; p-- {
					n++
				}
				if n%2 == 0 {
					i = j
					break
				}
			}
		}
	}
	return true
}

// Err reports the first write error, if any.
func (t *Tracer) Err() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.err
}

// Redact returns a copy of h with credential-bearing values replaced:
// those of the usual credential headers, and of the headers named in more.
func Redact(h http.Header, more ...string) http.Header {
	out := h.Clone()
	if out == nil {
		out = http.Header{}
	}
	for k, vs := range out {
		if isRedacted(k) || slices.ContainsFunc(more, func(m string) bool { return strings.EqualFold(m, k) }) {
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
