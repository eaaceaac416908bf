package render

import (
	"io"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
	"charm.land/lipgloss/v2"
)

// lazyText is a huh.Text made the first time it is focused or edited. A
// text area costs about half a megabyte to make (bubbles' textarea
// reserves room for 10,000 lines, twice over when its value is set), so a
// form of many JSON fields spent most of its opening making text areas
// nobody had focused yet. Until then it draws itself as huh's blurred text
// area does, as the blurred inputs are drawn (Slot.View).
type lazyText struct {
	slot *Slot
	t    *huh.Text

	theme    huh.Theme
	keys     *huh.KeyMap
	width    int
	height   int
	pos      huh.FieldPosition
	posSet   bool
	desc     string
	descSet  bool
	heightOK bool
}

func newLazyText(s *Slot) *lazyText { return &lazyText{slot: s} }

// text is the huh.Text, made now if it was not.
func (z *lazyText) text() *huh.Text {
	if z.t != nil {
		return z.t
	}
	s := z.slot
	t := huh.NewText().Title(s.title).Lines(textLines).ExternalEditor(false).Value(&s.text).CharLimit(s.limit)
	t.Validate(s.checkText)
	t.Placeholder(s.placeholder)
	if z.theme != nil {
		t.WithTheme(z.theme)
	}
	if z.keys != nil {
		t.WithKeyMap(z.keys)
	}
	if z.posSet {
		t.WithPosition(z.pos)
	}
	if z.width > 0 {
		t.WithWidth(z.width)
	}
	if z.heightOK {
		t.WithHeight(z.height)
	}
	if z.descSet {
		t.Description(z.desc)
	}
	t.Init()
	z.t = t
	return t
}

// rebind shows the slot's text again after it changed from outside.
func (z *lazyText) rebind() {
	if z.t != nil {
		z.t.Value(&z.slot.text)
	}
}

// Description sets the text under the title.
func (z *lazyText) Description(d string) {
	z.desc, z.descSet = d, true
	if z.t != nil {
		z.t.Description(d)
	}
}

func (z *lazyText) Init() tea.Cmd { return nil }

func (z *lazyText) Update(msg tea.Msg) (huh.Model, tea.Cmd) {
	_, cmd := z.text().Update(msg)
	return z, cmd
}

// View is the text area; not made yet, it is drawn as a blurred one:
// title, description, and its first lines (or the placeholder).
func (z *lazyText) View() string {
	if z.t != nil {
		return z.t.View()
	}
	s := z.slot
	l := z.look()
	st := &l.styles().Blurred
	width := z.width - st.Base.GetHorizontalFrameSize()
	var b strings.Builder
	b.WriteString(st.Title.Render(lipgloss.Wrap(s.title, max(width, minInner), "")))
	if z.desc != "" {
		b.WriteByte('\n')
		b.WriteString(st.Description.Render(z.desc))
	}
	text, style := s.text, st.TextInput.Text
	if text == "" {
		text, style = s.placeholder, st.TextInput.Placeholder
	}
	var rows []string
	// Only what shows is drawn: a long value costs its first rows.
	for _, l := range strings.SplitN(head(text, width*textLines), "\n", textLines+1) {
		rows = append(rows, strings.Split(lipgloss.Wrap(Line(l), max(width, 1), ""), "\n")...)
	}
	for i := 0; i < textLines; i++ {
		b.WriteByte('\n')
		if i < len(rows) {
			b.WriteString(style.Render(truncate(rows[i], width)))
		}
	}
	return st.Base.Width(z.width).Render(b.String())
}

// look is the theme the form gave, as mcpcli's look.
func (z *lazyText) look() *look {
	if l, ok := z.theme.(*look); ok {
		return l
	}
	return newLook()
}

func (z *lazyText) Focus() tea.Cmd { return z.text().Focus() }

func (z *lazyText) Blur() tea.Cmd {
	if z.t == nil {
		return nil
	}
	return z.t.Blur()
}

func (z *lazyText) Error() error {
	if z.t == nil {
		return nil
	}
	return z.t.Error()
}

func (z *lazyText) Run() error { return z.text().Run() }
func (z *lazyText) RunAccessible(w io.Writer, r io.Reader) error {
	return z.text().RunAccessible(w, r)
}
func (z *lazyText) Skip() bool              { return false }
func (z *lazyText) Zoom() bool              { return false }
func (z *lazyText) KeyBinds() []key.Binding { return z.text().KeyBinds() }

func (z *lazyText) WithTheme(t huh.Theme) huh.Field {
	if z.theme == nil {
		z.theme = t
	}
	if z.t != nil {
		z.t.WithTheme(t)
	}
	return z
}

func (z *lazyText) WithKeyMap(k *huh.KeyMap) huh.Field {
	z.keys = k
	if z.t != nil {
		z.t.WithKeyMap(k)
	}
	return z
}

func (z *lazyText) WithWidth(w int) huh.Field {
	z.width = w
	if z.t != nil {
		z.t.WithWidth(w)
	}
	return z
}

func (z *lazyText) WithHeight(h int) huh.Field {
	z.height, z.heightOK = h, true
	if z.t != nil {
		z.t.WithHeight(h)
	}
	return z
}

func (z *lazyText) WithPosition(p huh.FieldPosition) huh.Field {
	z.pos, z.posSet = p, true
	if z.t != nil {
		z.t.WithPosition(p)
	}
	return z
}

func (z *lazyText) GetKey() string { return "" }
func (z *lazyText) GetValue() any  { return z.slot.text }
