package tui

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"sync"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/internal/interrupt"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/request"
	"github.com/mcpcli/mcpcli/transport"
)

// Feed carries what happens outside the session's program into it: the
// client's hooks (logs, progress, round trips, list changes), the wire, the
// server's stderr, and requests to lend the terminal to a form. It is made
// before connecting, so that its methods can be the client's hooks.
//
// Producers never wait for the program: events are queued, and the program
// takes the whole queue at once, so that a burst of a thousand log lines is
// one frame. The queue is bounded; what does not fit is counted, not kept.
type Feed struct {
	mu      sync.Mutex
	queue   []any
	dropped int
	wake    chan struct{}
	closed  chan struct{}
	once    sync.Once
	now     func() time.Time

	stderrMu   sync.Mutex
	stderrPart []byte

	started atomic.Bool // the program is up: Share lends its terminal

	holdMu  sync.Mutex
	hold    func() (release func())
	release func()

	connMu sync.Mutex
	conn   *connection // the connection of the moment

	// rec records each request's rounds as they happen: the call view's
	// timeline, the saved script and the re-runs read it.
	rec *request.Recorder
}

// connection is one connection of the session, as far as the asks of its
// requests go: when it ends, they end (a form open for a dead server is
// closed).
type connection struct {
	ended chan struct{}
	once  sync.Once
}

func (c *connection) end() { c.once.Do(func() { close(c.ended) }) }

// errConnectionEnded ends an ask whose connection ended before it was
// answered.
var errConnectionEnded = errors.New("the connection to the server ended before the ask was answered")

// current is the connection of the moment.
func (f *Feed) current() *connection {
	f.connMu.Lock()
	defer f.connMu.Unlock()
	return f.conn
}

// newConnection starts the asks of a new connection (after R).
func (f *Feed) newConnection() *connection {
	f.connMu.Lock()
	defer f.connMu.Unlock()
	f.conn = &connection{ended: make(chan struct{})}
	return f.conn
}

// whileConnected is ctx, ended too when the connection of the moment ends;
// ended says why an ask run with it failed: errConnectionEnded when the
// connection ended first, unless a signal was ending the session (its
// end ends the connection too, and its asks were cancelled, not cut off:
// the ask's own context is cancelled either way, as a call on a dead
// connection fails, so it is the signal, ctx's cause, that tells).
func (f *Feed) whileConnected(ctx context.Context) (cctx context.Context, stop func(), ended func(error) error) {
	conn := f.current()
	cctx, cancel := context.WithCancel(ctx)
	go func() {
		select {
		case <-conn.ended:
			cancel()
		case <-cctx.Done():
		}
	}()
	return cctx, cancel, func(err error) error {
		var sig interrupt.Signal
		if err == nil || errors.As(context.Cause(ctx), &sig) {
			return err
		}
		select {
		case <-conn.ended:
			return errConnectionEnded
		default:
		}
		return err
	}
}

// HoldConsole keeps the console's writes back while the session is on
// screen (hold is render.Console.Hold), and lets them out while it lends
// the terminal: a line written then (a sign-in's URL, a warning) shows on
// the terminal as it would in one-shot mode.
func (f *Feed) HoldConsole(hold func() (release func())) {
	f.holdMu.Lock()
	defer f.holdMu.Unlock()
	f.hold, f.release = hold, hold()
}

func (f *Feed) unhold() {
	f.holdMu.Lock()
	defer f.holdMu.Unlock()
	if f.release != nil {
		f.release()
		f.release = nil
	}
}

func (f *Feed) rehold() {
	f.holdMu.Lock()
	defer f.holdMu.Unlock()
	if f.hold != nil && f.release == nil {
		f.release = f.hold()
	}
}

// maxQueued bounds what waits for the program (a server flooding logs while
// a form has the screen).
const maxQueued = 20000

// NewFeed returns an empty feed; now is the clock (nil: time.Now).
func NewFeed(now func() time.Time) *Feed {
	if now == nil {
		now = time.Now
	}
	f := &Feed{wake: make(chan struct{}, 1), closed: make(chan struct{}), now: now, conn: &connection{ended: make(chan struct{})}}
	f.rec = &request.Recorder{Now: now, Changed: func(call int) { f.push(recordedEvent{call}) }}
	return f
}

