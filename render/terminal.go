package render

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/mcpcli/mcpcli/request"
)

// ErrCancelled means the person dismissed what was on screen. Every
// full-screen program mcpcli runs turns its library's own signal for it
// (bubbletea's ErrInterrupted) into this, in one place: Terminal.Run.
var ErrCancelled = request.ErrCancelled

// Terminal is where the full-screen programs of a run (forms, URL consent)
// are shown: the person's keys and the screen. One Terminal serves a run,
// one program at a time.
type Terminal struct {
	// In is the terminal's input (stdin).
	In io.Reader
	// Out is where programs draw and status lines are written: a terminal
	// (stderr, or /dev/tty), never stdout, which carries the results.
	Out io.Writer
	// Hold, when set, is called while a program is on screen; what it
	// returns is called when the program is gone. The Console's Hold keeps
	// other writers (server logs, progress) off the screen meanwhile.
	Hold func() (release func())
	// Options are extra bubbletea options (tests: a window size); not
	// tea.WithFPS, whose rate frames brought forward go back to is
	// frameRate's.
	Options []tea.ProgramOption
	// KeyGuard is how long each program ignores keys after its screen is
	// drawn (and after it turns to a screen that decides, such as a
	// form's review): 0 means DefaultKeyGuard, NoKeyGuard none. Keys
	// typed before the program started are dropped too.
	KeyGuard time.Duration
	// Clock is the key guard's clock; nil means time.Now (tests stop it).
	Clock func() time.Time
	// OnDrop, when set, is told each key the guard drops (tests wait for
	// the keys typed ahead to have been dropped).
	OnDrop func(key string)

	// frame is the ticker's period between frames brought forward: 0
	// means bubbletea's own at frameRate (tests: longer, so that only a
	// frame brought forward can be seen).
	frame time.Duration
	// spin is how long the ticker ticks at once for a frame brought
	// forward that is not written: 0 means soonSpin (tests: longer, so
	// that no frame is lost on a loaded machine to a tick not yet taken).
	spin time.Duration

	keys *keySource

	profileOnce sync.Once
	profile     colorprofile.Profile
}

// colorProfile is the terminal's colour profile, found once per run, when
// the first program is drawn: the one probe of the terminal a run makes
// (inside tmux it asks tmux, a process; bubbletea would ask again for each
// program, and lipgloss at every start, which nocolorprobe prevents).
func (t *Terminal) colorProfile() colorprofile.Profile {
	t.profileOnce.Do(func() {
		var out io.Writer = t.Out
		if f, ok := fileOf(t.Out); ok {
			out = f
		}
		t.profile = colorprofile.Detect(out, os.Environ())
	})
	return t.profile
}

// fileOf is the file w writes to: w itself, or the file under a writer
// that also records what it writes (--cast).
func fileOf(w io.Writer) (*os.File, bool) {
	switch f := w.(type) {
	case *os.File:
		return f, true
	case interface{ File() *os.File }:
		return f.File(), true
	}
	return nil, false
}

// sameTerminal reports whether a and b are the same terminal device.
func sameTerminal(a *os.File, b io.Writer) bool {
	f, ok := fileOf(b)
	if !ok || a == nil {
		return false
	}
	as, err1 := a.Stat()
	bs, err2 := f.Stat()
	return err1 == nil && err2 == nil && as.Mode()&os.ModeCharDevice != 0 && os.SameFile(as, bs)
}

// frameRate is the most frames a second bubbletea draws.
const frameRate = 120

// framePeriod is the ticker's period between frames brought forward.
func (t *Terminal) framePeriod() time.Duration {
	if t.frame > 0 {
		return t.frame
	}
	return time.Second / frameRate
}

// keyGuard is the guard's duration: KeyGuard, or its default.
func (t *Terminal) keyGuard() time.Duration {
	switch {
	case t.KeyGuard == 0:
		return DefaultKeyGuard
	case t.KeyGuard < 0:
		return 0
	}
	return t.KeyGuard
}

