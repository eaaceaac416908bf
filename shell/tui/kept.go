package tui

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/transport"
)

// The session keeps each result as the bytes the server sent, once: not
// decoded, not laid out, except the one on screen, which is laid out again
// from its bytes when it is shown. The bytes kept in memory are bounded by
// a budget (Options.ResultBudget); past it, the results used least lately
// are spilled to files in a private directory (removed when the session
// ends), up to MaxSpilled; past that they are dropped, and the History says
// so: r sends the request again.

// DefaultResultBudget is the memory the results of a session are kept in
// when Options.ResultBudget is 0.
const DefaultResultBudget = 64 << 20

// Budget is a session's --result-budget (a pflag.Value): a size, as
// transport.ParseSize reads it, of at least 1 MiB.
type Budget int64

func (b *Budget) String() string { return transport.FormatSize(int64(*b)) }
func (b *Budget) Type() string   { return "SIZE" }

func (b *Budget) Set(s string) error {
	n, err := transport.ParseSize(s)
	if err != nil {
		return err
	}
	if n < 1<<20 {
		return fmt.Errorf("%q is less than 1MiB, too small to keep a result of any size", s)
	}
	*b = Budget(n)
	return nil
}

// MaxSpilled bounds the results spilled to disk; past it, the oldest are
// dropped.
const MaxSpilled = 1 << 30

type keptState int

const (
	keptMemory   keptState = iota // its bytes in memory
	keptSpilling                  // in memory, being written to disk
	keptDisk                      // in a file
	keptDropped                   // gone: r sends the request again
)

// keptResult is one call's result as the session keeps it.
type keptResult struct {
	c     *call
	raw   json.RawMessage // keptMemory, keptSpilling
	path  string          // keptDisk
	size  int64
	state keptState
	why   string // keptDropped: why
	used  int    // when it was last kept or shown: the least lately used go first
	// reading: a view is being made from it.
	reading bool
}

// results are the session's kept results and their budget.
type results struct {
	budget   int64 // bytes in memory
	spillMax int64 // bytes on disk
	inMemory int64
	onDisk   int64
	byID     map[int]*keptResult
	clock    int
	dir      string // the private directory, made at the first spill
	viewing  *call  // the call on screen when last settled
	views    []*call
	dirty    bool
}

func newResults(budget int64) *results {
	if budget <= 0 {
		budget = DefaultResultBudget
	}
	return &results{budget: budget, spillMax: MaxSpilled, byID: map[int]*keptResult{}}
}

// keep takes a call's result in: its decoded form is let go at once (the
// view made from it stays while it is on screen); its bytes are kept.
func (m *Model) keep(c *call, res *client.Result, view *resultView) {
	r := m.kept
	r.clock++
	c.result = slim(res)
	c.view = view
	if view != nil {
		r.views = append(r.views, c)
	}
	k := &keptResult{c: c, raw: res.Raw, size: int64(len(res.Raw)), used: r.clock}
	if res.Raw == nil && view != nil {
		// Not seen on the wire: the view is all there is, and counts.
		k.size = int64(view.size)
	}
	r.byID[c.id] = k
	r.inMemory += k.size
	r.dirty = true
}

// slim is what the session needs of a result once its view is made:
// whether the tool said isError.
func slim(res *client.Result) *client.Result {
	out := &client.Result{Method: res.Method, Target: res.Target, Rounds: res.Rounds}
	if res.Tool != nil {
		out.Tool = &mcp.CallToolResult{IsError: res.Tool.IsError}
	}
	return out
}

// settle lets go of the views of calls no longer on screen, and keeps the
// bytes in memory within the budget. It runs after every message, and
// costs nothing when nothing changed.
func (m *Model) settle() tea.Cmd {
	r := m.kept
	if !r.dirty && r.viewing == m.viewing {
		return nil
	}
	r.dirty = false
	r.viewing = m.viewing
	var cmds []tea.Cmd
	if c := m.viewing; c != nil {
		if k := r.byID[c.id]; k != nil {
			r.clock++
			k.used = r.clock
			if c.view == nil {
				cmds = append(cmds, m.restore(c))
			}
		}
	}
	// Views: only the call on screen keeps one, when its bytes can make
	// it again.
	views := r.views[:0]
	for _, c := range r.views {
		k := r.byID[c.id]
		if c != m.viewing && c.view != nil && k != nil && (k.raw != nil || k.path != "") {
			c.view = nil
			continue
		}
		if c.view != nil {
			views = append(views, c)
		}
	}
	clear(r.views[len(views):])
	r.views = views
	for r.inMemory > r.budget {
		k := r.leastUsed(func(k *keptResult) bool {
			return k.state == keptMemory && k.c != m.viewing && k.size > 0
		})
		if k == nil {
			break
		}
		cmds = append(cmds, m.spill(k))
	}
	return tea.Batch(cmds...)
}

// leastUsed is the kept result used least lately among those ok takes.
func (r *results) leastUsed(ok func(*keptResult) bool) *keptResult {
	var best *keptResult
	for _, k := range r.byID {
		if ok(k) && (best == nil || k.used < best.used) {
			best = k
		}
	}
	return best
}

type spilledMsg struct {
	id   int
	path string
	err  error
}

