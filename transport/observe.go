// Package transport turns what the user gives (a command to start, or a
// Streamable HTTP URL) into go-sdk transports, supervises the server process,
// and lets observers see every JSON-RPC message exactly as it crossed the wire.
package transport

import (
	"bytes"
	"encoding/json"
	"net/http"
	"time"
)

// Direction says which way a message went, from mcpcli's point of view.
type Direction string

const (
	Send Direction = "send"
	Recv Direction = "recv"
)

// Event is one thing seen on the wire: a JSON-RPC message (Msg), or for HTTP
// the headers of a request or response (HTTP).
type Event struct {
	Time time.Time
	Dir  Direction
	Msg  json.RawMessage
	HTTP *HTTPHeaders
}

// HTTPHeaders describes one HTTP request (Method, URL) or response (Status).
type HTTPHeaders struct {
	Method string      `json:"method,omitempty"`
	URL    string      `json:"url,omitempty"`
	Status int         `json:"status,omitempty"`
	Header http.Header `json:"headers"`
}

// Observer receives events. It must not retain Msg past the call and must be
// safe for concurrent use.
type Observer func(Event)

// Observers fans one event out to several observers; nil entries are skipped.
func Observers(obs ...Observer) Observer {
	var keep []Observer
	for _, o := range obs {
		if o != nil {
			keep = append(keep, o)
		}
	}
	switch len(keep) {
	case 0:
		return nil
	case 1:
		return keep[0]
	}
	return func(ev Event) {
		for _, o := range keep {
			o(ev)
		}
	}
}

// lineTee calls emit for every complete newline-terminated line written
// through it. It is the stdio side's view of the wire: one JSON-RPC message
// per line.
type lineTee struct {
	buf  []byte
	emit func([]byte)
}

func (t *lineTee) feed(p []byte) {
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			t.buf = append(t.buf, p...)
			return
		}
		line := p[:i]
		if len(t.buf) > 0 {
			t.buf = append(t.buf, line...)
			line = t.buf
		}
		if trimmed := bytes.TrimSpace(line); len(trimmed) > 0 {
			t.emit(trimmed)
		}
		t.buf = t.buf[:0]
		p = p[i+1:]
	}
}
