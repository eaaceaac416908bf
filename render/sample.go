package render

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/textarea"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/internal/plural"
)

// HumanModel is the model a reply written by a person names.
const HumanModel = "mcpcli-human"

// humanReply is the result for a reply a person wrote.
func humanReply(text string) *client.SamplingAnswer {
	return &client.SamplingAnswer{Result: &mcp.CreateMessageWithToolsResult{
		Role:       "assistant",
		Content:    []mcp.Content{&mcp.TextContent{Text: text}},
		Model:      HumanModel,
		StopReason: "endTurn",
	}}
}

// SamplingTitle is the one-line heading of a sampling request.
func SamplingTitle(r client.SamplingRound) string {
	title := serverName(r.Server) + " asks for a model reply (sampling)"
	if r.Number > 1 {
		title += fmt.Sprintf(" · round %d", r.Number)
	}
	return title
}

// samplingContext is "while running tool X", as for an elicitation.
func samplingContext(r client.SamplingRound) string {
	return Context(client.Round{Method: r.Method, Target: r.Target})
}

// SamplingLines describes a sampling request for a person, one sanitized
// line each: the system prompt, the messages (images and audio as a
// one-line summary), the model preferences, the limits and any tools.
func SamplingLines(r client.SamplingRound) []string {
	p := r.Params
	if p == nil {
		return []string{"(the request has no parameters)"}
	}
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	if p.SystemPrompt != "" {
		add("System prompt:")
		for _, l := range strings.Split(Sanitize(p.SystemPrompt), "\n") {
			add("  %s", l)
		}
	}
	add("Messages:")
	if len(p.Messages) == 0 {
		add("  (none)")
	}
	for _, m := range p.Messages {
		for _, c := range m.Content {
			lines := contentLines(c)
			add("  [%s] %s", Line(string(m.Role)), lines[0])
			for _, l := range lines[1:] {
				add("    %s", l)
			}
		}
	}
	if mp := p.ModelPreferences; mp != nil {
		var parts []string
		var hints []string
		for _, h := range mp.Hints {
			if h != nil && h.Name != "" {
				hints = append(hints, Line(h.Name))
			}
		}
		if len(hints) > 0 {
			parts = append(parts, "hints "+strings.Join(hints, ", "))
		}
		for _, pr := range []struct {
			name string
			v    float64
		}{{"cost", mp.CostPriority}, {"speed", mp.SpeedPriority}, {"intelligence", mp.IntelligencePriority}} {
			if pr.v != 0 {
				parts = append(parts, fmt.Sprintf("%s priority %s", pr.name, strconv.FormatFloat(pr.v, 'g', -1, 64)))
			}
		}
		if len(parts) > 0 {
			add("Model preferences: %s", strings.Join(parts, "; "))
		}
	}
	limits := []string{fmt.Sprintf("max tokens %d", p.MaxTokens)}
	if p.Temperature != 0 {
		limits = append(limits, "temperature "+strconv.FormatFloat(p.Temperature, 'g', -1, 64))
	}
	if len(p.StopSequences) > 0 {
		var q []string
		for _, s := range p.StopSequences {
			q = append(q, strconv.Quote(Line(s)))
		}
		limits = append(limits, "stop at "+strings.Join(q, ", "))
	}
	if p.IncludeContext != "" && p.IncludeContext != "none" {
		limits = append(limits, "include context "+Line(p.IncludeContext))
	}
	add("Limits: %s", strings.Join(limits, " · "))
	if len(p.Tools) > 0 {
		add("Tools the model may use:")
		for _, t := range p.Tools {
			if t == nil {
				continue
			}
			if t.Description != "" {
				add("  %s — %s", Line(t.Name), Line(t.Description))
			} else {
				add("  %s", Line(t.Name))
			}
		}
		if p.ToolChoice != nil && p.ToolChoice.Mode != "" {
			add("  tool choice: %s", Line(p.ToolChoice.Mode))
		}
	}
	return out
}

// contentLines is one content block of a sampling message, as lines.
func contentLines(c mcp.Content) []string {
	switch c := c.(type) {
	case *mcp.TextContent:
		return strings.Split(strings.TrimRight(Sanitize(c.Text), "\n"), "\n")
	case *mcp.ImageContent:
		return []string{fmt.Sprintf("[image %s %s]", mimeOr(c.MIMEType, "image"), Size(len(c.Data)))}
	case *mcp.AudioContent:
		return []string{fmt.Sprintf("[audio %s %s]", mimeOr(c.MIMEType, "audio"), Size(len(c.Data)))}
	case *mcp.ToolUseContent:
		return []string{fmt.Sprintf("[tool use %s]", Line(c.Name))}
	case *mcp.ToolResultContent:
		return []string{"[tool result]"}
	case nil:
		return []string{"(empty)"}
	}
	return []string{fmt.Sprintf("[%T]", c)}
}

