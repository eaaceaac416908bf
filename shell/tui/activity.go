package tui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/internal/jsonpeek"
	"github.com/mcpcli/mcpcli/internal/textsafe"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/transport"
)

type actKind int

const (
	kindLog actKind = iota
	kindNote
	kindWarn
	kindStderr
	kindError
)

// actRow is one thing that happened: a server log line, a notification,
// a line of the server's stderr, a warning.
type actRow struct {
	at     time.Time
	kind   actKind
	level  string
	logger string
	text   string // as the server wrote it: sanitized when shown
	data   any    // a log's data, for the expanded view
	times  int    // said again this many more times, just after
}

// wireRow is one message on the wire (or one HTTP exchange's headers).
type wireRow struct {
	at   time.Time
	dir  transport.Direction
	text string // one line, sanitized
	msg  json.RawMessage
	http *transport.HTTPHeaders
}

// What Activity shows.
type actShow int

const (
	showAll actShow = iota
	showLogs
	showNotes
	showStderr
	showWire
)

var showNames = map[actShow]string{showAll: "everything", showLogs: "server logs", showNotes: "notifications", showStderr: "stderr", showWire: "the wire"}

// activity keeps what happened, bounded.
type activity struct {
	rows      []actRow
	wire      []wireRow
	wireBytes int
	show      actShow
	cursor    int
	top       int
	follow    bool
	unseen    int
	find      finder            // / search among the rows shown
	methods   map[string]string // direction and request id -> method, until answered
}

const (
	maxRows      = 10000
	maxWireRows  = 10000
	maxWireBytes = 64 << 20
)

func newActivity() *activity {
	return &activity{follow: true, methods: map[string]string{}}
}

func (a *activity) add(r actRow) {
	if n := len(a.rows); n > 0 {
		last := &a.rows[n-1]
		if last.kind == r.kind && last.text == r.text && last.level == r.level && r.at.Sub(last.at) < 2*time.Second {
			last.times++
			return
		}
	}
	if len(a.rows) >= maxRows {
		a.rows = append(a.rows[:0], a.rows[maxRows/2:]...)
		a.cursor = max(0, a.cursor-maxRows/2)
	}
	a.rows = append(a.rows, r)
	a.unseen++
}

func (a *activity) addLog(ev logEvent) {
	p := ev.p
	var text string
	switch d := p.Data.(type) {
	case string:
		text = d
	default:
		b, _ := json.Marshal(d)
		text = string(b)
	}
	a.add(actRow{at: ev.at, kind: kindLog, level: string(p.Level), logger: p.Logger, text: text, data: p.Data})
}

func (a *activity) addWire(ev transport.Event) {
	r := wireRow{at: ev.Time, dir: ev.Dir, msg: ev.Msg, http: ev.HTTP}
	if r.at.IsZero() {
		r.at = time.Now()
	}
	r.text = a.summary(ev)
	if len(a.wire) >= maxWireRows {
		for _, old := range a.wire[:maxWireRows/2] {
			a.wireBytes -= len(old.msg)
		}
		a.wire = append(a.wire[:0], a.wire[maxWireRows/2:]...)
	}
	a.wire = append(a.wire, r)
	a.wireBytes += len(r.msg)
	// Past the budget, the oldest messages keep their line, not their bytes.
	for i := 0; a.wireBytes > maxWireBytes && i < len(a.wire); i++ {
		a.wireBytes -= len(a.wire[i].msg)
		a.wire[i].msg = nil
	}
}

