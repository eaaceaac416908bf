package transport

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/internal/growstack"
)

// MaxMessageSize bounds one message from a stdio server by default. The
// go-sdk's own default (16 MiB) is less than a resource a server may well
// return.
const MaxMessageSize = 256 << 20

// bigLine is the size from which a line read is followed by a garbage
// collection: see pump.
const bigLine = 16 << 20

// MaxBannerLines is how many lines that are not JSON-RPC messages a stdio
// server may write on stdout (a start-up banner, a stray log line) before
// mcpcli stops reading it: each is skipped, with one warning.
const MaxBannerLines = 5

// conn is a stdio server's connection: one JSON-RPC message per line each
// way. It reads in a goroutine of its own, so that a Read can end with its
// context, with Close, or when the server process exits (even if a child
// of the server keeps its stdout open).
type conn struct {
	p       *Process
	obs     Observer
	warn    func(string)
	maxLine int
	filter  ResultFilter

	in        chan readResult
	done      chan struct{}
	closeOnce sync.Once
	startOnce sync.Once

	writeMu sync.Mutex
	broken  error // a write was cut short: the stream is not whole

	mu      sync.Mutex
	readErr error  // why reading stopped, once it has
	badLine string // the first line that could not be a message
	skipped int    // lines skipped as not messages
	// stdoutClosed: reading ended at the end of the server's stdout, not
	// because mcpcli closed it (its own Close, or the server's exit).
	stdoutClosed bool
	// endedFirst: reading ended (the server closed its stdout, or
	// exited), or a write found its stdin closed, before mcpcli closed
	// the connection.
	endedFirst bool

	reading atomic.Bool // the reader is waiting on the pipe

	// pending are the ids of requests written and not yet answered: an
	// error response with a null id goes to the one request waiting, when
	// there is exactly one.
	pendingMu sync.Mutex
	pending   map[jsonrpc.ID]bool
}

type readResult struct {
	msg jsonrpc.Message
	err error
}

func newConn(p *Process, obs Observer, warn func(string), maxLine int) *conn {
	if maxLine <= 0 {
		maxLine = MaxMessageSize
	}
	c := &conn{p: p, obs: obs, warn: warn, maxLine: maxLine, in: make(chan readResult), done: make(chan struct{})}
	go c.watchExit()
	return c
}

// Read implements mcp.Connection.
func (c *conn) Read(ctx context.Context) (jsonrpc.Message, error) {
	c.startOnce.Do(func() { go c.pump() })
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.done:
		return nil, mcp.ErrConnectionClosed
	case r, ok := <-c.in:
		if !ok {
			c.mu.Lock()
			err := c.readErr
			c.mu.Unlock()
			return nil, err
		}
		return r.msg, nil
	}
}

// pump reads lines until the pipe ends or a line cannot be read.
func (c *conn) pump() {
	// Its stack made big before the first message: decoding one grew it
	// twice, 7 and 16 frames down, and each growth walks those frames
	// (see growstack).
	growstack.Grow()
	lr := &lineReader{r: bufio.NewReaderSize(readFlag{c.p.stdout, &c.reading}, 64<<10), max: c.maxLine}
	var err error
	for err == nil {
		var line []byte
		line, err = lr.next()
		if err != nil {
			break
		}
		if line[0] != '{' && line[0] != '[' {
			if c.obs != nil {
				c.obs(Event{Time: time.Now(), Dir: Recv, Msg: line, Env: invalid(errNotMessage)})
			}
			err = c.notMessage(line)
			continue
		}
		if len(line) >= bigLine {
			// Reading it left as much again in pieces: collect them now,
			// before the go-sdk decodes the message into as much more.
			runtime.GC()
		}
		ms := lineMessages(line)
		if c.obs != nil {
			now := time.Now()
			for _, m := range ms {
				c.obs(Event{Time: now, Dir: Recv, Msg: m.msg, Env: m.env})
			}
		}
		var msgs []jsonrpc.Message
		msgs, err = lineResult(line, ms)
		var ne *NullIDError
		if errors.As(err, &ne) {
			msgs, err = c.nullID(ne)
		}
		for _, m := range msgs {
			if r, ok := m.(*jsonrpc.Response); ok {
				c.answered(r.ID)
			}
			c.filter.apply(m)
			select {
			case c.in <- readResult{msg: m}:
			case <-c.done:
				return
			}
		}
	}
	closing := false
	select {
	case <-c.done:
		closing = true
	default:
	}
	c.mu.Lock()
	if c.readErr == nil {
		c.readErr = err
		c.stdoutClosed = errors.Is(err, io.EOF) && !closing
		c.endedFirst = c.endedFirst || !closing // a write may have found it first
	}
	c.mu.Unlock()
	close(c.in)
}

