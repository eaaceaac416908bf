package client

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/internal/jsonpeek"
	"github.com/mcpcli/mcpcli/transport"
)

// wire is the session's view of the traffic. The transport shows it every
// message; each received message is looked at once, here, and what the
// session needs is kept: the final result of each of its requests as the
// server wrote it, the server's own requests waiting for their handler,
// what server/discover and -32022 said, which requests are unanswered.
type wire struct {
	mu         sync.Mutex
	pending    map[jsonrpc.ID]*sent // requests not yet answered, by id as the go-sdk reads it
	supported  []string             // server/discover's supportedVersions
	offered    []string             // the data.supported of the last -32022
	requests   []*serverRequest     // the server's requests, until handled
	cancelSent chan struct{}        // closed at the first notifications/cancelled sent
	cancelOnce sync.Once
	discovers  int  // answers to server/discover seen
	discoverOK bool // the last of them was a result, not an error
	// orphans counts error responses without an id (servers answer a
	// request they could not read that way); orphan is the last.
	orphans int
	orphan  *jsonrpc.Error
	// capabilities are the server's, as it wrote them (the go-sdk's type
	// drops what it does not know, such as 2025-11-25's tasks).
	capabilities json.RawMessage

	// stubbed are the responses whose result the go-sdk gets as a stub,
	// by id, until it reads them.
	stubbed map[jsonrpc.ID]json.RawMessage

	// Log and progress notifications received, and handled (shown).
	notes notes

	onNote       func(Notification) // every notification received
	toolsChanged func()             // the server said its tool list changed

	httpAuth httpAuth // who the last HTTP request said sent it (the tool cache's Auth)
}

// auth is who the last HTTP request said sent it, as a digest; "" for
// none, or another transport.
func (w *wire) auth() string { return w.httpAuth.get() }

// Notification is one notification from the server, as it sent it.
type Notification struct {
	Method string
	Params json.RawMessage // nil when it had none
	Raw    json.RawMessage // the whole message
}

// sent is a request mcpcli sent and is waiting for the answer to.
type sent struct {
	method string
	ex     *exchange // where its result goes, if the caller wants it
}

// exchange receives the result of the requests made with its context, as
// the server wrote it. The loop gives each request it makes one.
type exchange struct {
	mu      sync.Mutex
	raw     json.RawMessage
	top     sentResult // raw's members, as the wire read them
	stubbed bool       // the go-sdk got a stub for it (see wire.shrinks)

	// maxItems, for a list page, is the most items it may hold (0: no
	// bound); overItems is set when it held more (see bounds.go).
	maxItems  int
	overItems bool
	// values, for a completion, is how many values the server sent.
	values int
}

func (e *exchange) isStubbed() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.stubbed
}

func (e *exchange) result() json.RawMessage {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.raw
}

// read is the result and what the wire read of its members.
func (e *exchange) read() (json.RawMessage, sentResult) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.raw, e.top
}

type exchangeKey struct{}

// withExchange returns ctx carrying ex: the result of a request sent with
// it is kept in ex.
func withExchange(ctx context.Context, ex *exchange) context.Context {
	return context.WithValue(ctx, exchangeKey{}, ex)
}

// serverRequest is a request the server sent (a legacy elicitation, a
// sampling or roots request), as it wrote it.
type serverRequest struct {
	method string
	params json.RawMessage
}

func newWire() *wire {
	return &wire{pending: map[jsonrpc.ID]*sent{}, stubbed: map[jsonrpc.ID]json.RawMessage{}, cancelSent: make(chan struct{})}
}