// summary is a message in one line: direction, id, method, what it was
// about, its size.
func (a *activity) summary(ev transport.Event) string {
	arrow := "→"
	if ev.Dir == transport.Recv {
		arrow = "←"
	}
	if ev.HTTP != nil {
		h := ev.HTTP
		if h.Method != "" {
			return fmt.Sprintf("%s HTTP %s %s", arrow, h.Method, render.Line(h.URL))
		}
		return fmt.Sprintf("%s HTTP %d %s", arrow, h.Status, render.Line(h.Header.Get("Content-Type")))
	}
	e := ev.Envelope() // as the transport decoded it
	ids := render.Line(idText(e.ID))
	size := render.Size(len(ev.Msg))
	switch e.Kind {
	case transport.KindRequest:
		// Either side's requests: a reply names what it answers.
		a.methods[reqKey(ev.Dir, ids)] = e.Method
		about := ""
		for _, k := range []string{"name", "uri"} {
			if s, _ := jsonpeek.String(jsonpeek.Get(e.Params, k)); s != "" {
				about = " " + render.Line(s)
				break
			}
		}
		return fmt.Sprintf("%s #%s %s%s · %s", arrow, ids, render.Line(e.Method), about, size)
	case transport.KindNotification:
		return fmt.Sprintf("%s %s · %s", arrow, render.Line(e.Method), size)
	case transport.KindError:
		of := a.answers(ev.Dir, ids)
		if of != "" {
			of = " (" + of + ")"
		}
		return fmt.Sprintf("%s #%s error %d %s%s · %s", arrow, ids, e.Error.Code, render.Line(e.Error.Message), of, size)
	case transport.KindResult:
		of := a.answers(ev.Dir, ids)
		kind := "result"
		if rt, _ := jsonpeek.String(jsonpeek.Get(e.Result, "resultType")); rt != "" && rt != "complete" {
			kind = render.Line(rt)
		}
		if of != "" {
			kind += " of " + of
		}
		return fmt.Sprintf("%s #%s %s · %s", arrow, ids, kind, size)
	}
	return fmt.Sprintf("%s not a JSON-RPC message · %s", arrow, size)
}

// idText is a message's id as written: a number, a JSON string, or null.
func idText(id jsonrpc.ID) string {
	switch v := id.Raw().(type) {
	case int64:
		return strconv.FormatInt(v, 10)
	case string:
		return strconv.Quote(v)
	}
	return "null"
}

// reqKey keys a request by who sent it: both sides number their own.
func reqKey(dir transport.Direction, id string) string {
	if dir == transport.Send {
		return ">" + id
	}
	return "<" + id
}

// answers is the method of the request a reply going dir answers: one the
// other side sent, with that id.
func (a *activity) answers(dir transport.Direction, id string) string {
	other := transport.Send
	if dir == transport.Send {
		other = transport.Recv
	}
	k := reqKey(other, id)
	m := a.methods[k]
	delete(a.methods, k)
	return m
}

// shown are the indexes of the rows Activity shows now.
func (a *activity) shown() []int {
	var out []int
	for i, r := range a.rows {
		switch a.show {
		case showLogs:
			if r.kind != kindLog {
				continue
			}
		case showNotes:
			if r.kind != kindNote && r.kind != kindWarn && r.kind != kindError {
				continue
			}
		case showStderr:
			if r.kind != kindStderr {
				continue
			}
		}
		out = append(out, i)
	}
	return out
}

func (a *activity) length() int {
	if a.show == showWire {
		return len(a.wire)
	}
	return len(a.shown())
}

func (m *Model) activityView() []string {
	a := m.act
	a.unseen = 0
	st := m.st
	w, h := m.width, m.bodyHeight()
	var out []string
	level := "log level: " + m.c.LogLevel() + " (L changes it) "
	if m.c.LogLevel() == "" {
		level = "no server logs asked for: L asks "
	}
	head := st.title.Render(" Showing " + showNames[a.show])
	if p := a.find.prompt(st); p != "" {
		head += "  " + p
	}
	out = append(out, spread(head, st.dim.Render(level), w))
	for _, c := range m.calls {
		if !c.running() || len(out) > 3 {
			continue
		}
		line := fmt.Sprintf(" ▶ #%d %s · %s", c.id, c.label(), seconds(c.took(m.o.Now())))
		if m.askOf(c.id) != nil {
			line += " · ! an ask waits"
		} else if c.progress != nil {
			line += "  " + progressBar(c.progress, 28)
		}
		out = append(out, st.warn.Render(clip(line, w)))
	}
	rows := h - len(out)
	n := a.length()
	if a.follow {
		a.cursor = n - 1
	}
	a.cursor = max(0, min(a.cursor, n-1))
	if a.cursor < a.top {
		a.top = a.cursor
	}
	if a.cursor >= a.top+rows {
		a.top = a.cursor - rows + 1
	}
	a.top = max(0, min(a.top, n-rows))
	if n == 0 {
		return append(out, st.dim.Render(" nothing yet"))
	}
	var idx []int
	if a.show != showWire {
		idx = a.shown()
	}
	for i := a.top; i < n && i < a.top+rows; i++ {
		line := m.actRowText(i, idx)
		switch {
		case i == a.cursor && !a.follow:
			out = append(out, st.selected(cut("▸"+line, w)))
		case a.find.matches(line):
			out = append(out, clip(st.accent.Render("›")+line, w))
		default:
			out = append(out, clip(" "+line, w))
		}
	}
	return out
}

