package transport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// StderrLines is how many of a server's last stderr lines are kept.
const StderrLines = 200

// Command describes a server to start and talk to over stdio.
type Command struct {
	Argv []string // program and arguments; Argv[0] is looked up in $PATH
	Env  []string // extra K=V pairs, added to mcpcli's own environment
	Dir  string   // working directory; empty means mcpcli's
	// Stderr, when set, also receives the server's stderr as it is written
	// (mcpcli keeps the last StderrLines lines either way).
	Stderr io.Writer
	// Grace is how long to wait after closing stdin, and again after
	// SIGTERM, before escalating. Zero means 2s.
	Grace time.Duration
}

// String is the command line as the user would recognise it.
func (c Command) String() string { return strings.Join(c.Argv, " ") }

// Stdio is an mcp.Transport that starts Command as a child process in its own
// process group and speaks newline-delimited JSON-RPC on its stdin/stdout.
type Stdio struct {
	Cmd      Command
	Observer Observer
	// DiscoverWait is how long the server has to answer the server/discover
	// probe before mcpcli takes it for a legacy server and falls back to
	// the initialize handshake. Zero means DefaultDiscoverWait.
	DiscoverWait time.Duration
	// Warn, when set, is told when that fallback happens.
	Warn func(string)

	mu      sync.Mutex
	proc    *Process
	conn    *probeConn
	badLine string // the first line on stdout that cannot be a message
}

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
	s.mu.Lock()
	s.proc = p
	s.mu.Unlock()
	// Every line goes past a check that remembers the first one that cannot
	// be a JSON-RPC message (a log line, a banner, a stack trace), to say
	// so if the session then breaks on it.
	r, w := ObserveIO(p.stdout, p, func(ev Event) {
		if ev.Dir == Recv {
			s.checkLine(ev.Msg)
		}
		if s.Observer != nil {
			s.Observer(ev)
		}
	})
	conn, err := (&mcp.IOTransport{Reader: io.NopCloser(r), Writer: w, MaxLineLength: MaxMessageSize}).Connect(ctx)
	if err != nil {
		return nil, err
	}
	pc := withDiscoverProbe(conn, s.DiscoverWait, s.Warn)
	pc.unread = p.Unread
	s.mu.Lock()
	s.conn = pc
	s.mu.Unlock()
	return pc, nil
}

// MaxMessageSize bounds one message from a stdio server. The go-sdk's own
// default (16 MiB) is less than a resource a server may well return.
const MaxMessageSize = 256 << 20

func (s *Stdio) checkLine(line []byte) {
	if line[0] == '{' || line[0] == '[' {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.badLine == "" {
		const max = 120
		if len(line) > max {
			s.badLine = string(line[:max]) + "…"
		} else {
			s.badLine = string(line)
		}
	}
}

// readFailure is why reading the server's stdout failed, when it was not
// simply closed.
func (s *Stdio) readFailure() (err error, badLine string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.conn == nil {
		return nil, ""
	}
	s.conn.mu.Lock()
	err = s.conn.readErr
	s.conn.mu.Unlock()
	if err == nil || errors.Is(err, io.EOF) || errors.Is(err, mcp.ErrConnectionClosed) || errors.Is(err, os.ErrClosed) || errors.Is(err, io.ErrClosedPipe) {
		return nil, ""
	}
	return err, s.badLine
}

// ObserveIO shows obs every newline-delimited message read from r (Recv)
// and written to w (Send). With a nil obs it returns r and w unchanged.
func ObserveIO(r io.Reader, w io.WriteCloser, obs Observer) (io.Reader, io.WriteCloser) {
	if obs == nil {
		return r, w
	}
	return &teeReader{r: r, tee: lineTee{emit: func(b []byte) { obs(Event{Time: time.Now(), Dir: Recv, Msg: b}) }}},
		&teeWriter{w: w, tee: lineTee{emit: func(b []byte) { obs(Event{Time: time.Now(), Dir: Send, Msg: b}) }}}
}

// Explain turns a session error into one that says what happened to the
// server process, if it has died: its exit status and its last stderr lines.
func (s *Stdio) Explain(err error) error {
	p := s.Process()
	var rpcErr *jsonrpc.Error
	if p == nil || err == nil || errors.As(err, &rpcErr) {
		return err // the server answered: it is alive
	}
	if rerr, line := s.readFailure(); rerr != nil {
		// The server wrote something mcpcli could not read as a message;
		// whatever happened to the process after is a consequence.
		return &StdoutError{Cmd: s.Cmd.String(), Line: line, ReadErr: rerr, Stderr: p.StderrTail(), Cause: err}
	}
	select {
	case <-p.done:
	case <-time.After(300 * time.Millisecond):
		// Still running: the error is not about the process.
		return err
	}
	if p.signaled.Load() {
		return err // mcpcli stopped it
	}
	if p.closing.Load() && p.state != nil && p.state.Success() {
		// It left cleanly when mcpcli closed its stdin: mcpcli was ending
		// the session (after a failure of its own), not the server.
		return err
	}
	return &ExitError{Cmd: s.Cmd.String(), State: p.state, WaitErr: p.waitErr, Stderr: p.StderrTail(), Cause: err}
}

// StdoutError says a server wrote on stdout something that is not a
// JSON-RPC message, which ends the session.
type StdoutError struct {
	Cmd     string
	Line    string // the first line that cannot be a message, if one was seen
	ReadErr error  // why reading failed
	Stderr  []string
	Cause   error
}

func (e *StdoutError) Error() string {
	if strings.Contains(e.ReadErr.Error(), "maximum line length") {
		return fmt.Sprintf("server (stdio: %s) sent a message larger than %d MiB, more than mcpcli reads", e.Cmd, MaxMessageSize>>20)
	}
	what := e.ReadErr.Error()
	if e.Line != "" {
		what = fmt.Sprintf("%q", e.Line)
	}
	return fmt.Sprintf("server (stdio: %s) wrote something on stdout that is not a JSON-RPC message (%s); a stdio server must write only MCP messages to stdout, and its logs to stderr", e.Cmd, what)
}

func (e *StdoutError) Unwrap() error { return e.Cause }

// ExitError says a server process ended while mcpcli still needed it.
type ExitError struct {
	Cmd     string
	State   *os.ProcessState
	WaitErr error
	Stderr  []string
	Cause   error
}

func (e *ExitError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "server (stdio: %s) %s before answering", e.Cmd, describeExit(e.State, e.WaitErr))
	if len(e.Stderr) == 0 {
		b.WriteString("; it wrote nothing to stderr")
	}
	return b.String()
}