// observe is the transport's Observer. Each message is looked at once,
// through the envelope the transport decoded.
func (w *wire) observe(ev transport.Event) {
	if ev.Dir == transport.Send && ev.HTTP != nil && ev.HTTP.Method == "POST" {
		w.httpAuth.saw(ev.HTTP.Header)
	}
	if len(ev.Msg) == 0 {
		return
	}
	e := ev.Envelope()
	if ev.Dir == transport.Send {
		w.sent(ev.Ctx, e)
		return
	}
	switch e.Kind {
	case transport.KindResult:
		w.answered(e)
	case transport.KindError:
		if e.ID.IsValid() {
			w.answered(e)
			break
		}
		// An answer to no request (a server that could not read one
		// answers with id null).
		w.mu.Lock()
		w.orphans++
		w.orphan = &jsonrpc.Error{Code: e.Error.Code, Message: e.Error.Message}
		w.mu.Unlock()
	case transport.KindRequest:
		switch e.Method {
		case "elicitation/create", "sampling/createMessage", "roots/list":
			w.mu.Lock()
			w.requests = append(w.requests, &serverRequest{method: e.Method, params: e.Params})
			w.mu.Unlock()
		}
	case transport.KindNotification:
		switch e.Method {
		case "notifications/message", "notifications/progress":
			w.notes.seen()
		case "notifications/tools/list_changed":
			if w.toolsChanged != nil {
				w.toolsChanged()
			}
		}
		if e.Method != "" && w.onNote != nil {
			w.onNote(Notification{Method: e.Method, Params: e.Params, Raw: ev.Msg})
		}
	}
}

func (w *wire) sent(ctx context.Context, e transport.Envelope) {
	switch {
	case e.Kind == transport.KindNotification && e.Method == "notifications/cancelled":
		w.cancelOnce.Do(func() { close(w.cancelSent) })
		return
	case e.Kind != transport.KindRequest || e.Method == "" || e.Method == "subscriptions/listen":
		// A subscriptions/listen stream is open for the whole session: it
		// is never a request left unanswered.
		return
	}
	s := &sent{method: e.Method}
	if ctx != nil {
		s.ex, _ = ctx.Value(exchangeKey{}).(*exchange)
	}
	w.mu.Lock()
	w.pending[e.ID] = s
	w.mu.Unlock()
}

func (w *wire) answered(e transport.Envelope) {
	w.mu.Lock()
	s := w.pending[e.ID]
	if s == nil {
		// It answers no request of this session's (a stray, or one the
		// session forgot): what it says is about nothing mcpcli asked.
		w.mu.Unlock()
		return
	}
	delete(w.pending, e.ID)
	if s.method == "server/discover" {
		w.discovers++
		w.discoverOK = e.Error == nil
	}
	w.mu.Unlock()
	if e.Error != nil {
		var data *struct {
			Supported []string `json:"supported"`
		}
		if e.Error.Code == mcp.CodeUnsupportedProtocolVersion && len(e.Error.Data) > 0 && jsonpeek.Unmarshal(e.Error.Data, &data) == nil && data != nil {
			w.mu.Lock()
			w.offered = data.Supported
			w.mu.Unlock()
		}
		return
	}
	if e.Result == nil {
		return
	}
	if s.ex != nil {
		// The one look at the result's members: the loop, the lists and
		// the bounds read it from the exchange.
		top := peekResult(e.Result, resultField[s.method])
		s.ex.mu.Lock()
		s.ex.raw, s.ex.top = e.Result, top
		s.ex.mu.Unlock()
		if stub := w.bounded(s, e.Result, top); stub != nil {
			w.mu.Lock()
			w.stubbed[e.ID] = stub
			w.mu.Unlock()
		} else if w.shrinks(s, e.Result, top) {
			w.mu.Lock()
			w.stubbed[e.ID] = stubs[s.method]
			w.mu.Unlock()
		}
	}
	if s.method == "server/discover" || s.method == "initialize" {
		if caps := jsonpeek.Get(e.Result, "capabilities"); caps != nil {
			w.mu.Lock()
			w.capabilities = caps
			w.mu.Unlock()
		}
	}
	if s.method == "server/discover" {
		if versions := supportedVersions(e.Result); versions != nil {
			w.mu.Lock()
			w.supported = versions
			w.mu.Unlock()
		}
	}
}

