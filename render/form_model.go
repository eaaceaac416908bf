package render

import (
	"errors"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
	"charm.land/lipgloss/v2"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/internal/plural"
	"github.com/mcpcli/mcpcli/schema"
)

// The messages huh's fields send to move on and back.
var (
	nextFieldMsg = huh.NextField()
	prevFieldMsg = huh.PrevField()
)

// screen is which of an ask's screens is up.
type screen int

const (
	screenEdit       screen = iota // the fields, a page at a time
	screenReview                   // every value, then accept, decline or cancel
	screenChoice                   // buttons only: a form that cannot be shown
	screenCancelRest               // after a cancel: cancel the round's other asks too?
	screenMore                     // the full text of what the header and fields cut short
)

// maxWidth keeps lines readable on wide terminals.
const maxWidth = 100

// askModel is one ask of a round on the full screen: who asks and why at
// the top, always; the fields, paged to fit; a review; the answer.
//
// It lays the huh fields out itself instead of in a huh.Form: a group
// taller than the terminal loses its title in huh, Esc would reach huh's
// select filters, and a form has no way to jump back to a field from the
// review.
type askModel struct {
	r    client.Round
	i    int
	rest int // asks after this one in the round

	fields   *FormFields // a form that can be shown
	problems []string    // a form that cannot: what is wrong
	look     *look

	screen, back  screen
	width, height int

	focus      int
	pages      [][]int
	pageOf     []int
	fromReview bool // edits started from the review go back to it

	cursor  int      // review, choice and cancel-rest screens
	top     int      // review and more: first line shown
	note    string   // review: why accept did not go
	buttons []string // choice screen
	more    []string // more screen: its lines

	result     *mcp.ElicitResult
	cancelRest bool
	quitting   bool
	// quitAsked is set by a first ctrl+c: a second one quits mcpcli,
	// abandoning the whole request (abandon), esc cancels just this ask.
	quitAsked, abandon bool
	inSession          bool // a second ctrl+c abandons the request, not mcpcli

	msgLines []string // the message, wrapped to msgWidth
	msgWidth int

	// hdr is the last header drawn, for hdrKey: one frame asks for it
	// about ten times (to size the body, to tell a tiny screen, to draw).
	hdr    []string
	hdrKey headerKey

	// args is set when the form asks for a request's arguments rather
	// than answering a server's ask: its title, and no decline.
	args *Arguments
	// banner heads the screen (FormAnswerer.Banner).
	banner string

	onView func(string)
}

// Button labels.
const (
	btnAccept  = "Accept: send"
	btnCall    = "Send"
	btnDecline = "Decline"
	btnCancel  = "Cancel"
)

func newAskModel(r client.Round, i int) *askModel {
	m := &askModel{r: r, i: i, rest: len(r.Asks) - i - 1, width: 80, height: 24, look: newLook()}
	a := r.Asks[i]
	switch {
	case a.Mode() != "form":
		m.problems = []string{fmt.Sprintf("the ask's mode is %q; a form shows only form mode", Line(a.Mode()))}
	default:
		form, err := a.Form, a.FormErr
		switch {
		case err != nil:
			m.problems = []string{Line(err.Error())}
		case form == nil:
			m.problems = []string{"the ask has no schema mcpcli could read"}
		case !form.Renderable():
			for _, p := range form.Problems {
				m.problems = append(m.problems, Clip(Line(p.String()), maxDescription))
			}
		default:
			m.fields = BuildForm(form)
			// The fields are themed with the form's look (huh keeps the
			// first theme it is given): the model must share it, so that
			// the terminal's background reaches every field.
			m.look = m.fields.look
		}
	}
	if m.problems != nil {
		m.screen = screenChoice
		m.buttons = []string{btnDecline, btnCancel}
		m.cursor = 1
	}
	if m.fields != nil && len(m.fields.Slots) == 0 {
		m.screen = screenReview
	}
	m.layout()
	return m
}

