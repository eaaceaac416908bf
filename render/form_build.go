package render

import (
	"encoding/json"
	"errors"
	"strings"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpcli/mcpcli/schema"
)

// FormFields is a requestedSchema turned into huh fields, with a way to
// read the typed values back. Building it is apart from running it: a test
// can build one, send keys to its fields, and read the content that accept
// would send.
type FormFields struct {
	Schema *schema.Form
	Slots  []*Slot
	look   *look
}

// Slot is one schema field and the huh field that edits it. Its value lives
// here, not in huh: Value reads it typed, as the schema wants it.
type Slot struct {
	Field *schema.Field
	Input huh.Field
	form  *schema.Form // for a JSON field's own schema

	kind slotKind
	text string     // text, number and integer inputs
	on   bool       // booleans with a default (a Confirm)
	list *listField // selects, multi-selects, booleans without a default

	// shownDefault is the server's default as put in a text input
	// (sanitized, clipped); while text still equals it, the value is the
	// default itself, as the server wrote it.
	shownDefault *string

	title string // sanitized label, "*" when required
	desc  string // sanitized description with warnings, unwrapped

	// What the form model last told the field: focus, width, and the
	// description as wrapped for it.
	focused     bool
	width       int
	shownDesc   string
	placeholder string

	// limit is the most characters a text field takes; cut is set when a
	// paste went past it, to say so.
	limit int
	cut   bool
}

// The most characters a text field takes: far more than anyone types, and
// few enough that a stray 1 MB paste leaves the form quick (every
// keystroke and cursor blink measures the value again). A maxLength below
// them is the validator's to enforce, with a message; a value longer than
// them goes in an answers file.
const (
	maxLineChars = 10_000
	maxTextChars = 20_000
)

// paste is what the slot does with pasted text: notes when it will not
// all fit.
func (s *Slot) paste(text string) {
	s.cut = s.limit > 0 && utf8.RuneCountInString(s.text)+utf8.RuneCountInString(text) > s.limit
}

func (s *Slot) focus() tea.Cmd {
	s.focused = true
	return s.Input.Focus()
}

func (s *Slot) blur() tea.Cmd {
	s.focused, s.cut = false, false
	return s.Input.Blur()
}

type slotKind int

const (
	slotText slotKind = iota
	slotConfirm
	slotList
)

// Limits on server text, so that a hostile schema cannot make every frame
// slow: what is cut is marked with an ellipsis.
const (
	maxTitle       = 200
	maxDescription = 4000
	maxOption      = 300
	maxMessage     = 20000
)

// Placeholder rows of a list that mean "no value".
const (
	unsetLabel  = "(not set: leave it out)"
	chooseLabel = "(choose one)"
)

// errRequired reads after a field's label.
var errRequired = errors.New("is required")

// BuildForm builds the huh fields for a renderable form. Each field starts
// at the server's default, if it gave one.
func BuildForm(form *schema.Form) *FormFields {
	b := &FormFields{Schema: form, look: newLook()}
	km := keyMap()
	for _, f := range form.Fields {
		s := newSlot(f)
		s.form = form
		s.Input.WithKeyMap(km)
		s.Input.WithTheme(b.look)
		// Every field is in the middle of the form as far as huh knows:
		// enter and tab move on, and the form model decides what "on" is.
		s.Input.WithPosition(huh.FieldPosition{Field: 1, FirstField: 0, LastField: 2})
		s.Input.WithWidth(80)
		s.width = 80
		s.setDescription(78, 8) // until the form model lays it out for the screen
		s.Input.Init()
		b.Slots = append(b.Slots, s)
	}
	return b
}

// keyMap is huh's default keys without the ones mcpcli gives other
// meanings (esc, ctrl+c) or does not offer (the external editor).
func keyMap() *huh.KeyMap {
	km := huh.NewDefaultKeyMap()
	km.Quit = key.NewBinding(key.WithDisabled())
	km.Text.Editor = key.NewBinding(key.WithDisabled())
	km.Input.AcceptSuggestion = key.NewBinding(key.WithDisabled())
	// Space flips a yes/no too, as it ticks a box in a multi-select.
	km.Confirm.Toggle = key.NewBinding(key.WithKeys("h", "l", "right", "left", "space"), key.WithHelp("←/→", "toggle"))
	return km
}

