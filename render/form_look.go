package render

import (
	"strings"

	"charm.land/huh/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// look is the forms' theme. huh asks a field's theme for its styles on
// every render (once per option of a select), and its themes build every
// style anew each time; look builds them once per background.
//
// It also adds what the charm theme shows only in color: the chosen button
// of a yes/no is marked ●, so a person on a monochrome terminal (and a
// tmux capture) sees which one is on.
type look struct {
	dark  bool
	light *huh.Styles
	night *huh.Styles
}

func newLook() *look {
	return &look{dark: true, light: lookStyles(false), night: lookStyles(true)}
}

func lookStyles(dark bool) *huh.Styles {
	st := huh.ThemeCharm(dark)
	red := lipgloss.LightDark(dark)(lipgloss.Color("#FF4672"), lipgloss.Color("#ED567A"))
	for _, fs := range []*huh.FieldStyles{&st.Focused, &st.Blurred} {
		fs.ErrorIndicator = lipgloss.NewStyle().Foreground(red).SetString(" ✗")
		fs.FocusedButton = fs.FocusedButton.SetString("●")
		fs.BlurredButton = fs.BlurredButton.SetString("○")
		fs.SelectedPrefix = fs.SelectedPrefix.SetString("[x] ")
		fs.UnselectedPrefix = fs.UnselectedPrefix.SetString("[ ] ")
	}
	return st
}

// Theme implements huh.Theme. The background a field thinks it is on is
// ignored: the form model tells look once, for every field.
func (l *look) Theme(bool) *huh.Styles { return l.styles() }

func (l *look) styles() *huh.Styles {
	if l.dark {
		return l.night
	}
	return l.light
}

// Styles of the form's own chrome: header, hints, review, buttons.
var (
	styleTitle   = lipgloss.NewStyle().Bold(true)
	styleDim     = lipgloss.NewStyle().Faint(true)
	styleError   = lipgloss.NewStyle().Foreground(lipgloss.Color("9"))
	styleWarn    = lipgloss.NewStyle().Foreground(lipgloss.Color("11"))
	styleCursor  = lipgloss.NewStyle().Bold(true)
	styleButton  = lipgloss.NewStyle()
	styleFocused = lipgloss.NewStyle().Reverse(true).Bold(true)
	styleRule    = lipgloss.NewStyle().Faint(true)
)

// button draws a button; the focused one is reversed and marked ▸, so it
// shows without color too.
func button(label string, focused bool) string {
	if focused {
		return "▸" + styleFocused.Render("[ "+label+" ]")
	}
	return " " + styleButton.Render("[ "+label+" ]")
}

// truncate cuts a (possibly styled) line to width cells.
func truncate(s string, width int) string {
	if width <= 0 {
		return ""
	}
	return ansi.Truncate(s, width, "…")
}

// fit makes content exactly fit a width×height screen: each line cut to
// width, lines past height dropped.
func fit(content string, width, height int) string {
	lines := strings.Split(content, "\n")
	if len(lines) > height {
		lines = lines[:height]
	}
	for i, l := range lines {
		if ansi.StringWidth(l) > width {
			lines[i] = truncate(l, width)
		}
	}
	return strings.Join(lines, "\n")
}

// spread puts left and right on one line of width cells.
func spread(left, right string, width int) string {
	gap := width - ansi.StringWidth(left) - ansi.StringWidth(right)
	if gap < 2 {
		return truncate(left+"  "+right, width)
	}
	return left + strings.Repeat(" ", gap) + right
}
