package render

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
	"charm.land/lipgloss/v2"

	"github.com/mcpcli/mcpcli/schema"
)

// listField is a huh field for single-selects, multi-selects and yes/no
// questions without a default.
//
// huh's own Select and MultiSelect render every option on every frame
// (a 10,000-option select took over 100 ms a keystroke), size themselves
// from all their options unless given a height (and a MultiSelect without
// one hides its options in v2), and give Esc to their filter. This one
// draws only the rows on screen, always fits the height it is given, can
// hold "no value" (an optional field left unset, a required one not yet
// chosen), and says through WantsEsc when Esc is its own.
type listField struct {
	slot    *Slot
	opts    []listOpt
	multi   bool
	boolean bool // values are "true" and "false"

	picked []bool // multi: ticked options
	chosen int    // single: the chosen option

	shown     []int // options passing the filter, in order
	cursor    int   // index into shown
	top       int   // first shown row on screen
	filter    string
	filtering bool
	before    int // single: chosen when filtering began

	title, desc string
	focused     bool
	err         error
	width       int
	height      int // most lines the field may take; 0: ten rows
	theme       huh.Theme
	key         string
}

type listOpt struct {
	label string // sanitized, one line
	lower string // for the filter
	value string
	none  bool // the row meaning "no value"
}

func newListField(s *Slot) *listField {
	f := s.Field
	l := &listField{slot: s, title: s.title, multi: f.Kind == schema.MultiSelect, boolean: f.Kind == schema.Boolean, key: f.Name}
	if !l.multi && f.Default == nil {
		label := unsetLabel
		if f.Required {
			label = chooseLabel
		}
		l.opts = append(l.opts, listOpt{label: label, lower: strings.ToLower(label), none: true})
	}
	if l.boolean {
		l.opts = append(l.opts, listOpt{label: "Yes", lower: "yes", value: "true"}, listOpt{label: "No", lower: "no", value: "false"})
	} else {
		seen := make(map[string]int, len(f.Options))
		for _, o := range f.Options {
			label := Clip(Line(o.Label()), maxOption)
			if label == "" {
				label = `""`
			}
			seen[label]++
			if seen[label] > 1 { // two titles alike: tell them apart by value
				label = Clip(label+" ("+Line(o.Value)+")", maxOption)
			}
			l.opts = append(l.opts, listOpt{label: label, lower: strings.ToLower(label), value: o.Value})
		}
	}
	l.picked = make([]bool, len(l.opts))
	switch d := f.Default.(type) {
	case bool:
		l.chosen = l.index(fmt.Sprint(d))
	case string:
		l.chosen = max(l.index(d), 0)
	case []string:
		for _, v := range d {
			if i := l.index(v); i >= 0 {
				l.picked[i] = true
			}
		}
	}
	l.refilter()
	if !l.multi {
		l.cursor = l.chosen
	}
	return l
}

// set chooses v (a value of the field's kind), as if the person had.
func (l *listField) set(v any) {
	switch d := v.(type) {
	case bool:
		l.chosen = max(l.index(fmt.Sprint(d)), 0)
	case string:
		l.chosen = max(l.index(d), 0)
	case []string:
		for i := range l.picked {
			l.picked[i] = false
		}
		for _, s := range d {
			if i := l.index(s); i >= 0 {
				l.picked[i] = true
			}
		}
	}
	if !l.multi {
		l.cursor = l.chosen
	}
}

func (l *listField) index(value string) int {
	for i, o := range l.opts {
		if !o.none && o.value == value {
			return i
		}
	}
	return -1
}

// value is the typed value, nil when unset, or why it will not do.
func (l *listField) value() (any, error) {
	f := l.slot.Field
	if l.multi {
		var out []string
		for i, p := range l.picked {
			if p {
				out = append(out, l.opts[i].value)
			}
		}
		if out == nil {
			if f.Default != nil {
				// Cleared on purpose: [] is sent, so that the server's
				// default does not come back; where [] is not allowed, the
				// default is what goes (and the review says so).
				if f.Check([]string{}) == nil {
					return []string{}, nil
				}
				return nil, nil
			}
			if !f.Required {
				return nil, nil
			}
			out = []string{}
		}
		if err := f.Check(out); err != nil {
			return nil, err
		}
		return out, nil
	}
	o := l.opts[l.chosen]
	switch {
	case o.none && f.Required && l.boolean:
		return nil, errors.New("is required: choose yes or no")
	case o.none && f.Required:
		return nil, errors.New("is required: choose one")
	case o.none:
		return nil, nil
	case l.boolean:
		return o.value == "true", nil
	}
	return o.value, nil
}

// WantsEsc reports whether Esc belongs to the field (to leave or clear
// its filter) rather than to the form (to cancel).
func (l *listField) WantsEsc() bool { return l.filtering || l.filter != "" }

// Filtering reports whether keys are going to the filter.
func (l *listField) Filtering() bool { return l.filtering }

