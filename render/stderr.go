package render

import (
	"bytes"
	"io"
	"sync"
)

// maxStderrLine bounds a line of a server's stderr held while waiting for
// its newline; a longer one is shown in pieces.
const maxStderrLine = 16 << 10

// ServerStderr returns a writer for what a stdio server writes to its
// stderr (-v): each line is shown on the console as it completes,
// sanitized, after prefix. A last line without a newline is shown by
// Close.
func (c *Console) ServerStderr(prefix string) io.WriteCloser {
	return &stderrLines{con: c, prefix: prefix}
}

type stderrLines struct {
	con    *Console
	prefix string

	mu      sync.Mutex
	partial []byte
}

func (s *stderrLines) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rest := p
	for len(rest) > 0 {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			s.partial = append(s.partial, rest...)
			for len(s.partial) > maxStderrLine {
				s.show(s.partial[:maxStderrLine])
				s.partial = append(s.partial[:0], s.partial[maxStderrLine:]...)
			}
			break
		}
		s.partial = append(s.partial, rest[:i]...)
		s.show(bytes.TrimRight(s.partial, "\r"))
		s.partial = s.partial[:0]
		rest = rest[i+1:]
	}
	return len(p), nil
}

func (s *stderrLines) show(line []byte) {
	s.con.Printf("%s%s", s.prefix, Line(string(line)))
}

// Close shows a last line that had no newline.
func (s *stderrLines) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.partial) > 0 {
		s.show(s.partial)
		s.partial = nil
	}
	return nil
}
