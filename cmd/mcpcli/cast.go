package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/internal/cast"
	"github.com/mcpcli/mcpcli/render"
)

// recording is the run's --cast: what mcpcli draws on the terminal (all
// of stderr, and stdout when it is the terminal), as an asciinema cast,
// with a marker for each round and each chapter of the tour. Keys typed
// are never recorded.
type recording struct {
	w    *cast.Writer
	path string
	stop func() // stops watching the terminal's size
}

// castSize is the terminal size the cast starts with: stderr's, else
// stdout's, else $COLUMNS×$LINES, else 80×24.
func castSize(fds []int, getenv func(string) string) (cols, rows int) {
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

// startCast starts --cast: from here on, the run's stderr (and stdout,
// when it is the terminal) is also written to the cast.
func (f *Factory) startCast(cmd *cobra.Command) error {
	fl := f.Flags
	if fl.Cast == "" {
		if fl.CastIdle != 0 {
			return usageErrorf(cmd, "--cast-idle goes with --cast FILE: it caps the pauses of the recording")
		}
		return nil
	}
	if fl.CastIdle < 0 {
		return usageErrorf(cmd, "--cast-idle %v: give the longest pause to keep, in seconds, such as 2", fl.CastIdle)
	}
	if f.cast != nil {
		return nil
	}
	d := *f.Deps
	var fds []int // the terminals drawn on, the one to size first
	if fd, ok := ttyFd(d.Err); ok {
		fds = append(fds, fd)
	}
	outFd, outTTY := ttyFd(d.Out)
	if outTTY {
		fds = append(fds, outFd)
	}
	cols, rows := castSize(fds, f.getenv)
	h := cast.Header{
		Width: cols, Height: rows, Timestamp: time.Now(),
		IdleTimeLimit: time.Duration(fl.CastIdle * float64(time.Second)),
		Title:         cmd.CommandPath(),
	}
	if t := f.getenv("TERM"); t != "" {
		h.Env = map[string]string{"TERM": t}
	}
	w, err := cast.Create(fl.Cast, h, nil)
	if err != nil {
		return usageErrorf(cmd, "--cast %q: %v", fl.Cast, err)
	}
	rec := &recording{w: w, path: fl.Cast, stop: func() {}}
	if len(fds) > 0 {
		rec.stop = watchSize(fds[0], cols, rows, w.Resize)
	}
	// Stdout is recorded when it is the terminal: a result drawn there
	// is part of what the person saw. Piped or redirected, it is not.
	d.Err = tee(d.Err, w)
	if outTTY {
		d.Out = tee(d.Out, w)
	}
	f.Deps = &d
	f.console = nil
	f.cast = rec
	return nil
}

// ttyFd is w's descriptor when w is a terminal.
func ttyFd(w io.Writer) (int, bool) {
	if fw, ok := w.(interface{ Fd() uintptr }); ok && term.IsTerminal(int(fw.Fd())) {
		return int(fw.Fd()), true
	}
	return 0, false
}

// endCast closes the cast, saying so when it could not be written whole.
func (f *Factory) endCast() {
	rec := f.cast
	if rec == nil {
		return
	}
	f.cast = nil
	rec.stop()
	if err := rec.w.Close(); err != nil {
		f.Console().Warn(fmt.Sprintf("the recording %s is incomplete: %v", rec.path, err))
	}
}

// mark adds a marker to the cast, if the run records one.
func (f *Factory) mark(label string) {
	if f.cast != nil {
		f.cast.w.Mark(label)
	}
}

// markRounds wraps the run's answerer so that each round it answers is a
// marker, once the answers are chosen: call, round, and each key with the
// action sent.
func (f *Factory) markRounds(a client.Answerer) client.Answerer {
	if f.cast == nil || a == nil {
		return a
	}
	return client.AnswererFunc(func(ctx context.Context, r client.Round) (map[string]*mcp.ElicitResult, error) {
		out, err := a.Answer(ctx, r)
		if label := roundMarker(r, out, err); label != "" {
			f.mark(label)
		}
		return out, err
	})
}

// maxMarker bounds a marker's label, in characters.
const maxMarker = 160

// roundMarker names a round for the cast, as
// "create_repo · round 2 · details: decline"; "" for a round that ended
// in an error other than being abandoned (nothing was sent).
func roundMarker(r client.Round, out map[string]*mcp.ElicitResult, err error) string {
	target := r.Target
	if target == "" {
		target = r.Method
	}
	if target == "" {
		target = "elicitation"
	}
	head := fmt.Sprintf("%s · round %d · ", render.Line(target), r.Number)
	var what string
	switch {
	case errors.Is(err, client.ErrAbandoned) || errors.Is(err, context.Canceled):
		what = "abandoned"
	case err != nil:
		return ""
	default:
		var parts []string
		for _, a := range r.Asks {
			if res := out[a.Key]; res != nil {
				parts = append(parts, render.Line(a.Key)+": "+render.Line(res.Action))
			}
		}
		what = strings.Join(parts, ", ")
	}
	label := []rune(head + what)
	if len(label) > maxMarker {
		return string(label[:maxMarker-1]) + "…"
	}
	return string(label)
}

// castTee is a stream of the run that is also recorded.
type castTee struct {
	w   io.Writer
	fd  int // the terminal's descriptor, or -1
	rec *cast.Writer

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

// tee is w, also written to rec.
func tee(w io.Writer, rec *cast.Writer) io.Writer {
	t := &castTee{w: w, fd: -1, rec: rec}
	if fd, ok := ttyFd(w); ok {
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
