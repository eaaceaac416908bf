package tui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/request"
)

// list is one browsable, filterable list: what it holds, what the filter
// lets through, and where the cursor is.
type list struct {
	items     []entry
	shown     []int // indexes of items passing the filter, best match first
	cursor    int   // index into shown
	top       int   // first shown row on screen
	filter    string
	filtering bool

	cuts     []string // the names as cut for the rows (cutApart), at cutWidth
	cutWidth int
}

// entry is one row of a list.
type entry struct {
	key    string      // name or URI: what the request takes
	name   string      // shown, sanitized
	title  string      // sanitized, "" when it adds nothing
	uri    string      // a resource's URI or template, sanitized: shown after the name
	tags   string      // annotations, short
	desc   string      // the description, lower case, one line: the filter looks in it
	search string      // lower case: what else the filter finds it by (the picker: a command)
	fuzzy  []fuzzyText // name, title, URI as the filter looks at them, made on first use
}

func (l *list) set(items []entry) {
	var keep string
	if e := l.current(); e != nil {
		keep = e.key
	}
	l.items = items
	l.cuts = nil
	l.refilter()
	if keep != "" {
		for i, ix := range l.shown {
			if l.items[ix].key == keep {
				l.cursor = i
				break
			}
		}
	}
}

func (l *list) setFilter(f string) {
	l.filter = f
	l.refilter()
	l.cursor, l.top = 0, 0
}

func (l *list) refilter() {
	l.shown = rank(l.items, strings.ToLower(strings.TrimSpace(l.filter)), l.shown)
	l.cursor = max(0, min(l.cursor, len(l.shown)-1))
}

func (l *list) current() *entry {
	if l.cursor < 0 || l.cursor >= len(l.shown) {
		return nil
	}
	return &l.items[l.shown[l.cursor]]
}

// move moves the cursor by d rows and keeps it on screen (rows tall).
func (l *list) move(d, rows int) {
	l.cursor = max(0, min(l.cursor+d, len(l.shown)-1))
	l.scroll(rows)
}

func (l *list) scroll(rows int) {
	if l.cursor < l.top {
		l.top = l.cursor
	}
	if l.cursor >= l.top+rows {
		l.top = l.cursor - rows + 1
	}
	l.top = max(0, min(l.top, len(l.shown)-rows))
}

// setList fills a list from what the server listed.
func (m *Model) setList(msg loadedMsg) {
	var items []entry
	switch msg.which {
	case tabTools:
		if msg.tools == nil {
			return
		}
		m.tools = msg.tools
		for _, t := range msg.tools.Tools {
			title := t.Title
			if title == "" && t.Annotations != nil {
				title = t.Annotations.Title
			}
			items = append(items, newEntry(t.Name, t.Name, title, t.Description, toolTags(t, render.TaskSupport(msg.tools.Raw[t.Name]))))
		}
	case tabPrompts:
		if msg.pr == nil {
			return
		}
		m.prompts = msg.pr
		for _, p := range msg.pr.Prompts {
			items = append(items, newEntry(p.Name, p.Name, p.Title, p.Description, ""))
		}
	case tabResources:
		if msg.res == nil {
			return
		}
		m.res = msg.res
		for _, r := range msg.res.Resources {
			tags := ""
			if m.subs[r.URI] {
				tags = "●"
			}
			items = append(items, newResourceEntry(r.URI, r.URI, r.Title, r.Name, r.Description, tags))
		}
		m.tmpl = msg.tmpl
		if msg.tmpl != nil {
			for _, t := range msg.tmpl.Templates {
				items = append(items, newResourceEntry(templateKey+t.URITemplate, t.URITemplate, t.Title, t.Name, t.Description, "{}"))
			}
		}
	}
	m.lists[msg.which].set(items)
	m.detail = detailCache{}
}

func newEntry(key, name, title, desc, tags string) entry {
	e := entry{key: key, name: render.Name(name), tags: tags, desc: strings.ToLower(render.Line(desc))}
	if title != "" && title != name {
		e.title = render.Line(title)
	}
	return e
}

// newResourceEntry is a resource or template: its title (or name) first,
// its URI after it. Resources of one server often share a long URI
// prefix; their names tell them apart at any width.
func newResourceEntry(key, uri, title, name, desc, tags string) entry {
	if title == "" {
		title = name
	}
	if title == "" || title == uri {
		return newEntry(key, uri, "", desc, tags)
	}
	return entry{key: key, name: render.Line(title), uri: render.Line(uri), tags: tags, desc: strings.ToLower(render.Line(desc))}
}