// spill writes a result's bytes to its file, or drops it when there are
// none to write or no room on disk.
func (m *Model) spill(k *keptResult) tea.Cmd {
	r := m.kept
	if k.raw == nil {
		m.drop(k, fmt.Sprintf("over the session's %s budget", size(r.budget)))
		return nil
	}
	for r.onDisk+k.size > r.spillMax {
		old := r.leastUsed(func(o *keptResult) bool { return o.state == keptDisk && o.c != m.viewing })
		if old == nil {
			break
		}
		m.drop(old, fmt.Sprintf("over the session's %s budget and %s on disk", size(r.budget), size(r.spillMax)))
	}
	if r.onDisk+k.size > r.spillMax {
		m.drop(k, fmt.Sprintf("over the session's %s budget and %s on disk", size(r.budget), size(r.spillMax)))
		return nil
	}
	if r.dir == "" {
		dir, err := os.MkdirTemp("", "mcpcli-results-")
		if err != nil {
			m.drop(k, fmt.Sprintf("over the session's %s budget, and it could not be written to disk (%v)", size(r.budget), err))
			return nil
		}
		r.dir = dir
	}
	// Counted in memory until it is written, and on disk from now.
	k.state = keptSpilling
	r.onDisk += k.size
	id, raw, path := k.c.id, k.raw, filepath.Join(r.dir, strconv.Itoa(k.c.id)+".json")
	// Spilling does not wait for the write: what is over the budget
	// is counted as on its way out.
	r.inMemory -= k.size
	return func() tea.Msg {
		err := os.WriteFile(path, raw, 0o600)
		return spilledMsg{id: id, path: path, err: err}
	}
}

// spilled finishes a spill: the bytes are let go, or, when the write
// failed, the result is dropped.
func (m *Model) spilled(msg spilledMsg) {
	k := m.kept.byID[msg.id]
	if k == nil || k.state != keptSpilling {
		if msg.err == nil {
			_ = os.Remove(msg.path) // dropped while it was written
		}
		return
	}
	if msg.err != nil {
		m.kept.onDisk -= k.size
		k.raw = nil // counted out of memory already
		m.drop(k, fmt.Sprintf("over the session's %s budget, and it could not be written to disk (%v)", size(m.kept.budget), msg.err))
		return
	}
	k.state, k.path, k.raw = keptDisk, msg.path, nil
}

// drop lets a result go for good: the History says why, and r runs it
// again.
func (m *Model) drop(k *keptResult, why string) {
	r := m.kept
	switch k.state {
	case keptMemory:
		r.inMemory -= k.size
	case keptSpilling:
		r.onDisk -= k.size // its file goes when the write is done
	case keptDisk:
		r.onDisk -= k.size
		_ = os.Remove(k.path)
	}
	k.state, k.raw, k.path, k.why = keptDropped, nil, "", why
	if k.c != m.viewing {
		k.c.view = nil
	}
}

// dropped says why a call's result is no longer kept, or "".
func (m *Model) dropped(c *call) string {
	if k := m.kept.byID[c.id]; k != nil && k.state == keptDropped {
		return "result dropped: " + k.why + "; r re-runs"
	}
	return ""
}

type restoredMsg struct {
	id   int
	view *resultView
	err  error
}

// restore makes the view of a call shown again from its kept bytes.
func (m *Model) restore(c *call) tea.Cmd {
	k := m.kept.byID[c.id]
	if k == nil || k.reading || k.state == keptDropped {
		return nil
	}
	k.reading = true
	id, method, target, raw, path := c.id, c.method, c.target, k.raw, k.path
	return func() tea.Msg {
		if raw == nil {
			b, err := os.ReadFile(path)
			if err != nil {
				return restoredMsg{id: id, err: err}
			}
			raw = b
		}
		res, err := client.DecodeResult(method, target, raw)
		if err != nil {
			return restoredMsg{id: id, err: err}
		}
		return restoredMsg{id: id, view: newResultView(res)}
	}
}

// restored puts a view made again in place, and lays it out.
func (m *Model) restored(msg restoredMsg) tea.Cmd {
	c, k := m.byID[msg.id], m.kept.byID[msg.id]
	if c == nil || k == nil {
		return nil
	}
	k.reading = false
	if msg.err != nil {
		m.drop(k, "reading it back failed ("+msg.err.Error()+")")
		return nil
	}
	if c != m.viewing || k.state == keptDropped {
		return nil
	}
	c.view = msg.view
	m.kept.views = append(m.kept.views, c)
	return m.layoutCmd(c)
}

// keptPane is the result pane of a call whose view is not made: being
// read back, or dropped.
func (m *Model) keptPane(c *call, w int) []string {
	if why := m.dropped(c); why != "" {
		var out []string
		for _, l := range strings.Split(ansi.Wrap(why, max(w, 10), ""), "\n") {
			out = append(out, m.st.warn.Render(l))
		}
		return out
	}
	if k := m.kept.byID[c.id]; k != nil {
		return []string{m.st.dim.Render("reading the result back (" + render.Size(int(k.size)) + ")…")}
	}
	return nil
}

// size is a budget as its flag spells it: 64MiB.
func size(n int64) string { return transport.FormatSize(n) }

// closeResults removes the spilled results.
func (m *Model) closeResults() {
	if m.kept.dir != "" {
		_ = os.RemoveAll(m.kept.dir)
		m.kept.dir = ""
	}
}