func newSlot(f *schema.Field) *Slot {
	s := &Slot{Field: f}
	s.title = Clip(Line(f.Label()), maxTitle)
	if f.Required {
		s.title += " *"
	}
	var desc []string
	if f.Secret {
		desc = append(desc, "⚠ "+SecretWarning)
	}
	if f.Description != "" {
		desc = append(desc, Clip(Sanitize(f.Description), maxDescription))
	}
	if f.DefaultProblem != "" {
		desc = append(desc, "note: "+Clip(Line(f.DefaultProblem), maxDescription))
	}
	s.desc = strings.Join(desc, "\n")

	switch {
	case f.Kind == schema.Boolean && f.Default != nil:
		s.kind = slotConfirm
		s.on, _ = f.Default.(bool)
		s.Input = huh.NewConfirm().Title(s.title).Affirmative("Yes").Negative("No").Value(&s.on).WithButtonAlignment(lipgloss.Left)
	case f.Kind == schema.Boolean, f.Kind == schema.Select, f.Kind == schema.MultiSelect:
		s.kind = slotList
		s.list = newListField(s)
		s.Input = s.list
	default:
		s.kind = slotText
		if f.Default != nil {
			if f.Long() || f.Kind == schema.JSON {
				s.text = Clip(Sanitize(f.Show(f.Default)), maxDescription)
			} else {
				s.text = Clip(Line(f.Show(f.Default)), maxDescription)
			}
			shown := s.text
			s.shownDefault = &shown
		}
		if (f.Long() || f.Kind == schema.JSON) && !f.Secret {
			s.placeholder = placeholder(f)
			s.limit = maxTextChars
			s.Input = newLazyText(s)
		} else {
			s.placeholder = placeholder(f)
			s.limit = maxLineChars
			in := huh.NewInput().Title(s.title).Value(&s.text).Validate(s.checkText).Placeholder(s.placeholder).CharLimit(s.limit)
			if f.Secret {
				in.EchoMode(huh.EchoModePassword)
			}
			s.Input = in
		}
	}
	return s
}

// placeholder is the grey hint in an empty input.
func placeholder(f *schema.Field) string {
	var p string
	switch {
	case f.Kind == schema.JSON:
		p = jsonExample(f)
	case f.Format == "email":
		p = "name@example.com"
	case f.Format == "uri":
		p = "https://example.com/page"
	case f.Format == "date":
		p = "YYYY-MM-DD"
	case f.Format == "date-time":
		p = "YYYY-MM-DDThh:mm:ssZ"
	case f.Kind == schema.Integer:
		p = "a whole number"
	case f.Kind == schema.Number:
		p = "a number"
	}
	if !f.Required {
		if p == "" {
			return "optional: leave empty to leave it out"
		}
		return p + " (optional)"
	}
	return p
}

// checkText is the validation huh runs before leaving a text input.
func (s *Slot) checkText(in string) error {
	if s.untouched(in) {
		return nil // the default was checked when the schema was parsed
	}
	v, err := s.parse(in)
	if err != nil {
		return err
	}
	if v == nil && s.Field.Required {
		return errRequired
	}
	return nil
}

// parse types what was typed; a JSON value is checked against its own
// schema too, so that a wrong one is said on the field.
func (s *Slot) parse(in string) (any, error) {
	v, err := s.Field.ParseInput(in)
	if err == nil && v != nil && s.form != nil && s.Field.Kind == schema.JSON {
		err = s.form.CheckJSON(s.Field.Name, v)
	}
	return v, err
}

// untouched reports whether in is the server's default as the input shows it.
func (s *Slot) untouched(in string) bool {
	return s.shownDefault != nil && in == *s.shownDefault
}

// Value is the slot's typed value, nil when unset, or why it is not
// acceptable. The reason reads after the field's label.
func (s *Slot) Value() (any, error) {
	f := s.Field
	switch s.kind {
	case slotConfirm:
		return s.on, nil
	case slotList:
		return s.list.value()
	}
	if s.untouched(s.text) {
		return f.Default, nil
	}
	v, err := s.parse(s.text)
	if err != nil {
		return nil, err
	}
	if v == nil && f.Required {
		return nil, errRequired
	}
	return v, nil
}

// Problem is Value's error, if any.
func (s *Slot) Problem() error {
	_, err := s.Value()
	return err
}

