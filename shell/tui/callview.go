package tui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/internal/blobs"
	"github.com/mcpcli/mcpcli/internal/plural"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/schema"
)

// The call view: the rounds timeline on the left, the result on the right.

// split reports whether the timeline fits beside the result.
func (m *Model) split() bool { return m.width >= 70 }

func (m *Model) timelineWidth() int {
	if !m.split() {
		return m.width
	}
	return min(max(m.width*2/5, 28), 44)
}

// resultWidth is the width of a result's text (after the focus mark).
func (m *Model) resultWidth(c *call) int {
	if !m.split() {
		return max(m.width-2, 10)
	}
	return max(m.width-m.timelineWidth()-3-2, 10)
}

func (m *Model) callView(c *call) []string {
	h := m.bodyHeight()
	if !m.split() {
		if m.showTimeline || c.view == nil {
			return m.timeline(c, m.width, h)
		}
		return m.resultPane(c, m.width, h)
	}
	tw := m.timelineWidth()
	left := m.timeline(c, tw, h)
	right := m.resultPane(c, m.width-tw-3, h)
	sep := m.st.rule.Render("│")
	out := make([]string, h)
	for i := 0; i < h; i++ {
		var a, b string
		if i < len(left) {
			a = left[i]
		}
		if i < len(right) {
			b = right[i]
		}
		out[i] = cut(a, tw) + " " + sep + " " + b
	}
	return out
}

// timeline is a call's round trips: what was sent, each round's asks and
// answers (secrets masked), the requestState sizes, the times.
func (m *Model) timeline(c *call, w, h int) []string {
	st := m.st
	var out []string
	add := func(s string) { out = append(out, clip(s, w)) }
	wrapped := func(s, indent string) {
		for _, l := range strings.Split(wrapText(s, w-len(indent)), "\n") {
			add(indent + l)
		}
	}
	head := fmt.Sprintf("#%d %s", c.id, c.label())
	add(st.title.Render(clip(head, w)))
	if len(c.args) > 0 {
		wrapped(argText(c.args), "  ")
	}
	if c.rerunOf > 0 {
		add(st.dim.Render(fmt.Sprintf("  re-run of #%d", c.rerunOf)))
	}
	for _, r := range c.rounds {
		title := fmt.Sprintf("round %d", r.Number)
		switch {
		case r.URLRequired:
			title += " · -32042 URL required"
		case r.Legacy:
			// Its key is always the same: say what it was instead.
			title = fmt.Sprintf("ask %d · %s", r.Number, r.Method)
		case len(r.Keys) > 0:
			title += " · " + render.Line(strings.Join(r.Keys, ", "))
		}
		add(st.accent.Render(clip(title, w)))
		for _, k := range r.Keys {
			if uris, ok := r.Roots[k]; ok {
				add("  " + rootsText(st, k, uris, len(r.Keys) > 1))
				for _, u := range uris {
					add(st.dim.Render(clip("    "+render.Line(u), w)))
				}
				continue
			}
			if sa, ok := r.Samples[k]; ok {
				add("  " + sampleText(st, k, sa, len(r.Keys) > 1))
				continue
			}
			ans := r.Answers[k]
			if ans == nil {
				if e := roundErr(r); e != "" {
					add("  " + st.err.Render(clip(k+": "+e, w-2)))
				} else if c.running() {
					add(st.dim.Render(clip("  "+render.Line(k)+": answering…", w)))
				}
				continue
			}
			ask := askOf(r.Asks, k)
			line := "  " + actionText(st, ans.Action)
			if len(r.Keys) > 1 {
				line = "  " + render.Line(k) + ": " + actionText(st, ans.Action)
			}
			if ans.Action == client.Accept && ask.Mode() == "form" {
				line += fmt.Sprintf(" · %d value%s", len(ans.Content), plural.S(len(ans.Content)))
			}
			if ask.Mode() == "url" {
				line += " · URL"
			}
			add(line)
			for _, v := range shownValues(ask, ans, 6) {
				add(st.dim.Render(clip("    "+v, w)))
			}
		}
		var facts []string
		if r.StateIn >= 0 {
			facts = append(facts, "state "+render.Size(r.StateIn))
		}
		if !r.Answered.IsZero() && !r.Asked.IsZero() {
			facts = append(facts, seconds(r.Answered.Sub(r.Asked)))
		}
		if len(facts) > 0 {
			add(st.dim.Render("  " + strings.Join(facts, " · ")))
		}
	}
	if t := c.task; t != nil {
		if c.running() {
			add(st.accent.Render(clip("task "+render.Line(t.Status), w)))
		} else {
			add(st.accent.Render("ran as a task"))
		}
		add(st.dim.Render(clip("  id "+render.Line(t.TaskID), w)))
		if t.StatusMessage != "" && c.running() {
			wrapped(render.Line(t.StatusMessage), "  ")
		}
	}
	now := m.o.Now()
	switch c.state {
	case stateRunning:
		line := "▶ running · " + seconds(c.took(now))
		add(st.warn.Render(line))
		if p := c.progress; p != nil {
			add("  " + progressBar(p, min(w-2, 30)))
			if p.Message != "" {
				wrapped(render.Line(p.Message), "  ")
			}
		}
		if m.askOf(c.id) != nil {
			add(st.warn.Render(clip("! an ask waits for you: ! answers it", w)))
		}
		add(st.dim.Render("  ctrl+c cancels it"))
	case stateDone:
		what := "✓ complete"
		if c.result != nil && c.result.IsError() {
			what = "✗ complete, isError"
		}
		n := len(c.rounds)
		line := fmt.Sprintf("%s · %d round%s · %s", what, n, plural.S(n), seconds(c.took(now)))
		if c.result != nil && c.result.IsError() {
			add(st.err.Render(clip(line, w)))
		} else {
			add(st.ok.Render(clip(line, w)))
		}
	case stateFailed:
		add(st.err.Render("✗ failed · " + seconds(c.took(now))))
		wrapped(c.errText, "  ")
	case stateCancelled:
		add(st.warn.Render("■ cancelled · " + seconds(c.took(now))))
		if c.errText != "" {
			wrapped(c.errText, "  ")
		}
	}
	if len(out) > h {
		// Keep the head and the latest rounds.
		out = append(out[:2:2], append([]string{st.dim.Render("  …")}, out[len(out)-h+3:]...)...)
	}
	return out
}