// takeRequest returns the raw params of the oldest request of method that
// match says is the one being handled, and forgets it.
func (w *wire) takeRequest(method string, match func(params json.RawMessage) bool) json.RawMessage {
	w.mu.Lock()
	defer w.mu.Unlock()
	for i, r := range w.requests {
		if r.method == method && match(r.params) {
			w.requests = append(w.requests[:i], w.requests[i+1:]...)
			return r.params
		}
	}
	return nil
}

// takeStub is the stub the go-sdk gets for the response id, if any.
func (w *wire) takeStub(id jsonrpc.ID) (json.RawMessage, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	stub, ok := w.stubbed[id]
	delete(w.stubbed, id)
	return stub, ok
}

// forget drops the requests of a connection that is gone (a failed
// attempt before a fallback): their answers will never come.
func (w *wire) forget() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.pending = map[jsonrpc.ID]*sent{}
}

// orphanErrors counts the error responses without an id so far, and
// returns the last.
func (w *wire) orphanErrors() (int, *jsonrpc.Error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.orphans, w.orphan
}

// discoverAnswers counts the server's answers to server/discover so far.
func (w *wire) discoverAnswers() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.discovers
}

// discoverResult reports whether the last answer to server/discover was a
// result rather than an error.
func (w *wire) discoverResult() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.discoverOK
}

// supportedVersions is a server/discover result's supportedVersions, as
// the go-sdk decodes it: nil when it is missing, null or not a list of
// strings, or when the result does not decode. What servers send is read
// by hand (jsonpeek.PlainStrings): decoding into a struct builds the
// struct's decoder by reflection, in every run, and grew the stack of the
// goroutine reading the server from 8 to 16 KiB, 29 frames deep.
func supportedVersions(result []byte) []string {
	if list, ok := jsonpeek.PlainStrings(result, "supportedVersions"); ok {
		return list
	}
	var d struct {
		SupportedVersions []string `json:"supportedVersions"`
	}
	if jsonpeek.Unmarshal(result, &d) != nil {
		return nil
	}
	return d.SupportedVersions
}

func (w *wire) versions() (supported, offered []string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.supported...), append([]string(nil), w.offered...)
}

// unanswered reports whether a request is still waiting for its response.
func (w *wire) unanswered() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.pending) > 0
}

// shown counts a log or progress notification handled.
func (w *wire) shown() { w.notes.shown() }

// notesWait bounds how long drain waits.
const notesWait = time.Second

// drain waits until every log and progress notification received so far
// has been handled. The SDK hands notifications to their handlers apart
// from responses, so the last log lines of a request can otherwise be
// handled after its result, or lost when mcpcli exits.
func (w *wire) drain() { w.notes.wait(notesWait) }

// notes counts the log and progress notifications received and those
// handled, and says when every one received has been handled: drain waits
// for that, not for a poll to see it.
type notes struct {
	mu            sync.Mutex
	received, got int64
	// caughtUp is open while some received are not handled yet, and
	// closed (then nil) when the last of them is.
	caughtUp chan struct{}
}

func (n *notes) seen() {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.got >= n.received {
		n.caughtUp = make(chan struct{})
	}
	n.received++
}

func (n *notes) shown() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.got++
	if n.got >= n.received && n.caughtUp != nil {
		close(n.caughtUp)
		n.caughtUp = nil
	}
}

// wait returns once every notification received so far has been handled,
// or after max.
func (n *notes) wait(max time.Duration) {
	n.mu.Lock()
	if n.got >= n.received {
		n.mu.Unlock()
		return
	}
	ch := n.caughtUp
	n.mu.Unlock()
	t := time.NewTimer(max)
	defer t.Stop()
	select {
	case <-ch:
	case <-t.C:
	}
}
