package render

import (
	"reflect"
	"time"
	"unicode"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
)

// DefaultKeyGuard is how long a screen that decides something (a form, its
// review, URL consent, a sampling reply) ignores keys after it is drawn.
//
// 300 ms: a person's quickest reaction to something appearing on screen is
// about 200-250 ms, and reading it and choosing takes longer, so a key
// that lands within 300 ms of the screen was set off before the person saw
// it: typed for what was there before (a list, the previous step). Longer
// would cost the first keys of a person who waits for the form and types
// at once; the guard is over before most people have found the first key.
const DefaultKeyGuard = 300 * time.Millisecond

// NoKeyGuard, as Terminal.KeyGuard, turns the guard off: programs take
// keys from their first frame (tests that type at machine speed, and the
// session's own screen, which is not a consent screen: its asks wait).
const NoKeyGuard time.Duration = -1

// Guard keeps keys from landing on a screen they were not meant for. A
// key is dropped when it comes before the screen has been drawn, or within
// the guard's duration after; a key held down or hammered from before
// (the same key again, sooner than the duration after the last one
// dropped) keeps being dropped until it pauses.
type Guard struct {
	d   time.Duration
	now func() time.Time

	drawn       time.Time // zero: not drawn since armed
	lastKey     string    // the last key dropped, and when
	lastDropped time.Time
	dropped     int
}

// NewGuard returns a guard of d (d <= 0: none) reading the clock now (nil:
// time.Now). It is armed: keys are dropped until the first Drawn.
func NewGuard(d time.Duration, now func() time.Time) *Guard {
	if now == nil {
		now = time.Now
	}
	return &Guard{d: d, now: now}
}

// Arm starts the guard over: a new screen is up, and keys are dropped
// until it has been drawn and the duration has passed.
func (g *Guard) Arm() { g.drawn = time.Time{} }

// Drawn says the screen has been drawn (a View); the first call after Arm
// starts the duration.
func (g *Guard) Drawn() {
	if g.drawn.IsZero() {
		g.drawn = g.now()
	}
}

// Drop reports whether key (a key's name, as tea.KeyPressMsg.String says
// it) must be dropped, and counts it if so.
func (g *Guard) Drop(key string) bool {
	if g == nil || g.d <= 0 {
		return false
	}
	now := g.now()
	drop := g.drawn.IsZero() || now.Sub(g.drawn) < g.d ||
		key == g.lastKey && now.Sub(g.lastDropped) < g.d
	if drop {
		g.lastKey, g.lastDropped = key, now
		g.dropped++
	}
	return drop
}

// Dropped is how many keys the guard has dropped.
func (g *Guard) Dropped() int { return g.dropped }

// guardedScreen is a model with more than one screen: when it turns to a
// screen whose keys decide (keyScreen changes to other than 0), the guard
// starts over (the review after the last field: an Enter typed for the
// field must not accept). Turning to a screen that only takes input (0:
// back to a field, to type) keeps the keys coming.
type guardedScreen interface{ keyScreen() int }

// guarded is a program's model behind a guard: the one place where keys
// typed ahead are kept from every form, review and consent screen.
type guarded struct {
	m      tea.Model
	g      *Guard
	onDrop func(key string)
	inited func() // the terminal is set up: Init comes after (nil: nothing)

	// last is the frame last drawn, and same says nothing has changed
	// since: bubbletea asks for a frame after every message, and the
	// ones no model of mcpcli's reads change nothing (see inert).
	last *tea.View
	same bool

	// ready is set once the terminal has said its size, or
	// setupWait has passed: a frame laid out before for a guessed size
	// would be laid out again at once, and never shown (bubbletea shows
	// only the last frame of each of its ticks).
	ready bool

	// soon brings forward the frame drawn for input (and the first):
	// bubbletea would wait for its next tick (teadraw.go). due says the
	// next View is such a frame; kick, that it changed, and is to be
	// brought forward when bubbletea has taken it (at drawnMsg).
	soon *drawSoon
	due  bool
	kick bool
}

// drawnMsg comes after the frame laid out for input has been handed to
// bubbletea's renderer: the command that sends it runs once Update has
// returned, and bubbletea reads it only after its View.
type drawnMsg struct{}

func drawn() tea.Msg { return drawnMsg{} }

// setupWait is the longest the first frame waits for the terminal's size,
// which bubbletea asks for as it starts and a terminal gives at once; only
// a program without a terminal (a test's pipes) waits it out.
const setupWait = 30 * time.Millisecond

// setupOver is setupWait's end.
type setupOver struct{}

// inert says msg is one no model of mcpcli's (nor huh's or bubbles')
// reads: the color profile (bubbletea itself downsamples to it), the
// environment, and bubbletea's own requests (the question of the
// background, of the cursor's place: types of its own that no other
// package can name), all sent as a program starts, when each frame drawn
// for nothing costs about 0.4 ms.
func inert(msg tea.Msg) bool {
	switch msg.(type) {
	case tea.ColorProfileMsg, tea.EnvMsg:
		return true
	}
	t := reflect.TypeOf(msg)
	if t == nil || t.PkgPath() != teaPkg {
		return false
	}
	r, _ := utf8.DecodeRuneInString(t.Name())
	return !unicode.IsUpper(r) // unexported
}

// teaPkg is bubbletea's import path (TestTeaPkgIsBubbleteas checks it):
// a constant, so that nothing is worked out at start-up.
const teaPkg = "charm.land/bubbletea/v2"

// drop reports whether key is dropped, and says so.
func (w *guarded) drop(key string) bool {
	if !w.g.Drop(key) {
		return false
	}
	if w.onDrop != nil {
		w.onDrop(key)
	}
	return true
}

func (w *guarded) Init() tea.Cmd {
	if w.inited != nil {
		w.inited()
	}
	w.soon.start()
	return tea.Batch(w.m.Init(), tea.Tick(setupWait, func(time.Time) tea.Msg { return setupOver{} }))
}

func (w *guarded) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if inert(msg) {
		w.same = w.last != nil
		return w, nil
	}
	w.same = false
	switch msg.(type) {
	case setupOver:
		w.same = w.ready && w.last != nil // ready already: nothing changed
		if !w.ready {
			w.ready, w.due = true, true
			return w, drawn
		}
		return w, nil
	case drawnMsg:
		w.same = w.last != nil
		if w.kick {
			w.kick = false
			w.soon.now()
		}
		return w, nil
	case tea.WindowSizeMsg:
		w.ready = true
	}
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if w.drop(msg.String()) {
			return w, nil
		}
	case tea.KeyReleaseMsg:
		if w.drop(msg.String()) {
			return w, nil
		}
	case tea.PasteMsg:
		if w.drop("paste") {
			return w, nil
		}
	}
	before := screenOf(w.m)
	m, cmd := w.m.Update(msg)
	w.m = m
	if after := screenOf(m); after != before && after != 0 {
		w.g.Arm()
	}
	if input(msg) {
		w.due = true
		return w, tea.Batch(cmd, drawn)
	}
	return w, cmd
}

func (w *guarded) View() tea.View {
	if !w.ready {
		return tea.View{} // nothing yet: the key guard's time has not begun
	}
	// The guard's time begins with the frame, before the model lays it
	// out: whoever sees the frame (a test's view hook) sees it begun.
	w.g.Drawn()
	if !w.same || w.last == nil {
		v := w.m.View()
		if w.due && changed(w.last, v) {
			w.kick = true
		}
		w.last = &v
	}
	w.due = false
	return *w.last
}

func screenOf(m tea.Model) int {
	if s, ok := m.(guardedScreen); ok {
		return s.keyScreen()
	}
	return 0
}