// sampleText is a sampling request's answer on one line: the reply's
// length, or declined.
func sampleText(st *styles, key string, a *client.SamplingAnswer, named bool) string {
	who := ""
	if named {
		who = render.Line(key) + ": "
	}
	switch {
	case a == nil:
		return who + st.err.Render("sampling: not answered")
	case a.Decline:
		return who + "sampling " + st.warn.Render("declined")
	}
	n := 0
	if a.Result != nil {
		for _, c := range a.Result.Content {
			if t, ok := c.(*mcp.TextContent); ok {
				n += len([]rune(t.Text))
			}
		}
	}
	return who + "sampling " + st.ok.Render("reply") + fmt.Sprintf(" · %d char%s", n, plural.S(n))
}

// rootsText is what mcpcli answered a roots/list with, by itself: how
// many roots it sent.
func rootsText(st *styles, key string, uris []string, named bool) string {
	who := ""
	if named {
		who = render.Line(key) + ": "
	}
	n := len(uris)
	return who + "roots " + st.ok.Render("sent") + fmt.Sprintf(" · %d root%s", n, plural.S(n))
}

func askOf(asks []client.Ask, key string) client.Ask {
	for _, a := range asks {
		if a.Key == key {
			return a
		}
	}
	return client.Ask{Key: key}
}

func actionText(st *styles, action string) string {
	switch action {
	case client.Accept:
		return st.ok.Render("accept")
	case client.Decline:
		return st.warn.Render("decline")
	case client.Cancel:
		return st.warn.Render("cancel")
	}
	return render.Line(action)
}