// Init implements tea.Model.
func (m *askModel) Init() tea.Cmd {
	cmds := []tea.Cmd{tea.RequestBackgroundColor}
	if m.fields != nil {
		// Ready the validator while the person reads: it is needed only
		// on accept, and for a big schema it is most of the work.
		go m.fields.Schema.Prepare()
	}
	if m.screen == screenEdit {
		cmds = append(cmds, m.slot().focus())
	}
	if m.screen == screenReview {
		m.toReview()
	}
	return tea.Batch(cmds...)
}

func (m *askModel) slot() *Slot { return m.fields.Slots[m.focus] }

// keyScreen names the screens whose keys decide (the review, the buttons
// of a form that cannot be shown, cancel the rest?): turning to one, the
// key guard starts over, so that an Enter typed for the last field never
// lands on Accept. The fields and the full text are 0: keys typed there
// are the person's input.
func (m *askModel) keyScreen() int {
	switch m.screen {
	case screenReview, screenChoice, screenCancelRest:
		return int(m.screen) + 1
	}
	return 0
}

// Sizes.

func (m *askModel) innerWidth() int { return max(min(m.width, maxWidth), minInner+2) }

// minInner is the narrowest a field's text is laid out: on a terminal
// narrower still, lines are cut at its edge, but the line typed into is
// laid out for the screen, so that what is typed shows.
const minInner = 6

// messageLines is the server's message, wrapped; the header shows the
// first few.
func (m *askModel) messageLines() []string {
	a := m.r.Asks[m.i]
	if a.Params == nil || a.Params.Message == "" {
		return nil
	}
	// Every frame asks for the header, and wrapping a long message is not
	// free: keep it per width.
	if w := m.innerWidth(); m.msgWidth != w {
		msg := Clip(Sanitize(a.Params.Message), maxMessage)
		m.msgLines, m.msgWidth = strings.Split(lipgloss.Wrap(msg, w, ",.-; "), "\n"), w
	}
	return m.msgLines
}

func (m *askModel) maxMessageLines() int { return min(max((m.height-8)/4, 1), 6) }

func (m *askModel) header() []string {
	full := m.fullHeader()
	if m.height < len(full)+footerLines+minBody {
		// A tiny terminal: the screen goes to the field being answered,
		// under the ask's title alone.
		return full[:1:1]
	}
	return full
}

// minBody is the fewest lines a field needs: its title, its input, and
// the line under it.
const minBody = 3

// compact reports whether the screen is too short for the header and
// footer in full (see header).
func (m *askModel) compact() bool { return len(m.header()) == 1 && len(m.fullHeader()) > 1 }

// headerKey is what the header is drawn from that can change.
type headerKey struct {
	width, height int
	dark          bool
	banner        string
	args          *Arguments
}

func (m *askModel) fullHeader() []string {
	key := headerKey{m.innerWidth(), m.height, m.look.dark, m.banner, m.args}
	if m.hdr == nil || key != m.hdrKey {
		m.hdr, m.hdrKey = m.drawHeader(), key
	}
	return m.hdr[:len(m.hdr):len(m.hdr)] // full: a caller's append copies
}

func (m *askModel) drawHeader() []string {
	w := m.innerWidth()
	title, sub := AskTitle(m.r, m.i), "your answers go to "+Who(m.r.Server)
	if m.args != nil {
		title, sub = argsTitle(m.args), "sent to "+Who(m.r.Server)+" when you send it"
	}
	var lines []string
	if m.banner != "" {
		lines = append(lines, m.look.chrome().Warn.Render(truncate(m.banner, w)))
	}
	lines = append(lines, m.look.chrome().Title.Render(truncate(title, w)))
	if c := Context(m.r); c != "" && m.args == nil {
		sub = c + " · " + sub
	}
	lines = append(lines, m.look.chrome().Dim.Render(truncate(sub, w)))
	msg := m.messageLines()
	if n := m.maxMessageLines(); len(msg) > n {
		msg = append(msg[:n-1:n-1], cutBare(msg[n-1], w-24)+m.look.chrome().Dim.Render(" … (ctrl+o: read it all)"))
	}
	lines = append(lines, msg...)
	return append(lines, m.look.chrome().Rule.Render(strings.Repeat("─", w)))
}

