package tui

import (
	"fmt"
	"os"
	"strings"
	"unicode"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/flow/runner"
	"github.com/mcpcli/mcpcli/internal/plural"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/request"
)

// S saves the session's requests, in one of two forms, to a file whose
// name is offered and can be edited:
//
//   - a script of one-shot commands (request.SaveScript), run with sh: it
//     sends the requests again with the answers given;
//   - a flow file (runner.Save, as --record and the line shell's save flow
//     write it), which mcpcli test replays against the live server,
//     checking the asks and the results; a secret field's answer is an
//     $env: reference, never the value.
//
// Either file is written with safefile: never through a link, never over
// a file mcpcli did not write.

type saveKind int

const (
	saveScript saveKind = iota
	saveFlow
)

// saveModal is S's window: the kind chosen (s or f, or ↑/↓ and enter),
// then the file's name, typed.
type saveModal struct {
	cursor saveKind
	naming bool   // the file's name is being typed
	input  string // the name
	note   string // why the last save failed: the name stays, to fix
}

func (s *saveModal) pane() paneID { return paneSave }

var saveChoices = [...]struct{ key, what, how string }{
	saveScript: {"s", "a script of one-shot commands", "sh runs it: the requests are sent again, with the answers you gave"},
	saveFlow:   {"f", "a flow file, a test", "mcpcli test replays it against the live server and checks each ask and result; secret answers come from the environment"},
}

func (s *saveModal) view(m *Model) []string {
	st, w := m.st, m.width
	n := len(m.calls)
	out := []string{"", "  " + st.title.Render(clip(fmt.Sprintf("Save the session's %s as", plural.Count(n, "request", "requests")), w-4)), ""}
	for i, c := range saveChoices {
		row := fmt.Sprintf("%s  %s", c.key, c.what)
		switch {
		case saveKind(i) == s.cursor && !s.naming:
			out = append(out, st.selected(cut("  ▸ "+row, w-1)))
		case saveKind(i) == s.cursor:
			out = append(out, clip("  ▸ "+st.title.Render(row), w))
		default:
			out = append(out, clip("    "+row, w))
		}
		for _, l := range strings.Split(wrapText(c.how, w-10), "\n") {
			out = append(out, "       "+st.dim.Render(l))
		}
	}
	if s.naming {
		// The end of a long name shows, where the cursor is.
		field := render.Line(s.input) + "█"
		if room := w - 10; ansi.StringWidth(field) > room {
			field = "…" + ansi.TruncateLeft(field, ansi.StringWidth(field)-room+1, "")
		}
		out = append(out, "", "  File: "+field)
	}
	if s.note != "" {
		out = append(out, "")
		for _, l := range strings.Split(wrapText(s.note, w-4), "\n") {
			out = append(out, "  "+st.err.Render(l))
		}
	}
	return out
}

func (s *saveModal) keys(m *Model) string {
	if s.naming {
		return clip(" type the file's name · enter save · ctrl+u clear · esc back", m.width)
	}
	return footerOf(paneSave, m.width)
}

func (s *saveModal) key(m *Model, k string) tea.Cmd {
	switch k {
	case "esc", "q":
		m.modal = nil
	case "up", "k":
		s.cursor = saveScript
	case "down", "j":
		s.cursor = saveFlow
	case "s":
		s.choose(m, saveScript)
	case "f":
		s.choose(m, saveFlow)
	case "enter":
		s.choose(m, s.cursor)
	}
	return nil
}

// choose starts naming the file of kind k, its name filled in.
func (s *saveModal) choose(m *Model, k saveKind) {
	s.cursor, s.naming, s.note = k, true, ""
	if k == saveFlow {
		s.input = m.flowPath()
	} else {
		s.input = m.scriptPath()
	}
}

func (s *saveModal) typing() bool { return s.naming }

func (s *saveModal) typeKey(m *Model, msg tea.KeyPressMsg) tea.Cmd {
	switch msg.String() {
	case "esc":
		s.naming, s.note = false, ""
	case "enter":
		s.save(m)
	case "backspace":
		if r := []rune(s.input); len(r) > 0 {
			s.input = string(r[:len(r)-1])
		}
	case "ctrl+u":
		s.input = ""
	case "space":
		s.input += " "
	default:
		if msg.Text != "" {
			s.input += msg.Text
		}
	}
	return nil
}

// paste takes pasted text into the name being typed.
func (s *saveModal) paste(text string) {
	if s.naming {
		s.input += strings.NewReplacer("\n", "", "\r", "").Replace(text)
	}
}

