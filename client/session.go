package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/transport"
)

// DefaultMaxRounds bounds the interim results answered for one request.
const DefaultMaxRounds = 10

// MaxStateOnlyRounds bounds the interim results that carry only
// requestState (a server shedding load, or polling for an out-of-band step).
const MaxStateOnlyRounds = 3

// Modes is the elicitation capability mcpcli declares.
type Modes struct{ Form, URL bool }

// ParseModes parses a list of modes: "form,url", "form", "url" or "none".
func ParseModes(s string) (Modes, error) {
	var m Modes
	s = strings.TrimSpace(strings.ToLower(s))
	if s == "none" {
		return m, nil
	}
	for _, part := range strings.Split(s, ",") {
		switch strings.TrimSpace(part) {
		case "form":
			m.Form = true
		case "url":
			m.URL = true
		default:
			return m, fmt.Errorf("%q: use form,url, form, url or none", s)
		}
	}
	return m, nil
}

// String is the list spelling of m.
func (m Modes) String() string {
	switch {
	case m.Form && m.URL:
		return "form,url"
	case m.Form:
		return "form"
	case m.URL:
		return "url"
	}
	return "none"
}

func (m Modes) none() bool { return !m.Form && !m.URL }

// Options configure a Session.
type Options struct {
	// RawOnly says the caller needs a final result's raw bytes (Result.Raw)
	// and whether a tool reported an error, not its decoded content: a big
	// result is then never decoded at all (-o json prints the bytes).
	RawOnly       bool
	ClientName    string // clientInfo.name; default "mcpcli"
	ClientVersion string
	Modes         Modes
	// Answerer answers every round of input requests, modern or legacy.
	Answerer Answerer
	// Sampler, when set, declares the sampling capability and answers
	// sampling requests, modern or legacy.
	Sampler Sampler
	// MaxRounds bounds the interim results per request; 0 means
	// DefaultMaxRounds.
	MaxRounds int
	// Timeout bounds each JSON-RPC request while it is with the server; the
	// time a person spends answering is never counted. Zero means none.
	Timeout time.Duration
	// ConnectTimeout bounds connecting (starting the server, the
	// handshake). Zero means none.
	ConnectTimeout time.Duration
	// LogLevel, when set, asks the server for log messages at that level
	// (per request in _meta, or logging/setLevel for older servers).
	LogLevel string
	// OnLog receives the server's notifications/message.
	OnLog func(*mcp.LoggingMessageParams)
	// OnProgress receives notifications/progress for mcpcli's requests.
	OnProgress func(*mcp.ProgressNotificationParams)
	// OnElicitationComplete receives notifications/elicitation/complete.
	OnElicitationComplete func(elicitationID string)
	// Warn is told what the person should know that is not an error: the
	// go-sdk's own warnings, completion values past the spec's 100.
	Warn func(msg string)
	// ProtocolVersion, when set, is the version to ask for first: a
	// version before 2026-07-28 starts with the initialize handshake.
	ProtocolVersion string
	// PinProtocol accepts ProtocolVersion only: no fallback from
	// server/discover to the initialize handshake, and no other version
	// in an initialize answer (*PinError).
	PinProtocol bool
	// OnStep, when set, is told about each round trip as it happens, so
	// that a UI can make the rounds visible.
	OnStep func(Step)
	// Backoff is the pause before the n-th (from 1) retry of a round that
	// carried only requestState. Nil means 0, 250ms, 500ms...
	Backoff func(n int) time.Duration
	// Roots, when not empty, declares the roots capability: a roots/list
	// request (legacy) or input request (multi round-trip) is answered
	// with them. The URIs must be absolute file:// URIs.
	Roots []*mcp.Root
	// ChangeableRoots says the roots may change while connected
	// (AddRoot, RemoveRoot: the interactive session): a server before
	// 2026-07-28 is told the roots capability with listChanged at
	// initialize, even with no roots yet (it is answered an empty list).
	ChangeableRoots bool
	// SamplingOff, with Sampler set, starts with sampling off:
	// SetSampling turns it on. A server before 2026-07-28 is then not
	// told sampling, and it cannot be turned on.
	SamplingOff bool
	// Listen asks for list-change notifications: on 2026-07-28 the go-sdk
	// opens subscriptions/listen for the lists the server says change
	// (older servers send them unasked).
	Listen bool
	// OnNotification is told about every notification the server sends,
	// as it arrives, in the server's bytes. It runs on the transport's
	// path: it must be quick.
	OnNotification func(Notification)
	// OnTask is told when a tool call became a task, and each time the
	// task's status or status message changes.
	OnTask func(TaskStatus)
	// ToolCache, when set, keeps the tool list between runs for as long as
	// the server allows, and Tool reads it from there.
	ToolCache *ToolCache
	// OnUndeclared is told about a legacy server request for a capability
	// mcpcli did not declare, which the server got an error for (an
	// undeclared roots/list; an undeclared sampling request also fails
	// the request it came with).
	OnUndeclared func(*UndeclaredError)
}

