package client

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultMaxRounds bounds the interim results answered for one request.
const DefaultMaxRounds = 10

// MaxStateOnlyRounds bounds the interim results that carry only
// requestState (a server shedding load, or polling for an out-of-band step).
const MaxStateOnlyRounds = 3

// Modes is the elicitation capability mcpcli declares.
type Modes struct{ Form, URL bool }

// ParseModes parses --elicitation: "form,url", "form", "url" or "none".
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
			return m, fmt.Errorf("--elicitation %q: use form,url, form, url or none", s)
		}
	}
	return m, nil
}

// String is the --elicitation spelling of m.
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
	ClientName    string // clientInfo.name; default "mcpcli"
	ClientVersion string
	Modes         Modes
	// Answerer answers every round of input requests, modern or legacy.
	Answerer Answerer
	// MaxRounds bounds the interim results per request; 0 means
	// DefaultMaxRounds.
	MaxRounds int
	// Timeout bounds each JSON-RPC request while it is with the server; the
	// time a person spends answering is never counted. Zero means none.
	Timeout time.Duration
	// LogLevel, when set, asks the server for log messages at that level
	// (per request in _meta, or logging/setLevel for older servers).
	LogLevel string
	// OnLog receives the server's notifications/message.
	OnLog func(*mcp.LoggingMessageParams)
	// OnProgress receives notifications/progress for mcpcli's requests.
	OnProgress func(*mcp.ProgressNotificationParams)
	// OnElicitationComplete receives notifications/elicitation/complete.
	OnElicitationComplete func(elicitationID string)
	// Schemas supplies requested schemas in the server's own bytes.
	Schemas *SchemaIndex
	// Logger receives the SDK's own warnings (tools dropped for invalid
	// header annotations, for example).
	Logger *slog.Logger
	// ProtocolVersion, when set, is the version to ask for first.
	ProtocolVersion string
	// OnStep, when set, is told about each round trip as it happens, so
	// that a UI can make the rounds visible.
	OnStep func(Step)
	// Backoff is the pause before the n-th (from 1) retry of a round that
	// carried only requestState. Nil means 0, 250ms, 500ms...
	Backoff func(n int) time.Duration
}

// Session is a connected MCP client session.
type Session struct {
	cs     *mcp.ClientSession
	opts   Options
	server Server

	mu      sync.Mutex
	current *inflight // the request mcpcli is waiting on, for legacy asks
	tokens  atomic.Int64
}

type inflight struct {
	method, target string
	timer          *pausableTimer
	legacyRounds   int
	abandoned      bool
	answerErr      error // why mcpcli could not answer a legacy elicitation
}

// Connect starts a session over t. via says how the server is reached
// ("stdio: CMD" or a URL) and names it when the server gives no name.
func Connect(ctx context.Context, t mcp.Transport, via string, opts Options) (*Session, error) {
	if opts.ClientName == "" {
		opts.ClientName = "mcpcli"
	}
	if opts.ClientVersion == "" {
		opts.ClientVersion = "dev"
	}
	if opts.MaxRounds <= 0 {
		opts.MaxRounds = DefaultMaxRounds
	}
	s := &Session{opts: opts}
	caps := &mcp.ClientCapabilities{}
	copts := &mcp.ClientOptions{
		Capabilities:   caps,
		MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true},
		Logger:         opts.Logger,
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			if s.opts.OnProgress != nil {
				s.opts.OnProgress(req.Params)
			}
		},
		LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) {
			if s.opts.OnLog != nil {
				s.opts.OnLog(req.Params)
			}
		},
		ElicitationCompleteHandler: func(_ context.Context, req *mcp.ElicitationCompleteNotificationRequest) {
			if s.opts.OnElicitationComplete != nil {
				s.opts.OnElicitationComplete(req.Params.ElicitationID)
			}
		},
	}
	if !opts.Modes.none() {
		caps.Elicitation = &mcp.ElicitationCapabilities{}
		if opts.Modes.Form {
			caps.Elicitation.Form = &mcp.FormElicitationCapabilities{}
		}
		if opts.Modes.URL {
			caps.Elicitation.URL = &mcp.URLElicitationCapabilities{}
		}
		copts.ElicitationHandler = s.answerLegacy
	}
	c := mcp.NewClient(&mcp.Implementation{Name: opts.ClientName, Version: opts.ClientVersion}, copts)
	cs, err := c.Connect(ctx, t, &mcp.ClientSessionOptions{ProtocolVersion: opts.ProtocolVersion})
	if err != nil {
		return nil, err
	}
	s.cs = cs
	s.server = Server{Via: via}
	if ir := cs.InitializeResult(); ir != nil {
		s.server.Protocol = ir.ProtocolVersion
		if ir.ServerInfo != nil {
			s.server.Name = ir.ServerInfo.Name
			s.server.Title = ir.ServerInfo.Title
			s.server.Version = ir.ServerInfo.Version
		}
	}
	if s.server.Name == "" {
		s.server.Name = via
	}
	if opts.LogLevel != "" && !s.server.Modern() {
		if ir := cs.InitializeResult(); ir != nil && ir.Capabilities != nil && ir.Capabilities.Logging != nil {
			if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: mcp.LoggingLevel(opts.LogLevel)}); err != nil {
				cs.Close()
				return nil, fmt.Errorf("logging/setLevel %s: %w", opts.LogLevel, err)
			}
		}
	}
	return s, nil
}