// Recorder is what the feed records each request's rounds with.
func (f *Feed) Recorder() *request.Recorder { return f.rec }

// Hooks has o's hooks go to the feed: the asks answered by answer and the
// sampling requests by sample (nil: no sampler), each with the terminal
// lent and recorded; logs, progress, the round trips, tasks, list changes
// and warnings.
func (f *Feed) Hooks(o *client.Options, answer client.Answerer, sample client.Sampler) {
	o.Answerer = f.rec.Answerer(&Answerer{Inner: answer, Feed: f})
	o.Sampler = nil
	if sample != nil {
		o.Sampler = f.rec.Sampler(&Sampler{Inner: sample, Feed: f})
	}
	o.OnStep, o.OnTask = f.Step, nil
	f.rec.Hook(o)
	o.OnLog = f.Log
	o.OnProgress = f.Progress
	o.Listen = true
	o.OnNotification = f.Notification
	o.Warn = f.Warn
}

func (f *Feed) push(ev any) {
	f.mu.Lock()
	if len(f.queue) >= maxQueued {
		// Drop the oldest: what arrives last is what a person looks for.
		n := copy(f.queue, f.queue[1:])
		f.queue = f.queue[:n]
		f.dropped++
	}
	f.queue = append(f.queue, ev)
	f.mu.Unlock()
	select {
	case f.wake <- struct{}{}:
	default:
	}
}

// batchMsg is everything queued since the last one.
type batchMsg struct {
	events  []any
	dropped int
}

// next is the command that waits for the next batch.
func (f *Feed) next() tea.Cmd {
	return func() tea.Msg {
		select {
		case <-f.wake:
		case <-f.closed:
			return nil
		}
		f.mu.Lock()
		b := batchMsg{events: f.queue, dropped: f.dropped}
		f.queue, f.dropped = nil, 0
		f.mu.Unlock()
		return b
	}
}

// Close says the program is gone: Share refuses from now on, and the
// console's writes go out.
func (f *Feed) Close() {
	f.once.Do(func() { close(f.closed) })
	f.unhold()
}

// The events.

type logEvent struct {
	at time.Time
	p  *mcp.LoggingMessageParams
}

type progressEvent struct {
	at time.Time
	p  *mcp.ProgressNotificationParams
}

type stepEvent struct {
	at time.Time
	st client.Step
}

type listEvent struct {
	at   time.Time
	list string
}

type updatedEvent struct {
	at  time.Time
	uri string
}

type noteEvent struct {
	at   time.Time
	kind string // warn, stderr, info
	text string
}

type wireEvent struct {
	ev transport.Event
}

// recordedEvent is a request whose record changed (Feed.rec).
type recordedEvent struct{ call int }

// Log is client.Options.OnLog.
func (f *Feed) Log(p *mcp.LoggingMessageParams) { f.push(logEvent{f.now(), p}) }

// Progress is client.Options.OnProgress.
func (f *Feed) Progress(p *mcp.ProgressNotificationParams) { f.push(progressEvent{f.now(), p}) }

// Step is client.Options.OnStep.
func (f *Feed) Step(st client.Step) { f.push(stepEvent{f.now(), st}) }

// Notification is client.Options.OnNotification: list changes and
// resource updates are acted on; every other notification but logs and
// progress (which have their own hooks) is shown as it came.
func (f *Feed) Notification(n client.Notification) {
	switch n.Method {
	case "notifications/tools/list_changed":
		f.push(listEvent{f.now(), "tools"})
	case "notifications/prompts/list_changed":
		f.push(listEvent{f.now(), "prompts"})
	case "notifications/resources/list_changed":
		f.push(listEvent{f.now(), "resources"})
	case "notifications/resources/updated":
		var p struct {
			URI string `json:"uri"`
		}
		_ = json.Unmarshal(n.Params, &p)
		f.push(updatedEvent{f.now(), p.URI})
	case "notifications/message", "notifications/progress", "notifications/subscriptions/acknowledged":
		// Logs and progress have hooks of their own; a subscription's
		// acknowledgement is plumbing (the wire view shows it).
	default:
		f.push(noteEvent{f.now(), "info", "the server sent " + n.Method})
	}
}