// Session is a connected MCP client session.
type Session struct {
	cs     *mcp.ClientSession
	t      transport.Transport
	opts   Options
	server Server
	wire   *wire
	neg    *negotiator

	rootsServed chan struct{} // closed once a roots/list was answered
	rootsOnce   sync.Once

	mu      sync.Mutex
	current *inflight // the request mcpcli is waiting on, for legacy asks
	tokens  atomic.Int64
	calls   atomic.Int64
	level   atomic.Pointer[string] // the log level asked for, "" for none
	gaveUp  atomic.Bool            // a request was cancelled or timed out: the go-sdk tells the server
	lists   listCache
	dropped droppedTools  // tools the go-sdk left out of tools/list, and why
	subs    subscriptions // resources subscribed to

	caps     liveCaps                // roots and sampling, as declared now
	baseCaps *mcp.ClientCapabilities // the rest, as the session started
	client   *mcp.Client
	// declared is what the server is told of mcpcli: clientInfo and the
	// capabilities (part of the tool cache's key).
	declared string
}

type inflight struct {
	call           int
	method, target string
	ctx            context.Context // the request's, while it is with the server
	token          string          // its progress token
	timer          *pausableTimer
	legacyRounds   int
	abandoned      bool
	answerErr      error // why mcpcli could not answer a legacy elicitation
}

// Connect starts a session over t. The session observes t's traffic
// (which must not be connected yet), and closing the session closes t.
func Connect(ctx context.Context, t transport.Transport, opts Options) (*Session, error) {
	s := newSession(t, opts.withDefaults())
	c, err := s.newClient()
	if err != nil {
		return nil, err
	}
	// The handshake's timeout pauses while a person signs in (PauseTimeout).
	cctx, timer, cancel := withPausableTimeout(ctx, opts.ConnectTimeout)
	defer cancel()
	cs, err := s.handshake(cctx, c)
	if err != nil {
		return nil, s.connectError(ctx, err, timer.expired())
	}
	s.cs = cs
	s.server = serverOf(cs, s.t.Via())
	if err := s.afterHandshake(cctx); err != nil {
		return nil, err
	}
	return s, nil
}

// withDefaults is o with its defaults filled in.
func (o Options) withDefaults() Options {
	if o.ClientName == "" {
		o.ClientName = "mcpcli"
	}
	if o.ClientVersion == "" {
		o.ClientVersion = "dev"
	}
	if o.MaxRounds <= 0 {
		o.MaxRounds = DefaultMaxRounds
	}
	return o
}

// newSession is a session over t, not connected yet, that observes t.
func newSession(t transport.Transport, opts Options) *Session {
	s := &Session{opts: opts, t: t, wire: newWire(), rootsServed: make(chan struct{})}
	if opts.OnNotification != nil {
		s.wire.onNote = s.notify
	}
	s.wire.toolsChanged = s.forgetTools
	s.level.Store(&opts.LogLevel)
	s.neg = &negotiator{s: s}
	s.caps.roots = append([]*mcp.Root(nil), opts.Roots...)
	s.caps.sampling = opts.Sampler != nil && !opts.SamplingOff
	s.caps.initRoots = len(opts.Roots) > 0 || opts.ChangeableRoots
	s.caps.initSampling = s.caps.sampling
	t.Observe(s.wire.observe)
	return s
}

