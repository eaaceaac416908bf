package urlmode

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/charmbracelet/x/ansi"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/render"
)

// Consent asks the person about URL-mode elicitations and opens the
// browser when, and only when, they choose to. One Consent serves a whole
// run: it remembers which steps were already accepted, so that when a
// server asks for the same URL again it can say "not finished yet".
//
// It offers three answerers over the same rules: Line (for the line
// Prompter), TUI (full-screen, for the form answerer) and Script (for an
// answers file).
type Consent struct {
	// Open opens a URL; nil means there is no way to open one here (the
	// URL is printed instead).
	Open OpenFunc
	// Term is the terminal the full-screen consent (TUI) is shown on, and
	// where it writes what it leaves behind.
	Term *render.Terminal
	// Out is where the scripted consent writes (stderr).
	Out io.Writer
	// InSession says the consent shows inside the interactive session: a
	// second ctrl+c abandons the request, and mcpcli goes on.
	InSession bool
	// Banner, when set, gives the line that heads the full-screen consent,
	// as it heads the forms (the tour's "Tour 5/7 · …").
	Banner func() string

	mu    sync.Mutex
	steps map[string]*step
}

// step is one URL a server asked the person to visit.
type step struct {
	accepted bool // accept was answered before: the server is asking again
	opened   bool // the browser opened it
}

// recall finds the step for this ask; repeat is true when it was accepted
// before, which means the server has come back to it: not finished yet.
func (c *Consent) recall(r client.Round, a client.Ask) (st *step, repeat bool) {
	key := r.Server.Name + "\x00" + r.Server.Via + "\x00" + a.Params.URL
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.steps == nil {
		c.steps = map[string]*step{}
	}
	st = c.steps[key]
	if st == nil {
		st = &step{}
		c.steps[key] = st
	}
	return st, st.accepted
}

func (c *Consent) opened(st *step) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return st.opened
}

func (c *Consent) mark(st *step, f func(*step)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	f(st)
}

// open opens an.Target, saying so on w; if it fails, it says why and
// prints the URL to copy, once. It reports whether the browser opened it.
// What it says is wrapped at spaces to width, when known (not 0).
func (c *Consent) open(ctx context.Context, w io.Writer, indent string, an Analysis, st *step, width int) bool {
	var err error
	if c.Open == nil {
		err = errors.New("this run has no way to open a browser")
	} else {
		err = c.Open(ctx, an.Target)
	}
	if err != nil {
		if ctx.Err() != nil {
			return false
		}
		fmt.Fprintf(w, "%s\n", render.Hang(fmt.Sprintf("%sCould not open a browser (%s).", indent, render.Line(err.Error())), width, 0))
		showURL(w, indent, an)
		return false
	}
	opened := fmt.Sprintf("%sOpened %s in your browser.", indent, an.Target)
	if width > 0 && ansi.StringWidth(opened) > width {
		// The URL on a line of its own, whole, rather than cut.
		opened = fmt.Sprintf("%sOpened in your browser:\n%s", indent, an.Target)
	}
	fmt.Fprintf(w, "%s\n", opened)
	c.mark(st, func(s *step) { s.opened = true })
	return true
}

// showURL prints the URL alone on its line, not indented, so that it can
// be selected and copied whole.
func showURL(w io.Writer, indent string, an Analysis) {
	fmt.Fprintf(w, "%sCopy this URL into your browser:\n\n%s\n\n", indent, an.Target)
}

// writeURL prints the URL, its host and the warnings as plain lines.
func writeURL(w io.Writer, indent string, an Analysis) {
	fmt.Fprintf(w, "%sURL:  %s\n", indent, an.Shown)
	if site := an.Site(); site != "" {
		fmt.Fprintf(w, "%sHost: %s\n", indent, site)
	}
	for _, wa := range an.Warnings {
		fmt.Fprintf(w, "%s⚠ %s\n", indent, wa.Text)
	}
	if !an.Openable() {
		fmt.Fprintf(w, "%s✗ Refused: %s.\n", indent, an.Refused)
	}
}

// Prompts of the line version.
const (
	linePrompt      = "Open this link? [o]pen in browser/[s]how the URL to copy/[d]ecline/[c]ancel: "
	lineWait        = "Finish in your browser, then press Enter to continue · d decline · c cancel (or esc) · o open again: "
	lineWaitNotOpen = "Finish in your browser, then press Enter to continue · d decline · c cancel (or esc) · o open in browser: "
)

// LineAsker is what the line consent needs from a line prompter: a place
// to write, and one line of answer at a time.
type LineAsker interface {
	io.Writer
	// ReadLine writes prompt and reads one line, without its newline.
	ReadLine(ctx context.Context, prompt string) (string, error)
	// Attempts is how many invalid answers to one question it takes.
	Attempts() int
}

