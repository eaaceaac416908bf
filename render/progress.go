package render

import (
	"fmt"
	"io"
	"strings"
	"sync"

	"charm.land/bubbles/v2/progress"
	"github.com/charmbracelet/x/ansi"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Progress shows a server's notifications/progress for the request in
// flight. On a terminal it is one live line, redrawn in place: a bar when
// the server gives a total, the count otherwise, and the server's message.
// Elsewhere each notification is a plain line.
//
// Anything else written to the same terminal must call Clear first, so that
// it does not land in the middle of the live line; the next notification
// draws the line again.
type Progress struct {
	w     io.Writer
	live  bool
	color bool
	width int
	bar   progress.Model

	mu       sync.Mutex
	shown    bool   // the live line is on screen
	last     string // the last plain line, to skip repeats
	token    string // the progress token of the last notification
	finished map[string]bool
}

// ProgressOptions configure a Progress.
type ProgressOptions struct {
	// Live draws one line in place (stderr is a terminal).
	Live bool
	// Width is the terminal's width in columns; 0 means 80.
	Width int
	// Color paints the bar; without it the bar is drawn in plain
	// characters (NO_COLOR, or a terminal without color).
	Color bool
}

// barWidth is the bar's width in columns when the terminal is wide enough.
const barWidth = 24

// NewProgress returns a Progress writing to w.
func NewProgress(w io.Writer, o ProgressOptions) *Progress {
	width := o.Width
	if width <= 0 {
		width = 80
	}
	opts := []progress.Option{progress.WithWidth(barWidth), progress.WithoutPercentage()}
	if !o.Color {
		opts = append(opts, progress.WithFillCharacters('#', '-'))
	}
	return &Progress{w: w, live: o.Live, color: o.Color, width: width, bar: progress.New(opts...)}
}

// Update shows one notification.
func (p *Progress) Update(n *mcp.ProgressNotificationParams) {
	if n == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	token := fmt.Sprint(n.ProgressToken)
	if p.finished[token] {
		return // late: the request has its answer
	}
	p.token = token
	if !p.live {
		line := plainProgress(n)
		if line == p.last {
			return
		}
		p.last = line
		fmt.Fprintln(p.w, line)
		return
	}
	fmt.Fprint(p.w, "\r\x1b[2K"+p.liveLine(n))
	p.shown = true
}

// Clear removes the live line, if it is on screen.
func (p *Progress) Clear() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clear()
}

// Done clears the line for good: the request has its answer, and any
// notification for it that arrives late is not shown.
func (p *Progress) Done() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clear()
	if p.token != "" {
		if p.finished == nil {
			p.finished = map[string]bool{}
		}
		p.finished[p.token] = true
		p.token = ""
	}
}

func (p *Progress) clear() {
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[2K")
		p.shown = false
	}
	p.last = ""
}

// liveLine is "[bar] 42% 42/100 message" (or "42 message" without a
// total), cut to the terminal's width so that it never wraps.
func (p *Progress) liveLine(n *mcp.ProgressNotificationParams) string {
	var b strings.Builder
	if n.Total > 0 {
		frac := min(max(n.Progress/n.Total, 0), 1)
		bar := p.bar.ViewAs(frac)
		if !p.color {
			bar = ansi.Strip(bar)
		}
		if p.width < barWidth+30 {
			bar = ""
		}
		if bar != "" {
			b.WriteString(bar)
			b.WriteString(" ")
		}
		fmt.Fprintf(&b, "%3.0f%% %s/%s", 100*frac, num(n.Progress), num(n.Total))
	} else {
		fmt.Fprintf(&b, "… %s", num(n.Progress))
	}
	if msg := Line(n.Message); msg != "" {
		b.WriteString("  ")
		b.WriteString(msg)
	}
	return truncate(b.String(), p.width-1)
}

// plainProgress is one line per notification, for logs and pipes.
func plainProgress(n *mcp.ProgressNotificationParams) string {
	msg := ""
	if m := Line(n.Message); m != "" {
		msg = " " + m
	}
	if n.Total > 0 {
		return fmt.Sprintf("progress: %3.0f%% (%s/%s)%s", 100*n.Progress/n.Total, num(n.Progress), num(n.Total), msg)
	}
	return fmt.Sprintf("progress: %s%s", num(n.Progress), msg)
}

func num(f float64) string { return fmt.Sprintf("%g", f) }
