package tui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/transport"
)

// ctxAnswerer answers like a form on screen: it waits for the person (who
// never comes) until its context ends, and says when it was asked.
type ctxAnswerer struct {
	asked chan client.Round
	ended chan error
}

func (a *ctxAnswerer) Answer(ctx context.Context, r client.Round) (map[string]*mcp.ElicitResult, error) {
	a.asked <- r
	<-ctx.Done()
	a.ended <- ctx.Err()
	return nil, ctx.Err()
}

// restartRig is a session whose server can be made to go away (kill) and
// that R connects again, each time to a new in-process server.
type restartRig struct {
	*harness
	mu      sync.Mutex
	server  *mcp.ServerSession // the one of the moment
	dials   int
	dialErr error // what the next dial fails with, if set
}

// newRestartRig is newHarness with a form that waits (ans) and R wired to
// dial.
func newRestartRig(t *testing.T, ans client.Answerer) *restartRig {
	t.Helper()
	now := &clock{t: time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)}
	feed := NewFeed(now.Now)
	r := &restartRig{}
	dial := func(ctx context.Context) (*client.Session, error) {
		cr, sw := io.Pipe()
		sr, cw := io.Pipe()
		ct := transport.Wrap(&mcp.IOTransport{Reader: cr, Writer: cw}, "test server")
		ct.Observe(feed.Observe)
		ss, err := testServer().Connect(ctx, &mcp.IOTransport{Reader: sr, Writer: sw}, nil)
		if err != nil {
			return nil, err
		}
		copts := client.Options{Modes: client.Modes{Form: true}}
		feed.Hooks(&copts, ans, nil)
		cs, err := client.Connect(ctx, ct, copts)
		if err != nil {
			ss.Close()
			return nil, err
		}
		r.mu.Lock()
		r.server = ss
		r.dials++
		r.mu.Unlock()
		t.Cleanup(func() { cs.Close(); ss.Close() })
		return cs, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	cs, err := dial(ctx)
	if err != nil {
		t.Fatalf("connecting: %v", err)
	}
	var current Client = cs
	m := New(Options{
		Client: cs, Feed: feed, Now: now.Now, Transport: "stdio", Negotiated: "discover", KeyGuard: render.NoKeyGuard,
		Forms: formsFunc(func(render.Arguments) (map[string]any, error) { return map[string]any{"name": "Ada"}, nil }),
		Reconnect: func(ctx context.Context) (Reached, error) {
			r.mu.Lock()
			fail := r.dialErr
			r.dialErr = nil
			r.mu.Unlock()
			current.(*client.Session).Close()
			if fail != nil {
				return Reached{}, fail
			}
			cs, err := dial(ctx)
			if err != nil {
				return Reached{}, err
			}
			current = cs
			return Reached{Client: cs, Transport: "stdio", Negotiated: "discover"}, nil
		},
	})
	h := &harness{t: t, m: m, feed: feed, cs: cs, msgs: make(chan tea.Msg, 64), now: now}
	h.m.exec = func(c tea.ExecCommand, fn tea.ExecCallback) tea.Cmd {
		return func() tea.Msg { return fn(c.Run()) }
	}
	t.Cleanup(h.m.Close)
	h.update(tea.WindowSizeMsg{Width: 80, Height: 24})
	h.run(h.m.Init())
	h.waitFor("the lists", func(string) bool { return h.m.loaded[tabTools] && h.m.loaded[tabPrompts] && h.m.loaded[tabResources] })
	r.harness = h
	// What waits outside the program (a form) is looked at again now and
	// then, not only when a message comes.
	done := make(chan struct{})
	t.Cleanup(func() { close(done) })
	go func() {
		for {
			select {
			case <-done:
				return
			case <-time.After(20 * time.Millisecond):
				select {
				case h.msgs <- tick{}:
				default:
				}
			}
		}
	}()
	return r
}

// tick is a message the session ignores.
type tick struct{}

// kill ends the server of the moment, as a server that dies does.
func (r *restartRig) kill() {
	r.mu.Lock()
	ss := r.server
	r.mu.Unlock()
	ss.Close()
}