// errNotMessage is a line that cannot be a JSON-RPC message: it is
// neither an object nor an array.
var errNotMessage = errors.New("not a JSON-RPC message: neither an object nor an array")

// notMessage skips a line that is not a message (a banner, a log line on
// the wrong stream), up to MaxBannerLines of them, with one warning.
func (c *conn) notMessage(line []byte) error {
	c.mu.Lock()
	if c.badLine == "" {
		c.badLine = shortLine(line)
	}
	c.skipped++
	n, first := c.skipped, c.badLine
	c.mu.Unlock()
	if n > MaxBannerLines {
		return &NotMessageError{Line: first, Lines: n}
	}
	if n == 1 && c.warn != nil {
		c.warn(fmt.Sprintf("the server wrote a line on stdout that is not a JSON-RPC message (%q); skipping it (a stdio server must keep stdout for messages and log to stderr)", first))
	}
	return nil
}

func shortLine(line []byte) string {
	const max = 120
	if len(line) > max {
		return string(line[:max]) + "…"
	}
	return string(line)
}

// NotMessageError is a stdio server that keeps writing lines on stdout
// that are not JSON-RPC messages.
type NotMessageError struct {
	Line  string // the first of them
	Lines int
}

func (e *NotMessageError) Error() string {
	return fmt.Sprintf("%d lines on stdout are not JSON-RPC messages, the first %q", e.Lines, e.Line)
}

// TooLongError is a message longer than mcpcli reads.
type TooLongError struct{ Max int }

func (e *TooLongError) Error() string {
	return fmt.Sprintf("a message larger than %s, more than mcpcli reads", FormatSize(int64(e.Max)))
}

// DecodeError is a line that looks like JSON but is not a JSON-RPC message.
type DecodeError struct {
	Line string
	Err  error
}

func (e *DecodeError) Error() string { return fmt.Sprintf("cannot read %q: %v", e.Line, e.Err) }
func (e *DecodeError) Unwrap() error { return e.Err }

func errOr(err error, msg string) error {
	if err != nil {
		return err
	}
	return errors.New(msg)
}

// Write implements mcp.Connection.
func (c *conn) Write(ctx context.Context, msg jsonrpc.Message) error {
	data, err := jsonrpc.EncodeMessage(withReason(ctx, msg))
	if err != nil {
		return err
	}
	data = append(data, '\n')
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	if c.broken != nil {
		return c.broken
	}
	if c.obs != nil {
		c.obs(Event{Time: time.Now(), Dir: Send, Msg: data[:len(data)-1], Env: Decode(data[:len(data)-1]), Ctx: ctx})
	}
	if r, ok := msg.(*jsonrpc.Request); ok && r.ID.IsValid() {
		c.pendingMu.Lock()
		if c.pending == nil {
			c.pending = map[jsonrpc.ID]bool{}
		}
		c.pending[r.ID] = true
		c.pendingMu.Unlock()
	}
	err = c.p.write(ctx, data)
	if errors.Is(err, errCutShort) {
		c.broken = err
	}
	if brokenPipe(err) {
		// Nothing reads the server's stdin any more: it ended (or closed
		// its stdin) first, which a quick exit says before its stdout's
		// end is read.
		select {
		case <-c.done:
		default:
			c.mu.Lock()
			c.endedFirst = true
			c.mu.Unlock()
		}
	}
	return err
}

func (c *conn) answered(id jsonrpc.ID) {
	c.pendingMu.Lock()
	delete(c.pending, id)
	c.pendingMu.Unlock()
}