// toolTags are a tool's annotations and task support in a few letters:
// ro read-only, ! destructive, = idempotent, ~ open world, T task. The
// detail pane says them in words.
func toolTags(t *mcp.Tool, task string) string {
	var b strings.Builder
	if a := t.Annotations; a != nil {
		switch {
		case a.ReadOnlyHint:
			b.WriteString("ro ")
		case a.DestructiveHint == nil || *a.DestructiveHint:
			b.WriteString("! ")
		}
		if a.IdempotentHint {
			b.WriteString("= ")
		}
		if a.OpenWorldHint == nil || *a.OpenWorldHint {
			b.WriteString("~ ")
		}
	}
	switch task {
	case "required":
		b.WriteString("T")
	case "optional":
		b.WriteString("t")
	}
	return strings.TrimSpace(b.String())
}

// destructive reports whether a tool may destroy things, by its hints
// (the spec's default when it says nothing).
func destructive(t *mcp.Tool) bool { return request.Destructive(t) }

// The lists' layout: the list on the left, the detail pane on the right.

func (m *Model) listWidth() int {
	return max(min(m.width*2/5, 48), min(24, m.width-10))
}

func (m *Model) browseView() []string {
	l := m.lists[m.tab]
	h := m.bodyHeight()
	lw := m.listWidth()
	dw := m.width - lw - 3
	rows := h
	var left []string
	if l.filtering || l.filter != "" {
		f := "/" + render.Line(l.filter)
		if l.filtering {
			f += "█"
		}
		left = append(left, cut(" "+f+m.st.dim.Render(fmt.Sprintf("  %d/%d", len(l.shown), len(l.items))), lw))
		rows--
	}
	switch {
	case !m.loaded[m.tab]:
		left = append(left, cut(m.st.dim.Render(" reading the list…"), lw))
	case m.notOffered[m.tab]:
		what := strings.ToLower(tabNames[m.tab])
		for _, ln := range strings.Split(wrapText(fmt.Sprintf("the server does not offer %s: it declares no %s capability", what, what), lw-2), "\n") {
			left = append(left, cut(m.st.dim.Render(" "+ln), lw))
		}
	case m.loadErr[m.tab] != nil:
		// What the server answered, in words: an error, or input_required
		// where a list belongs; never an empty list.
		left = append(left, cut(m.st.err.Render(" no list:"), lw))
		for _, ln := range strings.Split(wrapText(render.Line(m.loadErrText[m.tab]), lw-2), "\n") {
			left = append(left, cut(" "+ln, lw))
		}
	case len(l.items) == 0:
		left = append(left, cut(m.st.dim.Render(" the server lists none"), lw))
	case len(l.shown) == 0:
		left = append(left, cut(m.st.dim.Render(" nothing matches"), lw))
	}
	l.scroll(rows)
	m.cutNames(l, lw)
	for i := l.top; i < len(l.shown) && i < l.top+rows; i++ {
		ix := l.shown[i]
		left = append(left, m.listRow(&l.items[ix], l.cuts[ix], i == l.cursor, lw))
	}
	right := m.detailLines(dw, h)
	out := make([]string, h)
	sep := m.st.rule.Render("│")
	for i := 0; i < h; i++ {
		var a, d string
		if i < len(left) {
			a = left[i]
		} else {
			a = strings.Repeat(" ", lw)
		}
		if i < len(right) {
			d = right[i]
		}
		out[i] = a + " " + sep + " " + d
	}
	return out
}

// nameRoom is the cells a row of width w leaves an entry's name.
func nameRoom(e *entry, w int) int {
	tw := len([]rune(e.tags))
	avail := w - 3 - tw
	if tw > 0 {
		avail--
	}
	return avail
}

// cutNames cuts the list's names for rows of width w, once per width:
// names that would look the same cut keep what tells them apart.
func (m *Model) cutNames(l *list, w int) {
	if l.cuts != nil && l.cutWidth == w {
		return
	}
	names := make([]string, len(l.items))
	room := make([]int, len(l.items))
	for i := range l.items {
		names[i], room[i] = l.items[i].name, nameRoom(&l.items[i], w)
	}
	l.cuts, l.cutWidth = cutApart(names, room), w
}

func (m *Model) listRow(e *entry, cutName string, on bool, w int) string {
	tags := e.tags
	name := e.name
	tw := len([]rune(tags))
	avail := nameRoom(e, w)
	text := cutName
	if e.uri != "" {
		// The name comes first: it is cut only to leave the URI 8
		// cells, and never below half the row. The URI, cut in its
		// middle, keeps its scheme and its end.
		if nw, uw := ansi.StringWidth(name), ansi.StringWidth(e.uri); nw+2+uw > avail {
			if keep := max(avail/2, avail-2-8); nw > keep {
				text = clip(name, keep)
			}
		}
		if rest := avail - ansi.StringWidth(text) - 2; rest >= 6 {
			text += "  " + m.st.dim.Render(clipMiddle(e.uri, rest))
		}
	}
	if e.title != "" {
		if rest := avail - len([]rune(text)) - 2; rest >= 6 {
			text += "  " + m.st.dim.Render(clip(e.title, rest))
		}
	}
	row := cut(text, max(avail, 0))
	if tw > 0 {
		row += " " + m.st.warnIf(tags)
	}
	if on {
		return m.st.selected(cut("▸ "+row, w-1)) + " "
	}
	return cut("  "+row, w)
}