// newClient is the go-sdk client the session speaks through: what it
// declares, the handlers of what the server sends, and mcpcli's
// middleware around both directions.
func (s *Session) newClient() (*mcp.Client, error) {
	copts := s.handlers()
	caps := s.declare(copts)
	base := *caps
	s.baseCaps = &base
	impl := &mcp.Implementation{Name: s.opts.ClientName, Version: s.opts.ClientVersion}
	s.declared = declaredOf(impl, caps)
	c := mcp.NewClient(impl, copts)
	if err := registerTasks(c); err != nil {
		return nil, err
	}
	s.client = c
	c.AddRoots(s.opts.Roots...)
	c.AddSendingMiddleware(s.declareNow)
	c.AddSendingMiddleware(s.neg.middleware)
	c.AddSendingMiddleware(noInitializeWhenStopped) // outermost: before the negotiator's pin
	c.AddReceivingMiddleware(s.refuseUndeclared)
	return c, nil
}

// handlers are the go-sdk client's options with the handlers of what the
// server tells (progress, logs, a URL elicitation's end, list changes).
func (s *Session) handlers() *mcp.ClientOptions {
	copts := &mcp.ClientOptions{
		MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true}, // the loop is mcpcli's
		Logger:         slog.New(&sdkLog{s: s}),
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			// The server is working on it: its request timeout starts
			// again, as the spec allows.
			s.mu.Lock()
			if fl := s.current; fl != nil && fl.token != "" && fmt.Sprint(req.Params.ProgressToken) == fl.token {
				fl.timer.reset()
			}
			s.mu.Unlock()
			if s.opts.OnProgress != nil {
				s.opts.OnProgress(req.Params)
			}
			s.wire.shown()
		},
		LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) {
			// Shown only when asked for, at or above the level asked (as
			// it is now: SetLogLevel changes it): a server that sends them
			// anyway is not heard.
			if s.opts.OnLog != nil && LogShown(s.LogLevel(), string(req.Params.Level)) {
				s.opts.OnLog(req.Params)
			}
			s.wire.shown()
		},
		ElicitationCompleteHandler: func(_ context.Context, req *mcp.ElicitationCompleteNotificationRequest) {
			if s.opts.OnElicitationComplete != nil {
				s.opts.OnElicitationComplete(req.Params.ElicitationID)
			}
		},
	}
	if s.opts.Listen {
		// The handlers only make the go-sdk subscribe: every
		// notification reaches OnNotification from the wire.
		copts.ToolListChangedHandler = func(context.Context, *mcp.ToolListChangedRequest) {}
		copts.PromptListChangedHandler = func(context.Context, *mcp.PromptListChangedRequest) {}
		copts.ResourceListChangedHandler = func(context.Context, *mcp.ResourceListChangedRequest) {}
		copts.ResourceUpdatedHandler = func(context.Context, *mcp.ResourceUpdatedNotificationRequest) {}
	}
	return copts
}

// declare sets in copts the capabilities mcpcli declares at the start
// (elicitation in its modes, roots, sampling, tasks) and the handlers
// that answer for them, and returns them.
func (s *Session) declare(copts *mcp.ClientOptions) *mcp.ClientCapabilities {
	caps := &mcp.ClientCapabilities{}
	copts.Capabilities = caps
	if m := s.opts.Modes; !m.none() {
		caps.Elicitation = &mcp.ElicitationCapabilities{}
		if m.Form {
			caps.Elicitation.Form = &mcp.FormElicitationCapabilities{}
		}
		if m.URL {
			caps.Elicitation.URL = &mcp.URLElicitationCapabilities{}
		}
		copts.ElicitationHandler = s.answerLegacy
	}
	if s.caps.initRoots {
		caps.RootsV2 = &mcp.RootCapabilities{ListChanged: s.opts.ChangeableRoots}
	}
	if s.caps.initSampling {
		// Plain sampling: a person writes text, not tool calls. (The
		// go-sdk declares sampling whenever its handler is set: it is set
		// only when sampling starts on.)
		caps.Sampling = &mcp.SamplingCapabilities{}
		copts.CreateMessageWithToolsHandler = s.sampleLegacy
	}
	// Tasks (2026-07-28 extension): a server may answer any tools/call
	// with a task, which mcpcli follows.
	caps.AddExtension(TasksExtension, nil)
	return caps
}