const footerLines = 3

func (m *askModel) bodyHeight() int {
	if m.compact() {
		return max(m.height-2, 1) // the title above, the keys below
	}
	return max(m.height-len(m.header())-footerLines, minBody)
}

// layout sizes the fields for the screen and cuts them into pages.
func (m *askModel) layout() {
	if m.fields == nil {
		return
	}
	w := m.innerWidth()
	body := m.bodyHeight()
	descLines := min(max(body/4, 1), 8)
	if m.compact() {
		descLines = 0 // ctrl+o still shows it
	}
	m.pages = m.pages[:0]
	m.pageOf = make([]int, len(m.fields.Slots))
	var page []int
	used := 0
	for i, s := range m.fields.Slots {
		s.setDescription(w-2, descLines)
		s.Input.WithWidth(w)
		s.width = w
		if l, ok := s.Input.(*listField); ok {
			l.WithHeight(body - 1)
		}
		h := s.height(m.look) + 1 // and its hint line
		gap := 0
		if len(page) > 0 {
			gap = 1
		}
		if len(page) > 0 && used+gap+h > body {
			m.pages = append(m.pages, page)
			page, used, gap = nil, 0, 0
		}
		page = append(page, i)
		used += gap + h
		m.pageOf[i] = len(m.pages)
	}
	if len(page) > 0 {
		m.pages = append(m.pages, page)
	}
}

// Update implements tea.Model.
func (m *askModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.layout()
		m.scrollReview()
		return m, nil
	case tea.BackgroundColorMsg:
		m.look.dark = msg.IsDark()
		return m, nil
	case tea.KeyPressMsg:
		if m.quitting {
			return m, nil
		}
		switch k := msg.String(); {
		case k == "ctrl+c" && m.quitAsked:
			m.abandon, m.quitting = true, true
			return m, tea.Quit
		case k == "ctrl+c":
			// The way out of a server that keeps asking: one more ctrl+c
			// leaves, esc cancels just this question.
			m.quitAsked = true
			return m, nil
		case m.quitAsked && k == "esc":
			m.quitAsked = false
			if m.screen == screenCancelRest {
				m.cancelRest = true
				m.quitting = true
				return m, tea.Quit
			}
			return m.finish(client.Cancel, nil)
		case m.quitAsked:
			m.quitAsked = false // any other key goes on with the form
		}
		switch m.screen {
		case screenEdit:
			return m.editKey(msg)
		case screenReview:
			return m.reviewKey(msg)
		case screenChoice:
			return m.choiceKey(msg)
		case screenCancelRest:
			return m.cancelRestKey(msg)
		case screenMore:
			return m.moreKey(msg)
		}
	}
	if m.screen == screenEdit && m.fields != nil {
		switch msg {
		case nextFieldMsg:
			return m, m.advance()
		case prevFieldMsg:
			return m, m.focusOn(m.focus - 1)
		}
		// Anything else (a cursor blink, a paste) is the focused field's.
		if p, ok := msg.(tea.PasteMsg); ok {
			m.slot().paste(p.Content)
		}
		_, cmd := m.slot().Input.Update(msg)
		return m, cmd
	}
	return m, nil
}

// focusOn moves the focus to field i, turning the page if needed.
func (m *askModel) focusOn(i int) tea.Cmd {
	i = max(0, min(i, len(m.fields.Slots)-1))
	var cmds []tea.Cmd
	if i != m.focus || m.screen != screenEdit {
		cmds = append(cmds, m.slot().blur())
	}
	m.focus = i
	m.screen = screenEdit
	cmds = append(cmds, m.slot().focus())
	return tea.Batch(cmds...)
}

func (m *askModel) finish(action string, content map[string]any) (tea.Model, tea.Cmd) {
	if m.args != nil && action == client.Decline {
		return m, nil // arguments are sent or not: there is no one to decline
	}
	m.result = &mcp.ElicitResult{Action: action, Content: content}
	if action == client.Cancel && m.rest > 0 {
		m.screen = screenCancelRest
		m.cursor = 0
		return m, nil
	}
	m.quitting = true
	return m, tea.Quit
}

