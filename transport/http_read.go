package transport

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/mcpcli/mcpcli/internal/jsonpeek"
)

// What an HTTP server sends, mcpcli reads once, before the go-sdk: each
// JSON body and each server-sent event is gathered (bounded), shown to the
// observers as it came, and handed on. A big final result goes on as the
// small stub the session's ResultFilter gives (the session decodes the
// bytes the observers kept instead), as over stdio: the go-sdk's own
// reading copies a body some four times over (a 100 MB result took 947
// MB). A message refused for its size ends the request it answers with
// an error of its own (see refusal), never a stream that merely broke:
// that would look like a request to send again.

// CodeRefused is the JSON-RPC error code of the answer mcpcli gives a
// request in the server's place when it refused what the server sent
// (too large). Explain turns it back into the typed error.
const CodeRefused = -32093

// bigMessage is the size from which a message read is followed by a
// garbage collection, as over stdio (bigLine): gathering it left as much
// again in pieces.
const bigMessage = 16 << 20

// pieces gathers bytes of unknown length in pieces that grow, and joins
// them once: growing one slice as it came costs up to three times its
// size while it grows.
type pieces struct {
	list [][]byte
	size int
	// most, when not 0, is the most bytes that will be written (the
	// bound): no piece reaches past it, so that what is gathered up to a
	// refusal is the bound and no more.
	most int
}

const (
	firstPiece = 4 << 10
	maxPiece   = 4 << 20
)

// write appends b, copied.
func (p *pieces) write(b []byte) {
	for len(b) > 0 {
		last := p.room(len(b))
		n := copy(last[len(last):cap(last)], b)
		p.list[len(p.list)-1] = last[:len(last)+n]
		p.size += n
		b = b[n:]
	}
}

// room returns the last piece, a new one when it is full.
func (p *pieces) room(want int) []byte {
	if n := len(p.list); n > 0 && len(p.list[n-1]) < cap(p.list[n-1]) {
		return p.list[n-1]
	}
	size := firstPiece
	if n := len(p.list); n > 0 {
		size = min(2*cap(p.list[n-1]), maxPiece)
	}
	size = max(size, min(want, maxPiece))
	if p.most > 0 {
		size = max(min(size, p.most+1-p.size), 1) // +1: room to see the end
	}
	p.list = append(p.list, make([]byte, 0, size))
	return p.list[len(p.list)-1]
}

// readFrom reads r to its end; first, when known, is the size to expect.
func (p *pieces) readFrom(r io.Reader, first int) error {
	if first > 0 && len(p.list) == 0 {
		p.list = append(p.list, make([]byte, 0, first+1)) // +1: room to see the end
	}
	for {
		last := p.room(firstPiece)
		n, err := r.Read(last[len(last):cap(last)])
		p.list[len(p.list)-1] = last[:len(last)+n]
		p.size += n
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// join returns everything written, in one slice, and forgets the pieces.
func (p *pieces) join() []byte {
	var b []byte
	switch len(p.list) {
	case 0:
		b = []byte{}
	case 1:
		b = p.list[0]
	default:
		b = make([]byte, 0, p.size)
		for _, x := range p.list {
			b = append(b, x...)
		}
	}
	p.list, p.size = nil, 0
	return b
}

// reading is what a response's reader needs from its round tripper.
type reading struct {
	obs    Observer
	filter ResultFilter
	rec    *recorder
	// call is the id of the request the response answers, when it is a
	// request (a POST of one with an id); invalid for a GET stream.
	call jsonrpc.ID
	// minStub, when not 0, is the least size of a message handed to the
	// filter (MinStub otherwise): tests set it.
	minStub int
}

// handOn is what the go-sdk gets for one message the server sent, msg
// (env is its envelope, when decoded): the message itself, or the same
// response with the stub the filter gives for its result.
func (r *reading) handOn(msg []byte, env Envelope) []byte {
	if r.filter == nil {
		return msg
	}
	least := MinStub
	if r.minStub > 0 {
		least = r.minStub
	}
	t := bytes.TrimSpace(msg)
	if len(t) < least || t[0] != '{' {
		return msg // no result worth a stub fits in less (nor in a batch)
	}
	if env.Kind == KindNone {
		env = Decode(t)
	}
	if env.Kind != KindResult || env.Result == nil {
		return msg
	}
	stub, ok := r.filter(env.ID, env.Result)
	if !ok {
		return msg
	}
	b, err := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: env.ID, Result: stub})
	if err != nil {
		return msg
	}
	return b
}

