package tui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpcli/mcpcli/internal/plural"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/request"
)

// History: every request of the session, newest first.

func (m *Model) historyView() []string {
	h := m.bodyHeight()
	st := m.st
	if len(m.calls) == 0 {
		return []string{st.dim.Render(" no requests yet: enter on a tool, prompt or resource sends one")}
	}
	l := m.hist
	l.cursor = max(0, min(l.cursor, len(m.calls)-1))
	l.scroll(h)
	var out []string
	now := m.o.Now()
	for i := l.top; i < len(m.calls) && i < l.top+h; i++ {
		c := m.calls[len(m.calls)-1-i]
		mark := map[callState]string{stateRunning: "▶", stateDone: "✓", stateFailed: "✗", stateCancelled: "■"}[c.state]
		if c.state == stateDone && c.result != nil && c.result.IsError() {
			mark = "✗"
		}
		facts := seconds(c.took(now))
		if n := len(c.rounds); n > 0 {
			facts = fmt.Sprintf("%d round%s · %s", n, plural.S(n), facts)
		}
		if m.askOf(c.id) != nil {
			mark = "!"
			facts = "ask waits · " + facts
		}
		if m.dropped(c) != "" {
			facts = "result dropped · " + facts
		}
		left := fmt.Sprintf("%s #%d %s %s", mark, c.id, c.label(), argText(c.args))
		line := spread(clip(left, m.width-len(facts)-4), facts+" ", m.width-1)
		if i == l.cursor {
			out = append(out, st.selected(cut("▸"+line, m.width)))
		} else {
			out = append(out, " "+line)
		}
	}
	return out
}

func (m *Model) historyKey(k string) tea.Cmd {
	l := m.hist
	h := m.bodyHeight()
	l.shown = l.shown[:0]
	for i := range m.calls {
		l.shown = append(l.shown, i)
	}
	if by, ok := render.Scroll(k, h, len(m.calls)); ok {
		l.move(by, h)
	}
	if len(m.calls) == 0 {
		return nil
	}
	c := m.calls[len(m.calls)-1-max(0, min(l.cursor, len(m.calls)-1))]
	switch k {
	case "enter":
		m.viewing = c
		return m.layoutCmd(c)
	case "r":
		return m.rerun(c, false)
	case "e":
		return m.rerun(c, true)
	}
	return nil
}

// rerun sends a request again with the same arguments, or after editing
// them in its form.
func (m *Model) rerun(c *call, edit bool) tea.Cmd {
	switch c.method {
	case "tools/call":
		if edit {
			return m.askTool(c.target, c.args, false, c.id)
		}
		return m.confirmThenStart(c.method, c.target, c.args, c.id)
	case "prompts/get":
		if edit {
			return m.askPrompt(c.target, c.args, c.id)
		}
	}
	return m.start(c.method, c.target, c.args, c.id)
}

// Subscriptions.

func (m *Model) toggleSubscribe() tea.Cmd {
	e := m.lists[tabResources].current()
	if e == nil {
		return nil
	}
	uri, on := e.key, !m.subs[e.key]
	c, ctx := m.c, m.ctx
	m.subs[uri] = on
	m.lists[tabResources].items[m.lists[tabResources].shown[m.lists[tabResources].cursor]].tags = map[bool]string{true: "●", false: ""}[on]
	m.detail = detailCache{}
	return func() tea.Msg {
		var err error
		if on {
			err = c.Subscribe(ctx, uri)
		} else {
			err = c.Unsubscribe(ctx, uri)
		}
		if err != nil {
			return statusMsg{text: "subscription not changed: " + render.Line(err.Error()), err: true}
		}
		if on {
			return statusMsg{text: "subscribed to " + render.Line(uri) + ": updates show in Activity"}
		}
		return statusMsg{text: "unsubscribed from " + render.Line(uri)}
	}
}

// The saved script.

// save writes the session's requests as a script to --save's file, on
// quitting (S asks which file and which kind: save.go).
func (m *Model) save() {
	p := m.o.SavePath
	if p == "" {
		p = m.o.Replay.DefaultPath
	}
	if p == "" {
		p = "mcpcli-session.sh"
	}
	msg, err := request.SaveScript(p, m.o.Ledger, m.o.Replay, m.server, m.saved(), m.o.Now())
	if err != nil {
		m.setStatus(err.Error(), true)
		return
	}
	m.setStatus(msg, false)
}

// saved are the session's requests as the script sees them, with their
// rounds as recorded (a round is recorded before the request goes on).
func (m *Model) saved() []request.Saved {
	out := make([]request.Saved, len(m.calls))
	for i, c := range m.calls {
		r := request.Saved{ID: c.id, Request: &request.Request{Method: c.method, Target: c.target, Args: c.args}, Caps: c.caps, Rounds: m.feed.rec.Rounds(c.id)}
		switch c.state {
		case stateRunning:
			r.Left = "still running when saved"
		case stateFailed:
			r.Left = "failed (" + c.errText + ")"
		case stateCancelled:
			r.Left = "cancelled"
		}
		out[i] = r
	}
	return out
}
