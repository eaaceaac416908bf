package urlmode

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/internal/plural"
	"github.com/mcpcli/mcpcli/render"
)

// WaitHelp is the way back, shown once the link is open.
const WaitHelp = "Finish in your browser, then press Enter to continue · d decline · Esc cancel"

// choice is what the person picked on a screen.
type choice int

const (
	chNone    choice = iota
	chOpen           // open in the browser
	chShow           // show the URL to copy
	chAccept         // finished in the browser: accept
	chDecline        // decline
	chCancel         // cancel (Esc, or ctrl+c then Esc, as in the forms)
	chQuit           // ctrl+c twice: leave mcpcli, abandoning the request
)

// screen is which of the model's screens is up.
type screen int

const (
	consentScreen screen = iota // look at the URL, then choose
	refusedScreen               // a URL mcpcli will not open
	waitScreen                  // finish in the browser, then come back
)

// The screen's styles are made when it draws, not at package init: a
// command that never shows the screen does not pay for them.
func boldStyle() lipgloss.Style { return lipgloss.NewStyle().Bold(true) }
func hostStyle() lipgloss.Style { return lipgloss.NewStyle().Bold(true) }

// domainStyle stands out without colour too.
func domainStyle() lipgloss.Style { return lipgloss.NewStyle().Bold(true).Reverse(true) }
func keyStyle() lipgloss.Style    { return lipgloss.NewStyle().Bold(true) }

// colors are the screen's colored styles for one background, from render's
// palettes: readable (4.5:1) on dark and light terminals alike.
type colors struct{ faint, warn, refused lipgloss.Style }

func colorsFor(dark bool) colors {
	p := render.PaletteFor(dark)
	return colors{
		faint:   lipgloss.NewStyle().Foreground(lipgloss.Color(p.Dim)),
		warn:    lipgloss.NewStyle().Foreground(lipgloss.Color(p.Warn)),
		refused: lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color(p.Error)),
	}
}

func (m model) c() colors { return colorsFor(!m.light) }

// model is the full-screen consent screen and, after it, the inline
// "finish in your browser" line. It only decides; opening happens outside,
// after the program has left the alternate screen.
type model struct {
	screen  screen
	title   string // who asks, round
	context string // which request
	message string // sanitized
	server  string // sanitized display name
	an      Analysis

	status   string // wait screen: what just happened
	opened   bool   // the browser has opened the URL
	urlShown bool   // the URL to copy is on the screen, above the wait line
	banner   string // heads the consent screen (the tour's "Tour 5/7 · …")

	width, height int
	light         bool // the terminal's background is light
	quitAsked     bool // a first ctrl+c: a second one quits
	offset        int  // first body line shown
	seenAll       bool // the whole body has been on screen
	hint          string
	inSession     bool // a second ctrl+c abandons the request, not mcpcli

	choice choice
}

func newModel(r client.Round, i int, an Analysis) model {
	a := r.Asks[i]
	m := model{
		title:   render.AskTitle(r, i),
		context: render.Context(r),
		server:  render.Line(r.Server.Display()),
		an:      an,
		width:   80,
		height:  24,
	}
	if a.Params != nil {
		m.message = render.Sanitize(a.Params.Message)
	}
	if !an.Openable() {
		m.screen = refusedScreen
	}
	m.seenAll = m.bottomVisible()
	return m
}

// waiting turns the model into the way-back screen.
func (m model) waiting(status string, opened bool) model {
	m.screen = waitScreen
	m.status = status
	m.opened = opened
	m.choice = chNone
	m.hint = ""
	return m
}

func (m model) Init() tea.Cmd { return tea.RequestBackgroundColor }

func (m model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.BackgroundColorMsg:
		m.light = !msg.IsDark()
		return m, nil
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.offset = m.clamp(m.offset)
		m.seenAll = m.seenAll || m.bottomVisible()
		return m, nil
	case tea.KeyPressMsg:
		return m.key(msg.String())
	}
	return m, nil
}

func (m model) quit(c choice) (tea.Model, tea.Cmd) {
	m.choice = c
	m.hint = ""
	return m, tea.Quit
}

