package render

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
)

// Keys as a terminal sends them.
const (
	kEnter    = "\r"
	kTab      = "\t"
	kShiftTab = "\x1b[Z"
	kEsc      = "\x1b"
	kUp       = "\x1b[A"
	kDown     = "\x1b[B"
	kRight    = "\x1b[C"
	kLeft     = "\x1b[D"
	kSpace    = " "
	kBack     = "\x7f"
	kCtrlC    = "\x03"
	kCtrlO    = "\x0f"
	kCtrlS    = "\x13"
	kCtrlX    = "\x18"
)

// tui drives a FormAnswerer through the real bubbletea loop: keys go down
// a pipe as a terminal would send them, and every frame the model draws is
// kept, so a test waits for the screen between keys (focus and pages move
// as messages, not at once).
type tui struct {
	t    *testing.T
	keys *io.PipeWriter
	out  *syncBuffer

	mu     sync.Mutex
	screen string
	frames int
	seen   chan struct{}

	done chan struct{}
	res  map[string]*mcp.ElicitResult
	err  error
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

const waitLimit = 5 * time.Second

// startTUI answers r with a FormAnswerer on an 80×24 screen (or the size
// given). setup may adjust the answerer before it starts.
func startTUI(t *testing.T, r client.Round, setup func(*FormAnswerer), size ...int) *tui {
	t.Helper()
	w, h := 80, 24
	if len(size) == 2 {
		w, h = size[0], size[1]
	}
	pr, pw := io.Pipe()
	u := &tui{t: t, keys: pw, out: &syncBuffer{}, seen: make(chan struct{}, 1), done: make(chan struct{})}
	a := &FormAnswerer{Term: &Terminal{In: pr, Out: u.out, Options: []tea.ProgramOption{tea.WithWindowSize(w, h), tea.WithEnvironment([]string{"TERM=xterm-256color"})}, KeyGuard: NoKeyGuard}}
	a.onView = func(s string) {
		u.mu.Lock()
		u.screen = ansi.Strip(s)
		u.frames++
		u.mu.Unlock()
		select {
		case u.seen <- struct{}{}:
		default:
		}
	}
	if setup != nil {
		setup(a)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*waitLimit)
	go func() {
		defer close(u.done)
		defer cancel()
		u.res, u.err = a.Answer(ctx, r)
	}()
	t.Cleanup(func() {
		pw.Close()
		select {
		case <-u.done:
		case <-time.After(waitLimit):
			t.Errorf("the form did not finish")
		}
	})
	return u
}

// Screen is the last frame, without styling.
func (u *tui) Screen() string {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.screen
}

// WaitFor waits until the screen shows every one of want.
func (u *tui) WaitFor(want ...string) string {
	u.t.Helper()
	deadline := time.After(waitLimit)
	for {
		s := u.Screen()
		ok := true
		for _, w := range want {
			if !strings.Contains(s, w) {
				ok = false
				break
			}
		}
		if ok {
			return s
		}
		select {
		case <-u.seen:
		case <-time.After(20 * time.Millisecond):
		case <-u.done:
			u.t.Fatalf("the form ended while waiting for %q; last screen:\n%s", want, s)
		case <-deadline:
			u.t.Fatalf("screen never showed %q; last screen:\n%s", want, s)
		}
	}
}

// WaitGone waits until the screen no longer shows s.
func (u *tui) WaitGone(s string) string {
	u.t.Helper()
	deadline := time.After(waitLimit)
	for {
		cur := u.Screen()
		if !strings.Contains(cur, s) {
			return cur
		}
		select {
		case <-u.seen:
		case <-time.After(20 * time.Millisecond):
		case <-deadline:
			u.t.Fatalf("screen still shows %q; last screen:\n%s", s, cur)
		}
	}
}

// Press sends keys, one write each, so that a lone Esc is read as Esc.
func (u *tui) Press(keys ...string) {
	u.t.Helper()
	for _, k := range keys {
		if k == kEsc {
			// A lone Esc is told from the start of a sequence by a pause
			// (50 ms in bubbletea's reader): wait for the frame it makes.
			u.drain()
		}
		if _, err := u.keys.Write([]byte(k)); err != nil {
			u.t.Fatalf("sending %q: %v", k, err)
		}
		if k == kEsc {
			select {
			case <-u.seen:
			case <-u.done:
			case <-time.After(time.Second):
			}
		}
	}
}

func (u *tui) drain() {
	for {
		select {
		case <-u.seen:
		default:
			return
		}
	}
}

// Type sends text.
func (u *tui) Type(s string) { u.Press(s) }

// Result waits for the answer.
func (u *tui) Result() map[string]*mcp.ElicitResult {
	u.t.Helper()
	select {
	case <-u.done:
	case <-time.After(waitLimit):
		u.t.Fatalf("no answer; last screen:\n%s", u.Screen())
	}
	if u.err != nil {
		u.t.Fatalf("Answer error: %v", u.err)
	}
	return u.res
}

// Err is the error Answer returned.
func (u *tui) Err() error {
	u.t.Helper()
	select {
	case <-u.done:
	case <-time.After(waitLimit):
		u.t.Fatalf("no answer; last screen:\n%s", u.Screen())
	}
	return u.err
}

// Output is everything written to the terminal, escapes and all.
func (u *tui) Output() string { return u.out.String() }

// roundOf builds a round of form asks from (key, message, schema) triples.
func roundOf(asks ...[3]string) client.Round {
	r := client.Round{Server: client.Server{Name: "test-server", Title: "Test Server", Via: "stdio: test-server"}, Method: "tools/call", Target: "do_it", Number: 1}
	for _, a := range asks {
		r.Asks = append(r.Asks, client.NewAsk(a[0], &mcp.ElicitParams{Message: a[1], RequestedSchema: json.RawMessage(a[2])}, json.RawMessage(a[2])))
	}
	return r
}
