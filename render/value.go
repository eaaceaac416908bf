package render

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/request"
)

// Question asks a person for one value mcpcli needs before it can send a
// request: a prompt argument or a resource template variable that was not
// given on the command line, with the server's completion suggestions.
type Question = request.Question

// ErrSkipped is an optional value the person left empty.
var ErrSkipped = request.ErrSkipped

// maxSuggestions is how many suggestions are listed.
const maxSuggestions = 20

// AskValue implements the line version: the suggestions numbered, a
// number picks one, anything else is the value. An empty line leaves an
// optional value unset (ErrSkipped).
func (p *Prompter) AskValue(ctx context.Context, q Question) (string, error) {
	fmt.Fprintf(p.Out, "\n── %s needs %s for %s ──\n", serverName(q.Server), Line(q.Name), Line(q.For))
	if q.Description != "" {
		for _, l := range strings.Split(Sanitize(q.Description), "\n") {
			fmt.Fprintf(p.Out, "   %s\n", l)
		}
	}
	shown := q.Suggestions
	if len(shown) > maxSuggestions {
		shown = shown[:maxSuggestions]
	}
	if len(shown) > 0 {
		fmt.Fprintln(p.Out, "   The server suggests:")
		for i, s := range shown {
			fmt.Fprintf(p.Out, "   %d) %s\n", i+1, Line(s))
		}
		if q.More || len(q.Suggestions) > len(shown) {
			fmt.Fprintln(p.Out, "   … and more; type a value")
		}
	}
	hint := ""
	if !q.Required {
		hint = " [empty: leave unset]"
	}
	for attempt := 0; ; attempt++ {
		line, err := p.ReadLine(ctx, fmt.Sprintf("%s%s: ", Line(q.Name), hint))
		if err != nil {
			return "", err
		}
		in := strings.TrimSpace(line)
		if n, err := strconv.Atoi(in); err == nil && n >= 1 && n <= len(shown) {
			// The server's own value, as it suggested it (shown
			// sanitized, controls made visible).
			return shown[n-1], nil
		}
		if in != "" {
			return line, nil
		}
		if !q.Required {
			return "", ErrSkipped
		}
		if attempt+1 >= p.Attempts() {
			return "", errGaveUp
		}
		fmt.Fprintf(p.Out, "  ! %s is required\n", Line(q.Name))
	}
}

// ValueForm asks for values on the full screen, one input each, the
// server's suggestions offered as you type (tab takes the one shown).
type ValueForm struct {
	Term   *Terminal
	onView func(string)
}

// AskValue asks for one value. Esc or ctrl+c abandons the request
// (client.ErrAbandoned); an empty optional value is ErrSkipped.
func (v *ValueForm) AskValue(ctx context.Context, q Question) (string, error) {
	m := newValueModel(q)
	m.onView = v.onView
	final, err := v.Term.Run(ctx, m)
	if errors.Is(err, ErrCancelled) {
		return "", client.ErrAbandoned
	}
	if err != nil {
		return "", err
	}
	fm, _ := final.(*valueModel)
	if fm == nil || !fm.done {
		return "", client.ErrAbandoned
	}
	if fm.value == "" {
		return "", ErrSkipped
	}
	return fm.value, nil
}

type valueModel struct {
	q     Question
	input textinput.Model
	// suggestions are q.Suggestions made safe to show; pick is the one
	// shown while nothing is typed (↑/↓ move it). Once something is typed
	// the input's own completion takes over: the suggestions that start
	// with it, ↑/↓ between them, tab takes the one shown.
	suggestions []string
	pick        int
	width       int
	height      int
	note        string
	value       string
	done        bool
	quit        bool
	look        *look

	onView func(string)
}

func newValueModel(q Question) *valueModel {
	m := &valueModel{q: q, width: 80, height: 24, look: newLook()}
	m.input = textinput.New()
	m.input.Prompt = "> "
	m.input.CharLimit = maxLineChars
	clean := make([]string, len(q.Suggestions))
	for i, s := range q.Suggestions {
		clean[i] = Line(s)
	}
	m.suggestions = clean
	m.input.SetSuggestions(clean)
	m.input.ShowSuggestions = len(clean) > 0
	m.showPick()
	m.input.SetWidth(min(m.width, maxWidth) - 4)
	m.styleInput()
	return m
}

// styleInput gives the input mcpcli's palette for the background (the
// input's own grey prompt hardly shows on a light one); the suggestion
// stays dimmer than typed text.
func (m *valueModel) styleInput() {
	p := PaletteFor(m.look.dark)
	st := textinput.DefaultStyles(m.look.dark)
	for _, s := range []*textinput.StyleState{&st.Focused, &st.Blurred} {
		s.Prompt = lipgloss.NewStyle().Foreground(lipgloss.Color(p.Accent))
		s.Text = lipgloss.NewStyle().Foreground(lipgloss.Color(p.Text))
		s.Placeholder = lipgloss.NewStyle().Foreground(lipgloss.Color(p.Placeholder)).Italic(true)
		s.Suggestion = lipgloss.NewStyle().Foreground(lipgloss.Color(p.Dim))
	}
	st.Cursor.Color = lipgloss.Color(p.Accent)
	m.input.SetStyles(st)
}

// Init implements tea.Model.
func (m *valueModel) Init() tea.Cmd { return tea.Batch(tea.RequestBackgroundColor, m.input.Focus()) }

