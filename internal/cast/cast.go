// Package cast writes asciinema recordings (asciicast v2): what a program
// draws on its terminal as timed output events, with the terminal's
// resizes and named markers, which players show as chapters.
//
// A cast is JSON Lines: a header object, then one event a line,
// [time, code, data]. The Writer writes each line whole, in one write, as
// it happens: memory stays small however long the run, and a run that is
// stopped at any moment (a signal, a crash) leaves a file whose every line
// is complete, the header first. It never records input ("i" events):
// keystrokes may be secrets.
package cast

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"
)

// Version is the asciicast format version written: 2, the one every
// asciinema player and the asciinema CLI of Debian and Ubuntu (2.x) read.
const Version = 2

// Event codes.
const (
	Output = "o" // data is what was written to the terminal
	Input  = "i" // keys typed; never written by this package
	Resize = "r" // data is "COLSxROWS"
	Marker = "m" // data is the marker's label (a chapter in players)
)

// Header is the first line of a cast.
type Header struct {
	Width, Height int
	// Timestamp is when the recording started (omitted when zero).
	Timestamp time.Time
	// IdleTimeLimit caps every pause: the times written are capped
	// already, and the limit is in the header for players too (0: none).
	IdleTimeLimit time.Duration
	Title         string
	// Env is the environment worth knowing to play it back (TERM).
	Env map[string]string
}

// maxChunk bounds the output bytes of one event: a single huge write (a
// 100 MB result) becomes many events, and the Writer's buffer stays small.
const maxChunk = 32 << 10

// maxLine is the largest line buffer kept between events: a chunk of
// control characters, each escaped in six bytes.
const maxLine = 6*maxChunk + 64

// Writer writes one cast. Its methods are safe to call from several
// goroutines: events are written in the order they are made, with times
// that never decrease.
type Writer struct {
	mu    sync.Mutex
	w     io.Writer
	now   func() time.Time
	start time.Time
	idle  time.Duration
	real  time.Duration // wall time of the last event, from start
	at    time.Duration // cast time of the last event
	tail  []byte        // the start of a UTF-8 sequence that the next output ends
	line  []byte        // the line being built, reused
	err   error
	done  bool
	close func() error
}

// New writes h to w and returns the Writer of the events that follow. now
// is the clock (nil: time.Now); the cast's time 0 is when New is called.
func New(w io.Writer, h Header, now func() time.Time) (*Writer, error) {
	if now == nil {
		now = time.Now
	}
	if h.Width <= 0 || h.Height <= 0 {
		return nil, fmt.Errorf("the terminal size %dx%d is not a size", h.Width, h.Height)
	}
	c := &Writer{w: w, now: now, start: now(), idle: h.IdleTimeLimit}
	c.line = appendHeader(c.line[:0], h)
	if _, err := w.Write(c.line); err != nil {
		return nil, err
	}
	return c, nil
}

// Create creates the file path (truncating it) and writes h to it; Close
// closes the file.
func Create(path string, h Header, now func() time.Time) (*Writer, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	c, err := New(f, h, now)
	if err != nil {
		f.Close()
		os.Remove(path)
		return nil, err
	}
	c.close = f.Close
	return c, nil
}

func appendHeader(b []byte, h Header) []byte {
	b = append(b, `{"version": `...)
	b = strconv.AppendInt(b, Version, 10)
	b = append(b, `, "width": `...)
	b = strconv.AppendInt(b, int64(h.Width), 10)
	b = append(b, `, "height": `...)
	b = strconv.AppendInt(b, int64(h.Height), 10)
	if !h.Timestamp.IsZero() {
		b = append(b, `, "timestamp": `...)
		b = strconv.AppendInt(b, h.Timestamp.Unix(), 10)
	}
	if h.IdleTimeLimit > 0 {
		b = append(b, `, "idle_time_limit": `...)
		b = appendSeconds(b, h.IdleTimeLimit)
	}
	if h.Title != "" {
		b = append(b, `, "title": `...)
		b = appendString(b, []byte(h.Title))
	}
	if len(h.Env) > 0 {
		b = append(b, `, "env": {`...)
		for i, k := range sortedKeys(h.Env) {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = appendString(b, []byte(k))
			b = append(b, ": "...)
			b = appendString(b, []byte(h.Env[k]))
		}
		b = append(b, '}')
	}
	return append(b, "}\n"...)
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return keys
}

