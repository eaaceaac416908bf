//go:build unix

package e2e

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpcli/mcpcli/render"
)

// Every text the forms draw is readable: at least 4.5:1 contrast (WCAG AA)
// against the terminal's background, dark and light, checked on the
// coloured capture (capture-pane -e) of each kind of screen. Faint text is
// refused outright: its colour is the terminal's to choose.
func TestTUIContrast(t *testing.T) {
	bin := mcpcli(t)
	for _, bg := range []struct{ name, style, fg, bg string }{
		{"dark", "bg=#000000,fg=#d0d0d0", "#d0d0d0", "#000000"},
		{"light", "bg=#ffffff,fg=#000000", "#000000", "#ffffff"},
	} {
		t.Run(bg.name, func(t *testing.T) {
			tm := startStyled(t, bg.style, nil, "", bin, "call", "edit_profile", "--", bin, "demo-server")
			// The screen is drawn before the terminal has said what its
			// background is (a busy machine makes that visible): what
			// must be readable is the screen once it has.
			check := func(where string) {
				t.Helper()
				var low []string
				for deadline := time.Now().Add(3 * time.Second); ; time.Sleep(50 * time.Millisecond) {
					low = lowContrast(tm.tmux("capture-pane", "-e", "-p", "-t", "main"), bg.fg, bg.bg)
					if len(low) == 0 || time.Now().After(deadline) {
						break
					}
				}
				for _, p := range low {
					t.Errorf("%s background, %s: %s", bg.name, where, p)
				}
			}
			tm.waitFor("Full name *", "field 1/14")
			check("first page")
			tm.keys("A", "d", "a", "Tab", "Tab", "Tab", "Tab", "Tab", "Tab", "Tab", "Tab")
			tm.waitFor("field 9/14")
			check("a select")
			tm.keys("Tab", "Tab", "Tab")
			tm.waitFor("field 12/14")
			check("a multi-select")
			tm.keys("C-s")
			tm.waitFor("Review")
			check("the review")
			tm.keys("Escape")
			tm.exited()

			tm = startStyled(t, bg.style, nil, "", bin, "call", "connect_account", "--", bin, "demo-server")
			tm.waitFor("o open in browser")
			check("the URL consent screen")
			tm.keys("Escape")
			tm.exited()
		})
	}
}

// lowContrast lists the runs of text in an ANSI capture whose colours
// read at less than 4.5:1, given the terminal's default colours.
func lowContrast(capture, defFg, defBg string) []string {
	var out []string
	seen := map[string]bool{}
	for row, line := range strings.Split(capture, "\n") {
		st := sgrState{}
		for i := 0; i < len(line); {
			if line[i] == 0x1b && i+1 < len(line) && line[i+1] == '[' {
				j := i + 2
				for j < len(line) && (line[j] >= '0' && line[j] <= '9' || line[j] == ';') {
					j++
				}
				if j < len(line) && line[j] == 'm' {
					st.apply(line[i+2 : j])
				}
				i = j + 1
				continue
			}
			r, size := rune(line[i]), 1
			if r >= 0x80 {
				r, size = []rune(line[i:])[0], len(string([]rune(line[i:])[0]))
			}
			i += size
			if r == ' ' || strings.ContainsRune("─┃│", r) {
				continue // no text, or a rule: drawn, not read
			}
			fg, bgc := st.fg, st.bg
			if fg == "" {
				fg = defFg
			}
			if bgc == "" {
				bgc = defBg
			}
			if st.reverse {
				fg, bgc = bgc, fg
			}
			var problem string
			switch {
			case st.faint:
				problem = "faint text"
			case render.Contrast(fg, bgc) < 4.5:
				problem = fmt.Sprintf("%s on %s (%.2f:1)", fg, bgc, render.Contrast(fg, bgc))
			}
			if problem != "" && !seen[problem] {
				seen[problem] = true
				out = append(out, fmt.Sprintf("row %d, %q: %s", row+1, string(r), problem))
			}
		}
	}
	return out
}

// sgrState is the colours and attributes an SGR sequence leaves.
type sgrState struct {
	fg, bg         string // "#rrggbb", or "" for the default
	faint, reverse bool
}

func (s *sgrState) apply(params string) {
	ps := strings.Split(params, ";")
	if params == "" {
		ps = []string{"0"}
	}
	for k := 0; k < len(ps); k++ {
		n, _ := strconv.Atoi(ps[k])
		switch {
		case n == 0:
			*s = sgrState{}
		case n == 2:
			s.faint = true
		case n == 22:
			s.faint = false
		case n == 7:
			s.reverse = true
		case n == 27:
			s.reverse = false
		case n >= 30 && n <= 37:
			s.fg = xterm256(n - 30)
		case n >= 90 && n <= 97:
			s.fg = xterm256(n - 90 + 8)
		case n == 39:
			s.fg = ""
		case n >= 40 && n <= 47:
			s.bg = xterm256(n - 40)
		case n >= 100 && n <= 107:
			s.bg = xterm256(n - 100 + 8)
		case n == 49:
			s.bg = ""
		case (n == 38 || n == 48) && k+2 < len(ps) && ps[k+1] == "5":
			c, _ := strconv.Atoi(ps[k+2])
			if n == 38 {
				s.fg = xterm256(c)
			} else {
				s.bg = xterm256(c)
			}
			k += 2
		case (n == 38 || n == 48) && k+4 < len(ps) && ps[k+1] == "2":
			r, _ := strconv.Atoi(ps[k+2])
			g, _ := strconv.Atoi(ps[k+3])
			b, _ := strconv.Atoi(ps[k+4])
			hex := fmt.Sprintf("#%02x%02x%02x", r, g, b)
			if n == 38 {
				s.fg = hex
			} else {
				s.bg = hex
			}
			k += 4
		}
	}
}

// xterm256 is the RGB of one of xterm's 256 colours.
func xterm256(n int) string {
	basic := []string{"#000000", "#cd0000", "#00cd00", "#cdcd00", "#0000ee", "#cd00cd", "#00cdcd", "#e5e5e5",
		"#7f7f7f", "#ff0000", "#00ff00", "#ffff00", "#5c5cff", "#ff00ff", "#00ffff", "#ffffff"}
	switch {
	case n < 16:
		return basic[n]
	case n < 232:
		n -= 16
		level := func(v int) int {
			if v == 0 {
				return 0
			}
			return 55 + 40*v
		}
		return fmt.Sprintf("#%02x%02x%02x", level(n/36), level(n/6%6), level(n%6))
	}
	g := 8 + 10*(n-232)
	return fmt.Sprintf("#%02x%02x%02x", g, g, g)
}