func (m model) key(k string) (tea.Model, tea.Cmd) {
	switch {
	case k == "ctrl+c" && m.quitAsked:
		return m.quit(chQuit)
	case k == "ctrl+c":
		m.quitAsked = true
		m.hint = "Quit? ctrl+c again leaves mcpcli and abandons the request; esc cancels just this question."
		if m.inSession {
			m.hint = "Abandon? ctrl+c again abandons the request (the session stays); esc cancels just this question."
		}
		return m, nil
	case m.quitAsked:
		m.quitAsked = false
		m.hint = ""
	}
	switch m.screen {
	case refusedScreen:
		switch k {
		case "enter", "d", "ctrl+x", "esc", "space", "c":
			return m.quit(chDecline)
		}
		m.hint = "Press Enter: mcpcli answers decline."
	case waitScreen:
		switch k {
		case "enter":
			return m.quit(chAccept)
		case "d", "ctrl+x":
			return m.quit(chDecline)
		case "esc", "c":
			return m.quit(chCancel)
		case "o":
			return m.quit(chOpen)
		case "s":
			return m.quit(chShow)
		}
		m.hint = "Press Enter once you have finished in the browser, d to decline, Esc to cancel."
	default:
		switch k {
		case "o":
			if !m.seenAll {
				m.hint = "Read the whole URL first: scroll down to its end (↓, PgDn, End)."
				return m, nil
			}
			return m.quit(chOpen)
		case "s":
			return m.quit(chShow)
		case "d", "ctrl+x":
			return m.quit(chDecline)
		case "esc", "c":
			return m.quit(chCancel)
		default:
			if by, ok := render.Scroll(k, m.avail(), len(m.body())); ok {
				m.scroll(by)
				break
			}
			m.hint = "Choose: o opens the link in your browser, s shows it to copy, d declines, Esc cancels."
		}
	}
	return m, nil
}

func (m *model) scroll(n int) {
	m.offset = m.clamp(m.offset + n)
	m.seenAll = m.seenAll || m.bottomVisible()
}

func (m model) clamp(off int) int {
	limit := max(len(m.body())-m.avail(), 0)
	return min(max(off, 0), limit)
}

// avail is how many body lines fit above the footer.
func (m model) avail() int {
	return max(m.height-len(m.footer()), 3)
}

func (m model) bottomVisible() bool {
	return m.offset+m.avail() >= len(m.body())
}

func (m model) textWidth() int { return max(m.width-4, 20) }

// body is the scrollable part of the consent and refused screens, one
// entry per screen line.
func (m model) body() []string {
	w := m.textWidth()
	var lines []string
	add := func(s string) { lines = append(lines, strings.Split(s, "\n")...) }
	indent := func(s string) string {
		return "  " + strings.ReplaceAll(s, "\n", "\n  ")
	}
	if m.banner != "" {
		add(m.c().warn.Render(render.Line(m.banner)))
	}
	add(boldStyle().Render(m.title))
	if m.context != "" {
		add(m.c().faint.Render(m.context))
	}
	add("")
	if m.message != "" {
		add(indent(lipgloss.Wrap(m.message, w, "")))
		add("")
	}
	if m.screen == refusedScreen {
		add(boldStyle().Render("The server asks you to open this link, which mcpcli refuses to open:"))
	} else {
		add(boldStyle().Render("The server asks you to open this link in your browser:"))
	}
	add("")
	add(indent(lipgloss.Wrap(m.styledURL(), w, "")))
	add("")
	if site := m.an.Site(); site != "" {
		add(indent(lipgloss.Wrap("Host: "+site, w, "")))
	}
	for _, wa := range m.an.Warnings {
		add(indent(m.c().warn.Render("⚠ ") + hanging(lipgloss.Wrap(wa.Text, w-2, ""))))
	}
	if m.screen == refusedScreen {
		add(indent(m.c().refused.Render("✗ Refused: ") + hanging(lipgloss.Wrap(m.an.Refused+".", w-11, ""))))
	}
	if m.screen != refusedScreen {
		add(indent(m.c().faint.Render(lipgloss.Wrap("Your browser talks to that site directly: mcpcli never sees what you type there.", w, ""))))
	}
	return lines
}

// hanging indents every line but the first by two columns, under the
// first line's text.
func hanging(s string) string { return strings.ReplaceAll(s, "\n", "\n  ") }

// styledURL is the URL with its host in bold and its registrable domain
// in reverse video: subdomain tricks (bank.com.evil.example) stand out,
// with or without colour. The URL is printable ASCII, so it is safe to print whole.
func (m model) styledURL() string {
	before, sub, domain, after := m.an.Parts()
	return before + hostStyle().Render(sub) + domainStyle().Render(domain) + after
}

func (m model) footer() []string {
	var keys string
	switch m.screen {
	case refusedScreen:
		keys = keyStyle().Render("enter") + " answer decline"
	default:
		keys = keyStyle().Render("o") + " open in browser · " + keyStyle().Render("s") + " show the URL to copy · " +
			keyStyle().Render("d") + " decline · " + keyStyle().Render("esc") + " cancel"
	}
	lines := []string{"", keys}
	if m.hint != "" {
		lines = append(lines, m.c().warn.Render(m.hint))
	}
	return lines
}