// Write records p as output, as drawn; it implements io.Writer and never
// fails (Err says whether the cast is whole).
func (c *Writer) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := len(p)
	for len(p) > 0 && !c.done {
		chunk := p
		if len(chunk) > maxChunk {
			chunk = chunk[:maxChunk]
		}
		p = p[len(chunk):]
		c.output(chunk)
	}
	return n, nil
}

// output writes one output event of the UTF-8 text in c.tail+p. A sequence
// cut at the end waits for the next output; invalid bytes become U+FFFD.
func (c *Writer) output(p []byte) {
	var data []byte
	if len(c.tail) > 0 {
		data = append(c.tail, p...)
		c.tail = nil
	} else {
		data = p
	}
	if cut := incomplete(data); cut > 0 {
		c.tail = append([]byte(nil), data[len(data)-cut:]...)
		data = data[:len(data)-cut]
	}
	if len(data) == 0 {
		return
	}
	c.event(Output, data)
}

// incomplete is how many bytes at the end of b start a UTF-8 sequence
// that more bytes could complete.
func incomplete(b []byte) int {
	for n := 1; n <= utf8.UTFMax-1 && n <= len(b); n++ {
		c := b[len(b)-n]
		if c < 0x80 {
			return 0 // ASCII: nothing is cut
		}
		if c >= 0xC0 { // a lead byte
			need := 2
			switch {
			case c >= 0xF0:
				need = 4
			case c >= 0xE0:
				need = 3
			}
			if need > n && !utf8.FullRune(b[len(b)-n:]) {
				return n
			}
			return 0
		}
	}
	return 0
}

// Resize records that the terminal is now cols×rows.
func (c *Writer) Resize(cols, rows int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.event(Resize, []byte(strconv.Itoa(cols)+"x"+strconv.Itoa(rows)))
}

// Mark records a marker: a named point players show as a chapter. The
// label is written as given: callers sanitize what came from elsewhere.
func (c *Writer) Mark(label string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.event(Marker, []byte(label))
}

// event writes one event line at the cast's current time. c.mu is held.
func (c *Writer) event(code string, data []byte) {
	if c.done || c.err != nil {
		return
	}
	real := c.now().Sub(c.start)
	delta := real - c.real
	if delta < 0 {
		delta = 0
	}
	c.real = max(real, c.real)
	if c.idle > 0 && delta > c.idle {
		delta = c.idle
	}
	c.at += delta
	b := append(c.line[:0], '[')
	b = appendSeconds(b, c.at)
	b = append(b, `, "`...)
	b = append(b, code...)
	b = append(b, `", `...)
	b = appendString(b, data)
	b = append(b, "]\n"...)
	if cap(b) <= maxLine {
		c.line = b // keep the buffer, unless an outsize marker grew it
	}
	if _, err := c.w.Write(b); err != nil {
		c.err = err
	}
}

// Err is the first error writing the cast, if any.
func (c *Writer) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Close ends the cast: a UTF-8 sequence left cut is written as U+FFFD, and
// the file Create made is closed. Events after Close are dropped.
func (c *Writer) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done {
		return c.err
	}
	if len(c.tail) > 0 {
		c.event(Output, c.tail)
		c.tail = nil
	}
	c.done = true
	if c.close != nil {
		if err := c.close(); err != nil && c.err == nil {
			c.err = err
		}
	}
	return c.err
}

// appendSeconds writes d in seconds with microseconds, as asciinema does.
func appendSeconds(b []byte, d time.Duration) []byte {
	us := d.Microseconds()
	b = strconv.AppendInt(b, us/1e6, 10)
	b = append(b, '.')
	var digits [8]byte
	frac := strconv.AppendInt(digits[:0], us%1e6, 10)
	for range 6 - len(frac) {
		b = append(b, '0')
	}
	return append(b, frac...)
}

const hex = "0123456789abcdef"

// appendString writes s as a JSON string: invalid UTF-8 as U+FFFD, control
// characters escaped, and U+2028 and U+2029 escaped for players that
// embed the cast in a page.
func appendString(b, s []byte) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c < 0x20 || c == 0x7f:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, "\ufffd"...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
		default:
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}