// warnIf colours a destructive mark.
func (s *styles) warnIf(tags string) string {
	if strings.HasPrefix(tags, "!") {
		return s.warn.Render(tags)
	}
	return s.dim.Render(tags)
}

// detailCache keeps the detail pane of the entry under the cursor for one
// toolDetail is a tool in full, for the pane beside the list and the
// details view alike: with what the server says of tasks where the tool
// says nothing of them.
func (m *Model) toolDetail(buf *bytes.Buffer, t *mcp.Tool, raw []byte, w int) {
	render.ToolDetail(buf, t, raw, w)
	if m.runsTasks() && render.TaskSupport(raw) == "" {
		fmt.Fprintln(buf, "  "+render.ServerRunsTasks)
	}
}

// width: rendering a description and arguments is not done per frame.
type detailCache struct {
	tab   tab
	key   string
	width int
	lines []string
}

func (m *Model) detailLines(w, h int) []string {
	l := m.lists[m.tab]
	e := l.current()
	if e == nil || w < 10 {
		return nil
	}
	if m.detail.lines != nil && m.detail.tab == m.tab && m.detail.key == e.key && m.detail.width == w {
		return m.detail.lines
	}
	var buf bytes.Buffer
	var hint string
	switch m.tab {
	case tabTools:
		if t, raw := m.tool(e.key); t != nil {
			m.toolDetail(&buf, t, raw, w)
			hint = "enter call · a arguments as JSON"
			if destructive(t) {
				hint = "enter call (asks first: destructive) · a JSON"
			}
		}
	case tabPrompts:
		if p := m.prompt(e.key); p != nil {
			render.PromptDetail(&buf, p, w)
			hint = "enter get the prompt"
		}
	case tabResources:
		if t := m.template(e.key); t != nil && strings.HasPrefix(e.key, templateKey) {
			buf.WriteString(templateDetail(t, w))
			hint = "enter fills in its variables, then reads it"
		} else if r := m.resource(e.key); r != nil {
			resourceDetail(&buf, r, m.subs[r.URI], w)
			hint = "enter read · u subscribe to updates"
			if m.subs[r.URI] {
				hint = "enter read · u unsubscribe"
			}
		}
	}
	var lines []string
	for _, ln := range strings.Split(strings.TrimRight(buf.String(), "\n"), "\n") {
		lines = append(lines, wrapIndented(ln, w)...)
	}
	if len(lines) > 0 {
		lines[0] = m.st.title.Render(lines[0])
	}
	if hint != "" {
		if len(lines) > h-2 {
			lines = append(lines[:max(h-3, 1)], m.st.dim.Render("… (d shows all of it)"))
		}
		lines = append(lines, "", m.st.dim.Render(clip(hint, w)))
	}
	m.detail = detailCache{tab: m.tab, key: e.key, width: w, lines: lines}
	return lines
}

// runsTasks reports whether the server may run any call as a task: a
// 2026-07-28 server with the tasks extension.
func (m *Model) runsTasks() bool {
	_, ok := m.c.Capabilities().Extensions[client.TasksExtension]
	return ok && m.server.Modern()
}

func (m *Model) tool(name string) (*mcp.Tool, json.RawMessage) {
	if m.tools == nil {
		return nil, nil
	}
	for _, t := range m.tools.Tools {
		if t.Name == name {
			return t, m.tools.Raw[name]
		}
	}
	return nil, nil
}

func (m *Model) prompt(name string) *mcp.Prompt {
	if m.prompts == nil {
		return nil
	}
	for _, p := range m.prompts.Prompts {
		if p.Name == name {
			return p
		}
	}
	return nil
}

func (m *Model) resource(uri string) *mcp.Resource {
	if m.res == nil {
		return nil
	}
	for _, r := range m.res.Resources {
		if r.URI == uri {
			return r
		}
	}
	return nil
}

func resourceDetail(buf *bytes.Buffer, r *mcp.Resource, subscribed bool, w int) {
	head := render.Line(r.Name)
	if r.Title != "" && r.Title != r.Name {
		head += " — " + render.Line(r.Title)
	}
	fmt.Fprintln(buf, head)
	fmt.Fprintf(buf, "  %s\n", render.Line(r.URI))
	if r.Description != "" {
		for _, l := range strings.Split(wrapText(render.Sanitize(r.Description), w-2), "\n") {
			fmt.Fprintf(buf, "  %s\n", l)
		}
	}
	fmt.Fprintln(buf)
	if r.MIMEType != "" {
		fmt.Fprintf(buf, "  Type: %s\n", render.Line(r.MIMEType))
	}
	if r.Size > 0 {
		fmt.Fprintf(buf, "  Size: %s\n", render.Size(int(r.Size)))
	}
	if subscribed {
		fmt.Fprintln(buf, "  Subscribed: updates show in Activity")
	}
}
