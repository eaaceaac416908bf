// Package tui is the full-screen shell over an MCP session (the session
// the `mcpcli session` command keeps open): the server's tools, prompts
// and resources to browse and call, every ask answered in place with the
// one-shot commands' forms, every round of a call in a timeline beside its
// result, and what the server says meanwhile (logs, progress, list
// changes, stderr, the wire) in Activity. Its sibling shell/line is the
// same over plain lines.
//
// The shell is a bubbletea program ([Model]). What happens outside it
// reaches it through a [Feed]: the client's hooks, the transport's
// observer, the server's stderr, and the forms, which borrow the terminal
// (Feed.Share) and show exactly as they do in one-shot mode.
package tui

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/flow"
	"github.com/mcpcli/mcpcli/internal/plural"
	"github.com/mcpcli/mcpcli/internal/safefile"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/request"
)

// Client is what the session needs of a connected client.Session.
type Client interface {
	Server() client.Server
	Capabilities() *mcp.ServerCapabilities
	ListTools(ctx context.Context) (*client.ToolList, error)
	ListPrompts(ctx context.Context) (*client.PromptList, error)
	ListResources(ctx context.Context) (*client.ResourceList, error)
	CallTool(ctx context.Context, name string, args map[string]any) (*client.Result, error)
	GetPrompt(ctx context.Context, name string, args map[string]string) (*client.Result, error)
	ReadResource(ctx context.Context, uri string) (*client.Result, error)
	ListResourceTemplates(ctx context.Context) (*client.TemplateList, error)
	Complete(ctx context.Context, ref *mcp.CompleteReference, arg, value string, given map[string]string) (*client.Completion, error)
	LogLevel() string
	SetLogLevel(ctx context.Context, level string) error
	Subscribe(ctx context.Context, uri string) error
	Unsubscribe(ctx context.Context, uri string) error
	Explain(err error) error
	// Wait returns when the connection ends, or ctx does.
	Wait(ctx context.Context) error
}

// Forms asks for a request's arguments (render.FormAnswerer): it is run
// with the terminal lent to it.
type Forms interface {
	AskArguments(ctx context.Context, a render.Arguments) (map[string]any, error)
}

// Values asks for one value at a time, with the server's completions
// (render.ValueForm): prompt arguments and template variables, when the
// server offers completions.
type Values interface {
	AskValue(ctx context.Context, q render.Question) (string, error)
}

// Options are what a session is made of.
type Options struct {
	// Context is the run's: when it ends (a signal), every request of the
	// session ends with it, and the forms they show quit, so that the
	// session can quit in order and give the terminal back. nil means
	// context.Background.
	Context context.Context
	Client  Client
	Feed    *Feed
	// Forms shows argument forms; nil means arguments are taken as given
	// (tests).
	Forms Forms
	// Values asks for prompt arguments and template variables one by one
	// with the server's completions; nil means Forms does.
	Values Values
	// Transport says how the server is reached ("stdio", "HTTP"), and
	// Negotiated how the protocol version was agreed, in a word or two
	// ("discover", "initialize, fallback"); How says it in full.
	Transport, Negotiated, How string
	// Replay is how the saved script's one-shot commands reach the server.
	Replay request.Replay
	// SavePath is --save: where S (and quitting) writes the script.
	SavePath string
	// Flow is the server a flow file saved with S names (its server line).
	Flow flow.Server
	// Ledger proves the files mcpcli wrote: a script or flow file is
	// written over only when it says mcpcli wrote it (safefile.Write).
	Ledger *safefile.Ledger
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// ErrorText turns an error into the words the one-shot commands use.
	ErrorText func(error) string
	// Reconnect, when set, is R: it ends the connection (and a stdio
	// server) and connects again, signing in if the server asks; nil means
	// the session cannot.
	Reconnect func(ctx context.Context) (Reached, error)
	// KeyGuard is how long a question on the session's own screen (call
	// a destructive tool?) ignores keys after it shows, as the forms do
	// (render.Terminal.KeyGuard): 0 is render.DefaultKeyGuard, negative
	// none.
	KeyGuard time.Duration
	// ResultBudget bounds the bytes of the results kept in memory (see
	// kept.go); 0 means DefaultResultBudget.
	ResultBudget int64
}

type tab int

const (
	tabTools tab = iota
	tabPrompts
	tabResources
	tabActivity
	tabHistory
	numTabs
)

var tabNames = [numTabs]string{"Tools", "Prompts", "Resources", "Activity", "History"}