func (m *askModel) editKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	in := m.slot().Input
	switch msg.String() {
	case "ctrl+x":
		return m.finish(client.Decline, nil)
	case "esc":
		if l, ok := in.(*listField); ok && l.WantsEsc() {
			break
		}
		return m.finish(client.Cancel, nil)
	case "ctrl+s":
		m.slot().blur()
		return m, m.toReview()
	case "ctrl+o":
		m.openMore()
		return m, nil
	case "shift+tab":
		if l, ok := in.(*listField); ok && l.Filtering() {
			break
		}
		if m.focus == 0 {
			return m, nil
		}
		return m, m.focusOn(m.focus - 1)
	case "enter", "tab", "y", "Y", "n", "N":
		if advance, ok := m.moves(in, msg); ok {
			if !advance {
				return m, nil
			}
			return m, m.advance()
		}
	}
	_, cmd := in.Update(msg)
	return m, cmd
}

// moves handles a key that may move on to the next field. huh's fields
// move by returning a command whose message comes back later, so keys
// typed meanwhile would land in the field being left; here the field sees
// the key (and validates), and the focus moves before the next key is
// read. ok is false for keys that are the field's own (y typed into an
// input, enter that ends a multi-select's filter).
func (m *askModel) moves(in huh.Field, msg tea.KeyPressMsg) (advance, ok bool) {
	k := msg.String()
	switch f := in.(type) {
	case *listField:
		if f.boolean && !f.Filtering() {
			// y and n answer a yes/no and move on, as with a default.
			switch k {
			case "y", "Y":
				f.set(true)
				return f.next() != nil, true
			case "n", "N":
				f.set(false)
				return f.next() != nil, true
			}
		}
		if k != "enter" && k != "tab" || f.multi && f.Filtering() && k == "enter" {
			return false, false
		}
		return f.next() != nil, true
	case *huh.Confirm:
		f.Update(msg)
		return true, true
	case *huh.Input, *lazyText:
		if k != "enter" && k != "tab" {
			return false, false
		}
		in.Update(msg) // runs the field's validation
		return in.Error() == nil, true
	}
	return false, false
}

// advance moves to the next field, or to the review after the last one
// (or after an edit started from the review).
func (m *askModel) advance() tea.Cmd {
	if m.fromReview || m.focus == len(m.fields.Slots)-1 {
		m.slot().blur()
		return m.toReview()
	}
	return m.focusOn(m.focus + 1)
}

// keysLine is a footer of keys; an arguments form has no decline, and its
// accept sends.
func (m *askModel) keysLine(keys string) string {
	if m.args == nil {
		return keys
	}
	return strings.NewReplacer("ctrl+x decline · ", "", "ctrl+s accept", "ctrl+s send").Replace(keys)
}

// Review.

func (m *askModel) toReview() tea.Cmd {
	m.screen = screenReview
	m.fromReview = false
	m.note = ""
	m.cursor = len(m.fields.Slots) // Accept
	if _, err := m.fields.Content(); err != nil {
		m.cursor = m.firstProblem()
	}
	m.scrollReview()
	return nil
}

func (m *askModel) firstProblem() int {
	for i, s := range m.fields.Slots {
		if s.Problem() != nil {
			return i
		}
	}
	return len(m.fields.Slots)
}

func (m *askModel) reviewButtons() []string {
	if m.args != nil {
		return []string{btnCall, btnCancel}
	}
	return []string{btnAccept, btnDecline, btnCancel}
}

// reviewRows is how many field rows fit on the review screen: all of
// them if they can, beside the heading, a blank line and the buttons;
// else a window, with a line saying which.
func (m *askModel) reviewRows() int {
	extra := len(m.noteLines()) - 1
	if n := len(m.fields.Slots); n <= m.bodyHeight()-3-extra {
		return max(n, 1)
	}
	return max(m.bodyHeight()-4-extra, 1)
}

// maxNoteLines bounds the review's note, so that rows and buttons stay.
const maxNoteLines = 4