// handshake connects c over the session's transport; a Streamable HTTP
// server that refuses the first POST in a way that says it may be an
// HTTP+SSE server is tried that way, with the same observers.
func (s *Session) handshake(ctx context.Context, c *mcp.Client) (*mcp.ClientSession, error) {
	cs, err := s.connect(ctx, c, s.t)
	if err == nil || errors.As(err, new(*PinError)) {
		return cs, err
	}
	fb, ok := s.t.(transport.Fallbacker)
	if !ok {
		return cs, err
	}
	next := fb.Fallback(err)
	if next == nil {
		return cs, err
	}
	s.t.Close()
	s.t = next
	s.wire.forget()
	return s.connect(ctx, c, next)
}

// connectError is why connecting failed, as a *ConnectError (or a
// *TimeoutError when the connect timeout ran out, timedOut); the
// transport is closed. ctx is Connect's own.
func (s *Session) connectError(ctx context.Context, err error, timedOut bool) error {
	t := s.t
	var pe *PinError
	if errors.As(err, &pe) {
		// A server that exited or closed its stdout is that, not a
		// version to unpin.
		why := error(pe)
		if ex := t.Explain(err); ex != err {
			why = ex
		}
		t.Close()
		return &ConnectError{Via: t.Via(), Err: why}
	}
	err = s.explain(err)
	t.Close()
	if timedOut && ctx.Err() == nil {
		return &TimeoutError{Server: t.Via(), After: s.opts.ConnectTimeout, Connecting: true}
	}
	if p, ok := t.(interface{ ProbeGaveUp() (time.Duration, bool) }); ok && ctx.Err() == nil {
		if wait, gaveUp := p.ProbeGaveUp(); gaveUp {
			err = &FallbackError{Wait: wait, Err: err}
		}
	}
	return &ConnectError{Via: t.Via(), Err: err}
}

// serverOf is who answered the handshake of cs, reached through via.
func serverOf(cs *mcp.ClientSession, via string) Server {
	srv := Server{Via: via}
	if ir := cs.InitializeResult(); ir != nil {
		srv.Protocol = ir.ProtocolVersion
		if ir.ServerInfo != nil {
			srv.Name = ir.ServerInfo.Name
			srv.Title = ir.ServerInfo.Title
			srv.Version = ir.ServerInfo.Version
		}
	}
	if srv.Name == "" {
		srv.Name = via
	}
	return srv
}

// afterHandshake is what a server before 2026-07-28 gets once connected:
// time to ask for the roots, and logging/setLevel. On failure the session
// is closed.
func (s *Session) afterHandshake(ctx context.Context) error {
	if s.server.Modern() {
		return nil
	}
	if len(s.opts.Roots) > 0 {
		s.awaitRoots(ctx)
	}
	if level := s.opts.LogLevel; level != "" && s.Capabilities().Logging != nil {
		if err := s.cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: mcp.LoggingLevel(level)}); err != nil {
			s.Close()
			return &ConnectError{Via: s.t.Via(), Err: fmt.Errorf("logging/setLevel %s: %w", level, s.explain(err))}
		}
	}
	return nil
}

// connect starts the go-sdk session over t, asking for the version the
// options and the transport call for.
func (s *Session) connect(ctx context.Context, c *mcp.Client, t transport.Transport) (*mcp.ClientSession, error) {
	asked := s.opts.ProtocolVersion
	if _, sse := t.(*transport.SSE); sse && !s.opts.PinProtocol {
		// HTTP+SSE servers speak the initialize handshake only.
		asked = LegacyVersion
	}
	n := Negotiation{Asked: asked, Pinned: s.opts.PinProtocol}
	if n.Asked == "" {
		n.Asked = mcp.SupportedProtocolVersions()[0]
	}
	if n.Asked < ModernVersion {
		n.Handshake = "initialize"
	}
	s.neg.reset(n)
	if f, ok := t.(transport.Filterer); ok {
		f.FilterResults(s.wire.stub)
	}
	return c.Connect(ctx, t, &mcp.ClientSessionOptions{ProtocolVersion: asked})
}