// Model is the session program's model.
type Model struct {
	o    Options
	c    Client
	feed *Feed
	st   *styles
	ctx  context.Context
	stop context.CancelFunc

	width, height int
	server        client.Server

	tab     tab
	lists   [3]*list // tools, prompts, resources
	tools   *client.ToolList
	prompts *client.PromptList
	res     *client.ResourceList
	tmpl    *client.TemplateList
	loaded  [3]bool
	loading [3]bool // a list read is on its way
	again   [3]bool // and the list changed meanwhile: read it once more
	loadErr [3]error
	detail  detailCache
	subs    map[string]bool // resources subscribed to

	// loadErrText is loadErr in words; notOffered marks a list the server
	// does not offer (it declares no capability for it).
	loadErrText [3]string
	notOffered  [3]bool

	calls   []*call
	byID    map[int]*call
	tokens  map[string]int // progress token -> call
	viewing *call          // the call on screen, nil when browsing
	running int

	act  *activity
	hist *list

	modal      modal
	pending    []*share // asks that wait for the person, oldest first
	lending    bool     // the terminal is lent, or about to be
	ticking    bool     // a tick keeps the asks' ages true
	guardClock func() time.Time
	// back drops the keys read while a form had the screen (queued for
	// the session, typed for the form) and just after it comes back.
	back         *render.Guard
	showTimeline bool // narrow screens: the timeline instead of the result
	status       string
	statusErr    bool
	armed        bool // ctrl+c once at rest, or q with calls running
	gone         bool // the connection ended
	quitting     bool
	seq          int // numbers expanded views, to match late answers

	kept *results // the results, within their budget

	lost         string // why the connection ended, in full
	reconnecting bool   // R is under way
	gen          int    // the connection's generation: one more for each R

	// exec runs what borrows the terminal: tea.Exec (tests run it at once).
	exec func(tea.ExecCommand, tea.ExecCallback) tea.Cmd
}

// New makes the session's model. The client is connected; the lists are
// read when the program starts.
func New(o Options) *Model {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.ErrorText == nil {
		o.ErrorText = func(err error) string { return err.Error() }
	}
	if o.Feed == nil {
		o.Feed = NewFeed(o.Now)
	}
	parent := o.Context
	if parent == nil {
		parent = context.Background()
	}
	ctx, cancel := context.WithCancelCause(parent)
	stop := func() { cancel(errSessionClosed) }
	m := &Model{guardClock: time.Now,
		o: o, c: o.Client, feed: o.Feed, st: plainStyles(), ctx: ctx, stop: stop,
		width: 80, height: 24, server: o.Client.Server(),
		byID: map[int]*call{}, tokens: map[string]int{}, subs: map[string]bool{},
		act: newActivity(), hist: &list{}, exec: tea.Exec,
		kept: newResults(o.ResultBudget),
	}
	for i := range m.lists {
		m.lists[i] = &list{}
	}
	return m
}

// Status is the last status line (what the session said last: "saved 3
// requests to FILE").
func (m *Model) Status() string { return m.status }

// Cut is how many requests the session's end cut short: those still
// running when it quit, and those its context's end cancelled (a
// cancel then leaves no words of its own). Read it once the program is
// gone.
func (m *Model) Cut() int {
	n := 0
	for _, c := range m.calls {
		if c.running() || c.state == stateCancelled && c.errText == "" {
			n++
		}
	}
	return n
}

// Init implements tea.Model.
func (m *Model) Init() tea.Cmd {
	m.feed.started.Store(true)
	s := m.server
	how := m.o.How
	if how == "" {
		how = m.o.Negotiated
	}
	m.act.add(actRow{at: m.o.Now(), kind: kindNote, text: fmt.Sprintf("connected to %s %s over %s, protocol %s: %s", s.Display(), s.Version, s.Via, s.Protocol, how)})
	m.act.unseen = 0
	return tea.Batch(tea.RequestBackgroundColor, m.feed.next(), m.load(tabTools), m.load(tabPrompts), m.load(tabResources), m.watchConnection())
}

// Close ends what the session started: running calls are cancelled, forms
// waiting their turn are refused.
func (m *Model) Close() {
	m.stop()
	m.feed.Close()
	m.closeResults()
}

// Messages.

type loadedMsg struct {
	gen   int // the connection it was read on
	which tab
	tools *client.ToolList
	pr    *client.PromptList
	res   *client.ResourceList
	tmpl  *client.TemplateList
	err   error
	// notOffered: the server does not declare the capability, so it was
	// not asked.
	notOffered bool
	tmplErr    error // the resource templates could not be read
}