// Run shows m until it quits and returns its final model. Ctrl+C is a key
// of the program's own; a real SIGINT or SIGTERM ends ctx, which main owns,
// and Run returns ctx's error. ErrCancelled means the program was
// interrupted without deciding.
//
// Keys that reach m before its screen is drawn, and within KeyGuard after
// (and after it turns to a screen that decides), are dropped: they were
// typed for what was on screen before, and must not answer a question the
// person has not seen.
func (t *Terminal) Run(ctx context.Context, m tea.Model) (tea.Model, error) {
	if t == nil || t.In == nil || t.Out == nil {
		return nil, errors.New("there is no terminal to show this on")
	}
	if t.Hold != nil {
		release := t.Hold()
		defer release()
	}
	in := t.In
	guard := t.keyGuard()
	if f, isFile := in.(*os.File); isFile {
		if guard > 0 {
			// What was typed before the program started waits in the
			// terminal's input queue: it was meant for something else.
			flushInput(f)
		}
		if e := withLoneEsc(f); e != nil {
			in = e
		}
	} else {
		// bubbletea cannot stop reading a pipe when it quits: its reader
		// would take the first keys meant for the next program. Give each
		// program its own end of one shared reader instead.
		if t.keys == nil {
			t.keys = newKeySource(in)
		}
		s := t.keys.session()
		defer s.Close()
		in = s
	}
	soon := &drawSoon{period: t.framePeriod(), spin: cmp.Or(t.spin, soonSpin)}
	opts := []tea.ProgramOption{
		tea.WithInput(in),
		tea.WithOutput(outputFor(t.Out, soon)),
		tea.WithoutSignalHandler(),
		// bubbletea draws only on its ticks: at its highest rate a frame
		// nothing brought forward (a spinner's, a server's news) waits 8
		// ms at most, not 16 (a tick with nothing new costs nothing).
		// Frames drawn for keys, and the first, are brought forward
		// (guarded.soon).
		tea.WithFPS(frameRate),
	}
	if _, isFile := fileOf(t.Out); isFile {
		opts = append(opts, tea.WithColorProfile(t.colorProfile()))
	}
	// The program sets the terminal up before its model's Init: until
	// then it holds the terminal gate.
	release := TakeTerminal()
	defer release()
	w := &guarded{m: m, g: NewGuard(guard, t.Clock), onDrop: t.OnDrop, inited: release}
	p := tea.NewProgram(w, append(opts, t.Options...)...)
	soon.p, w.soon = p, soon
	// ctx ends the program as a quit does, not as a kill (tea.WithContext):
	// a killed program does not wait for its reader to let go of the
	// terminal, which then takes the next key meant for whoever reads next
	// (the session, after a form its server's end closed).
	stop := context.AfterFunc(ctx, p.Quit)
	defer stop()
	final, err := p.Run()
	soon.stop()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if fw, ok := final.(*guarded); ok {
		final = fw.m
	}
	if err != nil {
		if errors.Is(err, tea.ErrInterrupted) {
			return final, ErrCancelled
		}
		return nil, fmt.Errorf("showing it on the terminal: %w", err)
	}
	return final, nil
}

// keySource reads a non-terminal input (a pipe) once, for a series of
// programs: each gets a session that ends when it closes, leaving what it
// did not read to the next.
type keySource struct {
	chunks chan []byte
}

func newKeySource(r io.Reader) *keySource {
	k := &keySource{chunks: make(chan []byte)}
	go func() {
		defer close(k.chunks)
		for {
			buf := make([]byte, 256)
			n, err := r.Read(buf)
			if n > 0 {
				k.chunks <- buf[:n]
			}
			if err != nil {
				return
			}
		}
	}()
	return k
}

func (k *keySource) session() *keySession {
	return &keySession{src: k, done: make(chan struct{})}
}

type keySession struct {
	src  *keySource
	done chan struct{}
	once sync.Once
	rest []byte
}

func (s *keySession) Read(p []byte) (int, error) {
	if len(s.rest) > 0 {
		n := copy(p, s.rest)
		s.rest = s.rest[n:]
		return n, nil
	}
	select {
	case <-s.done:
		return 0, io.EOF
	default:
	}
	select {
	case <-s.done:
		return 0, io.EOF
	case b, ok := <-s.src.chunks:
		if !ok {
			return 0, io.EOF
		}
		n := copy(p, b)
		s.rest = b[n:]
		return n, nil
	}
}

func (s *keySession) Close() error {
	s.once.Do(func() { close(s.done) })
	return nil
}