// actRowText is row i of what Activity shows (idx: a.shown(), unless the
// wire is shown), as one line.
func (m *Model) actRowText(i int, idx []int) string {
	a := m.act
	if a.show == showWire {
		r := a.wire[i]
		line := r.at.Format("15:04:05.000") + " " + r.text
		if r.msg == nil && r.http == nil {
			line += " (bytes dropped)"
		}
		return line
	}
	r := a.rows[idx[i]]
	line := m.actLine(r)
	if r.times > 0 {
		line += m.st.dim.Render(fmt.Sprintf(" (×%d)", r.times+1))
	}
	return line
}

// findRow goes to the next row that holds the search after the cursor
// (dir 1), before it (-1), or from the cursor itself (0: while typing).
func (m *Model) findRow(dir int) {
	a := m.act
	var idx []int
	if a.show != showWire {
		idx = a.shown()
	}
	n := a.length()
	from := a.cursor
	if dir == 0 {
		from, dir = a.cursor-1, 1
		if a.follow {
			// Following: look from the newest row back.
			from, dir = n, -1
		}
	}
	i := a.find.next(n, from, dir, func(i int) string { return m.actRowText(i, idx) })
	if i < 0 {
		if a.find.query != "" {
			m.setStatus(fmt.Sprintf("no row holds %q", render.Line(a.find.query)), true)
		}
		return
	}
	m.setStatus("", false)
	a.cursor, a.follow = i, false
}

// copyRow puts the row under the cursor on the clipboard: on the wire,
// the message's JSON as it was sent; a log's data; a line's text.
func (m *Model) copyRow() tea.Cmd {
	a := m.act
	if a.follow {
		a.cursor = a.length() - 1
	}
	if a.show == showWire {
		if a.cursor < 0 || a.cursor >= len(a.wire) {
			return nil
		}
		r := a.wire[a.cursor]
		switch {
		case r.http != nil:
			h := *r.http
			h.Header = transport.Redact(h.Header)
			b, _ := json.MarshalIndent(h, "", "  ")
			return m.copyText(string(b), "the HTTP headers (credentials redacted)")
		case r.msg == nil:
			m.setStatus("the bytes of this message were dropped to keep memory bounded: nothing to copy", true)
			return nil
		}
		return m.copyText(string(r.msg), "the message's JSON")
	}
	idx := a.shown()
	if a.cursor < 0 || a.cursor >= len(idx) {
		return nil
	}
	r := a.rows[idx[a.cursor]]
	if r.data != nil {
		if _, isString := r.data.(string); !isString {
			b, _ := json.Marshal(r.data)
			return m.copyText(string(b), "the log's data")
		}
	}
	return m.copyText(r.text, "the line")
}

func (m *Model) actLine(r actRow) string {
	st := m.st
	t := r.at.Format("15:04:05")
	switch r.kind {
	case kindLog:
		lvl := fmt.Sprintf("%-7s", render.Line(r.level))
		switch r.level {
		case "error", "critical", "alert", "emergency":
			lvl = st.err.Render(lvl)
		case "warning":
			lvl = st.warn.Render(lvl)
		case "debug":
			lvl = st.dim.Render(lvl)
		}
		logger := ""
		if r.logger != "" {
			logger = "[" + render.Line(r.logger) + "] "
		}
		return t + " " + lvl + " " + logger + render.Line(r.text)
	case kindStderr:
		return t + " " + st.dim.Render("stderr ") + " " + render.Line(r.text)
	case kindWarn:
		return t + " " + st.warn.Render("warning") + " " + render.Line(r.text)
	case kindError:
		return t + " " + st.err.Render("error  ") + " " + render.Line(r.text)
	}
	return t + " " + st.accent.Render("●      ") + " " + render.Line(r.text)
}