// watchConnection waits for the connection to end: a server that exits
// or hangs up is said at once, not at the next request.
func (m *Model) watchConnection() tea.Cmd {
	c, ctx, gen, conn := m.c, m.ctx, m.gen, m.feed.current()
	return func() tea.Msg {
		err := c.Wait(ctx)
		// An ask on screen for this connection ends now, not when the
		// person answers it (the program waits while a form runs).
		conn.end()
		if ctx.Err() != nil {
			return nil
		}
		return goneMsg{gen, err}
	}
}

type statusMsg struct {
	text string
	err  bool
}

// load reads one of the lists; asked while a read is on its way, it reads
// once more after it (a server announcing three changes at once costs two
// reads, not three).
func (m *Model) load(which tab) tea.Cmd {
	if m.loading[which] {
		m.again[which] = true
		return nil
	}
	m.loading[which] = true
	c, ctx, gen := m.c, m.ctx, m.gen
	caps := c.Capabilities()
	return func() tea.Msg {
		msg := loadedMsg{gen: gen, which: which}
		switch which {
		case tabTools:
			if caps.Tools == nil {
				msg.notOffered = true
				return msg
			}
			msg.tools, msg.err = c.ListTools(ctx)
		case tabPrompts:
			if caps.Prompts == nil {
				msg.notOffered = true
				return msg
			}
			msg.pr, msg.err = c.ListPrompts(ctx)
		case tabResources:
			if caps.Resources == nil {
				msg.notOffered = true
				return msg
			}
			msg.res, msg.err = c.ListResources(ctx)
			if msg.err == nil {
				// What the server answered but templates is said.
				msg.tmpl, msg.tmplErr = request.Templates(ctx, c)
			}
		}
		return msg
	}
}

// Update implements tea.Model.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	_, cmd := m.update(msg)
	if kc := m.settle(); kc != nil {
		cmd = tea.Batch(cmd, kc)
	}
	return m, cmd
}

func (m *Model) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = max(msg.Width, 20), max(msg.Height, 8)
		return m, m.relayout()
	case tea.BackgroundColorMsg:
		m.st = newStyles(msg.IsDark())
		m.detail = detailCache{}
		return m, nil
	case batchMsg:
		cmd := m.consume(msg)
		return m, tea.Batch(cmd, m.feed.next())
	case loadedMsg:
		if msg.gen != m.gen {
			return m, nil // read on a connection since replaced
		}
		m.loading[msg.which] = false
		m.loaded[msg.which] = true
		m.loadErr[msg.which] = msg.err
		m.notOffered[msg.which] = msg.notOffered
		m.loadErrText[msg.which] = ""
		if msg.err != nil {
			m.loadErrText[msg.which] = m.o.ErrorText(m.c.Explain(msg.err))
			m.act.add(actRow{at: m.o.Now(), kind: kindError, text: fmt.Sprintf("reading the %s list failed: %s", strings.ToLower(tabNames[msg.which]), m.loadErrText[msg.which])})
			if !m.gone && unreachable(msg.err) {
				m.lostConnection(msg.err)
			}
		}
		if msg.tmplErr != nil {
			m.act.add(actRow{at: m.o.Now(), kind: kindError, text: "reading the resource templates failed: " + m.o.ErrorText(m.c.Explain(msg.tmplErr))})
		}
		m.setList(msg)
		if m.again[msg.which] {
			m.again[msg.which] = false
			return m, m.load(msg.which)
		}
		return m, nil
	case preparedMsg:
		return m, m.prepared(msg)
	case callDoneMsg:
		return m, m.callDone(msg)
	case spilledMsg:
		m.spilled(msg)
		return m, nil
	case restoredMsg:
		return m, m.restored(msg)
	case laidOutMsg:
		if c := m.byID[msg.id]; c != nil && c.view != nil && msg.width == c.view.width {
			c.view.setRows(msg.rows)
		}
		return m, nil
	case expandedMsg:
		if m.modal != nil {
			if x, ok := m.modal.(*pager); ok && x.seq == msg.seq {
				x.lines = msg.lines
			}
		}
		return m, nil
	case statusMsg:
		m.setStatus(msg.text, msg.err)
		return m, nil
	case goneMsg:
		if msg.gen == m.gen && !m.gone && !m.reconnecting {
			m.lostConnection(msg.err)
		}
		return m, nil
	case reconnectedMsg:
		return m, m.reconnected(msg)
	case shareDoneMsg:
		m.lending = false
		return m, m.openVisibleAsk()
	case askTickMsg:
		m.ticking = false
		return m, m.tickAsks()
	case tea.KeyPressMsg:
		if m.lending {
			// The terminal is lent to a form: what the session reads now
			// (read before it let go, handed over when the form is done,
			// before shareDoneMsg) was typed for the form.
			return m, nil
		}
		// Going to a call (History, !) opens the ask it waits on.
		cmd := m.key(msg)
		return m, tea.Batch(cmd, m.openVisibleAsk())
	case tea.PasteMsg:
		if c, ok := m.modal.(*capsModal); ok {
			c.paste(msg.Content)
			return m, nil
		}
		if s, ok := m.modal.(*saveModal); ok {
			s.paste(msg.Content)
			return m, nil
		}
		if l := m.filtering(); l != nil {
			l.setFilter(l.filter + strings.ReplaceAll(msg.Content, "\n", " "))
			m.fixCursor(l)
		}
		return m, nil
	}
	return m, nil
}

