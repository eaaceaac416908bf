package tui

import (
	"strings"

	"github.com/mcpcli/mcpcli/render"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// styles are the session's looks for one background, in the forms'
// palette (render.PaletteFor): every text has at least 4.5:1 contrast on a
// dark and on a light terminal, and none is faint (its colour would be the
// terminal's to choose). Nothing depends on colour alone: the selected row
// is reversed and marked ▸, errors say so in words, so that NO_COLOR
// (bubbletea drops the colours) and a monochrome capture read the same.
type styles struct {
	title, dim, rule, cursor, tabOn, err, ok, warn, accent lipgloss.Style
}

func newStyles(dark bool) *styles {
	p := render.PaletteFor(dark)
	fg := func(hex string) lipgloss.Style { return lipgloss.NewStyle().Foreground(lipgloss.Color(hex)) }
	return &styles{
		title:  lipgloss.NewStyle().Bold(true),
		dim:    fg(p.Dim),
		rule:   fg(p.Dim),
		cursor: lipgloss.NewStyle().Reverse(true),
		tabOn:  lipgloss.NewStyle().Bold(true).Reverse(true),
		err:    fg(p.Error),
		ok:     fg(p.Good),
		warn:   fg(p.Warn),
		accent: fg(p.Title),
	}
}

// plainStyles are the looks before the terminal has said what its
// background is: the terminal's own colours, bold and reverse only, so
// that no first frame is drawn in colours meant for the other background.
func plainStyles() *styles {
	plain := lipgloss.NewStyle()
	return &styles{
		title: lipgloss.NewStyle().Bold(true), dim: plain, rule: plain,
		cursor: lipgloss.NewStyle().Reverse(true), tabOn: lipgloss.NewStyle().Bold(true).Reverse(true),
		err: plain, ok: plain, warn: plain, accent: plain,
	}
}

// selected draws a row under the cursor: reversed, in the terminal's own
// colours (what it held in colour would not read reversed).
func (s *styles) selected(row string) string { return s.cursor.Render(ansi.Strip(row)) }

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

// clipMiddle cuts s to w cells in its middle: a URI keeps its scheme and
// its last segment, where URIs of one server differ.
func clipMiddle(s string, w int) string {
	sw := ansi.StringWidth(s)
	if w <= 0 {
		return ""
	}
	if sw <= w {
		return s
	}
	if w < 4 {
		return clip(s, w)
	}
	head := (w - 1) / 3
	tail := w - 1 - head
	return ansi.Truncate(s, head, "") + "…" + ansi.TruncateLeft(s, sw-tail, "")
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