func (m *Model) activityKey(k string) tea.Cmd {
	a := m.act
	rows := m.bodyHeight() - 1
	n := a.length()
	down := 0
	switch k {
	case "a":
		a.show, a.follow = showAll, true
	case "l":
		a.show, a.follow = showLogs, true
	case "i":
		a.show, a.follow = showNotes, true
	case "e":
		a.show, a.follow = showStderr, true
	case "w":
		a.show, a.follow = showWire, true
	case "up", "k":
		down = -1
	case "down", "j":
		down = 1
	case "pgup", "b":
		down = -rows
	case "pgdown", "f":
		down = rows
	case "home", "g":
		a.follow, a.cursor = false, 0
	case "end", "G":
		a.follow = true
	case "enter":
		a.follow = false
		return m.expand()
	case "/":
		a.find = finder{typing: true}
	case "n":
		m.findRow(1)
	case "N":
		m.findRow(-1)
	case "y":
		return m.copyRow()
	}
	if down != 0 {
		a.cursor = max(0, min(a.cursor+down, n-1))
		// Moving off the last row stops following; coming back to it
		// follows again.
		a.follow = a.cursor >= n-1
	}
	return nil
}

// expand opens the row under the cursor in full.
func (m *Model) expand() tea.Cmd {
	a := m.act
	x := newPager(m, panePager, "", nil, "")
	m.modal = x
	if a.show == showWire {
		if a.cursor < 0 || a.cursor >= len(a.wire) {
			m.modal = nil
			return nil
		}
		r := a.wire[a.cursor]
		x.title = r.at.Format("15:04:05.000") + " " + r.text
		if r.http != nil {
			h := *r.http
			h.Header = transport.Redact(h.Header)
			b, _ := json.MarshalIndent(h, "", "  ")
			x.lines = splitLines(render.Sanitize(string(b)))
			x.copy, x.what = string(b), "the HTTP headers (credentials redacted)"
			return nil
		}
		if r.msg == nil {
			x.lines = []string{"(the bytes of this message were dropped to keep memory bounded)"}
			return nil
		}
		x.copy, x.what = string(r.msg), "the message's JSON"
		msg, seq := r.msg, x.seq
		x.lines = []string{"formatting " + render.Size(len(msg)) + "…"}
		return func() tea.Msg { return expandedMsg{seq: seq, lines: prettyLines(msg)} }
	}
	idx := a.shown()
	if a.cursor < 0 || a.cursor >= len(idx) {
		m.modal = nil
		return nil
	}
	r := a.rows[idx[a.cursor]]
	x.title = r.at.Format("15:04:05") + " " + kindName(r)
	if r.data != nil {
		if _, isString := r.data.(string); !isString {
			b, _ := json.Marshal(r.data)
			x.lines = prettyLines(b)
			x.copy, x.what = string(b), "the log's data"
			return nil
		}
	}
	x.lines = strings.Split(wrapText(render.Sanitize(r.text), m.width-2), "\n")
	x.copy, x.what = r.text, "the line"
	return nil
}

func kindName(r actRow) string {
	switch r.kind {
	case kindLog:
		s := "log " + render.Line(r.level)
		if r.logger != "" {
			s += " from " + render.Line(r.logger)
		}
		return s
	case kindStderr:
		return "server stderr"
	case kindWarn:
		return "warning"
	case kindError:
		return "error"
	}
	return "notification"
}

// prettyLines is a JSON message indented, made inert, as lines.
func prettyLines(msg []byte) []string {
	var b bytes.Buffer
	if err := json.Indent(&b, msg, "", "  "); err != nil {
		return splitLines(render.Sanitize(string(msg)))
	}
	return splitLines(render.Sanitize(string(textsafe.EscapeJSON(b.Bytes()))))
}

type expandedMsg struct {
	seq   int
	lines []string
}

// logLevels are the levels the picker offers, most to least detail.
var logLevels = client.LogLevels

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