type shareDoneMsg struct{}

func (m *Model) setStatus(s string, isErr bool) {
	m.status, m.statusErr = s, isErr
}

// consume takes a batch of events from the feed.
func (m *Model) consume(b batchMsg) tea.Cmd {
	var cmds []tea.Cmd
	if b.dropped > 0 {
		m.act.add(actRow{at: m.o.Now(), kind: kindWarn, text: fmt.Sprintf("%d events came faster than the screen could take them and were left out", b.dropped)})
	}
	for _, ev := range b.events {
		switch ev := ev.(type) {
		case *share:
			cmds = append(cmds, m.arrived(ev))
		case logEvent:
			m.act.addLog(ev)
		case progressEvent:
			m.progress(ev)
		case stepEvent:
			m.step(ev)
		case recordedEvent:
			m.recorded(ev.call)
		case listEvent:
			m.act.add(actRow{at: ev.at, kind: kindNote, text: fmt.Sprintf("the server says its %s list changed; reading it again", ev.list)})
			switch ev.list {
			case "tools":
				cmds = append(cmds, m.load(tabTools))
			case "prompts":
				cmds = append(cmds, m.load(tabPrompts))
			case "resources":
				cmds = append(cmds, m.load(tabResources))
			}
		case updatedEvent:
			m.act.add(actRow{at: ev.at, kind: kindNote, text: "resource updated: " + render.Line(ev.uri)})
		case noteEvent:
			kind := kindNote
			switch ev.kind {
			case "warn":
				kind = kindWarn
			case "stderr":
				kind = kindStderr
			}
			m.act.add(actRow{at: ev.at, kind: kind, text: ev.text})
		case wireEvent:
			m.act.addWire(ev.ev)
		}
	}
	return tea.Batch(cmds...)
}

// relayout lays results out again for a new width.
func (m *Model) relayout() tea.Cmd {
	m.detail = detailCache{}
	if m.viewing != nil && m.viewing.view != nil {
		return m.layoutCmd(m.viewing)
	}
	return nil
}

// Sizes.

// bodyHeight is the rows between the header (bar, tabs, rule, and while
// the connection is down the reason for it) and the footer (rule, keys).
func (m *Model) bodyHeight() int { return max(m.height-5-len(m.lostBanner()), 3) }

// View implements tea.Model.
func (m *Model) View() tea.View {
	var b strings.Builder
	b.Grow(m.width * m.height * 2)
	if !m.quitting {
		m.frame(&b)
	}
	if c, ok := m.modal.(*confirmModal); ok {
		c.g.Drawn()
	}
	v := tea.NewView(b.String())
	v.AltScreen = true
	return v
}

