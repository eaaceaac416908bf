package tui

import (
	"bytes"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpcli/mcpcli/render"
)

// finder is a search being typed, or kept: / starts it, n and N go to the
// next and previous line that holds it (case does not matter).
type finder struct {
	query  string
	typing bool
}

// matches reports whether line (possibly styled) holds the query.
func (f *finder) matches(line string) bool {
	if f.query == "" {
		return false
	}
	return strings.Contains(strings.ToLower(ansi.Strip(line)), strings.ToLower(f.query))
}

// next is the first line after from (dir 1) or before it (dir -1) that
// holds the query, going round the end; from itself comes last. -1 when
// none does.
func (f *finder) next(n, from, dir int, line func(int) string) int {
	if f.query == "" || n == 0 {
		return -1
	}
	for i := 1; i <= n; i++ {
		j := ((from+dir*i)%n + n) % n
		if f.matches(line(j)) {
			return j
		}
	}
	return -1
}

// typeKey edits the query while it is typed; found is called after each
// change (to go to the first match), and on enter.
func (f *finder) typeKey(msg tea.KeyPressMsg, found func()) tea.Cmd {
	switch msg.String() {
	case "esc", "ctrl+c":
		f.typing, f.query = false, ""
		return nil
	case "enter":
		f.typing = false
		if f.query == "" {
			return nil
		}
	case "backspace":
		if r := []rune(f.query); len(r) > 0 {
			f.query = string(r[:len(r)-1])
		}
	case "ctrl+u":
		f.query = ""
	case "up", "down":
		f.typing = false
		return nil
	default:
		if msg.Text == "" {
			return nil
		}
		f.query += msg.Text
	}
	found()
	return nil
}

// prompt is the search as the header shows it.
func (f *finder) prompt(st *styles) string {
	switch {
	case f.typing:
		return "/" + render.Line(f.query) + "█"
	case f.query != "":
		return st.dim.Render("/" + render.Line(f.query))
	}
	return ""
}

// pager shows one text in full, scrolled: a tool's details, a message on
// the wire, a log, the keys. / searches it, y copies it.
type pager struct {
	seq   int
	title string
	lines []string
	top   int
	find  finder
	at    int    // the line of the match gone to, -1
	copy  string // what y copies ("": the lines)
	what  string // what y copies, in words: "the message's JSON"
	note  string // what the last key said: no match, copied
}

func newPager(m *Model, _ paneID, title string, lines []string, copy string) *pager {
	return &pager{seq: m.nextSeq(), title: title, lines: lines, copy: copy, at: -1}
}

func (x *pager) pane() paneID { return panePager }

func (x *pager) rows(m *Model) int { return max(m.bodyHeight()-1, 1) }

func (x *pager) view(m *Model) []string {
	rows := x.rows(m)
	x.top = max(0, min(x.top, len(x.lines)-rows))
	end := min(x.top+rows, len(x.lines))
	right := ""
	if len(x.lines) > rows {
		right = fmt.Sprintf("%d–%d of %d", x.top+1, end, len(x.lines))
	}
	if p := x.find.prompt(m.st); p != "" {
		right = p + "  " + m.st.dim.Render(right)
	} else {
		right = m.st.dim.Render(right)
	}
	if x.note != "" {
		right = m.st.warn.Render(x.note) + "  " + right
	}
	room := max(m.width-ansi.StringWidth(right)-2, 10)
	out := []string{spread(m.st.title.Render(clip(" "+x.title, room)), right, m.width)}
	for i := x.top; i < end; i++ {
		l := clip(" "+x.lines[i], m.width)
		switch {
		case i == x.at:
			l = m.st.selected(cut("▸"+x.lines[i], m.width))
		case x.find.matches(x.lines[i]):
			l = clip(m.st.accent.Render("›")+x.lines[i], m.width)
		}
		out = append(out, l)
	}
	return out
}

func (x *pager) keys(m *Model) string {
	if x.find.typing {
		return " type to search · enter keep · esc clear"
	}
	return footerOf(panePager, m.width)
}

func (x *pager) typing() bool { return x.find.typing }

func (x *pager) typeKey(m *Model, msg tea.KeyPressMsg) tea.Cmd {
	return x.find.typeKey(msg, func() { x.goTo(m, x.top-1, 1) })
}

// goTo goes to the next match after line from in dir.
func (x *pager) goTo(m *Model, from, dir int) {
	x.note = ""
	i := x.find.next(len(x.lines), from, dir, func(i int) string { return x.lines[i] })
	if i < 0 {
		x.at = -1
		if x.find.query != "" {
			x.note = "no match"
		}
		return
	}
	x.at = i
	if rows := x.rows(m); i < x.top || i >= x.top+rows {
		x.top = max(i-rows/3, 0)
	}
}

func (x *pager) key(m *Model, k string) tea.Cmd {
	rows := x.rows(m)
	x.note = ""
	if by, ok := render.Scroll(k, rows, len(x.lines)); ok {
		x.top += by
	}
	switch k {
	case "esc", "q", "backspace":
		m.modal = nil
	case "/":
		x.find = finder{typing: true}
		x.at = -1
	case "n", "N":
		from := x.at
		if from < 0 {
			from = x.top - 1
		}
		d := 1
		if k == "N" {
			d = -1
			if x.at < 0 {
				from = x.top
			}
		}
		x.goTo(m, from, d)
	case "y":
		text := x.copy
		if text == "" {
			text = ansi.Strip(strings.Join(x.lines, "\n"))
		}
		return m.copyText(text, x.what)
	}
	x.top = max(0, min(x.top, len(x.lines)-rows))
	return nil
}

// copyText puts text on the clipboard with OSC 52 and says so.
func (m *Model) copyText(text, what string) tea.Cmd {
	if what == "" {
		what = "it"
	}
	if len(text) > maxCopy {
		m.setStatus(fmt.Sprintf("%s is %s; terminals take at most about %s through OSC 52, so nothing was copied", what, render.Size(len(text)), render.Size(maxCopy)), true)
		return nil
	}
	m.setStatus(fmt.Sprintf("copied %s (%s) with OSC 52, where the terminal allows it", what, render.Size(len(text))), false)
	return tea.SetClipboard(text)
}

// details shows the entry under the cursor in full, over the whole body:
// a long description scrolls there (the pane beside the list cuts it).
func (m *Model) details() {
	l := m.lists[m.tab]
	e := l.current()
	if e == nil {
		return
	}
	w := max(m.width-2, 20)
	var buf bytes.Buffer
	var raw []byte
	what := ""
	switch m.tab {
	case tabTools:
		t, r := m.tool(e.key)
		if t == nil {
			return
		}
		m.toolDetail(&buf, t, r, w)
		raw, what = r, "the tool's JSON"
	case tabPrompts:
		p := m.prompt(e.key)
		if p == nil {
			return
		}
		render.PromptDetail(&buf, p, w)
	case tabResources:
		if t := m.template(e.key); t != nil && strings.HasPrefix(e.key, templateKey) {
			buf.WriteString(templateDetail(t, w))
		} else if r := m.resource(e.key); r != nil {
			resourceDetail(&buf, r, m.subs[r.URI], w)
		} else {
			return
		}
	}
	var lines []string
	for _, ln := range strings.Split(strings.TrimRight(buf.String(), "\n"), "\n") {
		lines = append(lines, wrapIndented(ln, w)...)
	}
	kind := map[tab]string{tabTools: "The tool", tabPrompts: "The prompt", tabResources: "The resource"}[m.tab]
	x := newPager(m, panePager, kind+", in full", lines, string(raw))
	x.what = what
	m.modal = x
}
