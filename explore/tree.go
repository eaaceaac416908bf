package explore

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/flow"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/request"
	"github.com/mcpcli/mcpcli/schema"
)

// The tree: a request made again and again, each time answering the
// server's asks another way, until every answer to every ask it makes has
// been tried: accept (with Values), decline and cancel. Where a round
// holds several asks, each is declined or cancelled in turn while the
// others accept, so a round of n asks has 1+2n branches, not 3^n.

// DefaultMaxBranches bounds the requests one tool's tree makes.
const DefaultMaxBranches = 64

// Plug is the session's Answerer while a tree is explored: each branch
// plugs its own in. Connect the session with it.
type Plug = client.Switch

// Choice is how one round was answered: each key's action.
type Choice map[string]string

func (c Choice) String(keys []string) string {
	parts := make([]string, len(keys))
	for i, k := range keys {
		a := c[k]
		if a == "" {
			a = client.Accept
		}
		parts[i] = k + ":" + a
	}
	return strings.Join(parts, ", ")
}

// Branch is one way through a request: the answers chosen round by
// round, and how the server ended it.
type Branch struct {
	// Path is each round's choice, with the keys the round asked (in
	// order).
	Path []Step
	// Run is the request as it went, for a flow file.
	Run flow.Run
	// Cut says the branch was not explored further: the bound on
	// branches was reached.
	Cut bool
}

// Step is one round of a branch.
type Step struct {
	Round  int
	Keys   []string
	Choice Choice
}

// PathString is the branch's answers: `basics:accept → details:decline`.
func (b Branch) PathString() string {
	if len(b.Path) == 0 {
		return "(no ask)"
	}
	parts := make([]string, len(b.Path))
	for i, s := range b.Path {
		parts[i] = s.Choice.String(s.Keys)
	}
	return strings.Join(parts, " → ")
}

// Outcome is what the server did at the branch's end, in words: the
// result's text (cut), isError, the error.
func (b Branch) Outcome() string {
	r := b.Run
	switch {
	case r.Err != nil:
		return "error: " + cut(r.Err.Error())
	case r.Result == nil:
		return "no result"
	}
	text := resultText(r.Result)
	if r.Result.IsError() {
		return "isError: " + cut(text)
	}
	return "result: " + cut(text)
}

func cut(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 60 {
		return string(r[:59]) + "…"
	}
	return s
}