// Subscribe asks for notifications/resources/updated about uri:
// resources/subscribe, or on 2026-07-28 a subscriptions/listen of its own
// (which the go-sdk keeps open until the session closes).
func (s *Session) Subscribe(ctx context.Context, uri string) error {
	if c := s.Capabilities(); c.Resources == nil || !c.Resources.Subscribe {
		return &NoSubscribeError{Server: s.server.Display(), URI: uri}
	}
	// Its updates are awaited from the moment it is asked for.
	s.subs.add(uri)
	err := s.request(ctx, &inflight{method: "resources/subscribe", target: uri}, func(ctx context.Context) error {
		return s.cs.Subscribe(ctx, &mcp.SubscribeParams{URI: uri})
	})
	if err != nil {
		s.subs.drop(uri)
	}
	return err
}

// NoSubscribeError is a subscription to a server that does not offer
// them (its resources capability has no subscribe).
type NoSubscribeError struct {
	Server string
	URI    string
}

func (e *NoSubscribeError) Error() string {
	return fmt.Sprintf("server \"%s\" does not offer resource subscriptions (its resources capability has no subscribe), so %q cannot be watched", e.Server, e.URI)
}

// Wait returns when the connection ends (the server closed it, or the
// session was closed), or ctx does.
func (s *Session) Wait(ctx context.Context) error {
	done := make(chan error, 1)
	go func() { done <- s.cs.Wait() }()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case err := <-done:
		return &ClosedError{Server: s.server.Display(), Err: err}
	}
}

// ClosedError is a connection the server ended.
type ClosedError struct {
	Server string
	Err    error
}

func (e *ClosedError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("the connection to server \"%s\" ended: %v", e.Server, e.Err)
	}
	return fmt.Sprintf("server \"%s\" closed the connection", e.Server)
}

func (e *ClosedError) Unwrap() error { return e.Err }

// Transport is what the session runs over: the one given to Connect, or
// the HTTP+SSE transport it fell back to.
func (s *Session) Transport() transport.Transport { return s.t }

// Legacy servers that use roots commonly ask for them as soon as the
// session is initialized, and act on the answer asynchronously: a request
// sent at once would race them (server-filesystem started without a
// directory would refuse it). Connect gives such a server rootsAsk to ask,
// then rootsSettle to take the answer in.
const (
	rootsAsk    = time.Second
	rootsSettle = 300 * time.Millisecond
)

// awaitRoots waits (briefly) for a legacy server's first roots/list.
func (s *Session) awaitRoots(ctx context.Context) {
	t := time.NewTimer(rootsAsk)
	defer t.Stop()
	select {
	case <-s.rootsServed:
		_ = sleep(ctx, rootsSettle)
	case <-t.C:
	case <-ctx.Done():
	}
}

// rootsListed tells OnStep that a legacy server was sent the roots while
// one of mcpcli's requests was in flight: an ask of that request, as an
// elicitation would be.
func (s *Session) rootsListed(ctx context.Context, lr *mcp.ListRootsResult) {
	s.mu.Lock()
	inFlight := s.current != nil
	s.mu.Unlock()
	if !inFlight {
		return // asked while connecting, or between requests
	}
	_, fl, number, done := s.legacyRound(ctx)
	done()
	s.step(Step{Kind: StepRootsListed, Call: fl.call, Method: fl.method, Target: fl.target, Round: number,
		RootsSent: rootsSent(mcp.InputResponseMap{"roots": lr})})
}

// Server says who is on the other end.
func (s *Session) Server() Server { return s.server }

// Declares reports whether mcpcli declared the client capability
// ("sampling" or "roots") on this session: a server may offer some tools
// only to clients that do.
func (s *Session) Declares(capability string) bool {
	switch capability {
	case "sampling":
		return s.Sampling()
	case "roots":
		return len(s.Roots()) > 0
	}
	return false
}

// Capabilities are what the server said it offers (never nil).
func (s *Session) Capabilities() *mcp.ServerCapabilities {
	if ir := s.cs.InitializeResult(); ir != nil && ir.Capabilities != nil {
		return ir.Capabilities
	}
	return &mcp.ServerCapabilities{}
}

