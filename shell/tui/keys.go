package tui

import (
	"fmt"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpcli/mcpcli/internal/plural"
	"github.com/mcpcli/mcpcli/render"
)

// The keymap: one meaning per key in each pane, written down once. The
// footer of each pane and the ? help are made from it, and a key a pane
// does not list here does nothing there (key drops it before any handler
// sees it), so what the footer says is what the keys do.
//
// Two rules shape it:
//   - Moving between tabs (tab, shift+tab, 1-5) and moving within a pane
//     (↑/↓, n/N between a result's items) are different keys, in every
//     pane: tab never means "next item".
//   - No key that moves makes a call. A request goes out from enter on a
//     list only through a form and its review, or, for a tool that takes
//     no arguments, a confirm line answered with y; r and e re-run.
//
// A key works only once it is listed here.

// paneID is where the keys go.
type paneID int

const (
	paneTools paneID = iota
	panePrompts
	paneResources
	paneCall
	paneActivity
	paneHistory
	panePager   // a tool's details, a message or a log in full, these keys
	paneAsks    // the asks waiting
	paneConfirm // a yes or no line
	paneLevel   // the log level picker
	paneCaps    // the client's capabilities
	paneSave    // S: save the session, as a script or a flow file
	numPanes
)

// binding is one meaning of one or more keys in a pane.
type binding struct {
	keys []string // key names, as tea.KeyPressMsg.String says them
	show string   // the keys as the help shows them
	does string   // what they do, for the help
	foot string   // in the footer, shortest; "" when the footer leaves it out
}

// Bindings more than one pane shares.
var (
	bindMove   = binding{keys: slices.Concat(render.LineUpKeys, render.LineDownKeys), show: "↑/↓  k/j", does: "move", foot: "↑/↓ move"}
	bindPage   = binding{keys: slices.Concat(render.PageUpKeys, render.PageDownKeys), show: "pgup/pgdn  b/f", does: "a page up / down"}
	bindEnds   = binding{keys: slices.Concat(render.TopKeys, render.EndKeys), show: "home/end  g/G", does: "the first / the last"}
	bindScroll = binding{keys: slices.Concat(render.LineUpKeys, render.LineDownKeys), show: "↑/↓  k/j", does: "scroll", foot: "↑/↓ scroll"}
	bindFind   = binding{keys: []string{"/"}, show: "/", does: "search (type, enter keeps it, esc clears it)", foot: "/ search"}
	bindMatch  = binding{keys: []string{"n", "N"}, show: "n / N", does: "the next / previous match", foot: "n/N match"}
	bindFilter = binding{keys: []string{"/"}, show: "/", does: "filter by name, title and description, best match first (esc clears)", foot: "/ filter"}
	bindClear  = binding{keys: []string{"esc"}, show: "esc", does: "clear the filter"}
	bindReload = binding{keys: []string{"r"}, show: "r", does: "read the list again"}
	bindDetail = binding{keys: []string{"d"}, show: "d", does: "its details, full screen", foot: "d details"}
)

// everywhere are the keys of every pane but the windows over them (the
// help, the details, a question) and a filter or a search being typed.
var everywhere = []binding{
	{keys: []string{"tab", "shift+tab"}, show: "tab / shift+tab", does: "the next / previous tab (from a call too)", foot: "tab next tab"},
	{keys: []string{"1", "2", "3", "4", "5"}, show: "1 … 5", does: "Tools, Prompts, Resources, Activity, History"},
	{keys: []string{"!"}, show: "!", does: "answer an ask that waits (a list, when more wait)"},
	{keys: []string{"?"}, show: "?", does: "these keys", foot: "? keys"},
	{keys: []string{"L"}, show: "L", does: "the server's log level"},
	{keys: []string{"S"}, show: "S", does: "save the session: s as a script of one-shot commands, f as a flow file that mcpcli test replays (the file's name filled in, to edit)"},
	{keys: []string{"C"}, show: "C", does: "the client's capabilities: sampling on or off, roots added and removed"},
	{keys: []string{"R"}, show: "R", does: "restart a stdio server, or reconnect to an HTTP one (History, Activity and the wire are kept)"},
	{keys: []string{"ctrl+c"}, show: "ctrl+c", does: "cancel the request on screen (or the latest running); at rest, twice quits"},
	{keys: []string{"q"}, show: "q", does: "quit (asks again while requests run)", foot: "q quit"},
}

