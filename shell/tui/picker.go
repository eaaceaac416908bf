package tui

import (
	"context"
	"errors"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpcli/mcpcli/config"
	"github.com/mcpcli/mcpcli/internal/interrupt"
	"github.com/mcpcli/mcpcli/render"
)

// Choice is one configured server the picker offers. Every string comes
// from a config file: it is sanitized when shown.
type Choice struct {
	Name      string
	Transport string // stdio, http, sse
	Target    string // the command line or the URL
	Source    string // the file that defines it
}

// ErrNoChoice is a picker left without choosing.
var ErrNoChoice = errors.New("no server chosen")

// PickServer asks on term which of cfg's servers to open, and returns its
// name: "" when none is configured or the config files cannot be read (a
// server must then be named another way), ErrNoChoice when the person
// chose none, the signal that ended ctx when one did (nothing was sent).
func PickServer(ctx context.Context, term *render.Terminal, cfg func(context.Context) (*config.Config, error)) (string, error) {
	c, err := cfg(ctx)
	if err != nil {
		return "", nil
	}
	listed, _ := c.List()
	choices := Choices(listed)
	if len(choices) == 0 {
		return "", nil
	}
	name, err := Pick(ctx, term, choices)
	var sig interrupt.Signal
	if err != nil && !errors.Is(err, ErrNoChoice) && errors.As(context.Cause(ctx), &sig) {
		return "", sig
	}
	return name, err
}

// Pick shows the configured servers on term and returns the name chosen,
// or ErrNoChoice.
func Pick(ctx context.Context, term *render.Terminal, choices []Choice) (string, error) {
	m := newPicker(choices)
	final, err := term.Run(ctx, m)
	if errors.Is(err, render.ErrCancelled) {
		return "", ErrNoChoice
	}
	if err != nil {
		return "", err
	}
	p, _ := final.(*picker)
	if p == nil || p.chosen == "" {
		return "", ErrNoChoice
	}
	return p.chosen, nil
}

// picker is the list of configured servers, filterable as the session's
// lists are.
type picker struct {
	choices       []Choice
	l             *list
	st            *styles
	width, height int
	chosen        string
	done          bool
}

func newPicker(choices []Choice) *picker {
	p := &picker{choices: choices, l: &list{}, st: plainStyles(), width: 80, height: 24}
	items := make([]entry, len(choices))
	for i, c := range choices {
		items[i] = newEntry(c.Name, c.Name, "", "", c.Transport)
		items[i].search = strings.ToLower(render.Line(c.Target))
	}
	p.l.set(items)
	return p
}

func (p *picker) Init() tea.Cmd { return tea.RequestBackgroundColor }

func (p *picker) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		p.width, p.height = max(msg.Width, 20), max(msg.Height, 8)
	case tea.BackgroundColorMsg:
		p.st = newStyles(msg.IsDark())
	case tea.KeyPressMsg:
		return p, p.key(msg)
	}
	return p, nil
}

func (p *picker) rows() int { return max(p.height-6, 1) }

func (p *picker) key(msg tea.KeyPressMsg) tea.Cmd {
	l := p.l
	k := msg.String()
	if l.filtering {
		switch k {
		case "esc":
			l.filtering = false
			l.setFilter("")
		case "enter":
			l.filtering = false
		case "backspace":
			if r := []rune(l.filter); len(r) > 0 {
				l.setFilter(string(r[:len(r)-1]))
			}
		default:
			if msg.Text != "" {
				l.setFilter(l.filter + msg.Text)
			}
		}
		return nil
	}
	switch k {
	case "up", "k":
		l.move(-1, p.rows())
	case "down", "j":
		l.move(1, p.rows())
	case "/":
		l.filtering = true
		l.setFilter("")
	case "enter":
		if e := l.current(); e != nil {
			p.chosen = e.key
			p.done = true
			return tea.Quit
		}
	case "esc", "q", "ctrl+c":
		p.done = true
		return tea.Quit
	}
	return nil
}

func (p *picker) View() tea.View {
	var b strings.Builder
	if !p.done {
		st, w := p.st, p.width
		b.WriteString(st.title.Render(clip(" mcpcli ▸ which server?", w)) + "\n")
		b.WriteString(st.dim.Render(clip(fmt.Sprintf(" %d configured; the session opens on the one you choose", len(p.choices)), w)) + "\n")
		b.WriteString(st.rule.Render(strings.Repeat("─", w)) + "\n")
		l := p.l
		rows := p.rows()
		if l.filtering || l.filter != "" {
			f := " /" + render.Line(l.filter)
			if l.filtering {
				f += "█"
			}
			b.WriteString(clip(f, w) + "\n")
			rows--
		}
		l.scroll(rows)
		for i := 0; i < rows; i++ {
			n := l.top + i
			if n >= len(l.shown) {
				b.WriteString("\n")
				continue
			}
			c := p.choices[l.shown[n]]
			line := fmt.Sprintf("%-20s %-5s %s", render.Line(c.Name), render.Line(c.Transport), render.Line(c.Target))
			if n == l.cursor {
				b.WriteString(st.selected(cut("▸ "+line, w)) + "\n")
			} else {
				b.WriteString(clip("  "+line, w) + "\n")
			}
		}
		b.WriteString(st.rule.Render(strings.Repeat("─", w)) + "\n")
		from := ""
		if e := l.current(); e != nil {
			from = "from " + render.Line(p.choices[l.shown[l.cursor]].Source) + " · "
		}
		b.WriteString(clip(" "+from+"↑/↓ move · / filter · enter open · esc quit", w))
	}
	v := tea.NewView(b.String())
	v.AltScreen = true
	return v
}

// Choices are the servers the config files define that can be picked:
// each name's definition that runs, said when it is not trusted yet.
func Choices(listed []config.Listed) []Choice {
	var choices []Choice
	for _, l := range listed {
		if l.Shadowed || l.Err != nil {
			continue
		}
		src := l.Source.String()
		if !l.Trust.Runs() {
			src += " (not trusted: mcpcli asks first)"
		}
		choices = append(choices, Choice{Name: l.Name, Transport: string(l.Transport), Target: l.Target, Source: src})
	}
	return choices
}
