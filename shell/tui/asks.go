package tui

import (
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"
)

// Asks that wait. A server's ask (a form, a URL to open, a sampling reply)
// for a call that is not on screen never takes the screen by itself: the
// keys being typed are for what is on screen. It waits, marked in the tabs
// line, on its call's line in History and Activity, and on the rule above
// the keys, with its age; ! (or opening its call) answers it. The ask of
// the call on screen opens at once: the forms' key guard keeps the keys
// typed before it showed from answering it.

// arrived takes a share from the feed: the person's own forms run at
// once, a server's ask waits unless its call is on screen.
func (m *Model) arrived(s *share) tea.Cmd {
	if !s.live() {
		return nil
	}
	if !s.ask {
		return m.lend(s)
	}
	m.pending = append(m.pending, s)
	return tea.Batch(m.openVisibleAsk(), m.tickAsks())
}

// lend runs s with the terminal lent to it. Until it is done (shareDoneMsg)
// no ask opens: one at a time.
func (m *Model) lend(s *share) tea.Cmd {
	m.lending = true
	return m.exec(execShare{s}, func(error) tea.Msg { s.handedBack(); return shareDoneMsg{} })
}

// waiting are the asks that still wait, oldest first (an ask given up,
// its call cancelled, is dropped).
func (m *Model) waiting() []*share {
	live := m.pending[:0]
	for _, s := range m.pending {
		if s.live() {
			live = append(live, s)
		}
	}
	for i := len(live); i < len(m.pending); i++ {
		m.pending[i] = nil
	}
	m.pending = live
	return live
}

// askOf is the ask call id waits on, if any.
func (m *Model) askOf(id int) *share {
	for _, s := range m.waiting() {
		if s.call == id {
			return s
		}
	}
	return nil
}

// openAsk answers s now: its call comes on screen, the form over it.
func (m *Model) openAsk(s *share) tea.Cmd {
	for i, p := range m.pending {
		if p == s {
			m.pending = append(m.pending[:i], m.pending[i+1:]...)
			break
		}
	}
	if !s.live() {
		return nil
	}
	m.modal = nil
	m.setStatus("", false)
	var layout tea.Cmd
	if c := m.byID[s.call]; c != nil {
		m.viewing = c
		layout = m.layoutCmd(c)
	}
	return tea.Batch(layout, m.lend(s))
}

// openVisibleAsk opens the ask of the call on screen, when nothing is
// over it.
func (m *Model) openVisibleAsk() tea.Cmd {
	if m.viewing == nil || m.modal != nil || m.quitting || m.lending {
		return nil
	}
	if s := m.askOf(m.viewing.id); s != nil {
		return m.openAsk(s)
	}
	return nil
}

// answerAsks is !: the one ask that waits opens; when more wait, a list.
func (m *Model) answerAsks() tea.Cmd {
	w := m.waiting()
	switch {
	case m.lending:
		return nil // one is opening
	case len(w) == 0:
		m.setStatus("no ask waits for an answer", false)
		return nil
	case len(w) == 1:
		return m.openAsk(w[0])
	}
	m.modal = &asksModal{}
	return nil
}

type askTickMsg struct{}

// tickAsks keeps the ages of the asks that wait true, once a second.
func (m *Model) tickAsks() tea.Cmd {
	if m.ticking || len(m.waiting()) == 0 {
		return nil
	}
	m.ticking = true
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return askTickMsg{} })
}

// askLine is what waits, for the rule above the keys: the oldest ask,
// its call, its age.
func (m *Model) askLine() string {
	w := m.waiting()
	if len(w) == 0 {
		return ""
	}
	if len(w) > 1 {
		return fmt.Sprintf("%d asks wait, ! lists them · %s", len(w), m.askText(w[0]))
	}
	return m.askText(w[0])
}

// askText is one ask, its end the first to give way: "#3 build_release
// · 4 s ago · asks: Publish it?".
func (m *Model) askText(s *share) string {
	who := "the server"
	if c := m.byID[s.call]; c != nil {
		who = fmt.Sprintf("#%d %s", c.id, c.label())
	}
	return fmt.Sprintf("%s · %s · %s", who, ago(m.o.Now().Sub(s.at)), s.what)
}

// ago says how long ago, in whole seconds or minutes.
func ago(d time.Duration) string {
	switch {
	case d < time.Second:
		return "just now"
	case d < time.Minute:
		return fmt.Sprintf("%d s ago", int(d.Seconds()))
	}
	return fmt.Sprintf("%d min ago", int(d.Minutes()))
}

// asksModal lists the asks that wait, with their calls and ages.
type asksModal struct{ cursor int }

func (a *asksModal) pane() paneID { return paneAsks }

func (a *asksModal) keys(m *Model) string { return footerOf(paneAsks, m.width) }

func (a *asksModal) view(m *Model) []string {
	w := m.waiting()
	a.cursor = max(0, min(a.cursor, len(w)-1))
	out := []string{"", "  " + m.st.title.Render(fmt.Sprintf("%d asks wait for an answer; each holds up its call", len(w))), ""}
	for i, s := range w {
		line := "    " + m.askText(s)
		if i == a.cursor {
			line = m.st.selected(cut("  ▸ "+m.askText(s), m.width-1))
		}
		out = append(out, clip(line, m.width))
	}
	if len(w) == 0 {
		out = append(out, m.st.dim.Render("    none any more"))
	}
	return out
}

func (a *asksModal) key(m *Model, k string) tea.Cmd {
	w := m.waiting()
	switch k {
	case "up", "k":
		a.cursor = max(a.cursor-1, 0)
	case "down", "j":
		a.cursor = min(a.cursor+1, len(w)-1)
	case "esc", "q":
		m.modal = nil
	case "enter":
		if a.cursor < len(w) && !m.lending {
			return m.openAsk(w[a.cursor])
		}
		m.modal = nil
	}
	return nil
}
