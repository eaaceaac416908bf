package tui

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/internal/plural"
	"github.com/mcpcli/mcpcli/render"
)

// The way back: a connection that ends says why, in full, and R starts the
// server again (stdio) or reaches it again (HTTP). History, Activity and
// the wire view are the session's, not the connection's: they stay.

// Reached is a connection the session runs over, and how it was reached
// (as Options says it of the first).
type Reached struct {
	Client                     Client
	Transport, Negotiated, How string
}

// goneMsg is the connection of generation gen ended under the session.
type goneMsg struct {
	gen int
	err error
}

// reconnectedMsg is the end of a restart (R).
type reconnectedMsg struct {
	gen int
	r   Reached
	err error
}

// restartVerb is what R does to this server: "restart" a stdio server (a
// new process), "reconnect" to an HTTP one.
func (m *Model) restartVerb() string {
	if m.o.Transport == "stdio" || m.o.Transport == "" {
		return "restart"
	}
	return "reconnect"
}

// connState is the connection's state in a word or two, for the bar; ""
// while connected.
func (m *Model) connState() string {
	switch {
	case m.reconnecting && m.restartVerb() == "restart":
		return "⟳ restarting"
	case m.reconnecting:
		return "⟳ reconnecting"
	case m.gone:
		return "✗ disconnected"
	}
	return ""
}

// lostConnection takes in that the connection ended: the reason is kept
// to be shown in full, and the calls running then end with it.
func (m *Model) lostConnection(err error) {
	m.gone = true
	text := m.o.ErrorText(m.c.Explain(err))
	var running []string
	for _, c := range m.calls {
		if c.running() {
			c.lost = "the connection ended while it ran: " + text
			c.cancel(errConnectionLost)
			running = append(running, fmt.Sprintf("#%d %s", c.id, c.label()))
		}
	}
	m.lost = text
	switch len(running) {
	case 0:
	case 1:
		m.lost += "; " + running[0] + " was running, and failed"
	default:
		m.lost += "; " + strings.Join(running, ", ") + " were running, and failed"
	}
	m.act.add(actRow{at: m.o.Now(), kind: kindError, text: text})
	switch {
	case m.o.Reconnect == nil:
		m.setStatus("disconnected: q quits", true)
	case m.restartVerb() == "reconnect":
		m.setStatus("disconnected: R reconnects, q quits", true)
	default:
		m.setStatus("disconnected: R restarts the server, q quits", true)
	}
}

// unreachable reports whether a request failed because the server cannot
// be reached any more: an HTTP server that refuses connections (it went
// away) tells no one until a request finds out.
func unreachable(err error) bool {
	var ne *net.OpError
	return errors.As(err, &ne) && ne.Op == "dial" || errors.Is(err, mcp.ErrConnectionClosed)
}

// restart is R: with requests running on a live connection it asks first,
// since they end with it.
func (m *Model) restart() tea.Cmd {
	switch {
	case m.o.Reconnect == nil:
		m.setStatus("this session cannot "+m.restartVerb()+" the server", true)
		return nil
	case m.reconnecting:
		return nil
	case !m.gone && m.running > 0:
		m.confirm(
			fmt.Sprintf("%d request%s still running: %sing the server ends %s.", m.running, plural.S(m.running), m.restartVerb(), map[bool]string{true: "it", false: "them"}[m.running == 1]),
			strings.ToUpper(m.restartVerb()[:1])+m.restartVerb()[1:]+" it now?",
			m.reconnect,
			func() { m.setStatus("not "+m.restartVerb()+"ed", false) },
		)
		return nil
	}
	return m.reconnect()
}

// reconnect ends the calls still running, and connects again.
func (m *Model) reconnect() tea.Cmd {
	m.reconnecting = true
	verb := m.restartVerb()
	for _, c := range m.calls {
		if c.running() {
			c.lost = fmt.Sprintf("ended: the server was %sed (R) while it ran", verb)
			c.cancel(errRestarting)
		}
	}
	what := "restarting the server (R): a new process, the same session"
	if verb == "reconnect" {
		what = "reconnecting to the server (R)"
	}
	m.act.add(actRow{at: m.o.Now(), kind: kindNote, text: what})
	m.setStatus(verb+"ing the server…", false)
	gen, reconnect, ctx := m.gen, m.o.Reconnect, m.ctx
	return func() tea.Msg {
		r, err := reconnect(ctx)
		return reconnectedMsg{gen: gen, r: r, err: err}
	}
}

