package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/internal/jsonpeek"
	"github.com/mcpcli/mcpcli/schema"
)

// MaxListPages bounds how many pages of one list mcpcli reads, and
// MaxListItems how many items: a server that always sends a new nextCursor
// would otherwise be listed until memory ran out.
const (
	MaxListPages = 1000
	MaxListItems = 100_000
)

// ToolList is every tool a server lists.
type ToolList struct {
	Tools []*mcp.Tool
	// Raw is each kept tool exactly as the server sent it (its
	// inputSchema's keys in the server's order), by name.
	Raw map[string]json.RawMessage
	// Dropped are the tools the server listed that cannot be called as
	// listed (invalid x-mcp-header annotations), and why.
	Dropped []DroppedTool
	// Kept, when set, is when the list was read in an earlier run: it
	// comes from the tool cache (ToolCache), still fresh.
	Kept time.Time
}

// DroppedTool is a listed tool left out of ToolList.Tools.
type DroppedTool struct {
	Name   string
	Reason string
}

// PromptList is every prompt a server lists.
type PromptList struct {
	Prompts []*mcp.Prompt
	Raw     map[string]json.RawMessage
}

// ResourceList is every resource a server lists.
type ResourceList struct {
	Resources []*mcp.Resource
	Raw       map[string]json.RawMessage // by URI
}

// listCache keeps the tool list: calls that need a tool's schema share it.
type listCache struct {
	mu    sync.Mutex
	tools *ToolList
}

// forget drops the cached tool list: the server said it changed.
func (c *listCache) forget() {
	c.mu.Lock()
	c.tools = nil
	c.mu.Unlock()
}

// PageCycleError is a server whose nextCursor comes back to one it gave
// before: its pages go round in a circle.
type PageCycleError struct {
	Server string
	Method string
	Cursor string
	Page   int
}

func (e *PageCycleError) Error() string {
	return fmt.Sprintf("server \"%s\" sent nextCursor %q again on page %d of %s: its pages go round in a circle, a bug in the server", e.Server, e.Cursor, e.Page, e.Method)
}

// PageLimitError is a list longer than mcpcli reads.
type PageLimitError struct {
	Server string
	Method string
	Pages  int
	Items  int
	// InPage: page Pages alone held more items than were left to read
	// (Items were read before it).
	InPage bool
}

func (e *PageLimitError) Error() string {
	if e.InPage {
		return fmt.Sprintf("server \"%s\" sent more items of %s than mcpcli reads: page %d alone holds more than the %d left after %d items; mcpcli reads at most %d pages or %d items of a list",
			e.Server, e.Method, e.Pages, MaxListItems-e.Items, e.Items, MaxListPages, MaxListItems)
	}
	return fmt.Sprintf("server \"%s\" still had more of %s after %d pages and %d items; mcpcli reads at most %d pages or %d items of a list (a server that always sends a new nextCursor never ends)",
		e.Server, e.Method, e.Pages, e.Items, MaxListPages, MaxListItems)
}

// ListError is a list request the server did not answer with a list: an
// error (Err), or a result of another kind (ResultType: input_required,
// which only tools/call, prompts/get and resources/read may be answered
// with).
type ListError struct {
	Server     string
	Method     string
	ResultType string
	// InputRequests: the result carried inputRequests (with or without
	// a resultType).
	InputRequests bool
	Err           error
}

func (e *ListError) Error() string {
	what := ""
	switch {
	case e.ResultType != "":
		what = fmt.Sprintf("resultType %q", e.ResultType)
	case e.InputRequests:
		what = "inputRequests"
	}
	if what != "" {
		return fmt.Sprintf("server \"%s\" answered %s with %s instead of a list; only tools/call, prompts/get and resources/read may ask for input, so this is a bug in the server, and it listed nothing",
			e.Server, e.Method, what)
	}
	return fmt.Sprintf("server \"%s\" answered %s with an error: %v", e.Server, e.Method, e.Err)
}

func (e *ListError) Unwrap() error { return e.Err }

// NotOfferedError is a list of what the server does not offer: it declares
// no prompts (or resources) capability, so mcpcli does not ask.
type NotOfferedError struct {
	Server  string
	Feature string // prompts, resources
}