// Close implements mcp.Connection: it shuts the server down.
func (c *conn) Close() error {
	c.closeOnce.Do(func() { close(c.done) })
	c.writeMu.Lock()
	broken := c.broken != nil
	c.writeMu.Unlock()
	c.pendingMu.Lock()
	unanswered := len(c.pending) > 0
	c.pendingMu.Unlock()
	if broken || unanswered {
		// A write was cut short (the run was stopped while the server
		// was not reading), or a request is left unanswered (Ctrl+C or
		// --timeout while connecting, before the session could say so):
		// it is being given up on, not ended in order.
		return c.p.Abort()
	}
	return c.p.Close()
}

// SessionID implements mcp.Connection; stdio has no sessions.
func (c *conn) SessionID() string { return "" }

// failure is why reading failed, when it was not simply the end.
func (c *conn) failure() (err error, badLine string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	err = c.readErr
	if err == nil || errors.Is(err, io.EOF) || errors.Is(err, os.ErrClosed) || errors.Is(err, io.ErrClosedPipe) {
		return nil, ""
	}
	return err, c.badLine
}

// atEOF reports whether reading ended because the server closed its
// stdout (not because mcpcli closed the connection).
func (c *conn) atEOF() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stdoutClosed
}

// serverEndedFirst reports whether the server stopped talking (closed its
// stdout, or exited) before mcpcli closed the connection.
func (c *conn) serverEndedFirst() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.endedFirst
}

// watchExit ends reading once the server has exited and everything it
// wrote has been read: a child it left running may hold stdout open, and
// mcpcli must not wait for it.
func (c *conn) watchExit() {
	select {
	case <-c.p.done:
	case <-c.done:
		return
	}
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for limit := 0; ; limit++ {
		n, known := unread(c.p.stdout)
		if c.reading.Load() && (known && n == 0 || !known && limit > 20) || limit > 500 {
			c.p.stdout.Close()
			return
		}
		select {
		case <-tick.C:
		case <-c.done:
			return
		}
	}
}

// readFlag marks the time spent waiting in the pipe's Read.
type readFlag struct {
	r    io.Reader
	flag *atomic.Bool
}

func (r readFlag) Read(p []byte) (int, error) {
	r.flag.Store(true)
	n, err := r.r.Read(p)
	r.flag.Store(false)
	return n, err
}

// lineReader splits a stream into lines of at most max bytes, their line
// ending ("\n" or "\r\n") aside. Each line comes back in a slice of its
// own, trimmed; blank lines are skipped.
type lineReader struct {
	r   *bufio.Reader
	max int
}

func (l *lineReader) next() ([]byte, error) {
	for {
		line, err := l.line()
		if err != nil {
			return nil, err
		}
		line = bytes.TrimSpace(line)
		if len(line) > 0 {
			return line, nil
		}
	}
}

// line reads one line, in memory of its own. A line longer than the
// buffer is gathered in pieces and joined once: growing one slice as it
// came took some five times the line's size.
func (l *lineReader) line() ([]byte, error) {
	var pieces [][]byte
	size := 0
	for {
		frag, err := l.r.ReadSlice('\n')
		if size+len(frag) > l.max+2 { // past the bound whatever the ending
			return nil, &TooLongError{Max: l.max}
		}
		if err == nil && pieces == nil {
			if lineLen(frag) > l.max {
				return nil, &TooLongError{Max: l.max}
			}
			return append(make([]byte, 0, len(frag)), frag...), nil // the usual case
		}
		if len(frag) > 0 {
			pieces = append(pieces, append(make([]byte, 0, len(frag)), frag...))
			size += len(frag)
		}
		switch {
		case err == nil:
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && size > 0:
			// a last line without its newline (next skips it if blank)
		default:
			return nil, err
		}
		line := make([]byte, 0, size)
		for _, p := range pieces {
			line = append(line, p...)
		}
		if lineLen(line) > l.max {
			return nil, &TooLongError{Max: l.max}
		}
		return line, nil
	}
}

// lineLen is the length of a line without its "\n" and a "\r" before it.
func lineLen(line []byte) int {
	n := len(line)
	if n > 0 && line[n-1] == '\n' {
		n--
	}
	if n > 0 && line[n-1] == '\r' {
		n--
	}
	return n
}