// reconnected takes the new connection in: the lists are read again,
// the log level and the subscriptions asked for again.
func (m *Model) reconnected(msg reconnectedMsg) tea.Cmd {
	if msg.gen != m.gen {
		return nil
	}
	m.reconnecting = false
	verb := m.restartVerb()
	if msg.err != nil {
		m.gone = true
		m.lost = fmt.Sprintf("%sing failed: %s", verb, m.o.ErrorText(msg.err))
		m.act.add(actRow{at: m.o.Now(), kind: kindError, text: m.lost})
		m.setStatus(fmt.Sprintf("%s failed: R tries again, q quits", verb), true)
		return nil
	}
	level := m.c.LogLevel()
	m.gen++ // what the old connection says from now on is not news
	m.feed.newConnection()
	m.c = msg.r.Client
	m.server = m.c.Server()
	m.o.Transport, m.o.Negotiated, m.o.How = msg.r.Transport, msg.r.Negotiated, msg.r.How
	m.gone, m.lost = false, ""
	m.loaded, m.loading, m.again, m.loadErr = [3]bool{}, [3]bool{}, [3]bool{}, [3]error{}
	m.detail = detailCache{}
	s := m.server
	how := m.o.How
	if how == "" {
		how = m.o.Negotiated
	}
	m.act.add(actRow{at: m.o.Now(), kind: kindNote, text: fmt.Sprintf("%sed: connected to %s %s over %s, protocol %s: %s", verb, s.Display(), s.Version, s.Via, s.Protocol, how)})
	m.setStatus(fmt.Sprintf("%sed: History, Activity and the wire are kept", verb), false)
	cmds := []tea.Cmd{m.load(tabTools), m.load(tabPrompts), m.load(tabResources), m.watchConnection()}
	c, ctx := m.c, m.ctx
	if level != "" && level != c.LogLevel() {
		cmds = append(cmds, func() tea.Msg {
			if err := c.SetLogLevel(ctx, level); err != nil {
				return statusMsg{text: "log level not set again: " + render.Line(err.Error()), err: true}
			}
			return nil
		})
	}
	for uri, on := range m.subs {
		if on {
			cmds = append(cmds, resubscribe(ctx, c, uri))
		}
	}
	return tea.Batch(cmds...)
}

func resubscribe(ctx context.Context, c Client, uri string) tea.Cmd {
	return func() tea.Msg {
		if err := c.Subscribe(ctx, uri); err != nil {
			return statusMsg{text: "not subscribed again to " + render.Line(uri) + ": " + render.Line(err.Error()), err: true}
		}
		return nil
	}
}

// maxLostLines bounds the reason shown above the body (Activity has it
// whole).
const maxLostLines = 6

// lostBanner is what heads the body while the connection is down: why, in
// full, and the way back.
func (m *Model) lostBanner() []string {
	if !m.gone && !m.reconnecting {
		return nil
	}
	w := m.width
	var out []string
	if m.lost != "" {
		lines := strings.Split(wrapText(m.lost, w-2), "\n")
		if len(lines) > maxLostLines {
			lines = append(lines[:maxLostLines-1], clip(lines[maxLostLines-1]+" …", w-2))
		}
		for _, l := range lines {
			out = append(out, " "+m.st.err.Render(l))
		}
	}
	what := "R restart it (History, Activity and the wire are kept) · q quit"
	switch {
	case m.o.Reconnect == nil:
		what = "q quit"
	case m.restartVerb() == "reconnect":
		what = "R reconnect (History, Activity and the wire are kept) · q quit"
	}
	if m.reconnecting {
		what = m.restartVerb() + "ing…"
	}
	out = append(out, " "+m.st.title.Render(clip(what, w-2)))
	return append(out, m.st.rule.Render(strings.Repeat("─", w)))
}