// samplingStatus says which answer went to the server.
func samplingStatus(r client.SamplingRound, a *client.SamplingAnswer) string {
	who := Line(r.Server.Display())
	if a.Decline {
		return fmt.Sprintf("→ decline sent to %s for %s", who, Line(r.Key))
	}
	n := 0
	for _, c := range a.Result.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			n += len([]rune(t.Text))
		}
	}
	return fmt.Sprintf("→ reply sent to %s for %s (%d character%s)", who, Line(r.Key), n, plural.S(n))
}

// Sample implements client.Sampler on lines: the request, then the reply
// as lines ending with a line holding only ".", sent only when confirmed
// with y; or d to decline. End of input sends nothing: the request is
// abandoned (client.ErrAbandoned).
func (p *Prompter) Sample(ctx context.Context, r client.SamplingRound) (*client.SamplingAnswer, error) {
	fmt.Fprintf(p.Out, "\n── %s ──\n", SamplingTitle(r))
	if c := samplingContext(r); c != "" {
		fmt.Fprintf(p.Out, "   %s\n", c)
	}
	fmt.Fprintf(p.Out, "   The server asks its client's model for a reply; here, you write it. Your reply goes to %s.\n", Who(r.Server))
	for _, l := range SamplingLines(r) {
		fmt.Fprintf(p.Out, "   %s\n", l)
	}
	ans, err := p.sample(ctx)
	switch {
	case errors.Is(err, errEOF):
		// Nothing is sent that was not confirmed: the request is given
		// up on, as a cancelled ask.
		fmt.Fprintln(p.Out, "  end of input: cancelled; no reply was sent")
		return nil, fmt.Errorf("end of input before the reply was sent: %w", client.ErrAbandoned)
	case errors.Is(err, errGaveUp):
		fmt.Fprintln(p.Out, "  too many invalid answers: declining")
		ans = &client.SamplingAnswer{Decline: true}
	case err != nil:
		return nil, err
	}
	fmt.Fprintln(p.Out, samplingStatus(r, ans))
	return ans, nil
}

func (p *Prompter) sample(ctx context.Context) (*client.SamplingAnswer, error) {
	for {
		c, err := p.choose(ctx, "Reply? [w]rite the reply/[d]ecline [w]: ", []string{"write", "decline"}, "write")
		if err != nil {
			return nil, err
		}
		if c == "decline" {
			return &client.SamplingAnswer{Decline: true}, nil
		}
		fmt.Fprintln(p.Out, "   Write the reply; end it with a line holding only \".\"")
		var lines []string
		for {
			l, err := p.ReadLine(ctx, "> ")
			if errors.Is(err, errEOF) && len(lines) > 0 {
				break // the end of input ends the reply too
			}
			if err != nil {
				return nil, err
			}
			if l == "." {
				break
			}
			lines = append(lines, l)
		}
		reply := strings.TrimRight(strings.Join(lines, "\n"), "\n ")
		if strings.TrimSpace(reply) == "" {
			fmt.Fprintln(p.Out, "  ! the reply is empty; write something, or decline")
			continue
		}
		// Sent only when the person says so: no default, and end of
		// input cancels.
		c, err = p.choose(ctx, "Send it? [y]es/[e]dit (write it again)/[d]ecline: ", []string{"yes", "edit", "decline"}, "")
		if err != nil {
			return nil, err
		}
		switch c {
		case "yes":
			return humanReply(reply), nil
		case "decline":
			return &client.SamplingAnswer{Decline: true}, nil
		}
	}
}

// Sample implements client.Sampler on the full screen: the request above,
// a text area for the reply below; ctrl+s sends, ctrl+x (or esc) declines.
func (a *FormAnswerer) Sample(ctx context.Context, r client.SamplingRound) (*client.SamplingAnswer, error) {
	m := newSampleModel(r)
	m.onView = a.onView
	final, err := a.Term.Run(ctx, m)
	var ans *client.SamplingAnswer
	switch {
	case errors.Is(err, ErrCancelled):
		ans = &client.SamplingAnswer{Decline: true}
	case err != nil:
		return nil, err
	default:
		if fm, _ := final.(*sampleModel); fm != nil && fm.answer != nil {
			ans = fm.answer
		} else {
			ans = &client.SamplingAnswer{Decline: true}
		}
	}
	fmt.Fprintln(a.status(), samplingStatus(r, ans))
	return ans, nil
}

// sampleModel is a sampling request on the full screen.
type sampleModel struct {
	r      client.SamplingRound
	lines  []string
	view   viewport.Model
	area   textarea.Model
	width  int
	height int
	note   string
	answer *client.SamplingAnswer
	done   bool
	look   *look

	onView func(string)
}

const sampleAreaLines = 6

func newSampleModel(r client.SamplingRound) *sampleModel {
	m := &sampleModel{r: r, lines: SamplingLines(r), width: 80, height: 24, look: newLook()}
	m.view = viewport.New()
	m.area = textarea.New()
	m.area.Placeholder = "Write the model's reply here"
	m.area.ShowLineNumbers = false
	m.area.CharLimit = maxTextChars // a stray 1 MB paste must not slow the screen
	// Ctrl+J makes a new line, as in the forms' text fields; so does
	// Enter (the reply is sent with ctrl+s).
	m.area.KeyMap.InsertNewline.SetKeys("enter", "ctrl+m", "ctrl+j")
	m.area.SetStyles(areaStyles(m.look.dark))
	m.layout()
	return m
}