func (e *ExitError) Unwrap() error { return e.Cause }

func describeExit(st *os.ProcessState, waitErr error) string {
	if st == nil {
		if waitErr != nil {
			return "could not be waited for (" + waitErr.Error() + ")"
		}
		return "exited"
	}
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return "was killed by signal " + ws.Signal().String()
	}
	return fmt.Sprintf("exited with status %d", st.ExitCode())
}

// Process is a running server. Writes go to its stdin; Close shuts it down:
// close stdin, wait, SIGTERM the process group, wait, SIGKILL the group.
type Process struct {
	cmd    *exec.Cmd
	stdin  *os.File
	stdout io.ReadCloser
	stderr *tail
	grace  time.Duration

	done    chan struct{}
	state   *os.ProcessState
	waitErr error

	closeOnce sync.Once
	signaled  atomic.Bool // mcpcli sent it SIGTERM or SIGKILL
	closing   atomic.Bool // mcpcli closed its stdin
}

// Start starts c.
func Start(c Command) (*Process, error) {
	if len(c.Argv) == 0 || c.Argv[0] == "" {
		return nil, errors.New("no server command given: pass --stdio \"CMD ARGS\" or put the command after --")
	}
	cmd := exec.Command(c.Argv[0], c.Argv[1:]...)
	cmd.Dir = c.Dir
	cmd.Env = append(os.Environ(), c.Env...)
	cmd.SysProcAttr = sysProcAttr()
	// The pipe is mcpcli's own, not exec's StdinPipe, so that it can tell
	// whether the server has read what was written (see Unread).
	stdinR, stdin, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd.Stdin = stdinR
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	t := newTail(StderrLines, c.Stderr)
	cmd.Stderr = t
	err = cmd.Start()
	stdinR.Close() // the server's end
	if err != nil {
		stdin.Close()
		var ee *exec.Error
		if errors.As(err, &ee) {
			return nil, fmt.Errorf("cannot start server %q: %v; check the command and your PATH", c.Argv[0], ee.Err)
		}
		if errors.Is(err, os.ErrNotExist) && c.Dir != "" {
			return nil, fmt.Errorf("cannot start server %q in %s: %v; check --cwd", c.Argv[0], c.Dir, err)
		}
		return nil, fmt.Errorf("cannot start server %q: %v", c.Argv[0], err)
	}
	grace := c.Grace
	if grace <= 0 {
		grace = 2 * time.Second
	}
	p := &Process{cmd: cmd, stdin: stdin, stdout: stdout, stderr: t, grace: grace, done: make(chan struct{})}
	go func() {
		p.waitErr = cmd.Wait()
		p.state = cmd.ProcessState
		close(p.done)
	}()
	return p, nil
}

// Unread is how many bytes written to the server's stdin it has not read
// yet; ok is false where that cannot be known.
func (p *Process) Unread() (n int, ok bool) { return unread(p.stdin) }

// Write writes to the server's stdin.
func (p *Process) Write(b []byte) (int, error) { return p.stdin.Write(b) }

// Done is closed when the process has exited.
func (p *Process) Done() <-chan struct{} { return p.done }

// Pid is the server's process id (and its process group id).
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// StderrTail returns the last lines the server wrote to stderr.
func (p *Process) StderrTail() []string { return p.stderr.Lines() }

// Close shuts the server down and waits for it. It never leaves the process
// group behind.
func (p *Process) Close() error {
	p.closeOnce.Do(func() {
		p.closing.Store(true)
		p.stdin.Close()
		pgid := p.cmd.Process.Pid
		if !p.wait(p.grace) {
			p.signaled.Store(true)
			_ = syscall.Kill(-pgid, syscall.SIGTERM)
			if !p.wait(p.grace) {
				_ = syscall.Kill(-pgid, syscall.SIGKILL)
				p.wait(5 * time.Second)
			}
		}
		// Whatever the server left running in its group goes too.
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		p.stdout.Close()
	})
	return nil
}

func (p *Process) wait(d time.Duration) bool {
	select {
	case <-p.done:
		return true
	case <-time.After(d):
		return false
	}
}

type teeReader struct {
	r   io.Reader
	tee lineTee
}

func (t *teeReader) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if n > 0 {
		t.tee.feed(p[:n])
	}
	return n, err
}

type teeWriter struct {
	mu  sync.Mutex
	w   io.WriteCloser
	tee lineTee
}

func (t *teeWriter) Write(p []byte) (int, error) {
	t.mu.Lock()
	t.tee.feed(p)
	t.mu.Unlock()
	return t.w.Write(p)
}

func (t *teeWriter) Close() error { return t.w.Close() }
