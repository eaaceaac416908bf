package render

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Hang wraps each line of s to width cells at spaces, never inside a word
// that fits on a line: the lines a line becomes keep its indent, and those
// after the first are indented hang columns more (under "[3/7] " for a
// heading, under "→ " for a round trip). A word longer than a whole line
// is cut. A width under 20 (0: not a terminal) leaves s as it is, for the
// terminal, or the file, to take whole.
func Hang(s string, width, hang int) string {
	if width < 20 {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = hangLine(l, width, hang)
	}
	return strings.Join(lines, "\n")
}

func hangLine(l string, width, hang int) string {
	if ansi.StringWidth(l) <= width {
		return l
	}
	body := strings.TrimLeft(l, " ")
	lead := l[:len(l)-len(body)]
	next := lead + strings.Repeat(" ", hang)
	if ansi.StringWidth(next) > width/2 {
		next = lead // no room to hang: continue under the text
	}
	var b strings.Builder
	b.WriteString(lead)
	col := ansi.StringWidth(lead)
	start := col // the column a line's text starts at
	for _, w := range strings.Fields(body) {
		ww := ansi.StringWidth(w)
		switch {
		case col == start:
		case col+1+ww <= width:
			b.WriteByte(' ')
			col++
		default:
			b.WriteByte('\n')
			b.WriteString(next)
			col = ansi.StringWidth(next)
			start = col
		}
		for col+ww > width && ww > 0 {
			// Longer than the room left on a line of its own: cut it.
			part := ansi.Truncate(w, width-col, "")
			b.WriteString(part)
			w = w[len(part):]
			ww = ansi.StringWidth(w)
			b.WriteByte('\n')
			b.WriteString(next)
			col = ansi.StringWidth(next)
			start = col
		}
		b.WriteString(w)
		col += ww
	}
	return b.String()
}