// Update implements tea.Model.
func (m *valueModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.input.SetWidth(max(min(m.width, maxWidth)-4, 10))
		return m, nil
	case tea.BackgroundColorMsg:
		m.look.dark = msg.IsDark()
		m.styleInput()
		return m, nil
	case tea.KeyPressMsg:
		if m.done || m.quit {
			return m, nil
		}
		empty := m.input.Value() == ""
		switch msg.String() {
		case "tab":
			// The server's value as it suggested it: the input's own
			// completion would keep the case of what was typed.
			if c := m.current(); c != "" {
				m.input.SetValue(c)
				m.input.CursorEnd()
				m.note = ""
			}
			return m, nil
		case "up", "ctrl+p", "down", "ctrl+n":
			if empty && len(m.suggestions) > 0 {
				step := 1
				if k := msg.String(); k == "up" || k == "ctrl+p" {
					step = len(m.suggestions) - 1
				}
				m.pick = (m.pick + step) % len(m.suggestions)
				m.showPick()
				return m, nil
			}
		case "enter":
			v := m.input.Value()
			if empty && m.q.Required && len(m.suggestions) > 0 {
				// The suggestion shown is what enter uses, as the keys
				// line says.
				m.value, m.done = m.suggestions[m.pick], true
				return m, tea.Quit
			}
			if strings.TrimSpace(v) == "" && m.q.Required {
				m.note = Line(m.q.Name) + " is required (esc abandons the request)"
				return m, nil
			}
			m.value, m.done = v, true
			return m, tea.Quit
		case "esc", "ctrl+c":
			m.quit = true
			return m, tea.Quit
		}
		m.note = ""
	}
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(msg)
	return m, cmd
}

// View implements tea.Model.
func (m *valueModel) View() tea.View {
	w := max(min(m.width, maxWidth), 20)
	ch := m.look.chrome()
	var lines []string
	lines = append(lines,
		ch.Title.Render(truncate(fmt.Sprintf("%s needs %s", serverName(m.q.Server), Line(m.q.Name)), w)),
		ch.Dim.Render(truncate("for "+Line(m.q.For), w)),
		ch.Rule.Render(strings.Repeat("─", w)))
	if m.q.Description != "" {
		for _, l := range strings.Split(Sanitize(m.q.Description), "\n") {
			lines = append(lines, truncate(l, w))
		}
	}
	// The input pads itself to its width before the completion it shows:
	// cut what overflows, with no mark (it is blank).
	lines = append(lines, "", ansi.Truncate(m.input.View(), w, ""))
	if m.note != "" {
		lines = append(lines, ch.Error.Render(truncate(m.note, w)))
	}
	if len(m.suggestions) > 0 {
		shown := m.matches()
		more := ""
		if len(shown) > 8 || m.q.More {
			shown, more = shown[:min(len(shown), 8)], " …"
		}
		line := "suggested: " + strings.Join(shown, ", ") + more
		if len(shown) == 0 {
			line = "no suggestion starts with what you typed"
		}
		lines = append(lines, "", ch.Dim.Render(truncate(line, w)))
	}
	lines = append(lines, "", ch.Dim.Render(truncate(m.keys(), w)))
	s := ""
	if !m.done && !m.quit {
		s = fit(strings.Join(lines, "\n"), m.width, m.height)
	}
	if m.onView != nil {
		m.onView(s)
	}
	v := tea.NewView(s)
	v.AltScreen = true
	return v
}

// showPick puts the suggestion picked into the empty input, dim.
func (m *valueModel) showPick() {
	if len(m.suggestions) > 0 {
		m.input.Placeholder = m.suggestions[m.pick]
	}
}

// matches is the suggestions on offer: all of them while nothing is
// typed, then those that start with what is typed.
func (m *valueModel) matches() []string {
	v := strings.ToLower(m.input.Value())
	if v == "" {
		return m.suggestions
	}
	var out []string
	for _, s := range m.suggestions {
		if strings.HasPrefix(strings.ToLower(s), v) {
			out = append(out, s)
		}
	}
	return out
}

// current is the suggestion tab takes, or "": the one picked while
// nothing is typed, then the input's completion of what is typed.
func (m *valueModel) current() string {
	if m.input.Value() == "" {
		if len(m.suggestions) == 0 {
			return ""
		}
		return m.suggestions[m.pick]
	}
	return m.input.CurrentSuggestion()
}

// shown is the suggestion drawn dim in the input (tab takes it), or "".
func (m *valueModel) shown() string {
	v := m.input.Value()
	if c := m.current(); c != v {
		return c
	}
	return ""
}

// maxKeyLabel bounds a suggestion named in the keys line.
const maxKeyLabel = 32

// keys is the keys line. The suggestion tab takes is named there between
// ‹ and ›: it is drawn in the input dim, and without color dim text looks
// typed.
func (m *valueModel) keys() string {
	const esc = "esc abandon the request"
	sug := m.shown()
	switch {
	case sug == "" && m.q.Required:
		return "enter use it · " + esc
	case sug == "":
		return "enter use it (empty: leave unset) · " + esc
	}
	label := "‹" + Clip(sug, maxKeyLabel) + "›"
	other := ""
	if len(m.matches()) > 1 {
		other = " · ↑/↓ another"
	}
	switch {
	case m.input.Value() != "":
		return "tab complete to " + label + other + " · enter use what you typed · esc abandon"
	case m.q.Required:
		return "enter or tab take " + label + other + " · " + esc
	default:
		return "tab take " + label + other + " · enter leave unset · esc abandon"
	}
}