// The way back: the server goes away while a call waits on a form; the
// form ends, the call fails saying why, the header says disconnected and
// the body gives the reason and R; R connects again, the lists are read
// again, and History and Activity are still there.
func TestRestartAfterTheServerWentAway(t *testing.T) {
	ans := &ctxAnswerer{asked: make(chan client.Round, 1), ended: make(chan error, 1)}
	r := newRestartRig(t, ans)
	r.keys("enter") // greet, with the form's Ada
	r.waitShow("Hello, Ada!")
	r.keys("esc", "end", "enter", "y") // wizard (no arguments: y calls it): its ask waits on screen
	r.waitFor("the wizard's ask", func(string) bool { return len(ans.asked) > 0 })
	r.kill()
	// The form is closed for the dead server: not left waiting for keys.
	r.waitFor("the form to end with the connection", func(string) bool { return len(ans.ended) > 0 })
	s := r.waitShow("✗ disconnected", "R restart it (History, Activity and the wire are kept)", "disconnected: R restarts the server")
	for _, want := range []string{`server "Test Server" closed the connection`, "#2 wizard was running, and failed"} {
		if !strings.Contains(s, want) {
			t.Errorf("the body lacks the reason %q:\n%s", want, s)
		}
	}
	r.waitShow("✗ failed", "the connection ended while it", `closed the connection`)
	r.waitFor("the round to say why it ended", func(string) bool {
		c := r.m.calls[1]
		return len(c.rounds) == 1 && errors.Is(c.rounds[0].Err, errConnectionEnded)
	})
	r.keys("esc", "home", "enter") // greet again, before R: not sent
	r.waitShow("not sent: the server is not connected (R restarts it)")
	if n := len(r.m.calls); n != 2 {
		t.Errorf("%d calls after a call on a dead connection, want 2", n)
	}

	r.keys("R")
	s = r.waitFor("the restart", func(s string) bool {
		return strings.Contains(s, "restarted: History, Activity and the wire are kept") && r.m.loaded[tabTools] && r.m.loaded[tabPrompts] && r.m.loaded[tabResources]
	})
	if strings.Contains(s, "disconnected") || strings.Contains(s, "R restart it") {
		t.Errorf("after R the session still says it is disconnected:\n%s", s)
	}
	if !strings.Contains(s, "Tools 5") || !strings.Contains(s, "History 2") {
		t.Errorf("after R the lists or the history are not there:\n%s", s)
	}
	if r.dials != 2 {
		t.Errorf("%d connections, want 2 (the first, and R)", r.dials)
	}
	r.keys("esc", "home", "enter") // greet works on the new connection
	r.waitShow("#3 greet", "Hello, Ada!")
	r.keys("5")
	r.waitShow("#1 greet", "#2 wizard", "#3 greet")
	r.keys("4")
	r.waitShow(`closed the connection`, "restarting the server (R)", "restarted: connected to Test Server")
}

// R with calls running asks first; yes ends them, saying why.
func TestRestartWithACallRunning(t *testing.T) {
	r := newRestartRig(t, &ctxAnswerer{asked: make(chan client.Round, 1), ended: make(chan error, 1)})
	r.keys("/")
	r.typ("slow")
	r.keys("enter", "enter", "y") // keep the filter; slow takes no arguments: y calls it
	r.waitShow("▶ running")
	r.keys("R")
	r.waitShow("1 request still running: restarting the server ends it.", "Restart it now?")
	r.keys("n")
	r.waitShow("not restarted")
	if r.dials != 1 {
		t.Fatalf("no restarted anyway: %d connections", r.dials)
	}
	r.keys("R", "y")
	r.waitShow("restarted: History", "✗ failed", "ended: the server was", "restarted (R) while it ran")
}

// A restart that fails says so and offers R again.
func TestRestartThatFails(t *testing.T) {
	r := newRestartRig(t, &ctxAnswerer{asked: make(chan client.Round, 1), ended: make(chan error, 1)})
	r.kill()
	r.waitShow("✗ disconnected")
	r.dialErr = errors.New("server (stdio: ./server) exited with status 1 before answering")
	r.keys("R")
	r.waitShow("restarting failed: server (stdio: ./server) exited with status 1", "restart failed: R tries again", "✗ disconnected")
	r.keys("R")
	r.waitShow("restarted: History")
}

// At 80 columns the header keeps the state whole (the server's name and
// how the version was negotiated give way), and the reason is in the body
// in full, however long.
func TestLostReasonReadableAt80Columns(t *testing.T) {
	reason := "server (stdio: /home/ada/projects/weather/bin/weather-server --verbose) was killed by SIGKILL before answering; its last stderr line: panic: runtime error: index out of range [3] with length 3"
	r := newRestartRig(t, &ctxAnswerer{asked: make(chan client.Round, 1), ended: make(chan error, 1)})
	r.m.o.ErrorText = func(error) string { return reason }
	r.m.server.Name = "a-server-with-a-rather-long-name-indeed"
	r.m.o.Negotiated = "initialize, fallback"
	r.kill()
	s := r.waitShow("✗ disconnected")
	lines := strings.Split(s, "\n")
	if len(lines) != 24 {
		t.Errorf("the screen has %d lines, want 24:\n%s", len(lines), s)
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w > 80 {
			t.Errorf("line %d is %d cells wide: %q", i+1, w, l)
		}
	}
	if !strings.HasSuffix(strings.TrimRight(lines[0], " "), "· stdio · ✗ disconnected") {
		t.Errorf("the header does not end with the state: %q", lines[0])
	}
	var body []string
	for _, l := range lines[3:] {
		if strings.HasPrefix(l, " R restart it") {
			break
		}
		body = append(body, strings.TrimSpace(l))
	}
	if got := strings.Join(body, " "); got != reason {
		t.Errorf("the reason above the body is\n%q\nwant it whole:\n%q", got, reason)
	}
}

func TestUnreachable(t *testing.T) {
	for _, tt := range []struct {
		err  error
		want bool
	}{
		{fmt.Errorf("calling: %w", &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}), true},
		{fmt.Errorf("x: %w", mcp.ErrConnectionClosed), true},
		{&net.OpError{Op: "read", Net: "tcp", Err: errors.New("reset")}, false},
		{errors.New("the server answered with error -32602"), false},
		{nil, false},
	} {
		if got := unreachable(tt.err); got != tt.want {
			t.Errorf("unreachable(%v) = %v, want %v", tt.err, got, tt.want)
		}
	}
}
