package render

// The one pager key map: every view that scrolls (a form's full text, the
// URL consent screen, the shell's lists, results, timelines, pager and
// history) moves by the same keys.

// Page keys, as a help line lists them.
var (
	LineUpKeys   = []string{"up", "k"}
	LineDownKeys = []string{"down", "j"}
	PageUpKeys   = []string{"pgup", "b"}
	PageDownKeys = []string{"pgdown", "f", "space"}
	TopKeys      = []string{"home", "g"}
	EndKeys      = []string{"end", "G"}
)

// Scroll is how far key moves a view that shows rows lines of total: a
// line (up, k / down, j), a page (pgup, b / pgdown, f, space), or to the
// top or the end (home, g / end, G), as a number of lines to add to the
// position (which the view then bounds). ok is false for another key.
func Scroll(key string, rows, total int) (by int, ok bool) {
	rows = max(rows, 1)
	switch key {
	case "up", "k":
		return -1, true
	case "down", "j":
		return 1, true
	case "pgup", "b":
		return -rows, true
	case "pgdown", "f", "space":
		return rows, true
	case "home", "g":
		return -total - rows, true
	case "end", "G":
		return total + rows, true
	}
	return 0, false
}