// RawCapabilities are the server's capabilities exactly as it sent them,
// or nil when the wire did not show them.
func (s *Session) RawCapabilities() json.RawMessage {
	s.wire.mu.Lock()
	defer s.wire.mu.Unlock()
	return s.wire.capabilities
}

// Instructions are the server's instructions, if it gave any.
func (s *Session) Instructions() string {
	if ir := s.cs.InitializeResult(); ir != nil {
		return ir.Instructions
	}
	return ""
}

// SupportedVersions are the protocol versions the server said it speaks:
// in server/discover's answer, or in a -32022 error. Nil when it said none.
func (s *Session) SupportedVersions() []string {
	supported, offered := s.wire.versions()
	if len(supported) > 0 {
		return supported
	}
	if len(offered) > 0 {
		return offered
	}
	return nil
}

// HTTPSession reports whether the server keeps an HTTP session (legacy
// Streamable HTTP).
func (s *Session) HTTPSession() bool { return s.cs.ID() != "" }

// Drain waits (briefly) until every log and progress notification received
// so far has been handed to OnLog and OnProgress.
func (s *Session) Drain() { s.drain() }

// drain waits for the notifications the server sent so far: first until
// the transport has read them all (a 2025-11-25 server's GET stream is
// read apart from the request's own), then until they are handled.
func (s *Session) drain() {
	if st, ok := s.t.(interface{ Settle(time.Duration) }); ok {
		st.Settle(notesWait)
	}
	s.wire.drain()
}

// Explain turns an error of this session into one that says what happened
// to the server, when the transport or the wire knows more.
func (s *Session) Explain(err error) error { return s.explain(err) }

func (s *Session) explain(err error) error {
	if err == nil {
		return nil
	}
	err = s.t.Explain(err)
	var ae *transport.AuthError
	if _, offered := s.wire.versions(); len(offered) > 0 && !mutual(offered) && !errors.As(err, &ae) {
		return &VersionError{Via: s.t.Via(), Offered: offered, Speaks: mcp.SupportedProtocolVersions(), Cause: err}
	}
	return err
}

// mutual reports whether mcpcli speaks any of the offered versions.
func mutual(offered []string) bool {
	for _, v := range offered {
		if slices.Contains(mcp.SupportedProtocolVersions(), v) {
			return true
		}
	}
	return false
}

// cancelNoticeWait bounds how long Close waits for the go-sdk to send
// notifications/cancelled for an abandoned request.
const cancelNoticeWait = time.Second

// Close ends the session (and, for stdio, the server).
//
// When a request is still unanswered (the run was interrupted), it first
// gives the go-sdk, which sends notifications/cancelled off the caller's
// return path, the moment it needs to write it before the connection
// closes: without it the server might never learn that the request it is
// working on was abandoned. Over HTTP to a modern server the closed
// response stream already says so.
func (s *Session) Close() error {
	if s.wire.unanswered() {
		b, canBreak := s.t.(interface{ Broken() bool })
		broken := canBreak && b.Broken() // nothing more can be sent: no notice to wait for
		if _, http := s.t.(*transport.HTTP); s.gaveUp.Load() && !broken && (!http || !s.server.Modern()) {
			select {
			case <-s.wire.cancelSent:
			case <-time.After(cancelNoticeWait):
			}
		}
		// The server may be busy with what was given up on: a stdio
		// server gets less time to go at each step of its shutdown.
		if a, ok := s.t.(interface{ Abort() error }); ok {
			a.Abort()
		}
	}
	err := s.cs.Close()
	if cerr := s.t.Close(); err == nil {
		err = cerr
	}
	return err
}

// meta returns the _meta every request of a loop carries: a fresh progress
// token (always: progress also tells the request timeout that the server is
// at work), and the log level for modern servers.
func (s *Session) meta(fl *inflight) mcp.Meta {
	m := mcp.Meta{}
	token := fmt.Sprintf("mcpcli-%d", s.tokens.Add(1))
	m["progressToken"] = token
	s.mu.Lock()
	fl.token = token
	s.mu.Unlock()
	if level := s.LogLevel(); level != "" && s.server.Modern() {
		m[mcp.MetaKeyLogLevel] = level
	}
	if len(m) == 0 {
		return nil
	}
	return m
}