// noteLines is the review's note wrapped to the screen (one blank line
// when there is none): a refusal cut at the edge would hide its reason.
func (m *askModel) noteLines() []string {
	if m.note == "" {
		return []string{""}
	}
	w := m.innerWidth()
	lines := strings.Split(lipgloss.Wrap(m.note, w, " /:,"), "\n")
	if len(lines) > maxNoteLines {
		lines = lines[:maxNoteLines]
		lines[maxNoteLines-1] = cutBare(lines[maxNoteLines-1], w-2) + " …"
	}
	return lines
}

func (m *askModel) scrollReview() {
	if m.fields == nil || m.screen != screenReview {
		return
	}
	rows := m.reviewRows()
	c := m.cursor
	if c >= len(m.fields.Slots) { // on the buttons: the fields stay put
		c = m.top
	}
	if c < m.top {
		m.top = c
	}
	if c >= m.top+rows {
		m.top = c - rows + 1
	}
	m.top = max(0, min(m.top, len(m.fields.Slots)-rows))
}

func (m *askModel) reviewKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	n := len(m.fields.Slots)
	m.note = ""
	switch msg.String() {
	case "esc":
		return m.finish(client.Cancel, nil)
	case "ctrl+x":
		return m.finish(client.Decline, nil)
	case "ctrl+s":
		return m.accept()
	case "ctrl+o":
		m.openMore()
		return m, nil
	case "up", "k", "ctrl+p":
		if m.cursor >= n {
			m.cursor = n - 1
		} else {
			m.cursor--
		}
		m.cursor = max(m.cursor, min(0, n))
		if n == 0 {
			m.cursor = 0
		}
	case "down", "j", "ctrl+n":
		// From the buttons ↓ wraps to the first field, as the keys line
		// says ↑/↓ pick a field; it never lands on a button it was not on.
		if m.cursor < n {
			m.cursor++
		} else {
			m.cursor = 0
		}
	case "left", "h", "shift+tab":
		if m.cursor > n {
			m.cursor--
		}
	case "right", "l", "tab":
		if m.cursor < n {
			m.cursor = n
		} else if m.cursor < n+len(m.reviewButtons())-1 {
			m.cursor++
		}
	case "home", "g":
		m.cursor = 0
	case "end", "G":
		m.cursor = n
	case "e":
		if m.cursor < n {
			return m.edit(m.cursor)
		}
	case "enter", "space":
		if m.cursor < n {
			return m.edit(m.cursor)
		}
		switch m.reviewButtons()[min(m.cursor-n, len(m.reviewButtons())-1)] {
		case btnAccept, btnCall:
			return m.accept()
		case btnDecline:
			return m.finish(client.Decline, nil)
		default:
			return m.finish(client.Cancel, nil)
		}
	}
	m.cursor = max(0, min(m.cursor, n+len(m.reviewButtons())-1))
	if n == 0 && m.cursor < 0 {
		m.cursor = 0
	}
	m.scrollReview()
	return m, nil
}

func (m *askModel) edit(i int) (tea.Model, tea.Cmd) {
	m.screen = screenEdit
	cmd := m.focusOn(i)
	m.fromReview = true
	return m, cmd
}

func (m *askModel) accept() (tea.Model, tea.Cmd) {
	content, err := m.fields.Content()
	if err != nil {
		why := err.Error()
		var fe *schema.FieldError
		if errors.As(err, &fe) {
			if s := m.fields.Slot(fe.Field); s != nil {
				why = s.Field.Label() + " " + fe.Reason
			}
		}
		out := "decline or cancel"
		if m.args != nil {
			out = "cancel" // arguments are sent or not: nobody to decline
		}
		m.note = "Not sent: " + Line(why) + ". Fix it (enter on the field), or " + out + "."
		m.cursor = m.firstProblem()
		m.scrollReview()
		return m, nil
	}
	return m.finish(client.Accept, content)
}

// Choice (a form that cannot be shown, a URL to consent to).