// areaStyles are the reply box's colours for a dark or a light background,
// from the forms' palette: typed text and the placeholder at 4.5:1 or
// more (the text area's own defaults draw the line being typed on black,
// and the placeholder at 2.95:1 on a dark background), and a cursor that
// shows on both.
func areaStyles(dark bool) textarea.Styles {
	p := PaletteFor(dark)
	fg := func(hex string) lipgloss.Style { return lipgloss.NewStyle().Foreground(lipgloss.Color(hex)) }
	s := textarea.DefaultStyles(dark)
	for _, st := range []*textarea.StyleState{&s.Focused, &s.Blurred} {
		st.Text = fg(p.Text)
		st.CursorLine = fg(p.Text) // no band behind the line being typed
		st.Placeholder = fg(p.Placeholder).Italic(true)
		st.Prompt = fg(p.Accent)
		st.EndOfBuffer = fg(p.Dim)
		st.LineNumber = fg(p.Dim)
		st.CursorLineNumber = fg(p.Dim)
	}
	s.Cursor.Color = lipgloss.Color(p.Accent)
	return s
}

func (m *sampleModel) innerWidth() int { return max(min(m.width, maxWidth), 20) }

func (m *sampleModel) header() []string {
	w := m.innerWidth()
	ch := m.look.chrome()
	sub := "your reply goes to " + Who(m.r.Server)
	if c := samplingContext(m.r); c != "" {
		sub = c + " · " + sub
	}
	return []string{
		ch.Title.Render(truncate(SamplingTitle(m.r), w)),
		ch.Dim.Render(truncate(sub, w)),
		ch.Rule.Render(strings.Repeat("─", w)),
	}
}

func (m *sampleModel) layout() {
	w := m.innerWidth()
	areaLines := min(sampleAreaLines, max(m.height/4, 2))
	// header, the rule above the reply, its title, the area, note, footer
	viewLines := max(m.height-len(m.header())-areaLines-5, 2)
	m.view.SetWidth(w)
	m.view.SetHeight(viewLines)
	wrapped := make([]string, 0, len(m.lines))
	for _, l := range m.lines {
		wrapped = append(wrapped, strings.Split(lipgloss.Wrap(l, w, " "), "\n")...)
	}
	m.view.SetContentLines(wrapped)
	m.area.SetWidth(w)
	m.area.SetHeight(areaLines)
}

// Init implements tea.Model.
func (m *sampleModel) Init() tea.Cmd { return tea.Batch(tea.RequestBackgroundColor, m.area.Focus()) }

// Update implements tea.Model.
func (m *sampleModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.layout()
		return m, nil
	case tea.BackgroundColorMsg:
		m.look.dark = msg.IsDark()
		m.area.SetStyles(areaStyles(m.look.dark))
		return m, nil
	case tea.KeyPressMsg:
		if m.done {
			return m, nil
		}
		switch msg.String() {
		case "ctrl+s":
			reply := strings.TrimRight(m.area.Value(), "\n ")
			if strings.TrimSpace(reply) == "" {
				m.note = "the reply is empty: write something, or decline with ctrl+x"
				return m, nil
			}
			m.answer, m.done = humanReply(reply), true
			return m, tea.Quit
		case "ctrl+x", "esc", "ctrl+c":
			m.answer, m.done = &client.SamplingAnswer{Decline: true}, true
			return m, tea.Quit
		case "pgup":
			m.view.PageUp()
			return m, nil
		case "pgdown":
			m.view.PageDown()
			return m, nil
		}
		m.note = ""
	}
	var cmd tea.Cmd
	m.area, cmd = m.area.Update(msg)
	return m, cmd
}

// View implements tea.Model.
func (m *sampleModel) View() tea.View {
	w := m.innerWidth()
	ch := m.look.chrome()
	var b strings.Builder
	for _, l := range m.header() {
		b.WriteString(l + "\n")
	}
	b.WriteString(m.view.View() + "\n")
	more := ""
	if !m.view.AtBottom() || !m.view.AtTop() {
		more = " (pgup/pgdn: more of the request)"
	}
	b.WriteString(ch.Rule.Render(strings.Repeat("─", w)) + "\n")
	b.WriteString(ch.Title.Render("Your reply, as the model") + ch.Dim.Render(more) + "\n")
	b.WriteString(m.area.View() + "\n")
	if m.note != "" {
		b.WriteString(ch.Error.Render(truncate(m.note, w)) + "\n")
	} else {
		b.WriteString("\n")
	}
	b.WriteString(ch.Dim.Render(truncate("ctrl+s send · enter or ctrl+j new line · ctrl+x or esc decline", w)))
	s := ""
	if !m.done {
		s = fit(b.String(), m.width, m.height)
	}
	if m.onView != nil {
		m.onView(s)
	}
	v := tea.NewView(s)
	v.AltScreen = true
	return v
}