func (m *Model) frame(b *strings.Builder) {
	w := m.width
	b.WriteString(m.bar())
	b.WriteByte('\n')
	b.WriteString(m.tabsLine())
	b.WriteByte('\n')
	b.WriteString(m.st.rule.Render(strings.Repeat("─", w)))
	b.WriteByte('\n')
	for _, l := range m.lostBanner() {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	body := m.body()
	h := m.bodyHeight()
	for i := 0; i < h; i++ {
		if i < len(body) {
			b.WriteString(body[i])
		}
		b.WriteByte('\n')
	}
	b.WriteString(m.bottomRule())
	b.WriteByte('\n')
	b.WriteString(clip(m.footer(), w))
}

func (m *Model) bar() string {
	s := m.server
	name := render.Line(s.Display())
	if s.Version != "" {
		name += " " + render.Line(s.Version)
	}
	state := ""
	if cs := m.connState(); cs != "" {
		state = " · " + cs
	}
	var facts string
	for _, negotiated := range []bool{true, false} {
		proto := s.Protocol
		if m.o.Negotiated != "" && negotiated {
			proto += " (" + m.o.Negotiated + ")"
		}
		parts := []string{proto}
		if m.o.Transport != "" {
			parts = append(parts, m.o.Transport)
		}
		if l := m.c.LogLevel(); l != "" {
			parts = append(parts, "log "+l)
		}
		facts = " · " + strings.Join(parts, " · ")
		if state == "" || m.width-len(" mcpcli ▸ ")-ansi.StringWidth(facts+state) >= 12 {
			break
		}
		// The connection's state is worth more than how it was negotiated
		// (Activity says that).
	}
	// The facts and the state stay whole; the server's name gives way.
	room := max(m.width-len(" mcpcli ▸ ")-ansi.StringWidth(facts+state), 12)
	return clip(" mcpcli ▸ "+m.st.title.Render(clip(name, room))+m.st.dim.Render(facts)+m.st.err.Render(state), m.width)
}

func (m *Model) tabsLine() string {
	var parts []string
	for t := tab(0); t < numTabs; t++ {
		label := tabNames[t]
		switch t {
		case tabTools, tabPrompts, tabResources:
			switch {
			case m.notOffered[t]:
				label += " –"
			case m.loadErr[t] != nil:
				label += " !" // no count: the server sent no list
			case t == tabResources && m.loaded[t] && m.tmpl != nil && len(m.tmpl.Templates) > 0:
				label += fmt.Sprintf(" %d+%d", len(m.lists[t].items)-len(m.tmpl.Templates), len(m.tmpl.Templates))
			case m.loaded[t]:
				label += fmt.Sprintf(" %d", len(m.lists[t].items))
			default:
				label += " …"
			}
		case tabActivity:
			if m.running > 0 {
				label += fmt.Sprintf(" ▶%d", m.running)
			}
			if n := m.act.unseen; n > 0 && m.tab != tabActivity {
				label += fmt.Sprintf(" ●%d", n)
			}
		case tabHistory:
			if len(m.calls) > 0 {
				label += fmt.Sprintf(" %d", len(m.calls))
			}
		}
		if t == m.tab && m.viewing == nil {
			parts = append(parts, m.st.tabOn.Render(" "+label+" "))
		} else {
			parts = append(parts, " "+label+" ")
		}
	}
	line := strings.Join(parts, " ")
	if n := len(m.waiting()); n > 0 {
		// The mark stays whole; the tabs give way.
		mark := m.st.warn.Render(fmt.Sprintf("! %d ask%s", n, plural.S(n)))
		return clip(line, m.width-ansi.StringWidth(mark)-2) + "  " + mark
	}
	return clip(line, m.width)
}

// bottomRule is the rule above the keys; an ask that waits, or else a
// status message, sits in it.
func (m *Model) bottomRule() string {
	w := m.width
	status, style := m.status, m.st.title
	if m.statusErr {
		style = m.st.err
	}
	if a := m.askLine(); a != "" {
		status, style = a, m.st.warn
	}
	if status == "" {
		return m.st.rule.Render(strings.Repeat("─", w))
	}
	text := " " + clip(status, w-4) + " "
	return m.st.rule.Render("─") + style.Render(text) + m.st.rule.Render(strings.Repeat("─", max(w-1-len([]rune(text)), 0)))
}

func (m *Model) body() []string {
	if m.modal != nil {
		if v := m.modal.view(m); v != nil {
			return v
		}
	}
	if m.viewing != nil {
		return m.callView(m.viewing)
	}
	switch m.tab {
	case tabActivity:
		return m.activityView()
	case tabHistory:
		return m.historyView()
	}
	return m.browseView()
}

// footer is the keys of the pane on screen, from the keymap (keys.go).
func (m *Model) footer() string {
	if m.modal != nil {
		return m.modal.keys(m)
	}
	if l := m.filtering(); l != nil {
		return " type to filter (name, title, description) · ↑/↓ move · enter keep · esc clear"
	}
	if m.viewing == nil && m.tab == tabActivity && m.act.find.typing {
		return " type to search the rows · enter keep · esc clear · ↑/↓ move"
	}
	var first []string
	if len(m.waiting()) > 0 {
		first = append(first, m.st.warn.Render("! answer"))
	}
	if c := m.viewing; c != nil {
		if !m.split() {
			first = append(first, "t timeline")
		}
		return footerWithout(paneCall, m.width, c.idleKey, first...)
	}
	return footerOf(m.pane(), m.width, first...)
}