func (m *askModel) choiceKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	switch msg.String() {
	case "esc":
		return m.finish(client.Cancel, nil)
	case "ctrl+x":
		return m.finish(client.Decline, nil)
	case "ctrl+o":
		m.openMore()
	case "left", "h", "shift+tab", "up", "k":
		m.cursor = max(m.cursor-1, 0)
	case "right", "l", "tab", "down", "j":
		m.cursor = min(m.cursor+1, len(m.buttons)-1)
	case "enter", "space":
		switch m.buttons[m.cursor] {
		case btnDecline:
			return m.finish(client.Decline, nil)
		default:
			return m.finish(client.Cancel, nil)
		}
	}
	return m, nil
}

// Cancel the rest?

func (m *askModel) cancelRestKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	switch msg.String() {
	case "y", "Y", "esc":
		m.cancelRest = true
	case "n", "N":
		m.cancelRest = false
	case "left", "h", "right", "l", "tab", "shift+tab", "up", "down":
		m.cursor = 1 - m.cursor
		return m, nil
	case "enter", "space":
		m.cancelRest = m.cursor == 0
	default:
		return m, nil
	}
	m.quitting = true
	return m, tea.Quit
}

// More: the full message, and the focused field in full.

func (m *askModel) openMore() {
	w := m.innerWidth()
	var lines []string
	lines = append(lines, m.look.chrome().Title.Render("The server's message, in full:"))
	if msg := m.messageLines(); len(msg) > 0 {
		lines = append(lines, msg...)
	} else {
		lines = append(lines, m.look.chrome().Dim.Render("(no message)"))
	}
	if m.screen == screenEdit && m.fields != nil {
		s := m.slot()
		lines = append(lines, "", m.look.chrome().Title.Render("This field:"))
		lines = append(lines, strings.Split(lipgloss.Wrap(s.title+" ("+Constraints(s.Field)+")", w, ",.-; "), "\n")...)
		lines = append(lines, strings.Split(lipgloss.Wrap(s.desc, w, ",.-; "), "\n")...)
	}
	if len(m.problems) > 0 {
		lines = append(lines, "", m.look.chrome().Title.Render("What mcpcli cannot show:"))
		for _, p := range m.problems {
			lines = append(lines, strings.Split(lipgloss.Wrap("• "+p, w, ",.-; "), "\n")...)
		}
	}
	m.more = lines
	m.back = m.screen
	m.screen = screenMore
	m.top = 0
}

func (m *askModel) moreRows() int { return max(m.height-footerLines, 1) }

func (m *askModel) moreKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	rows := m.moreRows()
	switch msg.String() {
	case "esc", "q", "ctrl+o", "enter":
		m.screen = m.back
		m.top = 0
		m.scrollReview()
		return m, nil
	}
	if by, ok := Scroll(msg.String(), rows, len(m.more)); ok {
		m.top += by
	}
	m.top = max(0, min(m.top, len(m.more)-rows))
	return m, nil
}

// View implements tea.Model.
func (m *askModel) View() tea.View {
	var content string
	if !m.quitting {
		switch m.screen {
		case screenEdit:
			content = m.editView()
		case screenReview:
			content = m.reviewView()
		case screenChoice:
			content = m.choiceView()
		case screenCancelRest:
			content = m.cancelRestView()
		case screenMore:
			content = m.moreView()
		}
		content = fit(content, m.width, m.height)
	}
	if m.onView != nil {
		m.onView(content)
	}
	v := tea.NewView(content)
	v.AltScreen = true
	return v
}

// screenOf stacks header, body (padded to its height) and footer.
func (m *askModel) screenOf(body []string, footer ...string) string {
	lines := m.header()
	h := m.bodyHeight()
	if len(body) > h {
		body = body[:h]
	}
	lines = append(lines, body...)
	for i := len(body); i < h; i++ {
		lines = append(lines, "")
	}
	if m.compact() {
		footer = footer[len(footer)-1:] // the keys, without the rule
	} else {
		lines = append(lines, m.look.chrome().Rule.Render(strings.Repeat("─", m.innerWidth())))
	}
	if m.quitAsked {
		quit := "Quit? ctrl+c again leaves mcpcli and abandons the request (nothing more is sent)"
		if m.inSession {
			quit = "Abandon? ctrl+c again abandons the request; the session stays"
		}
		footer = []string{
			m.look.chrome().Warn.Render(quit),
			"esc cancels just this question · any other key goes back to it",
		}
	}
	for _, f := range footer {
		lines = append(lines, truncate(f, m.innerWidth()))
	}
	return strings.Join(lines, "\n")
}