func resultText(r *client.Result) string {
	var parts []string
	switch {
	case r.Tool != nil:
		for _, c := range r.Tool.Content {
			if t, ok := c.(*mcp.TextContent); ok {
				parts = append(parts, t.Text)
			}
		}
	case r.Prompt != nil:
		for _, m := range r.Prompt.Messages {
			if t, ok := m.Content.(*mcp.TextContent); ok {
				parts = append(parts, t.Text)
			}
		}
	case r.Resource != nil:
		for _, c := range r.Resource.Contents {
			parts = append(parts, c.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// Options bound a tree.
type Options struct {
	// MaxBranches bounds the requests made (DefaultMaxBranches when 0);
	// the rounds of each are bounded by the session's own MaxRounds.
	MaxBranches int
}

// Tree explores req on s (connected with plug as its Answerer): every
// branch of answers, depth first, accept first.
func Tree(ctx context.Context, s request.Sender, plug *Plug, req *request.Request, o Options) []Branch {
	if o.MaxBranches <= 0 {
		o.MaxBranches = DefaultMaxBranches
	}
	t := &tree{s: s, plug: plug, req: req, max: o.MaxBranches}
	t.walk(ctx, nil)
	return t.out
}

type tree struct {
	s    request.Sender
	plug *Plug
	req  *request.Request
	max  int
	out  []Branch
}

// walk runs the request with prefix's choices, then accept in every round
// after them, and branches on each round past the prefix.
func (t *tree) walk(ctx context.Context, prefix []Choice) {
	if len(t.out) >= t.max || ctx.Err() != nil {
		if len(t.out) > 0 {
			t.out[len(t.out)-1].Cut = true
		}
		return
	}
	b := t.one(ctx, prefix)
	t.out = append(t.out, b)
	for j := len(b.Path) - 1; j >= len(prefix); j-- { // the deepest first: a table reads as a tree
		base := make([]Choice, j)
		copy(base, prefix)
		for i := len(prefix); i < j; i++ {
			base[i] = Choice{}
		}
		for _, k := range b.Path[j].Keys {
			for _, action := range []string{client.Decline, client.Cancel} {
				t.walk(ctx, append(append([]Choice(nil), base...), Choice{k: action}))
			}
		}
	}
}

// one makes the request once, answering round i with prefix[i] (accept
// for a key it does not name, and in the rounds after it).
func (t *tree) one(ctx context.Context, prefix []Choice) Branch {
	var mu sync.Mutex
	var path []Step
	chooser := client.AnswererFunc(func(ctx context.Context, r client.Round) (map[string]*mcp.ElicitResult, error) {
		i := r.Number - 1
		choice := Choice{}
		if i >= 0 && i < len(prefix) {
			choice = prefix[i]
		}
		out := map[string]*mcp.ElicitResult{}
		var keys []string
		for _, a := range r.Asks {
			keys = append(keys, a.Key)
			out[a.Key] = answer(a, choice[a.Key])
		}
		sort.Strings(keys)
		mu.Lock()
		path = append(path, Step{Round: r.Number, Keys: keys, Choice: choice})
		mu.Unlock()
		return out, nil
	})
	freq := flow.Request{Kind: t.req.Verb(), Target: t.req.Target}
	if t.req.Method != request.ResourcesRead && len(t.req.Args) > 0 {
		freq.Args, _ = json.Marshal(t.req.Args)
	}
	tape := flow.Record(freq, chooser)
	t.plug.Set(tape)
	res, err := request.Send(ctx, t.s, t.req, 0)
	t.plug.Set(nil)
	mu.Lock()
	defer mu.Unlock()
	return Branch{Path: path, Run: tape.Finish(res, err)}
}

// answer is action for ask a; accept with values that fit its form.
func answer(a client.Ask, action string) *mcp.ElicitResult {
	switch action {
	case client.Decline, client.Cancel:
		return &mcp.ElicitResult{Action: action}
	}
	if a.Mode() == "url" {
		return &mcp.ElicitResult{Action: client.Accept}
	}
	if a.Form == nil {
		return &mcp.ElicitResult{Action: client.Cancel}
	}
	content, err := Values(a.Form)
	if err != nil {
		return &mcp.ElicitResult{Action: client.Cancel} // nothing fits: the branch says what the server did then
	}
	return &mcp.ElicitResult{Action: client.Accept, Content: content}
}

// Arguments are a tool's arguments made up from its inputSchema, when it
// is a flat form Values can fill; otherwise an error that says why.
func Arguments(inputSchema json.RawMessage) (map[string]any, error) {
	form, err := schema.Parse(inputSchema)
	if err != nil {
		return nil, err
	}
	if !form.Renderable() {
		return nil, fmt.Errorf("its inputSchema is not a flat form (%s): give its arguments", form.Problems[0].Reason)
	}
	if len(form.Fields) == 0 {
		return map[string]any{}, nil
	}
	return Values(form)
}

// Table writes branches as a table: the tool, the path of answers, and
// what the server did.
func Table(w io.Writer, tool string, branches []Branch) error {
	var b strings.Builder
	pw := len("ANSWERS")
	for _, br := range branches {
		pw = max(pw, len([]rune(br.PathString())))
	}
	tw := max(len("TOOL"), len([]rune(tool)))
	for i, br := range branches {
		if i == 0 {
			fmt.Fprintf(&b, "%-*s  %-*s  %s\n", tw, "TOOL", pw, "ANSWERS", "OUTCOME")
		}
		out := br.Outcome()
		if br.Cut {
			out += " (bound reached: not explored further)"
		}
		fmt.Fprintf(&b, "%-*s  %-*s  %s\n", tw, render.Line(tool), pw, render.Line(br.PathString()), render.Line(out))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Lister is what Tools needs of a session besides sending.
type Lister interface {
	request.Sender
	ListTools(ctx context.Context) (*client.ToolList, error)
}

// ToolTree is one tool's tree, or why it was skipped.
type ToolTree struct {
	Tool     string
	Args     map[string]any
	Branches []Branch
	Skipped  string
}

// Tools explores each tool of names (every tool the server lists, with
// all): args are the arguments of each call, or, when nil, made up from
// each tool's inputSchema (Arguments); a tool they cannot be made for is
// skipped, with the reason.
func Tools(ctx context.Context, s Lister, plug *Plug, names []string, all bool, args map[string]any, o Options) ([]ToolTree, error) {
	list, err := s.ListTools(ctx)
	if err != nil {
		return nil, err
	}
	byName := map[string]*mcp.Tool{}
	for _, t := range list.Tools {
		byName[t.Name] = t
	}
	if all {
		names = nil
		for _, t := range list.Tools {
			names = append(names, t.Name)
		}
	}
	var out []ToolTree
	for _, n := range names {
		tt := ToolTree{Tool: n, Args: args}
		tool := byName[n]
		switch {
		case tool == nil:
			tt.Skipped = "the server lists no such tool"
		case args == nil:
			raw, _ := json.Marshal(tool.InputSchema)
			a, err := Arguments(raw)
			if err != nil {
				tt.Skipped = err.Error()
			}
			tt.Args = a
		}
		if tt.Skipped == "" {
			tt.Branches = Tree(ctx, s, plug, &request.Request{Method: request.ToolsCall, Target: n, Args: tt.Args}, o)
		}
		out = append(out, tt)
		if ctx.Err() != nil {
			return out, ctx.Err()
		}
	}
	return out, nil
}