func (e *NotOfferedError) Error() string {
	return fmt.Sprintf("server \"%s\" does not offer %s (it declares no %s capability)", e.Server, e.Feature, e.Feature)
}

// Offers reports whether the server declares the capability of a feature
// ("tools", "prompts", "resources").
func (s *Session) Offers(feature string) bool {
	c := s.Capabilities()
	switch feature {
	case "tools":
		return c.Tools != nil
	case "prompts":
		return c.Prompts != nil
	case "resources":
		return c.Resources != nil
	}
	return false
}

// pages reads every page of a list. page returns its items and the next
// cursor. Each raw item (of the member resultField names) is handed to
// keep with its key.
func pages[T any](ctx context.Context, s *Session, method string, page func(ctx context.Context, cursor string) ([]T, string, error), keyOf func(raw []byte) string, keep func(key string, raw json.RawMessage)) ([]T, error) {
	var all []T
	seen := map[string]bool{}
	cursor := ""
	for n := 1; ; n++ {
		// The bound holds within a page too: the wire stubs a page with
		// more items than are left before the go-sdk decodes it.
		ex := &exchange{maxItems: MaxListItems - len(all)}
		var items []T
		var next string
		err := s.timed(ctx, func(ctx context.Context) error {
			var err error
			items, next, err = page(withExchange(ctx, ex), cursor)
			return err
		})
		var te *TimeoutError
		if errors.As(err, &te) {
			return nil, err
		}
		var je *jsonrpc.Error
		if errors.As(err, &je) {
			return nil, &ListError{Server: s.server.Display(), Method: method, Err: err}
		}
		if err != nil {
			return nil, fmt.Errorf("listing %s: %w", method, err)
		}
		ex.mu.Lock()
		over := ex.overItems
		ex.mu.Unlock()
		if over {
			return nil, &PageLimitError{Server: s.server.Display(), Method: method, Pages: n, Items: len(all), InPage: true}
		}
		raw, sent := ex.read()
		if sent.resultType != "" && sent.resultType != "complete" || sent.keys != nil {
			// The go-sdk reads such an answer as an empty list: the
			// server sent no list at all.
			return nil, &ListError{Server: s.server.Display(), Method: method, ResultType: sent.resultType, InputRequests: sent.keys != nil}
		}
		all = append(all, items...)
		if raw != nil && keep != nil && sent.field != nil {
			_ = jsonpeek.Array(sent.field, func(v []byte) bool { keep(keyOf(v), v); return true })
		}
		if next == "" {
			return all, nil
		}
		if seen[next] {
			return nil, &PageCycleError{Server: s.server.Display(), Method: method, Cursor: next, Page: n}
		}
		if n >= MaxListPages || len(all) >= MaxListItems {
			return nil, &PageLimitError{Server: s.server.Display(), Method: method, Pages: n, Items: len(all)}
		}
		seen[next] = true
		cursor = next
	}
}

func nameOf(raw []byte) string {
	s, _ := jsonpeek.String(jsonpeek.Get(raw, "name"))
	return s
}

// ListTools lists every tool. Tools whose x-mcp-header annotations are
// invalid are left out, in Dropped with the reason.
func (s *Session) ListTools(ctx context.Context) (*ToolList, error) {
	raw := map[string]json.RawMessage{}
	var listed []string
	var paged pageCache
	tools, err := pages(ctx, s, "tools/list", func(ctx context.Context, cursor string) ([]*mcp.Tool, string, error) {
		res, err := s.cs.ListTools(ctx, &mcp.ListToolsParams{Cursor: cursor})
		if err != nil {
			return nil, "", err
		}
		paged.page(res.TTLMs, res.CacheScope)
		return res.Tools, res.NextCursor, nil
	}, nameOf, func(name string, v json.RawMessage) {
		raw[name] = v
		listed = append(listed, name)
	})
	if err != nil {
		return nil, err
	}
	out := &ToolList{Raw: map[string]json.RawMessage{}}
	kept := map[string]bool{}
	for _, t := range tools {
		r := raw[t.Name]
		if err := schema.MisplacedHeader(jsonpeek.Get(r, "inputSchema")); err != nil {
			out.Dropped = append(out.Dropped, DroppedTool{Name: t.Name, Reason: err.Error()})
			continue
		}
		out.Tools = append(out.Tools, t)
		if r != nil {
			out.Raw[t.Name] = r
		}
		kept[t.Name] = true
	}
	for _, name := range listed {
		if !kept[name] && !slices.ContainsFunc(out.Dropped, func(d DroppedTool) bool { return d.Name == name }) {
			reason := s.dropped.get(name)
			if reason == "" {
				reason = "the go-sdk refused its definition"
			}
			out.Dropped = append(out.Dropped, DroppedTool{Name: name, Reason: reason})
		}
	}
	sort.SliceStable(out.Dropped, func(i, j int) bool { return out.Dropped[i].Name < out.Dropped[j].Name })
	s.lists.mu.Lock()
	s.lists.tools = out
	s.lists.mu.Unlock()
	s.keepTools(out, &paged)
	return out, nil
}