// LogLevel is the log level the session asks the server for ("" for none).
func (s *Session) LogLevel() string { return *s.level.Load() }

// SetLogLevel changes the log level asked for: on 2026-07-28 it goes in the
// _meta of each request from now on; an older server is sent
// logging/setLevel now. A server that does not declare logging is told
// nothing, and the error says so.
func (s *Session) SetLogLevel(ctx context.Context, level string) error {
	if !s.server.Modern() {
		if s.Capabilities().Logging == nil {
			return &NoLoggingError{Server: s.server.Display()}
		}
		if err := s.cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: mcp.LoggingLevel(level)}); err != nil {
			return fmt.Errorf("logging/setLevel %s: %w", level, s.explain(err))
		}
	}
	s.level.Store(&level)
	return nil
}

// Unsubscribe stops the updates of a resource subscribed to.
func (s *Session) Unsubscribe(ctx context.Context, uri string) error {
	s.subs.remove(uri)
	return s.explain(s.cs.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: uri}))
}

// warn tells the person something through Options.Warn.
func (s *Session) warn(msg string) {
	if s.opts.Warn != nil {
		s.opts.Warn(msg)
	}
}

// request runs one JSON-RPC request of a loop under the request timeout.
func (s *Session) request(ctx context.Context, fl *inflight, do func(context.Context) error) error {
	rctx, timer, cancel := withPausableTimeout(ctx, s.opts.Timeout)
	defer cancel()
	// Should it be cancelled, the server is told why.
	rctx = transport.WithCancelReason(rctx, func() string {
		if timer.expired() {
			return fmt.Sprintf("the client's timeout of %s ran out", s.opts.Timeout)
		}
		return cancelReason(ctx)
	})
	s.mu.Lock()
	fl.timer = timer
	fl.ctx = rctx
	s.current = fl
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.current = nil
		s.mu.Unlock()
	}()
	err := do(rctx)
	if err != nil && rctx.Err() != nil {
		s.gaveUp.Store(true)
	}
	if err != nil && brokenStream(err) && rctx.Err() == nil {
		// The server had the request (its response stream had begun) and
		// may have acted on it: it is not sent again. Resuming a stream
		// (2025-11-25's Last-Event-ID) is the go-sdk's, and sends nothing
		// twice; 2026-07-28 has no resumption at all.
		return &StreamError{Server: s.server.Display(), Method: fl.method, Target: fl.target, Cause: err}
	}
	if err != nil && timer.expired() && ctx.Err() == nil {
		return &TimeoutError{Server: s.server.Display(), After: s.opts.Timeout}
	}
	return err
}

// cancelReason is why ctx ended, in words for the server's
// notifications/cancelled: its cause, when one was given
// (context.WithCancelCause), else that the client gave up on it; never
// the go-sdk's "context canceled".
func cancelReason(ctx context.Context) string {
	if c := context.Cause(ctx); c != nil && !errors.Is(c, context.Canceled) && !errors.Is(c, context.DeadlineExceeded) {
		return c.Error()
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return "the client stopped waiting for the answer (its deadline passed)"
	}
	return "the client no longer needs the answer (the request was cancelled)"
}

// timed runs a request that takes no answers (a list page) under the
// request timeout.
func (s *Session) timed(ctx context.Context, do func(context.Context) error) error {
	if s.opts.Timeout <= 0 {
		return do(transport.WithCancelReason(ctx, func() string { return cancelReason(ctx) }))
	}
	// Pausable, as a request's: a sign-in the page runs into is not counted.
	tctx, _, cancel := withPausableTimeout(ctx, s.opts.Timeout)
	defer cancel()
	tctx = transport.WithCancelReason(tctx, func() string {
		if tctx.Err() != nil && ctx.Err() == nil {
			return fmt.Sprintf("the client's timeout of %s ran out", s.opts.Timeout)
		}
		return cancelReason(ctx)
	})
	err := do(tctx)
	if err != nil && tctx.Err() != nil {
		s.gaveUp.Store(true)
		if ctx.Err() == nil {
			return &TimeoutError{Server: s.server.Display(), After: s.opts.Timeout}
		}
	}
	return err
}
