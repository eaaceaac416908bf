package tui

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/render"
)

// Capabilities is what the session changes of the client's capabilities
// while connected (client.Session): roots, and sampling. A Client without
// them (a test's) has C say so.
type Capabilities interface {
	Roots() []*mcp.Root
	AddRoot(r *mcp.Root) error
	RemoveRoot(uri string) bool
	Sampling() bool
	SetSampling(on bool) error
	CanSample() bool
	CanChangeRoots() bool
}

// capsModal is C: the client capabilities, changed in place. Its rows are
// sampling, each root, then "add a directory".
type capsModal struct {
	cursor  int
	adding  bool   // a directory is being typed
	input   string // what is typed
	note    string
	noteErr bool
}

func (c *capsModal) rows(m *Model) int { return len(m.caps().Roots()) + 2 }

func (m *Model) caps() Capabilities {
	cp, _ := m.c.(Capabilities)
	return cp
}

func (c *capsModal) view(m *Model) []string {
	st, w := m.st, m.width
	cp := m.caps()
	out := []string{"", "  " + st.title.Render(clip("Client capabilities: what mcpcli tells the server it can do", w-4))}
	how := "(2026-07-28: declared in the _meta of each request from now on)"
	if !m.server.Modern() {
		how = "(" + render.Line(m.server.Protocol) + ": the server learned them when the session started; roots changes are sent as notifications/roots/list_changed)"
	}
	for _, l := range strings.Split(wrapText(how, w-4), "\n") {
		out = append(out, "  "+st.dim.Render(l))
	}
	out = append(out, "")
	row := func(i int, text string) {
		if i == c.cursor && !c.adding {
			out = append(out, st.selected(cut("  ▸ "+text, w-1)))
			return
		}
		out = append(out, clip("    "+text, w))
	}
	state, what := "off", "enter turns it on: you then write the replies to the server's sampling requests"
	switch {
	case cp.Sampling():
		state, what = "on ", "you write the replies to the server's sampling requests"
	case !cp.CanSample():
		what = "not declared at initialize: start again with --sampling"
	}
	row(0, fmt.Sprintf("Sampling  %s  %s", state, st.dim.Render(what)))
	roots := cp.Roots()
	head := fmt.Sprintf("Roots     %d    ", len(roots))
	if cp.CanChangeRoots() {
		out = append(out, clip("    "+head+st.dim.Render("directories the server is given"), w))
	} else {
		out = append(out, clip("    "+head+st.dim.Render("not declared at initialize: start again with --root DIR"), w))
	}
	for i, r := range roots {
		row(i+1, fmt.Sprintf("  %s  %s", render.Line(r.Name), st.dim.Render(clipMiddle(render.Line(r.URI), max(w-12-len([]rune(r.Name)), 10)))))
	}
	row(len(roots)+1, "  + add a directory")
	if c.adding {
		out = append(out, "", clip("  Directory: "+c.input+"█", w))
	}
	if c.note != "" {
		out = append(out, "")
		style := st.ok
		if c.noteErr {
			style = st.err
		}
		for _, l := range strings.Split(wrapText(c.note, w-4), "\n") {
			out = append(out, "  "+style.Render(l))
		}
	}
	return out
}

func (c *capsModal) pane() paneID { return paneCaps }

func (c *capsModal) keys(m *Model) string {
	if c.adding {
		return "type a directory · enter add it · esc back"
	}
	return footerOf(paneCaps, m.width)
}

// typing reports whether a directory is being typed: every key is text.
func (c *capsModal) typing() bool { return c.adding }

func (c *capsModal) typeKey(m *Model, msg tea.KeyPressMsg) tea.Cmd {
	k := msg.String()
	switch k {
	case "esc":
		c.adding, c.input = false, ""
	case "enter":
		c.add(m)
	case "backspace":
		if r := []rune(c.input); len(r) > 0 {
			c.input = string(r[:len(r)-1])
		}
	case "ctrl+u":
		c.input = ""
	case "space":
		c.input += " "
	default:
		if msg.Text != "" {
			c.input += msg.Text
		}
	}
	return nil
}

func (c *capsModal) key(m *Model, k string) tea.Cmd {
	cp := m.caps()
	n := c.rows(m)
	switch k {
	case "esc", "q", "C":
		m.modal = nil
	case "up", "k":
		c.cursor = max(c.cursor-1, 0)
	case "down", "j":
		c.cursor = min(c.cursor+1, n-1)
	case "enter", "space":
		switch {
		case c.cursor == 0:
			c.toggleSampling(m)
		case c.cursor == n-1:
			if !cp.CanChangeRoots() {
				c.say(m.o.ErrorText(cp.AddRoot(&mcp.Root{})), true)
				return nil
			}
			c.adding, c.note = true, ""
		}
	case "d", "x", "delete", "backspace":
		if roots := cp.Roots(); c.cursor >= 1 && c.cursor <= len(roots) {
			r := roots[c.cursor-1]
			cp.RemoveRoot(r.URI)
			c.cursor = min(c.cursor, c.rows(m)-1)
			c.say("removed the root "+render.Line(r.URI)+"; "+told(m), false)
		}
	}
	return nil
}

// paste takes pasted text into the directory being typed.
func (c *capsModal) paste(s string) {
	if c.adding {
		c.input += strings.NewReplacer("\n", "", "\r", "").Replace(s)
	}
}

func (c *capsModal) say(s string, isErr bool) { c.note, c.noteErr = s, isErr }

func (c *capsModal) toggleSampling(m *Model) {
	cp := m.caps()
	on := !cp.Sampling()
	if err := cp.SetSampling(on); err != nil {
		c.say(m.o.ErrorText(err), true)
		return
	}
	switch {
	case on:
		c.say("sampling on: a server's sampling request is shown to you, and you write the reply", false)
	case m.server.Modern():
		c.say("sampling off: no longer declared", false)
	default:
		c.say("sampling off: the server's sampling requests are declined", false)
	}
	m.act.add(actRow{at: m.o.Now(), kind: kindNote, text: c.note})
}

func (c *capsModal) add(m *Model) {
	dir := strings.TrimSpace(c.input)
	if dir == "" {
		c.adding = false
		return
	}
	if rest, ok := strings.CutPrefix(dir, "~"); ok && (rest == "" || strings.HasPrefix(rest, string(filepath.Separator))) {
		if home, err := os.UserHomeDir(); err == nil {
			dir = home + rest
		}
	}
	r, err := client.DirRoot(dir)
	if err == nil {
		err = m.caps().AddRoot(r)
	}
	var ce *client.CapabilityError
	switch {
	case errors.As(err, &ce):
		c.say(m.o.ErrorText(err), true)
		c.adding = false
	case err != nil:
		c.say("not added: "+render.Line(err.Error()), true) // keep what was typed, to fix
	default:
		c.adding, c.input = false, ""
		c.cursor = len(m.caps().Roots())
		c.say("added the root "+render.Line(r.URI)+"; "+told(m), false)
		m.act.add(actRow{at: m.o.Now(), kind: kindNote, text: c.note})
	}
}

// told says how the server learns of a change of roots.
func told(m *Model) string {
	if m.server.Modern() {
		return "declared in each request from now on"
	}
	return "the server was sent notifications/roots/list_changed"
}