// Line answers one URL ask with plain lines on p (the line prompter's URL
// hook). The prompter has already shown who asks and why.
func (c *Consent) Line(ctx context.Context, p LineAsker, r client.Round, i int) (*mcp.ElicitResult, error) {
	a := r.Asks[i]
	an := Analyze(a.Params.URL)
	var w io.Writer = p
	fmt.Fprintln(w, "   The server asks you to open this link in your browser:")
	writeURL(w, "   ", an)
	if !an.Openable() {
		fmt.Fprintln(w, "   mcpcli will not open it; answering decline.")
		return &mcp.ElicitResult{Action: client.Decline}, nil
	}
	st, repeat := c.recall(r, a)
	if repeat {
		fmt.Fprintf(w, "   Not finished yet: %s asks for this step again.\n", render.Line(r.Server.Display()))
		return c.lineWait(ctx, p, an, st)
	}
	for attempt := 0; ; attempt++ {
		line, err := p.ReadLine(ctx, linePrompt)
		if err != nil {
			return nil, err
		}
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "o", "open":
			c.open(ctx, w, "   ", an, st, 0)
			return c.lineWait(ctx, p, an, st)
		case "s", "show":
			showURL(w, "   ", an)
			return c.lineWait(ctx, p, an, st)
		case "d", "decline":
			return &mcp.ElicitResult{Action: client.Decline}, nil
		case "c", "cancel", "esc", "\x1b":
			return &mcp.ElicitResult{Action: client.Cancel}, nil
		}
		if attempt+1 >= p.Attempts() {
			fmt.Fprintln(w, "  too many invalid answers: cancelling")
			return &mcp.ElicitResult{Action: client.Cancel}, nil
		}
		fmt.Fprintln(w, "  ! type o, s, d or c; nothing opens unless you type o")
	}
}

// lineWait is the way back: the person finishes in the browser and comes
// back with Enter (accept), or gives up.
func (c *Consent) lineWait(ctx context.Context, p LineAsker, an Analysis, st *step) (*mcp.ElicitResult, error) {
	for attempt := 0; ; attempt++ {
		prompt := lineWaitNotOpen
		if c.opened(st) {
			prompt = lineWait
		}
		line, err := p.ReadLine(ctx, prompt)
		if err != nil {
			return nil, err
		}
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "":
			c.mark(st, func(s *step) { s.accepted = true })
			return &mcp.ElicitResult{Action: client.Accept}, nil
		case "o", "open":
			c.open(ctx, p, "   ", an, st, 0)
			attempt = -1
			continue
		case "s", "show":
			showURL(p, "   ", an)
			attempt = -1
			continue
		case "d", "decline":
			return &mcp.ElicitResult{Action: client.Decline}, nil
		case "c", "cancel", "esc", "\x1b":
			return &mcp.ElicitResult{Action: client.Cancel}, nil
		}
		if attempt+1 >= p.Attempts() {
			fmt.Fprintln(p, "  too many invalid answers: cancelling")
			return &mcp.ElicitResult{Action: client.Cancel}, nil
		}
		fmt.Fprintln(p, "  ! press Enter when you are done, or type d, c or o")
	}
}

// Script wraps an answers-file answerer. A scripted accept of a URL ask is
// the script's consent: with open set (--open-urls) the browser opens
// the URL, otherwise it is printed. A URL mcpcli refuses to open is
// answered decline instead, and the reason printed.
func (c *Consent) Script(inner client.Answerer, open bool) client.Answerer {
	return client.AnswererFunc(func(ctx context.Context, r client.Round) (map[string]*mcp.ElicitResult, error) {
		out, err := inner.Answer(ctx, r)
		if err != nil {
			return nil, err
		}
		for _, a := range r.Asks {
			res := out[a.Key]
			if a.Mode() != "url" || a.Params == nil || res == nil || res.Action != client.Accept {
				continue
			}
			an := Analyze(a.Params.URL)
			key := render.Line(a.Key)
			if !an.Openable() {
				fmt.Fprintf(c.Out, "  %s asks to open a link:\n", key)
				writeURL(c.Out, "    ", an)
				fmt.Fprintf(c.Out, "    answering decline instead of the scripted accept\n")
				out[a.Key] = &mcp.ElicitResult{Action: client.Decline}
				continue
			}
			st, repeat := c.recall(r, a)
			if repeat {
				fmt.Fprintf(c.Out, "  %s: not finished yet: %s asks again for the URL shown before (%s)\n", key, render.Line(r.Server.Display()), hostForm(an.Host))
			} else {
				fmt.Fprintf(c.Out, "  %s asks to open a link:\n", key)
				writeURL(c.Out, "    ", an)
			}
			switch {
			case !open:
				fmt.Fprintln(c.Out, "    not opened (pass --open-urls to open it): open it yourself and finish there")
			case c.opened(st):
				fmt.Fprintln(c.Out, "    already opened in the browser")
			default:
				c.open(ctx, c.Out, "    ", an, st, 0)
			}
			c.mark(st, func(s *step) { s.accepted = true })
		}
		return out, nil
	})
}