var panes = [numPanes]struct {
	name  string
	binds []binding
}{
	paneTools: {"Tools", []binding{
		bindMove, bindPage, bindEnds, bindFilter, bindClear,
		{keys: []string{"enter"}, show: "enter", does: "fill in the arguments, review, send; a tool without arguments asks y first", foot: "enter call"},
		{keys: []string{"a"}, show: "a", does: "the arguments as one JSON field", foot: "a JSON"},
		bindDetail, bindReload,
	}},
	panePrompts: {"Prompts", []binding{
		bindMove, bindPage, bindEnds, bindFilter, bindClear,
		{keys: []string{"enter"}, show: "enter", does: "get the prompt (its arguments asked first)", foot: "enter get"},
		bindDetail, bindReload,
	}},
	paneResources: {"Resources", []binding{
		bindMove, bindPage, bindEnds, bindFilter, bindClear,
		{keys: []string{"enter"}, show: "enter", does: "read it (a template's variables asked first)", foot: "enter read"},
		{keys: []string{"u"}, show: "u", does: "subscribe to its updates, or stop", foot: "u subscribe"},
		bindDetail, bindReload,
	}},
	paneCall: {"A call", []binding{
		{keys: []string{"n", "N"}, show: "n / N", does: "the next / previous item: a link, an image, structuredContent", foot: "n item"},
		{keys: []string{"enter"}, show: "enter", does: "open the item: read the link, fold structuredContent, save the image", foot: "enter open"},
		{keys: []string{"esc", "backspace", "left"}, show: "esc", does: "back to the list", foot: "esc back"},
		{keys: []string{"r"}, show: "r", does: "send it again", foot: "r re-run"},
		{keys: []string{"e"}, show: "e", does: "edit the arguments, then send", foot: "e edit"},
		{keys: []string{"y"}, show: "y", does: "copy the result's JSON (OSC 52)", foot: "y copy"},
		{keys: []string{"s"}, show: "s", does: "save the item to a file", foot: "s save"},
		{keys: []string{"t"}, show: "t", does: "the timeline or the result (narrow screens)"},
		{keys: []string{"up", "k", "down", "j"}, show: "↑/↓  k/j", does: "scroll"},
		bindPage, bindEnds,
	}},
	paneActivity: {"Activity", []binding{
		{keys: []string{"a"}, show: "a", does: "show everything", foot: "a all"},
		{keys: []string{"l"}, show: "l", does: "show the server's logs", foot: "l logs"},
		{keys: []string{"i"}, show: "i", does: "show notifications, warnings, errors", foot: "i notes"},
		{keys: []string{"e"}, show: "e", does: "show the server's stderr", foot: "e stderr"},
		{keys: []string{"w"}, show: "w", does: "show the wire: every message", foot: "w wire"},
		bindFind,
		{keys: []string{"y"}, show: "y", does: "copy the row (on the wire: the message's JSON) with OSC 52", foot: "y copy"},
		{keys: []string{"enter"}, show: "enter", does: "the row in full", foot: "enter full"},
		bindMatch, bindMove, bindPage,
		{keys: []string{"home", "g", "end", "G"}, show: "home/end  g/G", does: "the first row / the last, and follow"},
	}},
	paneHistory: {"History", []binding{
		bindMove, bindPage, bindEnds,
		{keys: []string{"enter"}, show: "enter", does: "open the call (and an ask it waits on)", foot: "enter open"},
		{keys: []string{"r"}, show: "r", does: "send it again", foot: "r re-run"},
		{keys: []string{"e"}, show: "e", does: "edit the arguments, then send", foot: "e edit & re-run"},
	}},
	panePager: {"Details, a message in full, these keys", []binding{
		bindScroll, bindPage, bindEnds, bindFind, bindMatch,
		{keys: []string{"y"}, show: "y", does: "copy it (OSC 52)", foot: "y copy"},
		{keys: []string{"esc", "q", "backspace"}, show: "esc  q", does: "back", foot: "esc back"},
	}},
	paneAsks: {"Asks waiting", []binding{
		{keys: []string{"up", "k", "down", "j"}, show: "↑/↓", does: "choose", foot: "↑/↓ choose"},
		{keys: []string{"enter"}, show: "enter", does: "answer it", foot: "enter answer"},
		{keys: []string{"esc", "q"}, show: "esc", does: "back (they keep waiting)", foot: "esc back"},
	}},
	paneConfirm: {"A question", []binding{
		{keys: []string{"y", "Y"}, show: "y", does: "yes", foot: "y yes"},
		{keys: []string{"n", "N", "esc", "q"}, show: "n  esc", does: "no", foot: "n or esc no"},
	}},
	paneCaps: {"Capabilities", []binding{
		{keys: []string{"up", "k", "down", "j"}, show: "↑/↓", does: "choose", foot: "↑/↓ move"},
		{keys: []string{"enter", "space"}, show: "enter", does: "turn sampling on or off; add a directory", foot: "enter turn on/off, add"},
		{keys: []string{"d", "x", "delete", "backspace"}, show: "d", does: "remove the root chosen", foot: "d remove a root"},
		{keys: []string{"esc", "q", "C"}, show: "esc", does: "back", foot: "esc back"},
	}},
	paneSave: {"Save the session (S)", []binding{
		{keys: []string{"s"}, show: "s", does: "a script of one-shot commands (sh runs it); --save names its file", foot: "s script"},
		{keys: []string{"f"}, show: "f", does: "a flow file, a test: mcpcli test replays it and checks each ask and result", foot: "f flow file"},
		{keys: []string{"up", "k", "down", "j"}, show: "↑/↓", does: "choose", foot: "↑/↓ choose"},
		{keys: []string{"enter"}, show: "enter", does: "choose it; then type or edit the file's name, enter saves", foot: "enter choose"},
		{keys: []string{"esc", "q"}, show: "esc", does: "back (while typing the name: back to the choice)", foot: "esc back"},
	}},
	paneLevel: {"Log level", []binding{
		{keys: []string{"up", "k", "down", "j"}, show: "↑/↓", does: "choose", foot: "↑/↓ choose"},
		{keys: []string{"enter"}, show: "enter", does: "set it", foot: "enter set"},
		{keys: []string{"esc", "q"}, show: "esc", does: "back", foot: "esc back"},
	}},
}

