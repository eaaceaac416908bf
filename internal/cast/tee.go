package cast

import (
	"bytes"
	"io"
	"os"
	"strconv"
	"sync"
	"time"

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

// Recording is a run's recording of its terminal: what it draws on stderr,
// and on stdout when that is the terminal (a result drawn there is part
// of what the person saw; piped or redirected, it is not). Keys typed are
// never recorded.
type Recording struct {
	*Writer
	Path string
	// Err and Out are the run's streams, recorded as they are written.
	Err, Out io.Writer
	stop     func() // stops watching the terminal's size
}

// Record starts recording the run's streams (errw, out) in the cast file
// path: title heads it, idle caps its pauses, getenv finds its size where
// no terminal says it ($COLUMNS, $LINES) and its $TERM.
func Record(path, title string, idle time.Duration, errw, out io.Writer, getenv func(string) string) (*Recording, error) {
	var fds []int // the terminals drawn on, the one to size first
	if fd, ok := TTYFd(errw); ok {
		fds = append(fds, fd)
	}
	outFd, outTTY := TTYFd(out)
	if outTTY {
		fds = append(fds, outFd)
	}
	cols, rows := Size(fds, getenv)
	h := Header{Width: cols, Height: rows, Timestamp: time.Now(), IdleTimeLimit: idle, Title: title}
	if t := getenv("TERM"); t != "" {
		h.Env = map[string]string{"TERM": t}
	}
	w, err := Create(path, h, nil)
	if err != nil {
		return nil, err
	}
	r := &Recording{Writer: w, Path: path, Err: Tee(errw, w), Out: out, stop: func() {}}
	if outTTY {
		r.Out = Tee(out, w)
	}
	if len(fds) > 0 {
		r.stop = WatchSize(fds[0], cols, rows, w.Resize)
	}
	return r, nil
}

// Close stops the recording and closes the cast.
func (r *Recording) Close() error {
	r.stop()
	return r.Writer.Close()
}
