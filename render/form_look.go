package render

import (
	"strings"
	"unicode/utf8"

	"charm.land/huh/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpcli/mcpcli/internal/lazy"
)

// look is the forms' theme. huh asks a field's theme for its styles on
// every render (once per option of a select), and its themes build every
// style anew each time; look's are built once per background, the first
// time a form is drawn on it, and shared by every form (huh and the forms
// only read them).
//
// Its colors are mcpcli's own, one set per background (huh v2.0.3's charm
// theme swaps its light and dark values): every text a form draws has at
// least 4.5:1 contrast on a dark background (black to #262626) and on a
// light one (white to #f0f0f0). TestPaletteContrast checks them.
//
// It also adds what the charm theme shows only in color: the chosen button
// of a yes/no is marked ●, so a person on a monochrome terminal (and a
// tmux capture) sees which one is on.
type look struct {
	dark bool
}

func newLook() *look {
	return &look{dark: true}
}

// The styles of each background, made when a form first needs them: a
// run draws on one background. Each set is 50 KB; a form built both sets,
// twice, for its fields and for its model.
var (
	lightStyles = lazy.Value[*huh.Styles]{New: func() *huh.Styles { return lookStyles(false) }}
	nightStyles = lazy.Value[*huh.Styles]{New: func() *huh.Styles { return lookStyles(true) }}
)

// Palette is one background's colors, as hex.
type Palette struct {
	Text        string // options, typed text
	Dim         string // descriptions, hints, footers, rules
	Placeholder string // the grey hint in an empty input (drawn in italics too, so that without color it is not taken for a value)
	Title       string // a field's title
	Accent      string // selectors, the input prompt
	Good        string // chosen options
	Error       string
	Warn        string
	ButtonText  string // the focused button: ButtonText on Button
	Button      string
	OffText     string // the other buttons: OffText on Off
	Off         string
}

// Palettes for dark and light backgrounds.
var (
	DarkPalette = Palette{
		Text: "#D0D0D0", Dim: "#A8A8A8", Placeholder: "#949494", Title: "#8F8CFA", Accent: "#F780E2",
		Good: "#02BF87", Error: "#FF7A93", Warn: "#E5C07B",
		ButtonText: "#FFFFFF", Button: "#B5179E", OffText: "#E4E4E4", Off: "#444444",
	}
	LightPalette = Palette{
		Text: "#303030", Dim: "#5F5F5F", Placeholder: "#6C6C6C", Title: "#5A56E0", Accent: "#B5179E",
		Good: "#007A55", Error: "#C8102E", Warn: "#8A6100",
		ButtonText: "#FFFFFF", Button: "#B5179E", OffText: "#1C1C1C", Off: "#D0D0D0",
	}
)

// PaletteFor is the palette for a dark or a light background.
func PaletteFor(dark bool) Palette {
	if dark {
		return DarkPalette
	}
	return LightPalette
}

// chrome is the styles of the form's own parts: header, hints, review,
// buttons.
type chrome struct {
	Title, Dim, Error, Warn, Cursor, Rule, Focused, Button lipgloss.Style
}

func chromeFor(p Palette) chrome {
	c := lipgloss.Color
	return chrome{
		Title:   lipgloss.NewStyle().Bold(true),
		Dim:     lipgloss.NewStyle().Foreground(c(p.Dim)),
		Error:   lipgloss.NewStyle().Foreground(c(p.Error)),
		Warn:    lipgloss.NewStyle().Foreground(c(p.Warn)),
		Cursor:  lipgloss.NewStyle().Bold(true),
		Rule:    lipgloss.NewStyle().Foreground(c(p.Dim)),
		Focused: lipgloss.NewStyle().Foreground(c(p.ButtonText)).Background(c(p.Button)).Bold(true),
		Button:  lipgloss.NewStyle().Foreground(c(p.OffText)).Background(c(p.Off)),
	}
}

// The two looks' chrome, made when a form is first drawn, not at every
// start of mcpcli.
var (
	darkChrome  = lazy.Value[*chrome]{New: func() *chrome { c := chromeFor(DarkPalette); return &c }}
	lightChrome = lazy.Value[*chrome]{New: func() *chrome { c := chromeFor(LightPalette); return &c }}
)

// chrome is the look's styles for the form's own parts.
func (l *look) chrome() *chrome {
	if l.dark {
		return darkChrome.Get()
	}
	return lightChrome.Get()
}