func (l *listField) refilter() {
	l.shown = l.shown[:0]
	q := strings.ToLower(l.filter)
	for i, o := range l.opts {
		if q == "" || !o.none && strings.Contains(o.lower, q) {
			l.shown = append(l.shown, i)
		}
	}
	l.cursor, l.top = 0, 0
	if !l.multi && len(l.shown) > 0 {
		if q == "" {
			l.cursor = max(l.pos(l.chosen), 0)
		} else {
			l.chosen = l.shown[0]
		}
	}
	l.scroll()
}

// pos is where option i is among the shown rows, or -1.
func (l *listField) pos(i int) int {
	for p, j := range l.shown {
		if j == i {
			return p
		}
	}
	return -1
}

func (l *listField) move(by int) {
	if len(l.shown) == 0 {
		return
	}
	l.cursor = min(max(l.cursor+by, 0), len(l.shown)-1)
	if !l.multi {
		l.chosen = l.shown[l.cursor]
	}
	l.scroll()
}

// scroll keeps the cursor on screen.
func (l *listField) scroll() {
	rows := l.rows()
	if l.cursor < l.top {
		l.top = l.cursor
	}
	if l.cursor >= l.top+rows {
		l.top = l.cursor - rows + 1
	}
	l.top = max(0, min(l.top, len(l.shown)-rows))
}

// headerLines is the title's and description's height.
func (l *listField) headerLines() int {
	n := lipgloss.Height(l.titleText())
	if l.desc != "" {
		n += lipgloss.Height(l.desc)
	}
	return n
}

func (l *listField) titleText() string {
	return lipgloss.Wrap(l.title, max(l.width-2, minInner), ",.-; ")
}

// space is how many lines the rows and the info line may take.
func (l *listField) space() int {
	if l.height <= 0 {
		return min(len(l.opts), 10) + 1
	}
	return max(l.height-l.headerLines(), 2)
}

// info reports whether the field shows its info line (position, filter).
func (l *listField) info() bool {
	return len(l.opts) > l.space() || l.filtering || l.filter != "" || l.height <= 0 && len(l.opts) > 10
}

// rows is how many options are on screen at once.
func (l *listField) rows() int {
	n := l.space()
	if l.info() {
		n--
	}
	return max(min(n, len(l.opts)), 1)
}

func (l *listField) toggle() {
	if len(l.shown) == 0 {
		return
	}
	i := l.shown[l.cursor]
	l.picked[i] = !l.picked[i]
}

// next validates and moves on, as huh's fields do.
func (l *listField) next() tea.Cmd {
	l.filtering = false
	if !l.multi && l.filter != "" {
		// The filter found the choice; it has done its job.
		l.filter = ""
		l.refilter()
	}
	if _, err := l.value(); err != nil {
		l.err = err
		return nil
	}
	return huh.NextField
}

// Update implements huh.Field.
func (l *listField) Update(msg tea.Msg) (huh.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.PasteMsg:
		if l.filtering {
			l.filter += Line(msg.Content)
			l.refilter()
		}
	case tea.KeyPressMsg:
		l.err = nil
		if l.filtering {
			return l, l.filterKey(msg)
		}
		switch msg.String() {
		case "up", "k", "ctrl+p":
			l.move(-1)
		case "down", "j", "ctrl+n":
			l.move(1)
		case "pgup", "ctrl+u":
			l.move(-l.rows())
		case "pgdown", "ctrl+d":
			l.move(l.rows())
		case "home", "g":
			l.move(-len(l.shown))
		case "end", "G":
			l.move(len(l.shown))
		case "/":
			l.filtering = true
			l.before = l.chosen
			l.scroll()
		case "esc":
			if l.filter != "" {
				l.clearFilter()
			}
		case "left", "h":
			if l.boolean {
				l.move(-1)
			}
		case "right", "l":
			if l.boolean {
				l.move(1)
			}
		case "space", "x":
			switch {
			case l.multi:
				l.toggle()
			case l.boolean:
				// Space flips a yes/no, as it does with a default.
				if l.index("true") == l.chosen {
					l.set(false)
				} else {
					l.set(true)
				}
			}
		case "enter", "tab":
			return l, l.next()
		case "shift+tab":
			return l, huh.PrevField
		}
	}
	return l, nil
}

func (l *listField) filterKey(msg tea.KeyPressMsg) tea.Cmd {
	switch msg.String() {
	case "esc":
		l.clearFilter()
	case "enter":
		if l.multi {
			l.filtering = false
			return nil
		}
		return l.next()
	case "tab":
		return l.next()
	case "up", "ctrl+p":
		l.move(-1)
	case "down", "ctrl+n":
		l.move(1)
	case "space":
		if l.multi {
			l.toggle()
		} else {
			l.filter += " "
			l.refilter()
		}
	case "backspace":
		if r := []rune(l.filter); len(r) > 0 {
			l.filter = string(r[:len(r)-1])
			l.refilter()
		}
	case "ctrl+u":
		l.filter = ""
		l.refilter()
	default:
		if msg.Text != "" && msg.Mod&(tea.ModCtrl|tea.ModAlt) == 0 && printable(msg.Text) {
			l.filter += msg.Text
			l.refilter()
		}
	}
	return nil
}

