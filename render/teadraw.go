package render

// Works around bubbletea v2.1.1: it writes a frame to the terminal only on
// its frame ticker (120 a second at most), so a key's effect, computed in
// well under a millisecond, waits up to 8.3 ms (4 on average) to be seen,
// and the first frame of each program likewise. Upstream's fix (drawing
// at once after input, bubbletea pull request #1776) is not released, and
// a fork would take a `replace` line, which `go install …@latest` refuses.
//
// drawSoon reaches the program's own ticker (an unexported field, found
// by reflection once per program, its type checked) and, once bubbletea
// holds a frame that input changed, makes it tick at once, then at its
// own rate again as soon as the frame's bytes are written (or soonSpin
// later, when none are). teadraw_test.go fails when bubbletea's field moves
// or its ticker stops drawing: then drawSoon does nothing (frames come on
// the ticker, as they did), and this file should follow bubbletea, or go.

import (
	"io"
	"reflect"
	"sync"
	"time"
	"unsafe"

	tea "charm.land/bubbletea/v2"
)

const (
	// soonTick is the ticker's period while a frame is due: at once. The
	// Go runtime sleeps for at least a millisecond when its next timer is
	// not yet due, so any longer period would cost that millisecond.
	soonTick = time.Nanosecond
	// soonSpin bounds soonTick: a frame whose bytes are not written by
	// then changed nothing the terminal shows (text past its edge, a
	// style the colour profile drops), and each tick meanwhile costs
	// bubbletea a comparison of two frames. (Setting the period then
	// drops a tick due and not yet taken: on a machine so busy that
	// bubbletea has not taken it, the frame comes at the next tick of its
	// own period, as it would without drawSoon.)
	soonSpin = 200 * time.Microsecond
)

// drawSoon brings a program's next frame forward.
type drawSoon struct {
	p      *tea.Program
	period time.Duration // the ticker's own period (tests: longer)

	once sync.Once
	t    *time.Ticker // nil: bubbletea's field was not found

	spin time.Duration // soonSpin (tests: longer)

	mu   sync.Mutex
	gen  int  // the last bringing-forward; an older one's timers do nothing
	due  bool // a frame is brought forward and not yet written
	done bool // the program has ended: its ticker is bubbletea's alone
}

// ticker is the program's frame ticker, or nil: read once the program has
// started its renderer (bubbletea does so before its model's Init, on the
// goroutine that then runs Update and View, where drawSoon is used).
func (d *drawSoon) ticker() *time.Ticker {
	if d == nil {
		return nil
	}
	d.once.Do(func() {
		if d.p != nil {
			d.t = teaTicker(d.p)
		}
	})
	return d.t
}

// teaTicker is p's frame ticker, or nil when bubbletea has none by that
// name and type.
func teaTicker(p *tea.Program) *time.Ticker {
	f := reflect.ValueOf(p).Elem().FieldByName("ticker")
	if !f.IsValid() || f.Type() != reflect.TypeFor[*time.Ticker]() {
		return nil
	}
	return *(**time.Ticker)(unsafe.Pointer(f.UnsafeAddr()))
}

// start sets the ticker to period as the program starts (bubbletea's
// own, unless a test made it longer).
func (d *drawSoon) start() {
	if t := d.ticker(); t != nil {
		t.Reset(d.period)
	}
}

// now makes the ticker take the frame bubbletea holds to the terminal at
// once, then tick at its own period again.
func (d *drawSoon) now() {
	t := d.ticker()
	if t == nil {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.done {
		return
	}
	d.gen++
	gen := d.gen
	d.due = true
	t.Reset(soonTick)
	time.AfterFunc(d.spin, func() {
		d.mu.Lock()
		defer d.mu.Unlock()
		if d.gen == gen && d.due && !d.done {
			d.due = false
			t.Reset(d.period)
		}
	})
}

// writing is the bringing-forward a write to the terminal starts under:
// only a write that starts after now() can carry its frame.
func (d *drawSoon) writing() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.gen
}

// wrote is told that a write that started under gen is done: when gen is
// the last bringing-forward, its frame is out (bubbletea writes what it
// holds in one tick, its queued sequences first, then the frame), and the
// ticker goes back to its own period.
func (d *drawSoon) wrote(gen int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.due && d.gen == gen && !d.done { // due is set by now, after it found the ticker
		d.due = false
		d.t.Reset(d.period)
	}
}

// stop is called when the program has ended: its ticker is left as
// bubbletea left it.
func (d *drawSoon) stop() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.done = true
}

// changed reports whether b shows something a differs in: only then is
// its frame brought forward (one that changed nothing writes nothing).
func changed(a *tea.View, b tea.View) bool {
	if a == nil || a.Content != b.Content || (a.Cursor == nil) != (b.Cursor == nil) {
		return true
	}
	return a.Cursor != nil && (a.Cursor.X != b.Cursor.X || a.Cursor.Y != b.Cursor.Y)
}

// soonOut is the terminal's output, telling d of each write.
type soonOut struct {
	w io.Writer
	d *drawSoon
}

func (o soonOut) Write(p []byte) (int, error) {
	gen := o.d.writing()
	n, err := o.w.Write(p)
	o.d.wrote(gen)
	return n, err
}

// termFile is what bubbletea takes for a terminal (its term.File).
type termFile interface {
	io.ReadWriteCloser
	Fd() uintptr
}

// soonFile is a soonOut over a terminal: bubbletea still finds it one
// (its size, raw mode).
type soonFile struct {
	soonOut
	f termFile
}

func (o soonFile) Read(p []byte) (int, error) { return o.f.Read(p) }
func (o soonFile) Close() error               { return o.f.Close() }
func (o soonFile) Fd() uintptr                { return o.f.Fd() }

// outputFor is w, telling d of each write. (bubbletea's tea.Exec would
// give a child this as its stdout, a pipe to the child, not the terminal:
// mcpcli's one tea.Exec, the session's share, runs no child on it.)
func outputFor(w io.Writer, d *drawSoon) io.Writer {
	o := soonOut{w: w, d: d}
	if f, ok := w.(termFile); ok {
		return soonFile{soonOut: o, f: f}
	}
	return o
}

// input says msg is the person's (a key, a paste, the mouse) or the
// terminal's new size: what is drawn for it is drawn at once.
func input(msg tea.Msg) bool {
	switch msg.(type) {
	case tea.KeyPressMsg, tea.PasteMsg, tea.MouseMsg, tea.WindowSizeMsg:
		return true
	}
	return false
}