func lookStyles(dark bool) *huh.Styles {
	st := huh.ThemeBase(dark)
	p := PaletteFor(dark)
	c := lipgloss.Color
	fg := func(hex string) lipgloss.Style { return lipgloss.NewStyle().Foreground(c(hex)) }
	for _, fs := range []*huh.FieldStyles{&st.Focused, &st.Blurred} {
		fs.Title = fg(p.Title).Bold(true)
		fs.NoteTitle = fg(p.Title).Bold(true).MarginBottom(1)
		fs.Directory = fg(p.Title)
		fs.Description = fg(p.Dim)
		fs.ErrorIndicator = fg(p.Error).SetString(" ✗")
		fs.ErrorMessage = fg(p.Error)
		fs.SelectSelector = fg(p.Accent).SetString("> ")
		fs.NextIndicator = fg(p.Accent)
		fs.PrevIndicator = fg(p.Accent)
		fs.Option = fg(p.Text)
		fs.MultiSelectSelector = fg(p.Accent).SetString("> ")
		fs.SelectedOption = fg(p.Good)
		fs.SelectedPrefix = fg(p.Good).SetString("[x] ")
		fs.UnselectedOption = fg(p.Text)
		fs.UnselectedPrefix = fg(p.Dim).SetString("[ ] ")
		fs.FocusedButton = fs.FocusedButton.Foreground(c(p.ButtonText)).Background(c(p.Button)).SetString("●")
		fs.BlurredButton = fs.BlurredButton.Foreground(c(p.OffText)).Background(c(p.Off)).SetString("○")
		fs.Next = fs.FocusedButton
		fs.TextInput.Cursor = fg(p.Good)
		fs.TextInput.Placeholder = fg(p.Placeholder).Italic(true)
		fs.TextInput.Prompt = fg(p.Accent)
		fs.TextInput.Text = fg(p.Text)
	}
	st.Blurred.NextIndicator = lipgloss.NewStyle()
	st.Blurred.PrevIndicator = lipgloss.NewStyle()
	st.Group.Title = st.Focused.Title
	st.Group.Description = st.Focused.Description
	return st
}

// Theme implements huh.Theme. The background a field thinks it is on is
// ignored: the form model tells look once, for every field.
func (l *look) Theme(bool) *huh.Styles { return l.styles() }

func (l *look) styles() *huh.Styles {
	if l.dark {
		return nightStyles.Get()
	}
	return lightStyles.Get()
}

// button draws a button; the focused one is reversed-looking and marked ▸,
// so it shows without color too.
func (c *chrome) button(label string, focused bool) string {
	if focused {
		return "▸" + c.Focused.Render("[ "+label+" ]")
	}
	return " " + c.Button.Render("[ "+label+" ]")
}

// truncate cuts a (possibly styled) line to width cells, as Width
// measures them: the one measure the forms pad and cut by. (ansi.Truncate
// alone counts some sequences, like a keycap emoji "1️⃣", narrower than
// StringWidth does, and a pad computed from the two went negative.)
func truncate(s string, width int) string {
	if width <= 0 {
		return ""
	}
	if Width(s) <= width {
		return s
	}
	for w := width; w > 0; w-- {
		if t := ansi.Truncate(s, w, "…"); Width(t) <= width {
			return t
		}
	}
	return ""
}

// cutBare is s cut to width cells with no mark of its own, and without
// the spaces and ellipses it then ends in: for a caller that adds the one
// mark of the cut (" … (ctrl+o: …)"), so that a cut never shows two.
func cutBare(s string, width int) string {
	if width <= 0 {
		return ""
	}
	return strings.TrimRight(ansi.Truncate(s, width, ""), " …")
}

// head is a plain (unstyled) s cut, at a character boundary, to a prefix
// long enough to fill cells cells and more: what truncate needs to see of
// a value that may be a megabyte long, so that drawing it costs what the
// screen shows, not what the value holds.
func head(s string, cells int) string {
	n := max(cells, 0)*16 + 256
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// Width is how many cells a (possibly styled) string takes on a terminal.
func Width(s string) int { return ansi.StringWidth(s) }

// pad is s followed by spaces up to width cells (none when it is wider).
func pad(s string, width int) string {
	n := width - Width(s)
	if n <= 0 {
		return s
	}
	p := s + strings.Repeat(" ", n)
	// A sign that is written before what follows it (a prepended
	// concatenation mark: Unicode's Prepend) makes one cluster with the
	// first space: one space more.
	if w := Width(p); w < width {
		p += strings.Repeat(" ", width-w)
	}
	return p
}

// fit makes content exactly fit a width×height screen: each line cut to
// width, lines past height dropped.
func fit(content string, width, height int) string {
	lines := strings.Split(content, "\n")
	if len(lines) > height {
		lines = lines[:height]
	}
	for i, l := range lines {
		if Width(l) > width {
			lines[i] = truncate(l, width)
		}
	}
	return strings.Join(lines, "\n")
}

// spread puts left and right on one line of width cells.
func spread(left, right string, width int) string {
	gap := width - Width(left) - Width(right)
	if gap < 2 {
		return truncate(left+"  "+right, width)
	}
	return left + strings.Repeat(" ", gap) + right
}