func (m *askModel) editView() string {
	page := m.pages[m.pageOf[m.focus]]
	var body []string
	for k, i := range page {
		if k > 0 {
			body = append(body, "")
		}
		body = append(body, strings.Split(m.fields.Slots[i].View(m.look), "\n")...)
		body = append(body, "  "+m.hint(i))
	}
	// A page cut short keeps the focused field on screen; a screen too
	// short for its title, the line typed into.
	if h := m.bodyHeight(); len(body) > h {
		start := 0
		for k, i := range page {
			if i == m.focus {
				break
			}
			start += lipgloss.Height(m.fields.Slots[page[k]].View(m.look)) + 2
		}
		if line := m.slot().inputLine(m.look); line >= h {
			start += line - h + 1
		}
		body = body[min(start, len(body)-h):]
	}
	w := m.innerWidth()
	left := fmt.Sprintf("field %d/%d", m.focus+1, len(m.fields.Slots))
	if len(m.pages) > 1 {
		left = fmt.Sprintf("page %d/%d · ", m.pageOf[m.focus]+1, len(m.pages)) + left
	}
	for _, s := range m.fields.Slots {
		if s.Field.Required {
			left += " · * required"
			break
		}
	}
	return m.screenOf(body,
		spread(m.look.chrome().Dim.Render(left), m.fieldKeys(), w),
		m.keysLine("shift+tab back · ctrl+s review · ctrl+x decline · esc cancel · ctrl+o more"))
}

// hint is the line under a field: why its value will not do, or what it
// takes.
func (m *askModel) hint(i int) string {
	s := m.fields.Slots[i]
	w := m.innerWidth() - 2
	if err := s.Input.Error(); err != nil {
		return m.look.chrome().Error.Render(truncate("✗ "+Line(err.Error()), w))
	}
	if s.cut && i == m.focus {
		return m.look.chrome().Error.Render(truncate(fmt.Sprintf("✗ the paste was cut at %d characters, the most this field takes", s.limit), w))
	}
	if i == m.focus {
		if err := s.Problem(); err != nil && !strings.HasPrefix(err.Error(), errRequired.Error()) {
			return m.look.chrome().Error.Render(truncate("✗ "+Line(err.Error()), w))
		}
	}
	f := s.Field
	h := Constraints(f)
	if f.Required {
		h += " · required"
	} else {
		h += " · optional"
	}
	if f.Default != nil && !f.Secret {
		h += " · default " + showValue(f, f.Default)
	}
	return m.look.chrome().Dim.Render(truncate(h, w))
}

func (m *askModel) fieldKeys() string {
	switch in := m.slot().Input.(type) {
	case *listField:
		switch {
		case in.Filtering():
			return "type to filter · enter done · esc clear"
		case in.multi:
			return "↑/↓ move · space toggle · enter next"
		}
		return "↑/↓ choose · enter next"
	case *huh.Confirm:
		return "←/→ or y/n choose · enter next"
	case *lazyText:
		return "ctrl+j new line · enter next"
	}
	return "enter next"
}

