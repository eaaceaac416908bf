package render

import (
	"image/color"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpcli/mcpcli/demoserver"
)

// The terminal's background reaches every field: huh keeps the first theme
// a field is given, so the model must change that same look.
func TestBackgroundReachesEveryField(t *testing.T) {
	m := newAskModel(roundOf([3]string{"profile", "Tell me about yourself.", demoserver.ProfileSchema}), 0)
	text := m.fields.Slots[0].Input // "Full name", a huh Input
	dark := text.View()
	m.Update(tea.BackgroundColorMsg{Color: color.White})
	if light := text.View(); light == dark {
		t.Errorf("the text field looks the same on a light background as on a dark one:\n%q", light)
	}
}

// TestCutMarksOnce: a text cut to make room for the pointer to the rest
// ends in that pointer's one ellipsis, not in another of its own or of
// the text's before it.
func TestCutMarksOnce(t *testing.T) {
	long := strings.Repeat("word ", 40)
	for _, tc := range []struct {
		name     string
		s        string
		width, n int
	}{
		{"cut inside a line", long + "\n" + long + "\n" + long, 40, 2},
		{"cut where lines end", "one\ntwo\nthree", 40, 2},
		{"the text ends in an ellipsis", "wait for it…\nsecond…\nthird", 40, 1},
		{"clipped by clip first", Clip(long+long, 120), 50, 2},
		{"narrow", long, 12, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := wrapCut(tc.s, tc.width, tc.n)
			lines := strings.Split(got, "\n")
			if len(lines) != tc.n {
				t.Fatalf("wrapCut(%q, %d, %d) has %d lines, want %d:\n%s", tc.s, tc.width, tc.n, len(lines), tc.n, got)
			}
			last := lines[len(lines)-1]
			if c := strings.Count(last, "…"); c != 1 {
				t.Errorf("wrapCut(%q, %d, %d) last line %q has %d ellipses, want 1", tc.s, tc.width, tc.n, last, c)
			}
			for _, l := range lines {
				if Width(l) > max(tc.width, 10) {
					t.Errorf("wrapCut(%q, %d, %d) line %q is wider than %d", tc.s, tc.width, tc.n, l, tc.width)
				}
			}
		})
	}
}

// Without color (NO_COLOR, or a terminal that has none) a placeholder
// must still not pass for a value typed in: it is drawn in italics, which
// survive where colors are dropped.
func TestPlaceholderIsNotTakenForAValueWithoutColor(t *testing.T) {
	schema := `{"type":"object","properties":{"site":{"type":"string","format":"uri"}},"required":["site"]}`
	m := newBenchModel(roundOf([3]string{"site", "Where?", schema})) // sized, the field focused
	var b strings.Builder
	w := &colorprofile.Writer{Forward: &b, Profile: colorprofile.Ascii}
	if _, err := w.WriteString(m.View().Content); err != nil {
		t.Fatal(err)
	}
	drawn := b.String()
	if !strings.Contains(drawn, "example.com/page") {
		t.Fatalf("the empty uri field shows no placeholder:\n%q", drawn)
	}
	if !regexp.MustCompile(`\x1b\[(?:[0-9;]*;)?3m[^\x1b]*example\.com/page`).MatchString(drawn) {
		t.Errorf("without color the uri field's placeholder is not in italics, so it reads as a value:\n%q", drawn)
	}
	// The other inputs with placeholders: a value typed at a prompt and
	// the sampling reply, on both backgrounds.
	for _, dark := range []bool{true, false} {
		if !lookStyles(dark).Blurred.TextInput.Placeholder.GetItalic() {
			t.Errorf("lookStyles(dark=%v): a blurred field's placeholder is not in italics", dark)
		}
		v := newValueModel(Question{})
		v.look.dark = dark
		v.styleInput()
		if !v.input.Styles().Focused.Placeholder.GetItalic() {
			t.Errorf("valueModel (dark=%v): the placeholder is not in italics", dark)
		}
		if !areaStyles(dark).Focused.Placeholder.GetItalic() {
			t.Errorf("areaStyles(%v): the sampling reply's placeholder is not in italics", dark)
		}
	}
}

// The header is drawn once per change, and follows each: the terminal's
// size and background, and a banner.
func TestHeaderFollowsWhatItIsDrawnFrom(t *testing.T) {
	m := newBenchModel(roundOf([3]string{"profile", "Tell me about yourself.", demoserver.ProfileSchema}))
	head := func() string { return strings.Join(m.header(), "\n") }
	dark := head()
	if again := head(); again != dark {
		t.Fatalf("the header drawn twice differs:\n%q\n%q", dark, again)
	}
	m.Update(tea.BackgroundColorMsg{Color: color.White})
	if light := head(); light == dark {
		t.Errorf("the header looks the same on a light background as on a dark one:\n%q", light)
	}
	m.Update(tea.WindowSizeMsg{Width: 40, Height: 24})
	for _, l := range m.header() {
		if Width(l) > 40 {
			t.Errorf("at 40 columns the header has a line %d cells wide: %q", Width(l), l)
		}
	}
	m.banner = "Key guard: the keys typed before this was drawn were dropped"
	if h := ansi.Strip(head()); !strings.Contains(h, "Key guard") {
		t.Errorf("the header does not show the banner set:\n%s", h)
	}
	m.Update(tea.WindowSizeMsg{Width: 20, Height: 5})
	tiny := m.header()
	if len(tiny) != 1 {
		t.Fatalf("at 20x5 the header has %d lines, want the title alone", len(tiny))
	}
	_ = append(tiny, "a line a caller adds") // must not reach the kept header
	if full := m.fullHeader(); len(full) > 1 && full[1] == "a line a caller adds" {
		t.Errorf("a caller's append wrote into the kept header: %q", full)
	}
}