// Tool returns the tool called name from the tool list (listed once per
// session, or kept from an earlier run while the server allows), or nil
// with the list when there is none by that name. A kept list without the
// tool is read again before the tool is said not to be there: the server
// may have added it since.
func (s *Session) Tool(ctx context.Context, name string) (*mcp.Tool, *ToolList, error) {
	s.lists.mu.Lock()
	list := s.lists.tools
	s.lists.mu.Unlock()
	if list == nil {
		if list = s.keptTools(); list != nil {
			s.lists.mu.Lock()
			s.lists.tools = list
			s.lists.mu.Unlock()
		}
	}
	if t := list.Find(name); t != nil {
		return t, list, nil
	}
	if list == nil || !list.Kept.IsZero() {
		var err error
		if list, err = s.ListTools(ctx); err != nil {
			return nil, nil, err
		}
	}
	return list.Find(name), list, nil
}

// Find is the tool called name, or nil.
func (l *ToolList) Find(name string) *mcp.Tool {
	if l == nil {
		return nil
	}
	for _, t := range l.Tools {
		if t.Name == name {
			return t
		}
	}
	return nil
}

// RefreshTools reads the tool list again, whatever was kept: a call
// prepared from a kept list was refused in a way that says it may have
// changed.
func (s *Session) RefreshTools(ctx context.Context) (*ToolList, error) {
	s.forgetTools()
	return s.ListTools(ctx)
}

// cachedTool is the raw definition of tool name from the tool list, when
// it was listed in this session.
func (s *Session) cachedTool(name string) json.RawMessage {
	s.lists.mu.Lock()
	defer s.lists.mu.Unlock()
	if s.lists.tools == nil {
		return nil
	}
	return s.lists.tools.Raw[name]
}

// ListPrompts lists every prompt.
func (s *Session) ListPrompts(ctx context.Context) (*PromptList, error) {
	if !s.Offers("prompts") {
		return nil, &NotOfferedError{Server: s.server.Display(), Feature: "prompts"}
	}
	out := &PromptList{Raw: map[string]json.RawMessage{}}
	prompts, err := pages(ctx, s, "prompts/list", func(ctx context.Context, cursor string) ([]*mcp.Prompt, string, error) {
		res, err := s.cs.ListPrompts(ctx, &mcp.ListPromptsParams{Cursor: cursor})
		if err != nil {
			return nil, "", err
		}
		return res.Prompts, res.NextCursor, nil
	}, nameOf, func(name string, v json.RawMessage) { out.Raw[name] = v })
	if err != nil {
		return nil, err
	}
	out.Prompts = prompts
	return out, nil
}

// ListResources lists every resource.
func (s *Session) ListResources(ctx context.Context) (*ResourceList, error) {
	if !s.Offers("resources") {
		return nil, &NotOfferedError{Server: s.server.Display(), Feature: "resources"}
	}
	out := &ResourceList{Raw: map[string]json.RawMessage{}}
	uriOf := func(field string) func([]byte) string {
		return func(raw []byte) string {
			u, _ := jsonpeek.String(jsonpeek.Get(raw, field))
			return u
		}
	}
	keep := func(key string, v json.RawMessage) { out.Raw[key] = v }
	res, err := pages(ctx, s, "resources/list", func(ctx context.Context, cursor string) ([]*mcp.Resource, string, error) {
		res, err := s.cs.ListResources(ctx, &mcp.ListResourcesParams{Cursor: cursor})
		if err != nil {
			return nil, "", err
		}
		return res.Resources, res.NextCursor, nil
	}, uriOf("uri"), keep)
	if err != nil {
		return nil, err
	}
	out.Resources = res
	return out, nil
}