func printable(s string) bool {
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return false
		}
	}
	return true
}

// clearFilter leaves the filter and puts back what was chosen before it.
func (l *listField) clearFilter() {
	wasFiltering := l.filtering || l.filter != ""
	l.filtering = false
	l.filter = ""
	if wasFiltering && !l.multi {
		l.chosen = l.before
	}
	l.refilter()
}

// View implements huh.Field.
func (l *listField) View() string {
	st := l.styles()
	var b strings.Builder
	b.WriteString(st.Title.Render(l.titleText()))
	if l.err != nil {
		b.WriteString(st.ErrorIndicator.String())
	}
	if l.desc != "" {
		b.WriteString("\n")
		b.WriteString(st.Description.Render(l.desc))
	}
	inner := max(l.width-st.Base.GetHorizontalFrameSize(), minInner)
	if l.info() {
		b.WriteString("\n")
		b.WriteString(truncate(l.infoLine(st), inner))
	}
	rows := l.rows()
	for r := 0; r < rows; r++ {
		b.WriteString("\n")
		p := l.top + r
		if p >= len(l.shown) {
			continue
		}
		b.WriteString(l.row(st, p, inner))
	}
	return st.Base.Width(l.width).Render(b.String())
}

func (l *listField) infoLine(st *huh.FieldStyles) string {
	n := 0
	for _, i := range l.shown {
		if !l.opts[i].none {
			n++ // "(not set)" is not one of the server's choices
		}
	}
	total := len(l.opts)
	if len(l.opts) > 0 && l.opts[0].none {
		total--
	}
	switch {
	case l.filtering:
		return st.TextInput.Prompt.Render("/") + Line(l.filter) + "█" + st.Description.Render(fmt.Sprintf("  %d of %d match", n, total))
	case l.filter != "":
		return st.Description.Render(fmt.Sprintf("/%s  %d of %d match · esc clears", Line(l.filter), n, total))
	case n == 0:
		return ""
	}
	last := min(l.top+l.rows(), n)
	return st.Description.Render(fmt.Sprintf("%d–%d of %d · / to filter", l.top+1, last, n))
}

func (l *listField) row(st *huh.FieldStyles, p, width int) string {
	o := l.opts[l.shown[p]]
	here := l.focused && p == l.cursor
	if !l.multi {
		here = l.shown[p] == l.chosen
		mark := "  "
		if here {
			mark = st.SelectSelector.String()
		}
		label := truncate(o.label, width-Width(mark))
		if here {
			return mark + st.SelectedOption.Render(label)
		}
		return mark + st.UnselectedOption.Render(label)
	}
	mark := "  "
	if here {
		mark = st.MultiSelectSelector.String()
	}
	prefix := st.UnselectedPrefix.String()
	if l.picked[l.shown[p]] {
		prefix = st.SelectedPrefix.String()
	}
	label := truncate(o.label, width-Width(mark+prefix))
	if l.picked[l.shown[p]] {
		return mark + prefix + st.SelectedOption.Render(label)
	}
	return mark + prefix + st.UnselectedOption.Render(label)
}

func (l *listField) styles() *huh.FieldStyles {
	theme := l.theme
	if theme == nil {
		theme = huh.ThemeFunc(huh.ThemeCharm)
	}
	s := theme.Theme(true)
	if l.focused {
		return &s.Focused
	}
	return &s.Blurred
}

// The rest of huh.Field.

func (l *listField) Init() tea.Cmd { return nil }
func (l *listField) Focus() tea.Cmd {
	l.focused = true
	if len(l.shown) > 0 && l.multi {
		l.scroll()
	}
	return nil
}

func (l *listField) Blur() tea.Cmd {
	l.focused = false
	l.filtering = false
	_, l.err = l.value()
	return nil
}
func (l *listField) Error() error { return l.err }
func (l *listField) Run() error   { return huh.Run(l) }
func (l *listField) RunAccessible(io.Writer, io.Reader) error {
	return errors.New("mcpcli asks in accessible mode with its own line prompts")
}
func (l *listField) Skip() bool { return false }
func (l *listField) Zoom() bool { return false }
func (l *listField) KeyBinds() []key.Binding {
	return nil
}
func (l *listField) WithTheme(t huh.Theme) huh.Field {
	if l.theme == nil {
		l.theme = t
	}
	return l
}
func (l *listField) WithKeyMap(*huh.KeyMap) huh.Field { return l }
func (l *listField) WithWidth(w int) huh.Field {
	l.width = w
	return l
}
func (l *listField) WithHeight(h int) huh.Field {
	l.height = h
	l.scroll()
	return l
}
func (l *listField) WithPosition(huh.FieldPosition) huh.Field { return l }
func (l *listField) GetKey() string                           { return l.key }
func (l *listField) GetValue() any {
	v, _ := l.value()
	return v
}
