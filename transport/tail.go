package transport

import (
	"bytes"
	"errors"
	"io"
	"sync"
)

// tail keeps the last n lines written to it, and copies everything to an
// optional live writer.
type tail struct {
	mu      sync.Mutex
	n       int
	lines   []string
	partial []byte
	live    io.Writer
}

func newTail(n int, live io.Writer) *tail { return &tail{n: n, live: live} }

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.live != nil {
		_, _ = t.live.Write(p)
	}
	rest := p
	for {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			t.partial = append(t.partial, rest...)
			if len(t.partial) > 64<<10 { // a runaway line without a newline
				t.push(string(t.partial))
				t.partial = t.partial[:0]
			}
			break
		}
		t.partial = append(t.partial, rest[:i]...)
		t.push(string(bytes.TrimRight(t.partial, "\r")))
		t.partial = t.partial[:0]
		rest = rest[i+1:]
	}
	return len(p), nil
}

func (t *tail) push(line string) {
	t.lines = append(t.lines, line)
	if len(t.lines) > t.n {
		t.lines = append(t.lines[:0:0], t.lines[len(t.lines)-t.n:]...)
	}
}

// Lines returns the kept lines, including an unterminated last line.
func (t *tail) Lines() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := append([]string(nil), t.lines...)
	if len(t.partial) > 0 {
		out = append(out, string(t.partial))
	}
	return out
}

// StderrTail is what a stdio server wrote to stderr last, when the error
// is about its death or its stdout.
func StderrTail(err error) []string {
	var ee *ExitError
	var se *StdoutError
	var sc *StdoutClosedError
	switch {
	case errors.As(err, &ee):
		return ee.Stderr
	case errors.As(err, &se):
		return se.Stderr
	case errors.As(err, &sc):
		return sc.Stderr
	}
	return nil
}
