package session

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// styles are the session's looks for one background. Nothing depends on
// color alone: the selected row is reversed and marked ▸, errors say so in
// words, so that NO_COLOR (which bubbletea honours by dropping colors) and
// a monochrome capture read the same.
type styles struct {
	title, dim, rule, cursor, tab, tabOn, err, ok, warn, accent, key lipgloss.Style
}

func newStyles(dark bool) *styles {
	c := lipgloss.LightDark(dark)
	return &styles{
		title:  lipgloss.NewStyle().Bold(true),
		dim:    lipgloss.NewStyle().Faint(true),
		rule:   lipgloss.NewStyle().Faint(true),
		cursor: lipgloss.NewStyle().Reverse(true),
		tab:    lipgloss.NewStyle(),
		tabOn:  lipgloss.NewStyle().Bold(true).Reverse(true),
		err:    lipgloss.NewStyle().Foreground(c(lipgloss.Color("#C0143C"), lipgloss.Color("#FF6B81"))),
		ok:     lipgloss.NewStyle().Foreground(c(lipgloss.Color("#0B7A3E"), lipgloss.Color("#5FD787"))),
		warn:   lipgloss.NewStyle().Foreground(c(lipgloss.Color("#8A5A00"), lipgloss.Color("#FFD75F"))),
		accent: lipgloss.NewStyle().Foreground(c(lipgloss.Color("#1F4FBF"), lipgloss.Color("#87AFFF"))),
		key:    lipgloss.NewStyle().Bold(true),
	}
}

// cut makes a (possibly styled) string exactly w cells: cut with … or
// padded with spaces.
func cut(s string, w int) string {
	if w <= 0 {
		return ""
	}
	sw := ansi.StringWidth(s)
	if sw > w {
		s = ansi.Truncate(s, w, "…")
		sw = ansi.StringWidth(s)
	}
	if sw < w {
		s += strings.Repeat(" ", w-sw)
	}
	return s
}

// clip cuts s to at most w cells, without padding.
func clip(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if len(s) <= w || ansi.StringWidth(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, "…")
}

// spread puts left and right on one line of w cells.
func spread(left, right string, w int) string {
	gap := w - ansi.StringWidth(left) - ansi.StringWidth(right)
	if gap < 1 {
		return clip(left+" "+right, w)
	}
	return left + strings.Repeat(" ", gap) + right
}

// wrapText wraps plain text to w cells (nothing below 10).
func wrapText(s string, w int) string {
	return lipgloss.Wrap(s, max(w, 10), ",.-; /")
}

// wrapIndented wraps one line to w cells, its continuation lines indented
// as it is (two more, past a list's name).
func wrapIndented(s string, w int) []string {
	if len(s) <= w || ansi.StringWidth(s) <= w {
		return []string{s}
	}
	ind := len(s) - len(strings.TrimLeft(s, " "))
	pad := strings.Repeat(" ", min(ind+2, w/2))
	lines := strings.Split(wrapText(strings.TrimLeft(s, " "), w-len(pad)), "\n")
	out := []string{clip(strings.Repeat(" ", ind)+lines[0], w)}
	for _, l := range lines[1:] {
		out = append(out, clip(pad+l, w))
	}
	return out
}