// Server says who is on the other end.
func (s *Session) Server() Server { return s.server }

// SDK returns the underlying go-sdk session, for listing and discovery.
func (s *Session) SDK() *mcp.ClientSession { return s.cs }

// InitializeResult is what server/discover or initialize returned.
func (s *Session) InitializeResult() *mcp.InitializeResult { return s.cs.InitializeResult() }

// Close ends the session (and, for stdio, the server).
func (s *Session) Close() error { return s.cs.Close() }

// meta returns the _meta every request of a loop carries: a fresh progress
// token when progress is wanted, and the log level for modern servers.
func (s *Session) meta() mcp.Meta {
	m := mcp.Meta{}
	if s.opts.OnProgress != nil {
		m["progressToken"] = fmt.Sprintf("mcpcli-%d", s.tokens.Add(1))
	}
	if s.opts.LogLevel != "" && s.server.Modern() {
		m[mcp.MetaKeyLogLevel] = s.opts.LogLevel
	}
	if len(m) == 0 {
		return nil
	}
	return m
}

// request runs one JSON-RPC request of a loop under the request timeout.
func (s *Session) request(ctx context.Context, fl *inflight, do func(context.Context) error) error {
	rctx, timer, cancel := withPausableTimeout(ctx, s.opts.Timeout)
	defer cancel()
	s.mu.Lock()
	fl.timer = timer
	s.current = fl
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.current = nil
		s.mu.Unlock()
	}()
	err := do(rctx)
	if err != nil && brokenStream(err) && rctx.Err() == nil {
		// The response stream ended before the result: send the request
		// once more (the SDK gives it a new id), then give up.
		s.warn("the response stream broke before the result; sending the request again with a new id",
			"method", fl.method, "target", fl.target)
		if err = do(rctx); err != nil && brokenStream(err) && rctx.Err() == nil {
			return &StreamError{Server: s.server.Display(), Method: fl.method, Target: fl.target, Cause: err}
		}
	}
	if err != nil && timer.expired() && ctx.Err() == nil {
		return fmt.Errorf("no answer from server %q within %s (--timeout)", s.server.Display(), s.opts.Timeout)
	}
	return err
}

// answerLegacy serves a server-initiated elicitation/create (protocol
// versions before 2026-07-28) through the same Answerer.
func (s *Session) answerLegacy(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	s.mu.Lock()
	fl := s.current
	if fl == nil {
		fl = &inflight{}
	}
	fl.legacyRounds++
	round := Round{Server: s.server, Method: fl.method, Target: fl.target, Number: fl.legacyRounds, Legacy: true}
	s.mu.Unlock()
	if s.opts.Answerer == nil {
		return nil, errors.New("mcpcli has no way to answer elicitations in this run")
	}
	ask := Ask{Key: "elicitation", Params: req.Params, Schema: s.opts.Schemas.Lookup(req.Params.RequestedSchema)}
	if err := s.checkAsk(ask); err != nil {
		return nil, err
	}
	round.Asks = []Ask{ask}
	fl.timer.pause()
	defer fl.timer.resume()
	answers, err := s.opts.Answerer.Answer(ctx, round)
	if err != nil {
		s.mu.Lock()
		if errors.Is(err, ErrAbandoned) {
			fl.abandoned = true
		} else if fl.answerErr == nil {
			fl.answerErr = err
		}
		s.mu.Unlock()
		return nil, err
	}
	res := answers[ask.Key]
	if res == nil {
		return nil, fmt.Errorf("no answer for the elicitation")
	}
	return res, nil
}

// checkAsk refuses an elicitation in a mode mcpcli did not declare.
func (s *Session) checkAsk(a Ask) error {
	switch mode := a.Mode(); mode {
	case "form":
		if !s.opts.Modes.Form {
			return &ProtocolError{Server: s.server.Display(), Detail: fmt.Sprintf(
				"sent a form elicitation (%q) although mcpcli declared only %s elicitation (--elicitation %s); this is a bug in the server",
				a.Key, s.opts.Modes, s.opts.Modes)}
		}
	case "url":
		if !s.opts.Modes.URL {
			return &ProtocolError{Server: s.server.Display(), Detail: fmt.Sprintf(
				"sent a URL elicitation (%q) although mcpcli declared only %s elicitation (--elicitation %s); this is a bug in the server",
				a.Key, s.opts.Modes, s.opts.Modes)}
		}
	default:
		return &ProtocolError{Server: s.server.Display(), Detail: fmt.Sprintf(
			"sent an elicitation (%q) in unknown mode %q; only form and url exist", a.Key, mode)}
	}
	return nil
}
