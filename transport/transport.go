// Package transport turns what the user gives (a command to start, or a
// Streamable HTTP URL) into go-sdk transports, supervises the server
// process, lets observers see every JSON-RPC message exactly as it crossed
// the wire, and explains its own failures.
package transport

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Transport is a go-sdk transport to one server, with what mcpcli needs
// around it. Stdio and HTTP are both one.
type Transport interface {
	mcp.Transport
	// Observe adds an observer of every message (and, over HTTP, of the
	// headers of every exchange). Call it before Connect.
	Observe(Observer)
	// Explain turns an error of a session over this transport into one that
	// says what happened to the server, when the transport knows more (the
	// process died, the HTTP status); otherwise it returns err.
	Explain(err error) error
	// Close releases what the transport holds: a stdio server is shut
	// down. It is safe to call more than once, and before Connect.
	Close() error
	// Via says how the server is reached: "stdio: CMD ARGS" or the URL.
	Via() string
}

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
	// Msg is the message as it crossed the wire. It belongs to the event:
	// an observer may keep it, and must not change it.
	Msg json.RawMessage
	// Env is Msg decoded, once, by the transport that showed it: read it
	// through Envelope, never Msg again.
	Env  Envelope
	HTTP *HTTPHeaders
	// Ctx is the context of the request a sent message belongs to, when
	// the transport knows it; observers read values from it (which
	// request of which caller this is). Nil otherwise.
	Ctx context.Context
}

// Envelope is the event's message decoded: as the transport decoded it,
// or, for an event it did not decode (one made by hand), now.
func (ev *Event) Envelope() Envelope {
	if ev.Env.Kind != KindNone || len(ev.Msg) == 0 {
		return ev.Env
	}
	return Decode(ev.Msg)
}

// HTTPHeaders describes one HTTP request (Method, URL) or response (Status).
type HTTPHeaders struct {
	Method string      `json:"method,omitempty"`
	URL    string      `json:"url,omitempty"`
	Status int         `json:"status,omitempty"`
	Header http.Header `json:"headers"`
}

// Observer receives events. It must be safe for concurrent use, and quick:
// it runs on the transport's own path.
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

// ResultFilter may give, for a response the transport read, a result to
// hand the go-sdk in place of the one the server sent (ok set). Observers
// have seen the server's bytes before it is called. It is called for
// every result of MinStub bytes or more; a transport may skip smaller
// ones (HTTP does: a stub is for results too big to decode twice).
type ResultFilter func(id jsonrpc.ID, result json.RawMessage) (stub json.RawMessage, ok bool)

// MinStub is the least size of a result every transport hands its
// ResultFilter.
const MinStub = 64 << 10

// Filterer is a transport that applies a ResultFilter to what it reads.
type Filterer interface {
	FilterResults(ResultFilter)
}

// filter applies f to m, if m is a result.
func (f ResultFilter) apply(m jsonrpc.Message) {
	if r, ok := m.(*jsonrpc.Response); ok && f != nil && r.Error == nil && r.Result != nil {
		if stub, ok := f(r.ID, r.Result); ok {
			r.Result = stub
		}
	}
}

// Wrap makes an in-process go-sdk transport (mcp.NewInMemoryTransports, an
// IOTransport over pipes) a Transport, observed at the connection: each
// message is shown to observers as the go-sdk encodes it. Servers mcpcli
// talks to go through Stdio or HTTP, which show the bytes that crossed
// the wire; Wrap is for tests and embedding.
func Wrap(t mcp.Transport, via string) Transport {
	return &wrapped{t: t, via: via}
}

type wrapped struct {
	t      mcp.Transport
	via    string
	obs    []Observer
	filter ResultFilter
}

func (w *wrapped) FilterResults(f ResultFilter) { w.filter = f }

func (w *wrapped) Observe(o Observer)      { w.obs = append(w.obs, o) }
func (w *wrapped) Explain(err error) error { return err }
func (w *wrapped) Close() error            { return nil }
func (w *wrapped) Via() string             { return w.via }

func (w *wrapped) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := w.t.Connect(ctx)
	if err != nil {
		return nil, err
	}
	obs := Observers(w.obs...)
	return &wrappedConn{Connection: c, obs: obs, filter: w.filter}, nil
}

type wrappedConn struct {
	mcp.Connection
	obs    Observer
	filter ResultFilter
}

func (c *wrappedConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	m, err := c.Connection.Read(ctx)
	if err == nil && c.obs != nil {
		if b, err := jsonrpc.EncodeMessage(m); err == nil {
			c.obs(Event{Time: time.Now(), Dir: Recv, Msg: b, Env: Decode(b)})
		}
	}
	if err == nil {
		c.filter.apply(m)
	}
	return m, err
}

func (c *wrappedConn) Write(ctx context.Context, m jsonrpc.Message) error {
	m = withReason(ctx, m) // a cancellation says why, as over stdio and HTTP
	if c.obs == nil {
		return c.Connection.Write(ctx, m)
	}
	if b, err := jsonrpc.EncodeMessage(m); err == nil {
		c.obs(Event{Time: time.Now(), Dir: Send, Msg: b, Env: Decode(b), Ctx: ctx})
	}
	return c.Connection.Write(ctx, m)
}