// jsonExample is what a JSON field's value looks like.
func jsonExample(f *schema.Field) string {
	switch jsonType(f) {
	case "object":
		return `JSON, like {"key": "value"}`
	case "array":
		var p struct {
			Items json.RawMessage `json:"items"`
		}
		_ = json.Unmarshal(f.Schema, &p)
		switch itemType(p.Items) {
		case "object":
			return `JSON, like [{"key": "value"}]`
		case "integer", "number":
			return `JSON, like [1, 2]`
		case "array":
			return `JSON, like [["a"], ["b"]]`
		}
		return `JSON, like ["a", "b"]`
	}
	return "JSON"
}

// itemType is what an array's items are: their type, or "object" for a
// $ref or properties (a reference is most often to an object).
func itemType(items json.RawMessage) string {
	if len(items) == 0 {
		return ""
	}
	var p struct {
		Ref        string          `json:"$ref"`
		Properties json.RawMessage `json:"properties"`
	}
	_ = json.Unmarshal(items, &p)
	if t := jsonType(&schema.Field{Schema: items}); t != "" {
		return t
	}
	if p.Ref != "" || p.Properties != nil {
		return "object"
	}
	return ""
}

// jsonType is the first type a JSON field's schema names, or "".
func jsonType(f *schema.Field) string {
	var p struct {
		Type any `json:"type"`
	}
	_ = json.Unmarshal(f.Schema, &p)
	switch t := p.Type.(type) {
	case string:
		return t
	case []any:
		for _, e := range t {
			if s, ok := e.(string); ok && s != "null" {
				return s
			}
		}
	}
	return ""
}

// set puts v in the slot, as if typed: a value the person gave already.
func (s *Slot) set(v any) {
	f := s.Field
	switch s.kind {
	case slotConfirm:
		s.on, _ = v.(bool)
	case slotList:
		s.list.set(v)
	default:
		s.shownDefault = nil
		if f.Kind == schema.JSON {
			if b, err := json.Marshal(v); err == nil {
				s.text = string(b)
			}
		} else {
			s.text = f.Show(v)
		}
	}
	// huh's inputs copy the value when it is bound: bind it again, or a
	// focused field would show what it held before.
	switch in := s.Input.(type) {
	case *huh.Input:
		in.Value(&s.text)
	case *lazyText:
		in.rebind()
	}
}

// textLines is how many lines a text area shows (huh.Text.Lines).
const textLines = 3

// height is how many lines View draws, found without drawing: laying out a
// form of many fields measures every one of them (TestSlotHeight holds it
// to what View draws).
func (s *Slot) height(l *look) int {
	st := &l.styles().Blurred
	inner := max(s.width-st.Base.GetHorizontalFrameSize(), minInner)
	if lf, ok := s.Input.(*listField); ok {
		n := linesAt(lf.titleText(), inner) + lf.rows()
		if lf.desc != "" {
			n += linesAt(lf.desc, inner)
		}
		if lf.info() {
			n++
		}
		return n
	}
	n := linesAt(s.title, inner)
	if s.shownDesc != "" {
		n += linesAt(s.shownDesc, inner)
	}
	switch s.Input.(type) {
	case *lazyText:
		n += textLines
	case *huh.Confirm:
		n += 2 // a blank line, the buttons
	default:
		n++ // the input line
	}
	return n
}

// inputLine is the line of the field's View that holds what the person
// types or picks: after its title and description, a list's cursor row,
// a confirm's buttons.
func (s *Slot) inputLine(l *look) int {
	st := &l.styles().Blurred
	inner := max(s.width-st.Base.GetHorizontalFrameSize(), minInner)
	if lf, ok := s.Input.(*listField); ok {
		n := linesAt(lf.titleText(), inner)
		if lf.desc != "" {
			n += linesAt(lf.desc, inner)
		}
		if lf.info() {
			n++
		}
		return n + max(lf.cursor-lf.top, 0)
	}
	n := linesAt(s.title, inner)
	if s.shownDesc != "" {
		n += linesAt(s.shownDesc, inner)
	}
	if _, ok := s.Input.(*huh.Confirm); ok {
		n++
	}
	return n
}

// linesAt is how many lines text takes wrapped to width cells.
func linesAt(text string, width int) int {
	n := 0
	for _, l := range strings.Split(text, "\n") {
		if ansi.StringWidth(l) <= width {
			n++
			continue
		}
		n += strings.Count(lipgloss.Wrap(l, width, ""), "\n") + 1
	}
	return n
}