// refusal is the answer mcpcli gives the request in the server's place
// when it refused what the server sent: a JSON-RPC error response that
// ends the request (a stream that merely broke would be taken for one to
// send again), which Explain turns back into err.
func (r *reading) refusal(err *TooLargeError) []byte {
	data, _ := json.Marshal(refusalData{Nonce: r.rec.token(), Limit: err.Limit, Event: err.Event})
	msg, _ := json.Marshal(err.Error())
	id, _ := json.Marshal(r.call.Raw())
	return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"error":{"code":%d,"message":%s,"data":%s}}`, id, CodeRefused, msg, data)
}

// refusalData is what a refusal carries: the transport's own token (a
// server cannot send one that passes for it), and what was refused.
type refusalData struct {
	Nonce string `json:"mcpcli"`
	Limit int64  `json:"limit"`
	Event bool   `json:"event"`
}

// token is the transport's random token for its refusals.
func (r *recorder) token() string {
	r.tokenOnce.Do(func() {
		var b [12]byte
		_, _ = rand.Read(b[:])
		r.nonce = hex.EncodeToString(b[:])
	})
	return r.nonce
}

// refused is the *TooLargeError a refusal of this transport stands for.
func (r *recorder) refused(err error) (*TooLargeError, bool) {
	var je *jsonrpc.Error
	if !errors.As(err, &je) || je.Code != CodeRefused {
		return nil, false
	}
	var d refusalData
	if jsonpeek.Unmarshal(je.Data, &d) != nil || d.Nonce != r.token() {
		return nil, false
	}
	return &TooLargeError{URL: r.url, Limit: d.Limit, Event: d.Event}, true
}

// tooLarge reports err as a *TooLargeError.
func tooLarge(err error) (*TooLargeError, bool) {
	var tl *TooLargeError
	ok := errors.As(err, &tl)
	return tl, ok
}

// messageBody reads a JSON body whole, on the go-sdk's first Read: it is
// shown to the observers (each message of a batch on its own) and handed
// on, its result stubbed when the filter says so.
type messageBody struct {
	reading
	rc     io.ReadCloser
	length int64 // Content-Length, or -1
	out    *bytes.Reader
	err    error
}

func (b *messageBody) Read(p []byte) (int, error) {
	if b.out == nil && b.err == nil {
		b.fill()
	}
	if b.out == nil {
		return 0, b.err
	}
	return b.out.Read(p)
}

func (b *messageBody) fill() {
	max := b.rec.maxMessage()
	var body []byte
	var err error
	if b.length > max {
		err = &TooLargeError{URL: b.rec.url, Limit: max}
	} else {
		ps := pieces{most: int(max)}
		if err = ps.readFrom(b.rc, int(b.length)); err == nil {
			body = ps.join()
		}
	}
	if tl, ok := tooLarge(err); ok {
		if b.call.IsValid() {
			b.out = bytes.NewReader(b.refusal(tl))
			return
		}
		b.rec.fail(tl)
	}
	if err != nil {
		b.err = err
		return
	}
	if len(body) >= bigMessage {
		runtime.GC()
	}
	var env Envelope // the body's, when it is one message
	if b.obs != nil {
		ms := bodyMessages(body)
		emit(b.obs, nil, Recv, ms)
		if len(ms) == 1 && len(ms[0].msg) == len(bytes.TrimSpace(body)) {
			env = ms[0].env
		}
	}
	b.out = bytes.NewReader(b.handOn(body, env))
}

func (b *messageBody) Close() error { return b.rc.Close() }

// bodyMessages is what a JSON body holds: each message of a batch on its
// own, or the body as one message; none when it is blank.
func bodyMessages(b []byte) []decoded {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return nil
	}
	return lineMessages(b)
}

// emit shows the observers the messages of one body or event.
func emit(obs Observer, ctx context.Context, dir Direction, ms []decoded) {
	now := time.Now()
	for _, m := range ms {
		obs(Event{Time: now, Dir: dir, Msg: m.msg, Env: m.env, Ctx: ctx})
	}
}

// SSE fields, as the go-sdk knows them.
const (
	fieldOther = iota
	fieldData
	fieldEvent
	fieldID
	fieldRetry
)

// eventBody reads a stream of server-sent events as the go-sdk does (its
// scanEvents: a line is "name:value"; data, event, id and retry count,
// each value trimmed of white space; data lines join with "\n"; a blank
// line, or the end, ends an event; a line without a colon is malformed),
// one event at a time, and hands each on in a plain form the go-sdk reads
// the same way: "event:NAME", "id:ID", "retry:N", one "data:" line per
// line of data, and a blank line. A message event is shown to the
// observers and its result stubbed when the filter says so.
type eventBody struct {
	reading
	rc    io.ReadCloser
	watch *watch // for a GET stream: see Settle
	br    *bufio.Reader
	out   [][]byte // what is handed on and not yet read
	end   error    // what Read returns once out is empty

	// The line being read.
	lineStarted bool
	head        []byte // the line before its first colon, while under 6 bytes
	longHead    bool   // the part before the colon is longer: no field the go-sdk knows
	colon       bool
	onlyCR      bool // nothing but \r so far
	field       int
	value       []byte // an event, id or retry value so far

	// The event being read. data holds the values of its data lines as
	// they came, each after a "\n" but the first (a value has none).
	name, id, retry []byte
	hasData         bool
	data            pieces
}

func (e *eventBody) Read(p []byte) (int, error) {
	for len(e.out) == 0 && e.end == nil {
		e.step()
	}
	if len(e.out) == 0 {
		return 0, e.end
	}
	n := copy(p, e.out[0])
	if n == len(e.out[0]) {
		e.out = e.out[1:]
	} else {
		e.out[0] = e.out[0][n:]
	}
	return n, nil
}

func (e *eventBody) Close() error {
	if e.watch != nil {
		e.watch.close()
	}
	return e.rc.Close()
}

// step reads one piece of a line and does what it calls for.
func (e *eventBody) step() {
	if e.br == nil {
		var r io.Reader = e.rc
		if e.watch != nil {
			r = watched{e.rc, e.watch}
		}
		e.br = bufio.NewReaderSize(r, 32<<10)
		if e.rec != nil {
			e.data.most = int(e.rec.maxMessage())
		}
	}
	frag, err := e.br.ReadSlice('\n')
	if len(frag) > 0 {
		e.feed(frag)
	}
	switch {
	case err == nil:
		e.endLine()
	case errors.Is(err, bufio.ErrBufferFull):
	case errors.Is(err, io.EOF):
		if e.lineStarted {
			e.endLine()
		}
		if e.end == nil {
			e.dispatch()
			e.end = io.EOF
		}
	default:
		e.fail(err)
	}
}

// fail ends the stream on a read error. A request's response refused for
// its size is answered with the refusal; anything else is handed on.
func (e *eventBody) fail(err error) {
	if tl, ok := tooLarge(err); ok {
		if e.call.IsValid() {
			e.out = append(e.out, []byte("data:"), e.refusal(tl), []byte("\n\n"))
			e.end = io.EOF
			return
		}
		if e.rec != nil {
			e.rec.fail(tl)
		}
	}
	e.end = err
}

// feed takes the next piece of the current line (its "\n" included when
// it is the last piece).
func (e *eventBody) feed(frag []byte) {
	if !e.lineStarted {
		e.lineStarted, e.head, e.longHead, e.colon, e.onlyCR, e.field = true, e.head[:0], false, false, true, fieldOther
		e.value = nil
	}
	body := frag
	if n := len(body); n > 0 && body[n-1] == '\n' {
		body = body[:n-1]
	}
	if e.onlyCR && len(bytes.Trim(body, "\r")) > 0 {
		e.onlyCR = false
	}
	if !e.colon {
		i := bytes.IndexByte(body, ':')
		before := body
		if i >= 0 {
			before = body[:i]
		}
		if !e.longHead {
			if len(e.head)+len(before) > 5 {
				e.longHead = true
			} else {
				e.head = append(e.head, before...)
			}
		}
		if i < 0 {
			return
		}
		e.colon = true
		body = body[i+1:]
		if !e.longHead {
			switch string(e.head) {
			case "data":
				e.field = fieldData
			case "event":
				e.field = fieldEvent
			case "id":
				e.field = fieldID
			case "retry":
				e.field = fieldRetry
			}
		}
		if e.field == fieldData {
			if e.hasData {
				e.data.write([]byte{'\n'})
			}
			e.hasData = true
		}
	}
	switch e.field {
	case fieldData:
		e.data.write(body)
	case fieldEvent, fieldID, fieldRetry:
		e.value = append(e.value, body...)
	}
}

// endLine does what a whole line says.
func (e *eventBody) endLine() {
	e.lineStarted = false
	switch {
	case e.onlyCR:
		e.dispatch()
		return
	case !e.colon:
		// The go-sdk fails the connection on a line without a colon;
		// it is handed on (its start: it has no colon either, and no
		// \r that would make it blank) so that it does.
		line := bytes.ReplaceAll(e.head, []byte("\r"), []byte(" "))
		if len(line) == 0 || e.longHead {
			line = append(line, "…"...)
		}
		e.out = append(e.out, append(line, '\n'))
		e.end = io.EOF
		return
	}
	switch e.field {
	case fieldEvent:
		e.name = bytes.TrimSpace(e.value)
	case fieldID:
		e.id = bytes.TrimSpace(e.value)
	case fieldRetry:
		e.retry = bytes.TrimSpace(e.value)
	}
	e.value = nil
}

// dispatch ends the current event: it is handed on, unless empty.
func (e *eventBody) dispatch() {
	var data []byte
	if e.hasData {
		data = e.data.join()
		if len(data) >= bigMessage {
			runtime.GC()
		}
		// Each line trimmed, as the go-sdk does, in place.
		n := 0
		for rest, first := data, true; ; first = false {
			line, after, more := bytes.Cut(rest, []byte("\n"))
			if !first {
				data[n] = '\n'
				n++
			}
			n += copy(data[n:], bytes.TrimSpace(line))
			if !more {
				break
			}
			rest = after
		}
		data = data[:n]
	}
	name, id, retry := e.name, e.id, e.retry
	e.name, e.id, e.retry, e.hasData = nil, nil, nil, false
	if len(name) == 0 && len(id) == 0 && len(retry) == 0 && len(data) == 0 {
		return
	}
	if data != nil && (len(name) == 0 || string(name) == "message") {
		if msg := bytes.TrimSpace(data); len(msg) > 0 {
			var env Envelope
			if e.obs != nil {
				env = Decode(msg)
				e.obs(Event{Time: time.Now(), Dir: Recv, Msg: msg, Env: env})
			}
			if out := e.handOn(msg, env); len(out) != len(msg) || &out[0] != &msg[0] {
				data = out
			}
		}
	}
	if len(name) > 0 {
		e.out = append(e.out, []byte("event:"), name, []byte("\n"))
	}
	if len(id) > 0 {
		e.out = append(e.out, []byte("id:"), id, []byte("\n"))
	}
	if len(retry) > 0 {
		e.out = append(e.out, []byte("retry:"), retry, []byte("\n"))
	}
	if data != nil {
		for {
			line, rest, more := bytes.Cut(data, []byte("\n"))
			e.out = append(e.out, []byte("data:"), line, []byte("\n"))
			if !more {
				break
			}
			data = rest
		}
	}
	e.out = append(e.out, []byte("\n"))
}

// A 2025-11-25 server may send a log on its GET stream just before the
// result on the request's own stream: two connections, read by two
// goroutines, so the result can be handled, and mcpcli exit, before the
// log is read (it was lost in 2 runs of 5). Settle waits until every GET
// stream is waiting on the network with nothing of its own left: what
// the server sent there before has then been read and shown to the
// observers (the session's Drain then waits for it to be handled).

// streams are the GET streams of a transport.
type streams struct {
	mu   sync.Mutex
	list []*watch
}

// watch is what Settle knows of one stream's reader. Each change wakes
// whoever waits on it: Settle waits on changes and on time, never polls.
type watch struct {
	mu      sync.Mutex
	reads   uint64 // reads of the network begun
	waiting bool   // in one now
	closed  bool
	changed chan struct{} // closed, and replaced, at each change
}

func (s *streams) add() *watch {
	w := &watch{changed: make(chan struct{})}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.list = slices.DeleteFunc(s.list, (*watch).isClosed)
	s.list = append(s.list, w)
	return w
}

// change applies f to w and wakes whoever waits for a change.
func (w *watch) change(f func()) {
	w.mu.Lock()
	defer w.mu.Unlock()
	f()
	close(w.changed)
	w.changed = make(chan struct{})
}

func (w *watch) close() { w.change(func() { w.closed = true }) }

func (w *watch) isClosed() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.closed
}

// watched marks the time spent in a read of the network.
type watched struct {
	r io.Reader
	w *watch
}

func (r watched) Read(p []byte) (int, error) {
	r.w.change(func() { r.w.reads++; r.w.waiting = true })
	n, err := r.r.Read(p)
	r.w.change(func() { r.w.waiting = false })
	return n, err
}

// quietFor is how long a stream's reader must wait on the network, in one
// read, to be taken as having read all that had come.
const quietFor = 10 * time.Millisecond

// settle waits, at most max, until every open stream has been waiting on
// the network in one read for quietFor.
func (s *streams) settle(max time.Duration) {
	s.mu.Lock()
	list := slices.Clone(s.list)
	s.mu.Unlock()
	deadline := time.NewTimer(max)
	defer deadline.Stop()
	for _, w := range list {
		if !w.settle(deadline.C) {
			return
		}
	}
}

// settle waits until the stream has been waiting on the network in one
// read for quietFor, or is closed (true); or until deadline (false).
func (w *watch) settle(deadline <-chan time.Time) bool {
	for {
		w.mu.Lock()
		closed, waiting, changed := w.closed, w.waiting, w.changed
		w.mu.Unlock()
		if closed {
			return true
		}
		var quiet *time.Timer
		var quietC <-chan time.Time
		if waiting {
			quiet = time.NewTimer(quietFor)
			quietC = quiet.C
		}
		select {
		case <-changed: // it read something, or began to wait again
		case <-quietC: // the same read all along: nothing more came
			return true
		case <-deadline:
			return false
		}
		if quiet != nil {
			quiet.Stop()
		}
	}
}

// Settle waits (at most max) until what the server sent on its GET
// streams so far has been read: see streams.
func (h *HTTP) Settle(max time.Duration) { h.streams.settle(max) }
