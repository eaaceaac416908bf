package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/term"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/internal/plural"
)

// Console is the run's stderr: everything mcpcli shows that is not a
// result goes through it (its own lines, warnings, server logs, progress,
// the round trips), so that nothing lands in the middle of a form or of
// the live progress line.
//
// While a full-screen program is up (Hold), writes wait and come out when
// it is gone. The live progress line is cleared before anything else is
// written.
type Console struct {
	mu   sync.Mutex
	w    io.Writer
	held int
	buf  bytes.Buffer
	prog *Progress
	opts ConsoleOptions
	live bool // a Waiting line is on screen

	waiterOnce sync.Once
	waiter     *Waiter
}

// ConsoleOptions configure a Console.
type ConsoleOptions struct {
	// TTY is set when stderr is a terminal: progress is one live line.
	TTY bool
	// Width is the terminal's width (0: 80), read when progress is first
	// drawn.
	Width func() int
	// Color allows color (not NO_COLOR, not a dumb terminal).
	Color bool
	// KeyGuard is the Terminal's KeyGuard: how long a form or consent
	// screen ignores keys after it appears (0: DefaultKeyGuard).
	KeyGuard time.Duration
}

// NewConsole returns the console writing to w (stderr).
func NewConsole(w io.Writer, o ConsoleOptions) *Console {
	return &Console{w: w, opts: o}
}

// maxHeld bounds what waits while the console is held; past it, the
// oldest is dropped.
const maxHeld = 1 << 20

// Write implements io.Writer: the bytes are mcpcli's own lines.
func (c *Console) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.write(p)
}

func (c *Console) write(p []byte) (int, error) {
	if c.held > 0 {
		c.buf.Write(p)
		if over := c.buf.Len() - maxHeld; over > 0 {
			c.buf.Next(over)
		}
		return len(p), nil
	}
	c.clear()
	return c.w.Write(p)
}

// clear takes the live lines (progress, waiting) off the screen.
func (c *Console) clear() {
	c.prog.Clear()
	if c.live {
		fmt.Fprint(c.w, "\r\x1b[2K")
		c.live = false
	}
}

// Waiting says mcpcli is waiting for something (a server that says
// nothing yet): on a terminal a line that goes away when anything else is
// written or Waited is called; elsewhere a plain line.
func (c *Console) Waiting(msg string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.held > 0 {
		return
	}
	if !c.opts.TTY {
		fmt.Fprintln(c.w, msg)
		return
	}
	c.clear()
	fmt.Fprint(c.w, msg)
	c.live = true
}

// Waited takes the Waiting line away.
func (c *Console) Waited() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.live {
		fmt.Fprint(c.w, "\r\x1b[2K")
		c.live = false
	}
}

// Printf writes one formatted line (a newline is added).
func (c *Console) Printf(format string, args ...any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.write([]byte(fmt.Sprintf(format, args...) + "\n"))
}

// Warn shows a warning: "mcpcli: warning: msg", sanitized.
func (c *Console) Warn(msg string) {
	c.Printf("mcpcli: warning: %s", Line(msg))
}

// Hold keeps writes back until the returned release is called; holds nest.
// A full-screen program holds the console while it is up.
func (c *Console) Hold() (release func()) {
	c.mu.Lock()
	c.held++
	c.clear()
	c.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			c.mu.Lock()
			defer c.mu.Unlock()
			c.held--
			if c.held == 0 && c.buf.Len() > 0 {
				_, _ = c.w.Write(c.buf.Bytes())
				c.buf.Reset()
			}
		})
	}
}

// Terminal returns the terminal for full-screen programs: keys from in,
// drawn on stderr itself (bubbletea needs the file, to size the screen),
// holding the console while a program is up.
func (c *Console) Terminal(in io.Reader) *Terminal {
	return &Terminal{In: in, Out: c.w, Hold: c.Hold, KeyGuard: c.opts.KeyGuard}
}

// progress is the live progress display, made when first needed.
func (c *Console) progress() *Progress {
	if c.prog == nil {
		o := ProgressOptions{Live: c.opts.TTY, Color: c.opts.Color}
		if c.opts.TTY && c.opts.Width != nil {
			o.Width = c.opts.Width()
		}
		c.prog = NewProgress(c.w, o)
	}
	return c.prog
}

// Progress shows a server's notifications/progress: a live line on a
// terminal, plain lines otherwise. Nothing shows while the console is held.
func (c *Console) Progress(n *mcp.ProgressNotificationParams) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.held > 0 {
		return
	}
	if c.live {
		c.clear()
	}
	c.progress().Update(n)
}

// EndProgress clears the progress line of a request that has its answer;
// late notifications for it are not shown.
func (c *Console) EndProgress() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.prog.Done()
}