// save writes the file; on success the window closes and the status
// line says what was written, else the window says why and keeps the
// name.
func (s *saveModal) save(m *Model) {
	path := strings.TrimSpace(s.input)
	if path == "" {
		s.note = "name a file to save to"
		return
	}
	if strings.ContainsFunc(path, unicode.IsControl) {
		s.note = "the name holds a control character (pasted?); ctrl+u clears it"
		return
	}
	var (
		msg string
		err error
	)
	if s.cursor == saveFlow {
		msg, err = m.saveFlow(path)
	} else {
		msg, err = request.SaveScript(path, m.o.Ledger, m.o.Replay, m.server, m.saved(), m.o.Now())
	}
	if err != nil {
		s.note = render.Line(err.Error())
		return
	}
	m.modal = nil
	// The status line may cut it; Activity keeps it whole.
	m.setStatus(render.Line(msg), false)
	m.act.add(actRow{at: m.o.Now(), kind: kindNote, text: render.Line(msg)})
}

// scriptPath is where a script is saved unless the person says otherwise:
// --save, else mcpcli's state directory, else the working directory.
func (m *Model) scriptPath() string {
	switch {
	case m.o.SavePath != "":
		return m.o.SavePath
	case m.o.Replay.DefaultPath != "":
		return m.o.Replay.DefaultPath
	}
	return "mcpcli-session.sh"
}

// flowPath is where a flow file is saved unless the person says
// otherwise: in ./flows (where mcpcli test looks when given no file),
// named after what the session requested: the tool, prompt or resource
// when it is one, else "session".
func (m *Model) flowPath() string {
	name := ""
	for _, c := range m.calls {
		if c.state != stateDone && c.err == nil {
			continue
		}
		word := request.Verb(c.method) + "-" + c.target
		if c.method == request.ToolsCall {
			word = c.target
		}
		switch {
		case name == "":
			name = word
		case name != word:
			name = "session"
		}
	}
	return "flows/" + fileWord(name) + ".flow"
}

// fileWord is a name from the server made safe as a file's name: letters,
// digits, '_', '-' and '.' kept, runs of anything else one '-', no
// leading dot or dash, at most 48 bytes; "session" when nothing is left.
func fileWord(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range s {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.'
		switch {
		case ok:
			b.WriteRune(r)
			dash = false
		case !dash:
			b.WriteByte('-')
			dash = true
		}
		if b.Len() >= 48 {
			break
		}
	}
	w := strings.Trim(b.String(), "-.")
	if w == "" {
		return "session"
	}
	return w
}

// flowSaved are the session's requests as a flow file keeps them: those
// that ended with a result still kept, or with an error from the server.
// Those still running, cancelled, cut by the connection's end, or whose
// result is no longer kept are left out; left names them and says why.
func (m *Model) flowSaved() (out []request.Saved, left []string) {
	for _, r := range m.saved() {
		c := m.byID[r.ID]
		switch {
		case c == nil:
			continue
		case c.state == stateDone:
			raw, why := m.keptRaw(c)
			if raw == nil {
				left = append(left, fmt.Sprintf("#%d (%s)", c.id, why))
				continue
			}
			r.Result = &client.Result{Method: c.method, Target: c.target, Raw: raw}
			if c.result != nil {
				r.Result.Rounds, r.Result.Tool = c.result.Rounds, c.result.Tool
			}
		case c.state == stateFailed && c.err != nil && c.lost == "":
			r.Err = c.err
		case c.state == stateRunning:
			left = append(left, fmt.Sprintf("#%d (still running)", c.id))
			continue
		default:
			left = append(left, fmt.Sprintf("#%d (%s)", c.id, map[callState]string{stateFailed: "cut short", stateCancelled: "cancelled"}[c.state]))
			continue
		}
		out = append(out, r)
	}
	return out, left
}

// keptRaw is a call's result as the server sent it, from memory or from
// the file it was spilled to; nil, and why, when it is no longer kept.
func (m *Model) keptRaw(c *call) ([]byte, string) {
	k := m.kept.byID[c.id]
	switch {
	case k == nil || k.state == keptDropped:
		return nil, "its result was dropped; r re-runs it"
	case k.raw != nil:
		return k.raw, ""
	case k.path != "":
		b, err := os.ReadFile(k.path)
		if err != nil {
			return nil, "its result could not be read back: " + err.Error()
		}
		return b, ""
	}
	return nil, "its result was not kept"
}

// saveFlow writes the session's requests as a flow file, through the one
// writer --record and the line shell's save flow use (runner.Save).
func (m *Model) saveFlow(path string) (string, error) {
	reqs, left := m.flowSaved()
	msg, err := runner.Save(path, m.o.Flow, runner.FromSession(reqs), m.o.Ledger)
	if err != nil {
		return "", err
	}
	if len(left) > 0 {
		msg += "; left out " + strings.Join(left, ", ")
	}
	return msg, nil
}