// global reports whether a pane takes the keys of everywhere.
func (p paneID) global() bool { return p <= paneHistory }

// binds reports whether key means something in pane p.
func binds(p paneID, key string) bool {
	for _, b := range panes[p].binds {
		for _, k := range b.keys {
			if k == key {
				return true
			}
		}
	}
	if p.global() {
		for _, b := range everywhere {
			for _, k := range b.keys {
				if k == key {
					return true
				}
			}
		}
	}
	return false
}

// footerOf is pane p's footer at width w: its keys, then the global ones;
// what does not fit is left out, q quit first (? keys lists it), then the
// pane's last keys. first come before everything (an ask waiting).
func footerOf(p paneID, w int, first ...string) string {
	return footerWithout(p, w, nil, first...)
}

// footerWithout is footerOf leaving out the keys that do nothing now
// (a running call has no item to open).
func footerWithout(p paneID, w int, idle func(binding) bool, first ...string) string {
	var own, global []string
	for _, b := range panes[p].binds {
		if b.foot != "" && (idle == nil || !idle(b)) {
			own = append(own, b.foot)
		}
	}
	if p.global() {
		for _, b := range everywhere {
			if b.foot != "" {
				global = append(global, b.foot)
			}
		}
	}
	// What gives way first: q and tab mean the same in every pane (? keys
	// stays, to find them), then the pane's last keys.
	drop := []string{"q quit", "tab next tab"}
	for {
		all := append(append(append([]string(nil), first...), own...), global...)
		line := " " + strings.Join(all, " · ")
		switch {
		case ansi.StringWidth(line) <= w:
			return line
		case len(drop) > 0:
			global = slices.DeleteFunc(global, func(g string) bool { return g == drop[0] })
			drop = drop[1:]
		case len(own) > 0:
			own = own[:len(own)-1]
		default:
			return clip(line, w)
		}
	}
}

