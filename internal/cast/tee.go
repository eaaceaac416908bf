package cast

import (
	"bytes"
	"io"
	"os"
	"strconv"
	"sync"

	"golang.org/x/term"
)

// Size is the terminal size the cast starts with: stderr's, else
// stdout's, else $COLUMNS×$LINES, else 80×24.
func Size(fds []int, getenv func(string) string) (cols, rows int) {
	for _, fd := range fds {
		if w, h, err := term.GetSize(fd); err == nil && w > 0 && h > 0 {
			return w, h
		}
	}
	cols, _ = strconv.Atoi(getenv("COLUMNS"))
	rows, _ = strconv.Atoi(getenv("LINES"))
	if cols <= 0 || rows <= 0 {
		return 80, 24
	}
	return cols, rows
}

// TTYFd is w's descriptor when w is a terminal.
func TTYFd(w io.Writer) (int, bool) {
	if fw, ok := w.(interface{ Fd() uintptr }); ok && term.IsTerminal(int(fw.Fd())) {
		return int(fw.Fd()), true
	}
	return 0, false
}

// castTee is a stream of the run that is also recorded.
type castTee struct {
	w   io.Writer
	fd  int // the terminal's descriptor, or -1
	rec *Writer

	mu  sync.Mutex
	buf []byte
}

// castTeeFile is a castTee over a file: bubbletea and the console still
// find the terminal under it (its size, its colours, raw mode).
type castTeeFile struct {
	*castTee
	f *os.File
}

func (t castTeeFile) Read(p []byte) (int, error) { return t.f.Read(p) }
func (t castTeeFile) Close() error               { return t.f.Close() }
func (t castTeeFile) Fd() uintptr                { return t.f.Fd() }

// File is the file written through (render finds the terminal with it).
func (t castTeeFile) File() *os.File { return t.f }

// Tee is w, also written to rec: what the terminal shows of it (each
// "\n" drawn as "\r\n" where the terminal draws it so). Over a file, it
// is still the file for whoever looks for the terminal under it.
func Tee(w io.Writer, rec *Writer) io.Writer {
	t := &castTee{w: w, fd: -1, rec: rec}
	if fd, ok := TTYFd(w); ok {
		t.fd = fd
	}
	if f, ok := w.(*os.File); ok {
		return castTeeFile{castTee: t, f: f}
	}
	return t
}

// Write writes p to the stream, then records what the terminal shows of
// it: with the terminal's output processing on (not in raw mode), each
// "\n" is drawn as "\r\n"; what is not a terminal is recorded as a
// terminal would draw it.
func (t *castTee) Write(p []byte) (int, error) {
	n, err := t.w.Write(p)
	if n <= 0 {
		return n, err
	}
	shown := p[:n]
	if !bytes.Contains(shown, []byte("\n")) || t.fd >= 0 && !crlf(t.fd) {
		t.rec.Write(shown)
		return n, err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for len(shown) > 0 {
		chunk := shown[:min(len(shown), 32<<10)]
		shown = shown[len(chunk):]
		t.buf = t.buf[:0]
		for _, c := range chunk {
			if c == '\n' {
				t.buf = append(t.buf, '\r')
			}
			t.buf = append(t.buf, c)
		}
		t.rec.Write(t.buf)
	}
	return n, err
}

// watchSize reads the terminal fd's size at each event, and calls resize
// when it changed from cols×rows, until the returned stop is called
// (which calls end).
func watchSize[T any](events <-chan T, end func(), fd, cols, rows int, resize func(cols, rows int)) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-done:
				return
			case <-events:
				w, h, err := term.GetSize(fd)
				if err != nil || w <= 0 || h <= 0 || w == cols && h == rows {
					continue
				}
				cols, rows = w, h
				resize(w, h)
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			end()
			close(done)
			wg.Wait()
		})
	}
}
