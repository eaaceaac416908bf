// Package demoserver is mcpcli's demo MCP server: every kind of elicitation
// a server author wants to see, over MCP 2026-07-28 multi round-trip
// requests, built on the go-sdk server. `mcpcli demo-server` serves it on
// stdio or HTTP; `mcpcli demo` starts it as a child and walks through it.
package demoserver

import (
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Options configure the demo server.
type Options struct {
	// Secret is the HMAC key for requestState; nil means a random key.
	Secret []byte
	// StateTTL is how long a requestState stays valid (default 10 minutes).
	StateTTL time.Duration
	// Now is the clock (tests move it).
	Now func() time.Time
	// PageAddr is where the connect page listens (default 127.0.0.1:0).
	PageAddr string
	// ConnectPatience is how many retries of connect_account may arrive
	// before the browser step is done, before the tool gives up with a
	// readable result (default 3).
	ConnectPatience int
	// TaskStep is how long each stage of the build_release task takes
	// (default 400ms).
	TaskStep time.Duration
}

// Demo is the demo server.
type Demo struct {
	srv   *mcp.Server
	state *stateBox
	opts  Options

	pageOnce sync.Once
	pageErr  error
	pageURL  string
	page     *http.Server

	mu        sync.Mutex
	connected map[string]bool // connect ids completed in the browser
	beta      bool            // toggle_beta added beta_forecast

	clock clock
	tasks map[string]*demoTask // build_release tasks, by id
}

// Version is the demo server's version.
const Version = "1.0.0"

// New builds the demo server.
func New(opts Options) (*Demo, error) {
	if opts.Secret == nil {
		opts.Secret = make([]byte, 32)
		if _, err := rand.Read(opts.Secret); err != nil {
			return nil, err
		}
	}
	if opts.StateTTL <= 0 {
		opts.StateTTL = 10 * time.Minute
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.PageAddr == "" {
		opts.PageAddr = "127.0.0.1:0"
	}
	if opts.ConnectPatience <= 0 {
		opts.ConnectPatience = 3
	}
	if opts.TaskStep <= 0 {
		opts.TaskStep = 400 * time.Millisecond
	}
	d := &Demo{
		state:     &stateBox{key: opts.Secret, ttl: opts.StateTTL, now: opts.Now},
		opts:      opts,
		connected: map[string]bool{},
	}
	d.srv = mcp.NewServer(&mcp.Implementation{Name: "mcpcli-demo", Title: "mcpcli demo server", Version: Version}, &mcp.ServerOptions{
		Instructions:      "A demo of MCP elicitations: confirmations, choices, forms, URL mode, a wizard carried in requestState, and asks from prompts and resources.",
		CompletionHandler: d.complete,
		Capabilities: &mcp.ServerCapabilities{
			Logging:    &mcp.LoggingCapabilities{},
			Extensions: map[string]any{TasksExtension: map[string]any{}},
		},
		SubscribeHandler:   d.subscribe,
		UnsubscribeHandler: d.unsubscribe,
	})
	d.addTools()
	d.addReachTools()
	d.addReachResources()
	d.addGreetingPrompt()
	if err := d.addTaskTool(); err != nil {
		return nil, err
	}
	d.addPrompt()
	d.addResource()
	return d, nil
}

// Server is the go-sdk server, for serving on any transport.
func (d *Demo) Server() *mcp.Server { return d.srv }

// Close stops the connect page, if it was started, the clock and the
// tasks.
func (d *Demo) Close() error {
	d.mu.Lock()
	for _, t := range d.tasks {
		t.cancel()
	}
	d.mu.Unlock()
	d.clock.mu.Lock()
	if d.clock.stop != nil {
		close(d.clock.stop)
		d.clock.stop = nil
	}
	d.clock.mu.Unlock()
	if d.page != nil {
		return d.page.Close()
	}
	return nil
}

// Flow is one step of `mcpcli demo`.
type Flow struct {
	Title   string
	Explain string
	Method  string // tools/call, prompts/get, resources/read
	Target  string // tool name, prompt name, resource URI
	Args    map[string]any
}

// Flows is the tour `mcpcli demo` takes, in order. (A function, not a
// variable: its maps would be made at package init, in every command.)
func Flows() []Flow {
	return []Flow{
		{"Confirm a destructive action", "The server will not delete anything until you confirm: a one-field boolean form.", "tools/call", "delete_project", map[string]any{"project": "apollo"}},
		{"Pick an account", "The server found several accounts and asks which one: a single-select with titles.", "tools/call", "switch_account", nil},
		{"Fill in a profile", "Every field kind form mode allows: text with formats and lengths, numbers, booleans, single- and multi-selects, defaults, required fields.", "tools/call", "edit_profile", nil},
		{"A two-round wizard", "Two rounds; the server keeps its state in requestState (HMAC-protected, expiring, bound to the call), which mcpcli echoes unchanged.", "tools/call", "create_repo", map[string]any{"owner": "octo"}},
		{"Connect an account (URL mode)", "The secret never passes through mcpcli: you finish in your browser, on a page the server serves on loopback.", "tools/call", "connect_account", map[string]any{"service": "calendar"}},
		{"An ask from a prompt", "prompts/get can ask too: the prompt asks who the release notes are for.", "prompts/get", "release_notes", map[string]any{"version": "2.0"}},
		{"An ask from a resource", "resources/read can ask too: the report asks how much detail you want.", "resources/read", "demo://reports/q3", nil},
	}
}

// rawSchema keeps the demo's schemas in the order written, as JSON.
func rawSchema(s string) json.RawMessage { return json.RawMessage(s) }

func text(format string, args ...any) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf(format, args...)}}}
}