// TemplateList is every resource template a server lists.
type TemplateList struct {
	Templates []*mcp.ResourceTemplate
	Raw       map[string]json.RawMessage // by uriTemplate
}

// ListResourceTemplates lists every resource template.
func (s *Session) ListResourceTemplates(ctx context.Context) (*TemplateList, error) {
	if !s.Offers("resources") {
		return nil, &NotOfferedError{Server: s.server.Display(), Feature: "resources"}
	}
	out := &TemplateList{Raw: map[string]json.RawMessage{}}
	keyOf := func(raw []byte) string {
		u, _ := jsonpeek.String(jsonpeek.Get(raw, "uriTemplate"))
		return u
	}
	ts, err := pages(ctx, s, "resources/templates/list", func(ctx context.Context, cursor string) ([]*mcp.ResourceTemplate, string, error) {
		res, err := s.cs.ListResourceTemplates(ctx, &mcp.ListResourceTemplatesParams{Cursor: cursor})
		if err != nil {
			return nil, "", err
		}
		return res.ResourceTemplates, res.NextCursor, nil
	}, keyOf, func(key string, v json.RawMessage) { out.Raw[key] = v })
	if err != nil {
		return nil, err
	}
	out.Templates = ts
	return out, nil
}

// Prompt returns the prompt called name from the server's list, or nil.
func (s *Session) Prompt(ctx context.Context, name string) (*mcp.Prompt, error) {
	list, err := s.ListPrompts(ctx)
	if err != nil {
		return nil, err
	}
	for _, p := range list.Prompts {
		if p.Name == name {
			return p, nil
		}
	}
	return nil, nil
}

// Completion is what a server suggests for one argument.
type Completion struct {
	Values []string
	// More is set when the server has more values than it sent, or sent
	// more than MaxCompletionValues; Total, when not 0, is how many it
	// has.
	More  bool
	Total int
	// Cut is how many values the server sent past MaxCompletionValues:
	// they are left out (the spec allows no more).
	Cut int
}

// Complete asks the server (completion/complete) for values of argument
// arg of a prompt (ref/prompt, name) or resource template (ref/resource,
// its URI template), given the value typed so far and the arguments
// already chosen. A server without the completions capability is not
// asked: the completion is empty.
func (s *Session) Complete(ctx context.Context, ref *mcp.CompleteReference, arg, value string, given map[string]string) (*Completion, error) {
	if s.Capabilities().Completions == nil {
		return &Completion{}, nil
	}
	p := &mcp.CompleteParams{Ref: ref, Argument: mcp.CompleteParamsArgument{Name: arg, Value: value}}
	if len(given) > 0 {
		p.Context = &mcp.CompleteContext{Arguments: given}
	}
	var res *mcp.CompleteResult
	ex := &exchange{}
	err := s.request(ctx, &inflight{method: "completion/complete", target: arg}, func(ctx context.Context) error {
		var err error
		res, err = s.cs.Complete(withExchange(ctx, ex), p)
		return err
	})
	if err != nil {
		return nil, err
	}
	c := &Completion{Values: res.Completion.Values, More: res.Completion.HasMore, Total: res.Completion.Total}
	ex.mu.Lock()
	sent := max(ex.values, len(c.Values))
	ex.mu.Unlock()
	if sent > MaxCompletionValues {
		c.Values = c.Values[:min(len(c.Values), MaxCompletionValues)]
		c.More, c.Cut = true, sent-MaxCompletionValues
		s.warn(fmt.Sprintf("server \"%s\" sent %d values to complete %q; mcpcli keeps the first %d, the most the spec allows", s.server.Display(), sent, arg, MaxCompletionValues))
	}
	return c, nil
}