// sentValue is a value as it went on the wire (a string as typed, any
// other value as JSON), with the titles a select showed for it beside it:
// reviewer=grace (Grace Hopper), never the title alone.
func sentValue(f *schema.Field, v any) string {
	wire := valueText(v)
	if f == nil || (f.Kind != schema.Select && f.Kind != schema.MultiSelect) {
		return wire
	}
	var values []string
	switch x := v.(type) {
	case string:
		values = []string{x}
	case []string:
		values = x
	case []any:
		for _, e := range x {
			s, ok := e.(string)
			if !ok {
				return wire
			}
			values = append(values, s)
		}
	default:
		return wire
	}
	titles := make([]string, len(values))
	differ := false
	for i, val := range values {
		titles[i] = val
		if o := f.Option(val); o != nil && o.Label() != val {
			titles[i], differ = o.Label(), true
		}
	}
	if !differ {
		return wire
	}
	return wire + " (" + render.Line(strings.Join(titles, ", ")) + ")"
}

// shownValues are an answer's values as name=value, in the form's order,
// secrets masked: each value as it was sent, with a choice's title beside.
func shownValues(a client.Ask, r *mcp.ElicitResult, most int) []string {
	if r == nil || len(r.Content) == 0 {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	show := func(name string, f *schema.Field) {
		v, ok := r.Content[name]
		if !ok || seen[name] {
			return
		}
		seen[name] = true
		label := render.Line(name)
		var val string
		switch {
		case f != nil && f.Secret:
			val = "•••• (secret)"
		default:
			val = sentValue(f, v)
		}
		out = append(out, label+"="+val)
	}
	if a.Form != nil {
		for _, f := range a.Form.Fields {
			show(f.Name, f)
		}
	}
	for k := range r.Content {
		show(k, nil)
	}
	if len(out) > most {
		rest := len(out) - most + 1
		out = append(out[:most-1], fmt.Sprintf("… %d more", rest))
	}
	return out
}

func seconds(d time.Duration) string {
	switch {
	case d < time.Second:
		return fmt.Sprintf("%d ms", d.Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%.1f s", d.Seconds())
	}
	return d.Round(time.Second).String()
}

// progressBar draws a notifications/progress in plain characters (they
// show without color).
func progressBar(p *mcp.ProgressNotificationParams, w int) string {
	if p.Total <= 0 {
		return fmt.Sprintf("progress %g", p.Progress)
	}
	frac := min(max(p.Progress/p.Total, 0), 1)
	bw := max(w-7, 4)
	n := int(frac * float64(bw))
	return "[" + strings.Repeat("█", n) + strings.Repeat("░", bw-n) + fmt.Sprintf("] %3.0f%%", frac*100)
}

// resultPane is the result (or why there is none), scrolled.
func (m *Model) resultPane(c *call, w, h int) []string {
	st := m.st
	var out []string
	switch {
	case c.running():
		return []string{st.dim.Render("waiting for the result…")}
	case c.state == stateFailed:
		return []string{st.err.Render("no result: the request failed"), st.dim.Render("(the timeline says why)")}
	case c.state == stateCancelled:
		return []string{st.warn.Render("no result: cancelled")}
	case c.view == nil:
		return m.keptPane(c, w)
	}
	v := c.view
	if v.rows == nil {
		return []string{st.dim.Render("laying out " + render.Size(v.size) + "…")}
	}
	rows := h - 1
	v.top = max(0, min(v.top, len(v.rows)-rows))
	end := min(v.top+rows, len(v.rows))
	what := "Result"
	if c.result != nil && c.result.IsError() {
		what = st.err.Render("Result · isError")
	}
	left := st.title.Render(what) + st.dim.Render(" · "+render.Size(len(v.raw)))
	if len(v.rows) > rows {
		left += st.dim.Render(fmt.Sprintf(" · %d–%d of %d", v.top+1, end, len(v.rows)))
	}
	focus, hint := -1, ""
	if f := v.focused(); f != nil {
		focus = v.items[v.focus]
		hint = "▸ " + itemHint(f.kind)
	}
	out = append(out, spread(left, st.accent.Render(hint), w))
	for i := v.top; i < end; i++ {
		r := v.rows[i]
		b := &v.blocks[r.block]
		text := r.text
		switch {
		case b.isErr:
			text = st.err.Render(text)
		case b.kind == itemLink || b.kind == itemStructured:
			text = st.accent.Render(text)
		}
		mark := "  "
		if r.block == focus && (i == 0 || v.rows[i-1].block != r.block) {
			mark = st.title.Render("▸ ")
		}
		out = append(out, clip(mark+text, w))
	}
	return out
}

func itemHint(k itemKind) string {
	switch k {
	case itemLink:
		return "enter reads it"
	case itemMedia, itemBlob:
		return "s saves it"
	case itemStructured:
		return "enter folds it"
	}
	return ""
}

// idleKey reports whether a call view's binding does nothing now, for the
// footer: a running call has no result to move in, copy or send again.
func (c *call) idleKey(b binding) bool {
	switch b.keys[0] {
	case "n", "enter", "s":
		return c.view == nil || len(c.view.items) == 0
	case "y":
		return c.view == nil
	case "r", "e":
		return c.running()
	}
	return false
}

// callKey handles a key in the call view.
func (m *Model) callKey(c *call, k string) tea.Cmd {
	v := c.view
	rows := m.bodyHeight() - 1
	switch k {
	case "esc", "backspace", "left":
		m.viewing = nil
		return nil
	case "t":
		m.showTimeline = !m.showTimeline
		return nil
	case "r":
		if !c.running() {
			return m.rerun(c, false)
		}
	case "e":
		if !c.running() {
			return m.rerun(c, true)
		}
	}
	if v == nil || v.rows == nil {
		return nil
	}
	if by, ok := render.Scroll(k, rows, len(v.rows)); ok {
		v.top += by
	}
	switch k {
	case "n", "N":
		// The next item; tab is the next tab, in a result too.
		if len(v.items) > 0 {
			d := 1
			if k == "N" {
				d = len(v.items) - 1
			}
			v.focus = (v.focus + d) % len(v.items)
			if r := v.focusRow(); r >= 0 && (r < v.top || r >= v.top+rows) {
				v.top = max(r-2, 0)
			}
		}
	case "enter":
		return m.openItem(c)
	case "s":
		m.saveItem(c)
	case "y":
		return m.copyJSON(c)
	}
	v.top = max(0, min(v.top, len(v.rows)-rows))
	return nil
}

// openItem does what Enter does on the focused block.
func (m *Model) openItem(c *call) tea.Cmd {
	b := c.view.focused()
	if b == nil {
		return nil
	}
	switch b.kind {
	case itemLink:
		return m.start("resources/read", b.uri, nil, 0)
	case itemStructured:
		b.open = !b.open
		c.view.width = -1
		return m.layoutCmd(c)
	case itemMedia, itemBlob:
		m.saveItem(c)
	}
	return nil
}

// maxCopy bounds what y puts on the clipboard: terminals drop OSC 52
// sequences much longer than this.
const maxCopy = 1 << 20

func (m *Model) copyJSON(c *call) tea.Cmd {
	raw := c.view.raw
	if raw == nil {
		m.setStatus("this result's JSON was not seen on the wire", true)
		return nil
	}
	if len(raw) > maxCopy {
		m.setStatus(fmt.Sprintf("the result is %s; terminals take at most about %s through OSC 52, so nothing was copied", render.Size(len(raw)), render.Size(maxCopy)), true)
		return nil
	}
	m.setStatus(fmt.Sprintf("copied the result's JSON (%s) with OSC 52, where the terminal allows it", render.Size(len(raw))), false)
	return tea.SetClipboard(string(raw))
}

// saveItem writes the focused image, audio or blob to a new file in the
// working directory, named as read/call --save names it: after its
// resource, else content-N (N counting the result's binary contents from
// 1), with an extension for its MIME type.
func (m *Model) saveItem(c *call) {
	b := c.view.focused()
	if b == nil || (b.kind != itemMedia && b.kind != itemBlob) {
		m.setStatus("nothing to save here: n goes to an image, audio or binary content", true)
		return
	}
	saved, err := blobs.SaveItem(".", saveable(b), c.view.binaryIndex())
	if err != nil {
		m.setStatus("could not save it: "+err.Error(), true)
		return
	}
	m.setStatus(fmt.Sprintf("saved %s to %s", render.Size(len(b.data)), saved.Path), false)
}

// saveable is a block's data as --save sees it.
func saveable(b *block) blobs.Item {
	if b.kind == itemBlob {
		return blobs.Item{Kind: "blob", MIME: b.mime, URI: b.name, Data: b.data}
	}
	return blobs.Item{Kind: b.name, MIME: b.mime, Data: b.data}
}