func (m model) View() tea.View {
	if m.screen == waitScreen {
		return tea.NewView(m.waitView())
	}
	body := m.body()
	avail := m.avail()
	end := min(m.offset+avail, len(body))
	shown := body[m.offset:end]
	var b strings.Builder
	b.WriteString(strings.Join(shown, "\n"))
	foot := m.footer()
	if len(body) > avail {
		more := "↑/↓ PgUp/PgDn scroll"
		if end < len(body) {
			more += fmt.Sprintf(" · %d more line%s below", len(body)-end, plural.S(len(body)-end))
		}
		foot[0] = m.c().faint.Render(more)
	}
	b.WriteString("\n")
	b.WriteString(strings.Join(foot, "\n"))
	v := tea.NewView(b.String())
	v.AltScreen = true
	return v
}

func (m model) waitView() string {
	var b strings.Builder
	if m.status != "" {
		b.WriteString(lipgloss.Wrap(m.status, max(m.width-1, 20), ""))
		b.WriteString("\n")
	}
	switch m.choice {
	case chAccept:
		b.WriteString("Continuing: mcpcli retries the request with accept.")
		return b.String()
	case chDecline, chCancel, chOpen, chShow: // the caller says what follows
		return strings.TrimSuffix(b.String(), "\n")
	}
	help := WaitHelp
	switch {
	case m.opened:
		help += " · o open again"
	case m.urlShown: // said once, above: not again
		help += " · o open in browser"
	default:
		help += " · o open in browser · s show the URL"
	}
	b.WriteString(lipgloss.Wrap(help, max(m.width-1, 20), ""))
	if m.hint != "" {
		b.WriteString("\n")
		b.WriteString(m.c().warn.Render(m.hint))
	}
	return b.String()
}

// TUI answers one URL ask full-screen (the form answerer's URL hook): a
// consent screen on the alternate screen, then, back on the main screen,
// the browser, then the way back.
func (c *Consent) TUI(ctx context.Context, r client.Round, i int) (*mcp.ElicitResult, error) {
	a := r.Asks[i]
	an := Analyze(a.Params.URL)
	m := newModel(r, i, an)
	m.inSession = c.InSession
	if c.Banner != nil {
		m.banner = c.Banner()
	}
	if !an.Openable() {
		fm, err := c.run(ctx, m)
		if err != nil {
			return nil, err
		}
		if fm.choice == chQuit {
			return nil, client.ErrAbandoned
		}
		fmt.Fprintf(c.out(), "%s asked to open a link mcpcli refuses to open: %s\n", m.server, an.Shown)
		fmt.Fprintf(c.out(), "  ✗ %s; answered decline.\n", an.Refused)
		return &mcp.ElicitResult{Action: client.Decline}, nil
	}
	st, repeat := c.recall(r, a)
	if repeat {
		status := fmt.Sprintf("Not finished yet: %s asks for this step again (%s).", m.server, hostForm(an.Host))
		if msg := render.Line(a.Params.Message); msg != "" && !strings.HasPrefix(strings.ToLower(msg), "not finished") {
			status += " It says: " + msg
		} else if msg != "" {
			status = fmt.Sprintf("%s (%s asks again, %s)", msg, m.server, hostForm(an.Host))
		}
		m = m.waiting(status, c.opened(st))
	}
	for {
		fm, err := c.run(ctx, m)
		if err != nil {
			return nil, err
		}
		switch fm.choice {
		case chOpen:
			// The program has left the alternate screen: the browser, and
			// anything a $BROWSER command prints, land on the main screen.
			ok := c.open(ctx, c.out(), "", an, st, fm.width)
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			// Not opened: open said why, and showed the URL to copy.
			m = fm.waiting("", c.opened(st))
			m.urlShown = m.urlShown || !ok
		case chShow:
			showURL(c.out(), "", an)
			m = fm.waiting("", c.opened(st))
			m.urlShown = true
		case chAccept:
			c.mark(st, func(s *step) { s.accepted = true })
			return &mcp.ElicitResult{Action: client.Accept}, nil
		case chDecline:
			return &mcp.ElicitResult{Action: client.Decline}, nil
		case chQuit:
			return nil, client.ErrAbandoned
		default: // chCancel

			return &mcp.ElicitResult{Action: client.Cancel}, nil
		}
	}
}

// run runs one screen on the terminal and returns the final model.
func (c *Consent) run(ctx context.Context, m model) (model, error) {
	final, err := c.Term.Run(ctx, m)
	if errors.Is(err, render.ErrCancelled) {
		m.choice = chCancel
		return m, nil
	}
	if err != nil {
		if ctx.Err() != nil {
			return m, ctx.Err()
		}
		return m, fmt.Errorf("showing the link: %w", err)
	}
	fm, ok := final.(model)
	if !ok {
		return m, errors.New("showing the link: unexpected final screen")
	}
	return fm, nil
}

// out is where the full-screen consent leaves its lines: Out (the
// console), or the terminal itself.
func (c *Consent) out() io.Writer {
	if c.Out != nil {
		return c.Out
	}
	return c.Term.Out
}