// Log shows a server's notifications/message.
func (c *Console) Log(p *mcp.LoggingMessageParams) {
	var data string
	switch d := p.Data.(type) {
	case string:
		data = d
	default:
		b, _ := json.Marshal(d)
		data = string(b)
	}
	logger := ""
	if p.Logger != "" {
		logger = " " + Line(p.Logger)
	}
	c.Printf("[server %s%s] %s", Line(string(p.Level)), logger, Line(data))
}

// Step shows one round trip of a request (--verbose, the demo), wrapped
// at spaces to the terminal's width, under its arrow.
func (c *Console) Step(st client.Step) {
	c.Printf("%s", Hang(DescribeStep(st), c.Width(), 2))
}

// Width is the terminal's width, for lines mcpcli wraps itself; 0 when
// stderr is not a terminal (lines are written whole).
func (c *Console) Width() int {
	if !c.opts.TTY || c.opts.Width == nil {
		return 0
	}
	return c.opts.Width()
}

// DescribeStep is one line for a round trip.
func DescribeStep(st client.Step) string {
	target := Line(st.Target)
	switch st.Kind {
	case client.StepSend:
		if st.Round == 0 {
			return fmt.Sprintf("→ %s %s", st.Method, target)
		}
		keys := make([]string, 0, len(st.Answers))
		for k := range st.Answers {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var parts []string
		for _, k := range keys {
			parts = append(parts, fmt.Sprintf("%s=%s", Line(k), st.Answers[k]))
		}
		answers := "no inputResponses"
		if len(parts) > 0 {
			answers = "inputResponses {" + strings.Join(parts, ", ") + "}"
		}
		return fmt.Sprintf("→ %s %s again, new id: %s; %s", st.Method, target, answers, stateText(st.StateLen, "requestState echoed"))
	case client.StepInputRequired:
		asked := "no input requests"
		if len(st.Asked) > 0 {
			q := make([]string, len(st.Asked))
			for i, k := range st.Asked {
				q[i] = Line(k)
			}
			asked = "asks " + strings.Join(q, ", ")
		}
		if st.URLRequired {
			return fmt.Sprintf("← error -32042, URL elicitation required (round %d): %s; the request goes again when they are done", st.Round, asked)
		}
		return fmt.Sprintf("← input_required (round %d): %s; %s", st.Round, asked, stateText(st.StateLen, "requestState"))
	case client.StepRootsListed:
		n := len(st.RootsSent["roots"])
		return fmt.Sprintf("← roots/list (the server's own request): sent %d root%s", n, plural.S(n))
	case client.StepComplete:
		if st.Round == 0 {
			return "← result"
		}
		return fmt.Sprintf("← result, after %d round%s", st.Round, plural.S(st.Round))
	}
	return ""
}

func stateText(n int, what string) string {
	if n < 0 {
		return "no requestState"
	}
	return fmt.Sprintf("%s (%d bytes)", what, n)
}

// NewConsoleFor is the console on stderr w as the environment says:
// colour unless NO_COLOR or TERM=dumb; the key guard of the forms and
// consent screens from KeyGuardEnv (a value that is not a duration is
// warned of, and the default kept); the width of the terminal w is.
func NewConsoleFor(w io.Writer, tty bool, getenv func(string) string) *Console {
	guard, bad := KeyGuard(getenv(KeyGuardEnv))
	c := NewConsole(w, ConsoleOptions{
		TTY:      tty,
		Color:    getenv("NO_COLOR") == "" && getenv("TERM") != "dumb",
		KeyGuard: guard,
		Width: func() int {
			if fd, ok := w.(interface{ Fd() uintptr }); ok {
				if cols, _, err := term.GetSize(int(fd.Fd())); err == nil {
					return cols
				}
			}
			return 0
		},
	})
	if bad {
		c.Warn(fmt.Sprintf("%s=%q is not a duration (300ms, 1s, 0 for none); the forms ignore keys for the first %v as usual", KeyGuardEnv, getenv(KeyGuardEnv), DefaultKeyGuard))
	}
	return c
}

// KeyGuardEnv lengthens (or, for tests that type at machine speed, turns
// off) the time a form or consent screen ignores keys after it appears.
const KeyGuardEnv = "MCPCLI_KEY_GUARD"

// KeyGuard reads MCPCLI_KEY_GUARD: "" is the default, 0 none; bad is set
// for a value that is not a duration.
func KeyGuard(v string) (d time.Duration, bad bool) {
	if v == "" {
		return 0, false
	}
	if v == "0" {
		return NoKeyGuard, false
	}
	d, err := time.ParseDuration(v)
	switch {
	case err != nil || d < 0:
		return 0, true
	case d == 0:
		return NoKeyGuard, false
	}
	return d, false
}