// helpLines are the keymap, pane by pane, for the ? help, wrapped to w
// cells; the sections' names are styled by title.
func helpLines(w int, title func(...string) string) []string {
	var out []string
	section := func(name string, bs []binding) {
		if len(out) > 0 {
			out = append(out, "")
		}
		out = append(out, title(name))
		for _, b := range bs {
			does := strings.Split(wrapText(b.does, w-22), "\n")
			out = append(out, fmt.Sprintf("  %-16s  %s", b.show, does[0]))
			for _, l := range does[1:] {
				out = append(out, strings.Repeat(" ", 20)+l)
			}
		}
	}
	section("Everywhere (but over a window, and while typing a filter or a search)", everywhere)
	for p := paneTools; p < numPanes; p++ {
		section(panes[p].name, panes[p].binds)
	}
	section("Typing a filter or a search", []binding{
		{show: "type", does: "what to look for"},
		{show: "↑/↓", does: "stop typing and move"},
		{show: "enter / esc", does: "keep it / clear it"},
	})
	out = append(out, "", title("Marks"))
	for _, l := range []string{
		"In the lists: ro read-only · ! destructive · = idempotent · ~ open world · T task required · t task optional · {} a resource template · ● subscribed.",
		"An ask from a call you are not looking at waits: the tabs say \"! 1 ask\", and the call's line says so; ! (or opening the call) answers it. A form ignores the keys typed before it shows, and for a moment after.",
	} {
		for _, w := range strings.Split(wrapText(l, w-4), "\n") {
			out = append(out, "  "+w)
		}
	}
	return out
}

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
		if t, ok := m.modal.(typer); ok && t.typing() {
			return t.typeKey(m, msg)
		}
		if !binds(m.modal.pane(), k) {
			return nil
		}
		if c, ok := m.modal.(*confirmModal); ok && c.g.Drop(k) {
			return nil // typed before the question showed
		}
		return m.modal.key(m, k)
	}
	if l := m.filtering(); l != nil {
		return m.filterKey(l, msg)
	}
	if m.viewing == nil && m.tab == tabActivity && m.act.find.typing {
		return m.act.find.typeKey(msg, func() { m.findRow(0) })
	}
	p := m.pane()
	if !binds(p, k) {
		return nil
	}
	switch k {
	case "ctrl+c":
		return m.interrupt()
	case "q":
		return m.quit()
	case "?":
		m.modal = newPager(m, panePager, "Keys", helpLines(m.width-2, m.st.title.Render), "")
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
		m.modal = &saveModal{}
		return nil
	case "R":
		return m.restart()
	case "!":
		return m.answerAsks()
	case "1", "2", "3", "4", "5":
		m.viewing = nil
		m.tab = tab(k[0] - '1')
		m.detail = detailCache{}
		return nil
	case "tab", "shift+tab":
		m.viewing = nil
		return m.switchTab(k)
	}
	if m.viewing != nil {
		return m.callKey(m.viewing, k)
	}
	switch m.tab {
	case tabActivity:
		return m.activityKey(k)
	case tabHistory:
		return m.historyKey(k)
	}
	return m.browseKey(k)
}

// pane is where keys go now (no window is open).
func (m *Model) pane() paneID {
	if m.viewing != nil {
		return paneCall
	}
	switch m.tab {
	case tabPrompts:
		return panePrompts
	case tabResources:
		return paneResources
	case tabActivity:
		return paneActivity
	case tabHistory:
		return paneHistory
	}
	return paneTools
}

func (m *Model) switchTab(k string) tea.Cmd {
	d := tab(1)
	if k == "shift+tab" {
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
	if by, ok := render.Scroll(k, rows, len(l.shown)); ok {
		l.move(by, rows)
	}
	switch k {
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
	case "d":
		m.details()
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
		m.setStatus(fmt.Sprintf("%d request%s still running: q again cancels and quits", m.running, plural.S(m.running)), true)
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

// Windows over the body: a question, a picker, a text in full.

type modal interface {
	// view is the window's lines; nil leaves the body as it is (a
	// question on the footer line).
	view(m *Model) []string
	pane() paneID
	keys(m *Model) string
	key(m *Model, k string) tea.Cmd
}

// typer is a window that takes text while it is being typed (a search).
type typer interface {
	typing() bool
	typeKey(m *Model, msg tea.KeyPressMsg) tea.Cmd
}

// confirmModal asks yes or no: on the footer line, over the pane it was
// asked from, or with a title (a warning) over the body. Only y says yes,
// so that an enter typed for the list never does.
type confirmModal struct {
	title string
	ask   string
	yes   func() tea.Cmd
	no    func()
	g     *render.Guard // as the forms: keys typed before it showed do not answer it
}

// confirm asks a yes or no question; with a title, over the body.
func (m *Model) confirm(title, ask string, yes func() tea.Cmd, no func()) {
	m.modal = &confirmModal{title: title, ask: ask, yes: yes, no: no, g: render.NewGuard(m.keyGuard(), m.guardClock)}
}

// keyGuard is Options.KeyGuard: 0 is render.DefaultKeyGuard, negative none.
func (m *Model) keyGuard() time.Duration {
	switch {
	case m.o.KeyGuard == 0:
		return render.DefaultKeyGuard
	case m.o.KeyGuard < 0:
		return 0
	}
	return m.o.KeyGuard
}

func (c *confirmModal) view(m *Model) []string {
	if c.title == "" {
		return nil
	}
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

func (c *confirmModal) pane() paneID { return paneConfirm }

func (c *confirmModal) keys(m *Model) string {
	if c.title != "" {
		return footerOf(paneConfirm, m.width)
	}
	return " " + m.st.warn.Render(c.ask) + " " + strings.TrimSpace(footerOf(paneConfirm, m.width))
}

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

func (l *levelModal) pane() paneID { return paneLevel }

func (l *levelModal) keys(m *Model) string { return footerOf(paneLevel, m.width) }

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

func (m *Model) nextSeq() int {
	m.seq++
	return m.seq
}
