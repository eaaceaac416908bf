package render

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	tea "charm.land/bubbletea/v2"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
)

// FormAnswerer answers a round on the full screen: each form-mode ask as a
// form built with huh, paged to fit the terminal, with a review before
// anything is sent; each URL-mode ask through URL (or, without it, a
// consent screen that opens nothing).
//
// It draws on Out, which must be a terminal (stderr, or /dev/tty), never
// stdout: stdout carries the results. After each ask it leaves one status
// line on Out saying which answer was sent.
type FormAnswerer struct {
	// In is the terminal's input (stdin).
	In io.Reader
	// Out is where the forms are drawn and the status lines written.
	Out io.Writer

	// URL answers a URL-mode ask; the urlmode package provides it. Nil
	// means a consent screen that shows the sanitized URL and opens nothing.
	URL func(ctx context.Context, r client.Round, i int) (*mcp.ElicitResult, error)

	// Hold, when set, is called while a form is on screen; what it returns
	// is called when the form is gone. Use it to keep other writers (server
	// logs, progress) off the screen meanwhile: see Gate.
	Hold func() (release func())

	// Options are extra bubbletea options (tests: a window size).
	Options []tea.ProgramOption

	// onView sees every frame (tests).
	onView func(string)
	keys   *keySource
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

// Answer implements client.Answerer.
func (a *FormAnswerer) Answer(ctx context.Context, r client.Round) (map[string]*mcp.ElicitResult, error) {
	out := make(map[string]*mcp.ElicitResult, len(r.Asks))
	for i, ask := range r.Asks {
		var (
			res        *mcp.ElicitResult
			cancelRest bool
			err        error
		)
		if ask.Mode() == "url" && a.URL != nil {
			res, err = a.URL(ctx, r, i)
			if err == nil && res != nil && res.Action == client.Cancel && i+1 < len(r.Asks) {
				m := newAskModel(r, i)
				m.result = res
				m.screen, m.cursor = screenCancelRest, 0
				_, cancelRest, err = a.run(ctx, m)
			}
		} else {
			res, cancelRest, err = a.run(ctx, newAskModel(r, i))
		}
		if err != nil {
			return nil, err
		}
		if res == nil {
			res = &mcp.ElicitResult{Action: client.Cancel}
		}
		out[ask.Key] = res
		fmt.Fprintln(a.Out, statusLine(r, i, res))
		if cancelRest {
			for j := i + 1; j < len(r.Asks); j++ {
				out[r.Asks[j].Key] = &mcp.ElicitResult{Action: client.Cancel}
				fmt.Fprintln(a.Out, statusLine(r, j, out[r.Asks[j].Key]))
			}
			break
		}
	}
	return out, nil
}

// run shows one ask until it is answered.
func (a *FormAnswerer) run(ctx context.Context, m *askModel) (*mcp.ElicitResult, bool, error) {
	if a.Hold != nil {
		release := a.Hold()
		defer release()
	}
	m.onView = a.onView
	in := a.In
	if _, isFile := in.(*os.File); !isFile && in != nil {
		// bubbletea cannot stop reading a pipe when it quits: its reader
		// would take the first keys meant for the next ask. Give each
		// program its own end of one shared reader instead.
		if a.keys == nil {
			a.keys = newKeySource(in)
		}
		s := a.keys.session()
		defer s.Close()
		in = s
	}
	opts := []tea.ProgramOption{
		tea.WithContext(ctx),
		tea.WithInput(in),
		tea.WithOutput(a.Out),
		// Ctrl+C is a key here (cancel this ask); a real SIGINT or SIGTERM
		// cancels ctx, which main owns.
		tea.WithoutSignalHandler(),
	}
	final, err := tea.NewProgram(m, append(opts, a.Options...)...).Run()
	if err != nil {
		if ctx.Err() != nil {
			return nil, false, ctx.Err()
		}
		if errors.Is(err, tea.ErrInterrupted) {
			return &mcp.ElicitResult{Action: client.Cancel}, true, nil
		}
		return nil, false, fmt.Errorf("showing the form: %w", err)
	}
	fm, _ := final.(*askModel)
	if fm == nil || fm.result == nil {
		return &mcp.ElicitResult{Action: client.Cancel}, false, nil
	}
	return fm.result, fm.cancelRest, nil
}

// statusLine says which answer went to the server. The line prompter and
// the forms say it alike.
func statusLine(r client.Round, i int, res *mcp.ElicitResult) string {
	which := ""
	if len(r.Asks) > 1 {
		which = fmt.Sprintf(" %d of %d", i+1, len(r.Asks))
	}
	who := Line(r.Server.Display())
	switch res.Action {
	case client.Accept:
		if r.Asks[i].Mode() == "url" {
			return fmt.Sprintf("→ accept%s sent to %s (you agreed to continue at the URL)", which, who)
		}
		n := len(res.Content)
		return fmt.Sprintf("→ accept%s sent to %s with %d value%s", which, who, n, plural(n))
	case client.Decline:
		return fmt.Sprintf("→ decline%s sent to %s", which, who)
	}
	return fmt.Sprintf("→ %s%s sent to %s", Line(res.Action), which, who)
}

// Gate is a writer that lets writes through, except while held: then it
// keeps them, and writes them out when released. mcpcli routes its other
// stderr writers (server logs, progress, warnings) through a Gate so that
// nothing lands in the middle of a form.
type Gate struct {
	mu   sync.Mutex
	w    io.Writer
	held int
	buf  bytes.Buffer
}

// maxHeld bounds what a Gate keeps; past it, the oldest is dropped.
const maxHeld = 1 << 20

// NewGate returns a Gate writing to w.
func NewGate(w io.Writer) *Gate { return &Gate{w: w} }

// Write implements io.Writer.
func (g *Gate) Write(p []byte) (int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.held == 0 {
		return g.w.Write(p)
	}
	g.buf.Write(p)
	if over := g.buf.Len() - maxHeld; over > 0 {
		g.buf.Next(over)
	}
	return len(p), nil
}

// Fd is the descriptor behind the gate, for code that asks a stderr
// writer for its terminal's size; ^uintptr(0) when there is none.
func (g *Gate) Fd() uintptr {
	if f, ok := g.w.(interface{ Fd() uintptr }); ok {
		return f.Fd()
	}
	return ^uintptr(0)
}

// Hold keeps writes back until the returned release is called.
func (g *Gate) Hold() (release func()) {
	g.mu.Lock()
	g.held++
	g.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			g.mu.Lock()
			defer g.mu.Unlock()
			g.held--
			if g.held == 0 && g.buf.Len() > 0 {
				_, _ = g.w.Write(g.buf.Bytes())
				g.buf.Reset()
			}
		})
	}
}