// Warn is client.Options.Warn (and the transport's).
func (f *Feed) Warn(msg string) { f.push(noteEvent{f.now(), "warn", msg}) }

// Observe is a transport observer: the wire view's source.
func (f *Feed) Observe(ev transport.Event) { f.push(wireEvent{ev}) }

// Stderr is a writer for a stdio server's stderr (transport.Command.Stderr):
// each line becomes an event.
func (f *Feed) Stderr() *stderrWriter { return &stderrWriter{f: f} }

type stderrWriter struct{ f *Feed }

// maxStderrLine bounds a line without a newline.
const maxStderrLine = 16 << 10

func (w *stderrWriter) Write(p []byte) (int, error) {
	f := w.f
	f.stderrMu.Lock()
	defer f.stderrMu.Unlock()
	data := append(f.stderrPart, p...)
	for {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			break
		}
		f.push(noteEvent{f.now(), "stderr", string(bytes.TrimRight(data[:i], "\r"))})
		data = data[i+1:]
	}
	if len(data) > maxStderrLine {
		f.push(noteEvent{f.now(), "stderr", string(data)})
		data = nil
	}
	f.stderrPart = append([]byte(nil), data...)
	return len(p), nil
}

// Lending the terminal.

// share is a request to run something that takes the terminal (a form)
// while the session's program steps aside.
type share struct {
	f     *Feed
	run   func()
	state atomic.Int32 // 0 queued, 1 running, 2 skipped
	done  chan struct{}

	// A server's ask (ask is set) waits for the person to open it, unless
	// its call is on screen; what the person started (an arguments form,
	// a sign-in) shows at once.
	ask  bool
	call int       // the call it asks for (client.WithCall)
	what string    // what it asks, in a few words: "asks: Publish it?"
	at   time.Time // when it came

	// back gives the terminal gate back once the session's program has
	// taken the terminal again (render.TakeTerminal).
	back func()
}

// live reports whether the share still waits its turn: not given up (its
// call cancelled, the session closing), not run.
func (s *share) live() bool { return s.state.Load() == 0 }

// errClosing is a form asked for after the session ended.
var errClosing = errors.New("the session is closing")

// Share runs run with the terminal lent to it: the session's program
// releases the screen and the keys, run shows its forms as a one-shot
// command would, and the session comes back. Requests wait their turn, one
// at a time. It returns when run has returned, or without running it when
// ctx ends first or the session is gone.
func (f *Feed) Share(ctx context.Context, run func()) error {
	return f.lend(ctx, &share{run: run})
}

// shareAsk is Share for a server's ask in call: it never takes the screen
// by itself. The session marks it waiting, and it runs when the person
// opens it (!, or going to the call), or at once when its call is on
// screen.
func (f *Feed) shareAsk(ctx context.Context, call int, what string, run func()) error {
	return f.lend(ctx, &share{run: run, ask: true, call: call, what: what, at: f.now()})
}

func (f *Feed) lend(ctx context.Context, s *share) error {
	run := s.run
	if !f.started.Load() {
		// No program yet (connecting: a sign-in): the terminal is free.
		run()
		return nil
	}
	s.f, s.done = f, make(chan struct{})
	f.push(s)
	select {
	case <-s.done:
		return nil
	case <-f.closed:
	case <-ctx.Done():
	}
	if s.state.CompareAndSwap(0, 2) {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return errClosing
	}
	<-s.done // it started: let it finish (its context ends it)
	return nil
}

// execShare runs a share inside tea.Exec.
type execShare struct{ s *share }

func (e execShare) Run() error {
	if !e.s.state.CompareAndSwap(0, 1) {
		return nil
	}
	defer close(e.s.done)
	e.s.f.unhold()
	defer e.s.f.rehold()
	e.s.run()
	// bubbletea sets the terminal up for the session again once this
	// returns, and calls back (handedBack) when it has.
	e.s.back = render.TakeTerminal()
	return nil
}

// handedBack is the share's end, once the session's program has the
// terminal again.
func (s *share) handedBack() {
	if s.back != nil {
		s.back()
	}
}

// The forms find the terminal themselves (render.Terminal).
func (execShare) SetStdin(io.Reader)  {}
func (execShare) SetStdout(io.Writer) {}
func (execShare) SetStderr(io.Writer) {}