func (m *askModel) reviewView() string {
	w := m.innerWidth()
	n := len(m.fields.Slots)
	var body []string
	heading := "Review: accept sends this to " + Line(m.r.Server.Display())
	if m.args != nil {
		heading = "Review: these arguments go to " + Line(m.r.Server.Display())
	}
	body = append(body, m.look.chrome().Title.Render(truncate(heading, w)))
	if n == 0 {
		body = append(body, m.look.chrome().Dim.Render("  (no fields: accept just says yes)"))
	}
	labelW := 0
	for _, s := range m.fields.Slots {
		labelW = max(labelW, Width(s.title))
	}
	labelW = min(labelW, w/3)
	rows := m.reviewRows()
	for i := m.top; i < n && i < m.top+rows; i++ {
		s := m.fields.Slots[i]
		mark := "  "
		if i == m.cursor {
			mark = m.look.chrome().Cursor.Render("▸ ")
		}
		label := pad(truncate(s.title, labelW), labelW)
		var value string
		shown := s.Shown()
		err := s.Problem()
		switch {
		case err != nil:
			if shown != "" {
				shown += "  "
			}
			value = shown + m.look.chrome().Error.Render("✗ "+Line(err.Error()))
		case shown == "" && s.Field.Default != nil:
			value = m.look.chrome().Dim.Render("(empty: the default, " + showValue(s.Field, s.Field.Default) + ", is sent)")
		case shown == "":
			value = m.look.chrome().Dim.Render("(not set: left out)")
		default:
			value = shown
		}
		body = append(body, truncate(mark+label+"  "+value, w))
	}
	if n > rows {
		body = append(body, m.look.chrome().Dim.Render(fmt.Sprintf("  %d–%d of %d fields · ↑/↓ for the rest", m.top+1, min(m.top+rows, n), n)))
	}
	for _, l := range m.noteLines() {
		body = append(body, m.look.chrome().Error.Render(l))
	}
	var bs []string
	for k, b := range m.reviewButtons() {
		bs = append(bs, m.look.chrome().button(b, m.cursor == n+k))
	}
	body = append(body, strings.Join(bs, "  "))
	return m.screenOf(body,
		"↑/↓ pick a field, enter edits it · tab to the buttons",
		m.keysLine("ctrl+s accept · ctrl+x decline · esc cancel · ctrl+o more"))
}

func (m *askModel) choiceView() string {
	w := m.innerWidth()
	var body []string
	body = append(body, m.look.chrome().Title.Render("mcpcli cannot show this form:"))
	for _, p := range m.problems {
		for _, l := range strings.Split(lipgloss.Wrap("• "+p, w-2, ",.-; "), "\n") {
			body = append(body, "  "+l)
		}
	}
	body = append(body, "", truncate("You can decline (say no to the server) or cancel (dismiss the question).", w))
	// The buttons stay on screen however long the list above them is.
	var bs []string
	for k, b := range m.buttons {
		bs = append(bs, m.look.chrome().button(b, m.cursor == k))
	}
	h := m.bodyHeight()
	if len(body) > h-2 {
		body = append(body[:max(h-3, 0)], m.look.chrome().Dim.Render("  … (ctrl+o: all of it)"))
	}
	body = append(body, "", strings.Join(bs, "  "))
	return m.screenOf(body, "←/→ move · enter choose", m.keysLine("ctrl+x decline · esc cancel · ctrl+o more"))
}

func (m *askModel) cancelRestView() string {
	var body []string
	body = append(body, m.look.chrome().Title.Render(fmt.Sprintf("You cancelled this ask. Cancel the other %d ask%s of this round too?", m.rest, plural.S(m.rest))))
	body = append(body, m.look.chrome().Dim.Render("No goes on to the next one; nothing is dropped without asking."), "")
	body = append(body, m.look.chrome().button("Yes, cancel all", m.cursor == 0)+"  "+m.look.chrome().button("No, answer them", m.cursor == 1))
	return m.screenOf(body, "y yes · n no · enter choose", "")
}

func (m *askModel) moreView() string {
	rows := m.moreRows()
	end := min(m.top+rows, len(m.more))
	lines := append([]string(nil), m.more[m.top:end]...)
	for len(lines) < rows {
		lines = append(lines, "")
	}
	w := m.innerWidth()
	pos := fmt.Sprintf("lines %d–%d of %d", m.top+1, end, len(m.more))
	lines = append(lines, m.look.chrome().Rule.Render(strings.Repeat("─", w)), m.look.chrome().Dim.Render(pos), "↑/↓ scroll · esc back")
	return strings.Join(lines, "\n")
}