func elicit(message string, schema string) *mcp.ElicitParams {
	return &mcp.ElicitParams{Mode: "form", Message: message, RequestedSchema: rawSchema(schema)}
}

// response returns the ElicitResult answering key, or nil.
func response(responses mcp.InputResponseMap, key string) *mcp.ElicitResult {
	if responses == nil {
		return nil
	}
	r, _ := responses[key].(*mcp.ElicitResult)
	return r
}

func invalidParams(err error) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: err.Error()}
}

// declined and cancelled are the two ways of not saying yes; the demo
// answers each in its own words.
func notAccepted(r *mcp.ElicitResult, what string) *mcp.CallToolResult {
	if r.Action == "decline" {
		return text("Declined: %s. Nothing changed.", what)
	}
	return text("Cancelled: you dismissed the request, so %s did not happen. Nothing changed; ask again any time.", what)
}

func argsOf(req *mcp.CallToolRequest) map[string]any {
	var m map[string]any
	_ = json.Unmarshal(req.Params.Arguments, &m)
	if m == nil {
		m = map[string]any{}
	}
	return m
}

func str(m map[string]any, key, def string) string {
	if s, ok := m[key].(string); ok && s != "" {
		return s
	}
	return def
}

var errNoElicitation = errors.New("this tool needs to ask you something, but the client did not declare form elicitation; run it from a client that does")

func canAsk(req mcp.Request, mode string) bool {
	ss, ok := req.GetSession().(*mcp.ServerSession)
	if !ok {
		return true
	}
	caps := clientCaps(req, ss)
	if caps == nil || caps.Elicitation == nil {
		return false
	}
	e := caps.Elicitation
	if mode == "url" {
		return e.URL != nil
	}
	return e.Form != nil || e.URL == nil
}

func clientCaps(req mcp.Request, ss *mcp.ServerSession) *mcp.ClientCapabilities {
	if m := req.GetParams().GetMeta(); m != nil {
		if raw, ok := m[mcp.MetaKeyClientCapabilities]; ok {
			b, _ := json.Marshal(raw)
			var caps mcp.ClientCapabilities
			if json.Unmarshal(b, &caps) == nil {
				return &caps
			}
		}
	}
	if ip := ss.InitializeParams(); ip != nil {
		return ip.Capabilities
	}
	return nil
}