// View is the slot's field as the form shows it. A text input that is not
// focused is drawn here, in the look's colors: huh styles only the focused
// one, and its text input's own colors for the others (white text) vanish
// on a light background.
func (s *Slot) View(l *look) string {
	if _, ok := s.Input.(*huh.Input); !ok || s.focused {
		return s.Input.View()
	}
	st := &l.styles().Blurred
	width := s.width - st.Base.GetHorizontalFrameSize()
	var b strings.Builder
	b.WriteString(st.Title.Render(lipgloss.Wrap(s.title, max(width, minInner), "")))
	b.WriteByte('\n')
	if d := s.shownDesc; d != "" {
		b.WriteString(st.Description.Render(d))
		b.WriteByte('\n')
	}
	b.WriteString(st.TextInput.Prompt.Render("> "))
	switch {
	case s.text == "":
		b.WriteString(st.TextInput.Placeholder.Render(truncate(s.placeholder, width-2)))
	case s.Field.Secret:
		b.WriteString(st.TextInput.Text.Render(mask(s.text)))
	default:
		b.WriteString(st.TextInput.Text.Render(truncate(Line(head(s.text, width-2)), width-2)))
	}
	return st.Base.Width(s.width).Render(b.String())
}

// Values are the typed values that are set and acceptable.
func (b *FormFields) Values() map[string]any {
	values := make(map[string]any, len(b.Slots))
	for _, s := range b.Slots {
		if v, err := s.Value(); err == nil && v != nil {
			values[s.Field.Name] = v
		}
	}
	return values
}

// Content is what accept would send, checked field by field and then
// against the requested schema with a JSON Schema validator.
func (b *FormFields) Content() (map[string]any, error) {
	for _, s := range b.Slots {
		if err := s.Problem(); err != nil {
			return nil, &schema.FieldError{Field: s.Field.Name, Reason: err.Error()}
		}
	}
	return b.Schema.Content(b.Values())
}

// Slot returns the slot of the field called name, or nil.
func (b *FormFields) Slot(name string) *Slot {
	for _, s := range b.Slots {
		if s.Field.Name == name {
			return s
		}
	}
	return nil
}

// Shown is the slot's value as the review shows it: titles for choices,
// dots for secrets, sanitized, on one line.
func (s *Slot) Shown() string {
	v, err := s.Value()
	switch {
	case err != nil && s.kind == slotText && s.text != "":
		v = s.text
	case err != nil || v == nil:
		return ""
	}
	if s.Field.Secret {
		return mask(s.Field.Show(v))
	}
	return showValue(s.Field, v)
}

// breaks shows the line breaks of a text value, which are sent, as ↵.
var breaks = strings.NewReplacer("\r\n", "↵", "\n", "↵", "\r", "↵")

// ShowValue is a value of field f on one line, as the forms' review shows
// it (not masked: the caller masks secrets).
func ShowValue(f *schema.Field, v any) string { return showValue(f, v) }

// showValue is a value on one line, sanitized: titles for choices, and ↵
// for a line break in text (shown as a space, "one\ntwo" reads "one two").
func showValue(f *schema.Field, v any) string {
	shown := f.Show(v)
	if _, text := v.(string); text && f.Kind == schema.String {
		shown = breaks.Replace(shown)
	}
	return Line(shown)
}

// setDescription gives the huh field its description, wrapped to width
// and cut to at most lines lines.
func (s *Slot) setDescription(width, lines int) {
	d := wrapCut(s.desc, width, lines)
	s.shownDesc = d
	switch in := s.Input.(type) {
	case *huh.Input:
		in.Description(d)
	case *lazyText:
		in.Description(d)
	case *huh.Confirm:
		in.Description(d)
	case *listField:
		in.desc = d
	}
}

// wrapCut wraps s to width (as huh does) and keeps at most n lines; a cut
// ends in a pointer to the full text.
func wrapCut(s string, width, n int) string {
	if s == "" || n <= 0 {
		return ""
	}
	lines := strings.Split(lipgloss.Wrap(s, max(width, minInner), ",.-; "), "\n")
	if len(lines) <= n {
		return strings.Join(lines, "\n")
	}
	lines = lines[:n]
	last := lines[len(lines)-1]
	more := " … (ctrl+o: all of it)"
	if width < 2*Width(more) {
		more = " …" // a narrow screen keeps the pointer on its line
	}
	lines[len(lines)-1] = cutBare(last, max(width-Width(more), 1)) + more
	return strings.Join(lines, "\n")
}

// Clip cuts s to n runes, marking the cut with an ellipsis.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
