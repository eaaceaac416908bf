package session

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpcli/mcpcli/render"
)

// key handles a key press.
func (m *Model) key(msg tea.KeyPressMsg) tea.Cmd {
	k := msg.String()
	if k != "ctrl+c" && k != "q" {
		m.armed = false
	}
	if m.modal != nil {
		if k == "ctrl+c" {
			m.modal = nil
			return nil
		}
		return m.modal.key(m, k)
	}
	if l := m.filtering(); l != nil {
		return m.filterKey(l, msg)
	}
	switch k {
	case "ctrl+c":
		return m.interrupt()
	case "q":
		return m.quit()
	case "?":
		m.modal = &helpModal{}
		return nil
	case "L":
		m.modal = newLevelModal(m.c.LogLevel())
		return nil
	case "C":
		if m.caps() == nil {
			m.setStatus("this session cannot change the client's capabilities", true)
			return nil
		}
		m.modal = &capsModal{}
		return nil
	case "S":
		m.save()
		return nil
	case "1", "2", "3", "4", "5":
		m.viewing = nil
		m.tab = tab(k[0] - '1')
		m.detail = detailCache{}
		return nil
	}
	if m.viewing != nil {
		if k == "tab" && (m.viewing.view == nil || len(m.viewing.view.items) == 0) || k == "shift+tab" && (m.viewing.view == nil || len(m.viewing.view.items) == 0) {
			m.viewing = nil
			return m.switchTab(k)
		}
		return m.callKey(m.viewing, k)
	}
	switch k {
	case "tab", "shift+tab", "right", "left":
		return m.switchTab(k)
	}
	switch m.tab {
	case tabActivity:
		return m.activityKey(k)
	case tabHistory:
		return m.historyKey(k)
	}
	return m.browseKey(k)
}

func (m *Model) switchTab(k string) tea.Cmd {
	d := tab(1)
	if k == "shift+tab" || k == "left" {
		d = numTabs - 1
	}
	m.tab = (m.tab + d) % numTabs
	m.detail = detailCache{}
	return nil
}

// filtering is the list whose filter is being typed, if any.
func (m *Model) filtering() *list {
	if m.viewing != nil || m.modal != nil || m.tab > tabResources {
		return nil
	}
	if l := m.lists[m.tab]; l.filtering {
		return l
	}
	return nil
}

func (m *Model) filterKey(l *list, msg tea.KeyPressMsg) tea.Cmd {
	switch msg.String() {
	case "esc", "ctrl+c":
		l.filtering = false
		l.setFilter("")
	case "enter":
		l.filtering = false
	case "backspace":
		if r := []rune(l.filter); len(r) > 0 {
			l.setFilter(string(r[:len(r)-1]))
		}
	case "ctrl+u":
		l.setFilter("")
	case "up", "down":
		l.filtering = false
		return m.browseKey(msg.String())
	default:
		if msg.Text != "" {
			l.setFilter(l.filter + msg.Text)
		}
	}
	m.fixCursor(l)
	return nil
}

func (m *Model) fixCursor(l *list) {
	l.scroll(m.bodyHeight() - 1)
}

func (m *Model) browseKey(k string) tea.Cmd {
	l := m.lists[m.tab]
	rows := m.bodyHeight()
	if l.filter != "" {
		rows--
	}
	switch k {
	case "up", "k":
		l.move(-1, rows)
	case "down", "j":
		l.move(1, rows)
	case "pgup", "b":
		l.move(-rows, rows)
	case "pgdown", "f", "space":
		l.move(rows, rows)
	case "home", "g":
		l.move(-len(l.shown), rows)
	case "end", "G":
		l.move(len(l.shown), rows)
	case "/":
		l.filtering = true
		l.setFilter("")
	case "esc":
		if l.filter != "" {
			l.setFilter("")
		}
	case "enter":
		return m.request(false)
	case "a":
		if m.tab == tabTools {
			return m.request(true)
		}
	case "u":
		if m.tab == tabResources {
			return m.toggleSubscribe()
		}
	case "r":
		// Read again, for lists: the server may have changed them without
		// saying so.
		return m.load(m.tab)
	}
	return nil
}

// interrupt is Ctrl+C outside a form: it cancels the request on screen
// (or the latest running one); at rest, twice quits.
func (m *Model) interrupt() tea.Cmd {
	c := m.viewing
	if c == nil || !c.running() {
		c = m.latestRunning()
	}
	if c != nil {
		m.cancelCall(c)
		return nil
	}
	if m.armed {
		return m.quitNow()
	}
	m.armed = true
	m.setStatus("press ctrl+c again (or q) to quit", false)
	return nil
}

func (m *Model) quit() tea.Cmd {
	if m.running > 0 && !m.armed {
		m.armed = true
		m.setStatus(fmt.Sprintf("%d request%s still running: q again cancels and quits", m.running, plural(m.running)), true)
		return nil
	}
	return m.quitNow()
}

func (m *Model) quitNow() tea.Cmd {
	if m.o.SavePath != "" {
		m.save()
	}
	m.quitting = true
	m.Close()
	return tea.Quit
}

// Modals: a question, a picker or a text in full, over the body.

type modal interface {
	view(m *Model) []string
	keys() string
	key(m *Model, k string) tea.Cmd
}

// confirmModal asks yes or no.
type confirmModal struct {
	title, ask string
	yes        func() tea.Cmd
	no         func()
}

