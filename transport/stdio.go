package transport

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Stdio is a Transport that starts Command as a child process in its own
// process group and speaks newline-delimited JSON-RPC on its stdin/stdout.
type Stdio struct {
	Cmd Command
	// DiscoverWait is how long the server has to answer the server/discover
	// probe before mcpcli takes it for a legacy server and falls back to
	// the initialize handshake. Zero means DefaultDiscoverWait;
	// NoDiscoverProbe waits for its answer however long it takes.
	DiscoverWait time.Duration
	// Warn, when set, is told of what the person should know: that
	// fallback, a line on stdout that is not a message.
	Warn func(string)
	// MaxMessage bounds one message from the server; zero means
	// MaxMessageSize.
	MaxMessage int

	obs    []Observer
	filter ResultFilter

	mu    sync.Mutex
	proc  *Process
	conn  *conn
	probe *probeConn
}

// Observe implements Transport.
func (s *Stdio) Observe(o Observer) { s.obs = append(s.obs, o) }

// FilterResults implements Filterer.
func (s *Stdio) FilterResults(f ResultFilter) { s.filter = f }

// Via implements Transport.
func (s *Stdio) Via() string { return "stdio: " + s.Cmd.String() }

// Process returns the started process, or nil before Connect.
func (s *Stdio) Process() *Process {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.proc
}

// Connect starts the process.
func (s *Stdio) Connect(ctx context.Context) (mcp.Connection, error) {
	p, err := Start(s.Cmd)
	if err != nil {
		return nil, err
	}
	c := newConn(p, Observers(s.obs...), s.Warn, s.MaxMessage)
	c.filter = s.filter
	s.mu.Lock()
	s.proc, s.conn = p, c
	s.mu.Unlock()
	pc := withDiscoverProbe(c, s.DiscoverWait, s.Warn)
	pc.unread = p.Unread
	s.mu.Lock()
	s.probe = pc
	s.mu.Unlock()
	return pc, nil
}

// Broken reports whether a write to the server was cut short: the stream
// is no longer whole, and nothing more can be sent on it.
func (s *Stdio) Broken() bool {
	s.mu.Lock()
	c := s.conn
	s.mu.Unlock()
	if c == nil {
		return false
	}
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	return c.broken != nil
}

// ProbeGaveUp reports how long mcpcli waited for server/discover before it
// took the server for an older one, if it did.
func (s *Stdio) ProbeGaveUp() (time.Duration, bool) {
	s.mu.Lock()
	pc := s.probe
	s.mu.Unlock()
	if pc == nil {
		return 0, false
	}
	pc.mu.Lock()
	defer pc.mu.Unlock()
	return pc.wait, len(pc.expired) > 0
}

// Close implements Transport: the server is shut down, if it was started.
func (s *Stdio) Close() error {
	if p := s.Process(); p != nil {
		return p.Close()
	}
	return nil
}

// Abort is Close for a run that did not finish (its request timed out or
// was interrupted): the server is stopped the same way, without waiting as
// long for it at each step.
func (s *Stdio) Abort() error {
	if p := s.Process(); p != nil {
		return p.Abort()
	}
	return nil
}

// Explain turns a session error into one that says what happened to the
// server process, if it has died: its exit status and its last stderr lines.
func (s *Stdio) Explain(err error) error {
	p := s.Process()
	var rpcErr *jsonrpc.Error
	if p == nil || err == nil || errors.As(err, &rpcErr) {
		return err // the server answered: it is alive
	}
	s.mu.Lock()
	c := s.conn
	s.mu.Unlock()
	if rerr, line := c.failure(); rerr != nil {
		// The server wrote something mcpcli could not read as a message;
		// whatever happened to the process after is a consequence.
		return &StdoutError{Cmd: s.Cmd.String(), Line: line, ReadErr: rerr, Stderr: p.StderrTail(), Cause: err}
	}
	select {
	case <-p.done:
	case <-time.After(300 * time.Millisecond):
		// Still running: the error is not about the process, unless it
		// closed its stdout and so can answer nothing more.
		if !c.atEOF() {
			return err
		}
		// A server closes its stdout mostly as it ends, and a busy
		// machine takes a while to say so (its supervisor reaps it, then
		// ends itself): only one still running after that closed it.
		select {
		case <-p.done:
		case <-time.After(stdoutClosedWait):
			return &StdoutClosedError{Cmd: s.Cmd.String(), Stderr: p.StderrTail(), Cause: err}
		}
	}
	if p.signaled.Load() {
		// mcpcli stopped it: after it had closed its stdout, that is
		// what ended the session.
		if c.atEOF() {
			return &StdoutClosedError{Cmd: s.Cmd.String(), Stderr: p.StderrTail(), Cause: err}
		}
		return err
	}
	if p.closing.Load() && p.state != nil && p.state.Success() && !c.serverEndedFirst() {
		// It left cleanly when mcpcli closed its stdin: mcpcli was ending
		// the session (after a failure of its own), not the server.
		return err
	}
	e := &ExitError{Cmd: s.Cmd.String(), State: p.state, WaitErr: p.waitErr, Signal: p.exit.Signal, Stderr: p.StderrTail(), Cause: err}
	if p.died {
		e.Supervisor, e.SupervisorPid = p.supervisor, p.Pid()
	}
	return e
}

// stdoutClosedWait is how long a server that closed its stdout has to be
// seen to exit before mcpcli says it closed its stdout while running.
const stdoutClosedWait = 2 * time.Second

// StdoutError says a server wrote on stdout something mcpcli cannot read,
// which ends the session.
type StdoutError struct {
	Cmd     string
	Line    string // the first line that cannot be a message, if one was seen
	ReadErr error  // why reading failed: *NotMessageError, *TooLongError, *DecodeError, or an I/O error
	Stderr  []string
	Cause   error
}

func (e *StdoutError) Error() string {
	var tl *TooLongError
	if errors.As(e.ReadErr, &tl) {
		return fmt.Sprintf("server (stdio: %s) sent %s", e.Cmd, tl.Error())
	}
	var ne *NestingError
	if errors.As(e.ReadErr, &ne) {
		return fmt.Sprintf("server (stdio: %s) sent a message of %s; it is valid JSON, but no MCP message needs that, so this is a bug in the server", e.Cmd, ne.Error())
	}
	what := e.ReadErr.Error()
	if e.Line != "" {
		what = fmt.Sprintf("%q", e.Line)
	}
	return fmt.Sprintf("server (stdio: %s) wrote something on stdout that is not a JSON-RPC message (%s); a stdio server must write only MCP messages to stdout, and its logs to stderr", e.Cmd, what)
}

func (e *StdoutError) Unwrap() error { return e.Cause }

// StdoutClosedError says a server closed its stdout while it went on
// running: nothing it sends can reach mcpcli any more.
type StdoutClosedError struct {
	Cmd    string
	Stderr []string
	Cause  error
}

func (e *StdoutClosedError) Error() string {
	return fmt.Sprintf("server (stdio: %s) closed its stdout while still running, so it can answer nothing more", e.Cmd)
}

func (e *StdoutClosedError) Unwrap() error { return e.Cause }

// ExitError says a server process ended while mcpcli still needed it.
type ExitError struct {
	Cmd     string
	State   *os.ProcessState
	WaitErr error
	// Signal is what killed the server when its supervisor said so (the
	// supervisor itself then exits 128+N).
	Signal int
	// Supervisor is set when it was the server's supervisor that died,
	// not the server: its name (mcpcli-supervise) and pid; State is then
	// the supervisor's.
	Supervisor    string
	SupervisorPid int
	Stderr        []string
	Cause         error
}

func (e *ExitError) Error() string {
	var b strings.Builder
	if e.Supervisor != "" {
		// The server did not fail: it was stopped with its supervisor.
		fmt.Fprintf(&b, "server (stdio: %s) was stopped before answering: its supervisor, %s (pid %d), %s, and mcpcli stopped the server and what it had started with it",
			e.Cmd, e.Supervisor, e.SupervisorPid, describeExit(e.State, e.WaitErr, 0))
		return b.String()
	}
	fmt.Fprintf(&b, "server (stdio: %s) %s before answering", e.Cmd, describeExit(e.State, e.WaitErr, e.Signal))
	if len(e.Stderr) == 0 {
		b.WriteString("; it wrote nothing to stderr")
	}
	return b.String()
}

func (e *ExitError) Unwrap() error { return e.Cause }