func (c *confirmModal) view(m *Model) []string {
	w := m.width
	out := []string{""}
	for _, l := range strings.Split(wrapText(c.title, w-4), "\n") {
		out = append(out, "  "+m.st.warn.Render(l))
	}
	out = append(out, "")
	for _, l := range strings.Split(wrapText(c.ask, w-4), "\n") {
		out = append(out, "  "+m.st.title.Render(l))
	}
	return append(out, "", "  "+m.st.tabOn.Render(" y yes, call it ")+"   "+" n no ")
}

func (c *confirmModal) keys() string { return "y yes · n or esc no" }

func (c *confirmModal) key(m *Model, k string) tea.Cmd {
	switch k {
	case "y", "Y":
		m.modal = nil
		return c.yes()
	case "n", "N", "esc", "q":
		m.modal = nil
		c.no()
	}
	return nil
}

// levelModal picks the log level.
type levelModal struct{ cursor int }

func newLevelModal(current string) *levelModal {
	l := &levelModal{}
	for i, lv := range logLevels {
		if lv == current {
			l.cursor = i
		}
	}
	return l
}

func (l *levelModal) view(m *Model) []string {
	out := []string{"", "  " + m.st.title.Render("Server log level: the server sends messages at this level and above")}
	if m.server.Modern() {
		out = append(out, "  "+m.st.dim.Render("(2026-07-28: it goes in the _meta of each request from now on)"))
	} else {
		out = append(out, "  "+m.st.dim.Render("(sent now as logging/setLevel)"))
	}
	out = append(out, "")
	for i, lv := range logLevels {
		line := "    " + lv
		if lv == m.c.LogLevel() {
			line += "  (now)"
		}
		if i == l.cursor {
			line = m.st.selected("  ▸ " + strings.TrimPrefix(line, "    "))
		}
		out = append(out, line)
	}
	return out
}

func (l *levelModal) keys() string { return "↑/↓ choose · enter set · esc back" }

func (l *levelModal) key(m *Model, k string) tea.Cmd {
	switch k {
	case "up", "k":
		l.cursor = max(l.cursor-1, 0)
	case "down", "j":
		l.cursor = min(l.cursor+1, len(logLevels)-1)
	case "esc", "q":
		m.modal = nil
	case "enter":
		m.modal = nil
		level, c, ctx := logLevels[l.cursor], m.c, m.ctx
		return func() tea.Msg {
			if err := c.SetLogLevel(ctx, level); err != nil {
				return statusMsg{text: "log level not set: " + render.Line(err.Error()), err: true}
			}
			return statusMsg{text: "log level set to " + level}
		}
	}
	return nil
}

// expandModal shows one thing in full: a message on the wire, a log.
type expandModal struct {
	seq   int
	title string
	lines []string
	top   int
}

func (m *Model) nextSeq() int {
	m.seq++
	return m.seq
}

func (x *expandModal) view(m *Model) []string {
	h := m.bodyHeight()
	rows := h - 1
	x.top = max(0, min(x.top, len(x.lines)-rows))
	end := min(x.top+rows, len(x.lines))
	pos := ""
	if len(x.lines) > rows {
		pos = fmt.Sprintf("%d–%d of %d", x.top+1, end, len(x.lines))
	}
	out := []string{spread(m.st.title.Render(clip(x.title, m.width-16)), m.st.dim.Render(pos), m.width)}
	for _, l := range x.lines[x.top:end] {
		out = append(out, clip(" "+l, m.width))
	}
	return out
}

func (x *expandModal) keys() string { return "↑/↓ scroll · esc back" }

func (x *expandModal) key(m *Model, k string) tea.Cmd {
	rows := m.bodyHeight() - 1
	switch k {
	case "esc", "q", "enter", "backspace":
		m.modal = nil
	case "up", "k":
		x.top--
	case "down", "j":
		x.top++
	case "pgup", "b":
		x.top -= rows
	case "pgdown", "f", "space":
		x.top += rows
	case "home", "g":
		x.top = 0
	case "end", "G":
		x.top = len(x.lines)
	}
	x.top = max(0, min(x.top, len(x.lines)-rows))
	return nil
}

// helpModal lists the keys.
type helpModal struct{}

var helpText = []string{
	"Everywhere",
	"  tab / shift+tab   next / previous tab (1-5 jump)",
	"  ctrl+c            cancel the running request; at rest, twice quits",
	"  q                 quit (asks again while requests run)",
	"  L                 server log level",
	"  C                 client capabilities: sampling on/off, roots added and removed",
	"  S                 save the session as a replayable script",
	"Tools, Prompts, Resources",
	"  ↑/↓ pgup/pgdn     move        /  filter (esc clears)",
	"  enter             call / get / read (a form asks the arguments)",
	"  a                 a tool's arguments as one JSON field",
	"  u / r             subscribe to a resource / read the list again",
	"  marks: ro read-only · ! destructive · = idempotent · ~ open world",
	"         T task required · t task optional · {} a resource template",
	"A call",
	"  tab / enter       next item (link, image, structuredContent) / open it",
	"  s  save the item  ·  y copy the JSON (OSC 52)  ·  esc back",
	"  r  re-run  ·  e  edit the arguments and re-run",
	"Activity: a all · l logs · n notifications · e stderr · w wire · enter expands",
	"History: enter open · r re-run · e edit & re-run",
}

func (helpModal) view(m *Model) []string {
	var out []string
	for _, l := range helpText {
		if !strings.HasPrefix(l, " ") {
			out = append(out, m.st.title.Render(clip(" "+l, m.width)))
			continue
		}
		out = append(out, clip(" "+l, m.width))
	}
	return out
}

func (helpModal) keys() string { return "esc back" }

func (helpModal) key(m *Model, k string) tea.Cmd {
	m.modal = nil
	return nil
}
