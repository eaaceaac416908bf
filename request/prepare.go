package request

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/internal/jsonpeek"
	"github.com/mcpcli/mcpcli/internal/suggest"
	"github.com/mcpcli/mcpcli/schema"
	"github.com/mcpcli/mcpcli/transport"
)

// Server is what preparing (and sending) a request needs of a connected
// client.Session.
type Server interface {
	Sender
	Server() client.Server
	Tool(ctx context.Context, name string) (*mcp.Tool, *client.ToolList, error)
	RefreshTools(ctx context.Context) (*client.ToolList, error)
	ListPrompts(ctx context.Context) (*client.PromptList, error)
	Complete(ctx context.Context, ref *mcp.CompleteReference, arg, value string, given map[string]string) (*client.Completion, error)
	Capabilities() *mcp.ServerCapabilities
	Declares(capability string) bool
	Transport() transport.Transport
}

// Preparer turns what a person typed, or fills in, into a Request for
// one server: names checked (with what they may have been meant to be),
// KEY=VALUE typed by the tool's inputSchema, required arguments checked
// and asked for, templates filled, the server's completions offered.
type Preparer struct {
	Session Server
	// Form asks for arguments on a form, Value for one value with the
	// server's suggestions; nil means nobody can be asked that way, and
	// what is missing is a *MissingError.
	Form  FormAsker
	Value ValueAsker
	// Edit is the full-screen shell's way: the person sees every argument
	// of a prompt or a template on the form (or one by one, with the
	// server's completions), not only those missing.
	Edit bool
	// Note is told what the person should know of (a name taken for
	// another, a key sent anyway, the URI a template filled in); nil
	// says nothing.
	Note func(Note)

	// The tools' argument specs, parsed once per tool list.
	specsOf *client.ToolList
	specs   map[string]*schema.Args
}

func (p *Preparer) note(n Note) {
	if p.Note != nil {
		p.Note(n)
	}
}

// Call prepares a call of tool with base (--args, a JSON object) and the
// KEY=VALUE pairs over it. The tool list is read only when something
// needs it (NeedsToolList); a call that did not read it and is refused is
// explained by Explain.
func (p *Preparer) Call(ctx context.Context, tool string, base map[string]any, pairs []Pair) (*Request, error) {
	r := &Request{Method: ToolsCall, Target: tool, Args: maps.Clone(base)}
	if r.Args == nil {
		r.Args = map[string]any{}
	}
	if !p.NeedsToolList(tool, base, pairs) {
		// Nothing to type, ask or mirror: the call goes at once (listing
		// first was most of a plain call's time).
		return r, nil
	}
	t, list, err := p.Session.Tool(ctx, tool)
	if err != nil {
		return nil, err
	}
	r.Target, r.Args, err = p.fromList(ctx, tool, t, list, base, pairs)
	if err != nil && !list.Kept.IsZero() && ctx.Err() == nil && !errors.Is(err, client.ErrAbandoned) {
		// Decided on a list kept from an earlier run: the server may
		// have changed the tool since. Read it again before saying so.
		if list, err = p.Session.RefreshTools(ctx); err != nil {
			return nil, err
		}
		r.Target, r.Args, err = p.fromList(ctx, tool, list.Find(tool), list, base, pairs)
	}
	if err != nil {
		return nil, err
	}
	r.typed = &typed{base: base, pairs: pairs, list: list}
	return r, nil
}

// typed is what a call was prepared from, to prepare it again.
type typed struct {
	base  map[string]any
	pairs []Pair
	list  *client.ToolList // the tool list it was prepared on
}

// fromList prepares a call of tool (t, as list has it) from what was
// typed: a name typed as mcpcli shows it is taken for the tool it shows.
func (p *Preparer) fromList(ctx context.Context, tool string, t *mcp.Tool, list *client.ToolList, base map[string]any, pairs []Pair) (string, map[string]any, error) {
	if t == nil {
		real, err := p.resolveShown("tool", tool, toolNames(list))
		if err != nil || real == "" {
			return "", nil, orUnknown(err, func() error { return UnknownTool(p.Session, list, tool) })
		}
		if t = list.Find(real); t == nil {
			return "", nil, UnknownTool(p.Session, list, real)
		}
	}
	args, err := p.callArgs(ctx, t, list, base, pairs)
	return t.Name, args, err
}

// Send sends r (request.Send, numbered call), and when the server refuses
// it as a call prepared on an old definition would be (a tool list kept
// from an earlier run), reads the list again and, when the tool changed,
// prepares the call again from what was typed and sends that instead (the
// same request would only be refused again). A call that went without
// the list and is refused is explained (Explain). It returns the request
// sent last.
func (p *Preparer) Send(ctx context.Context, r *Request, call int) (*client.Result, *Request, error) {
	res, err := Send(ctx, p.Session, r, call)
	if err == nil {
		return res, r, nil
	}
	if t := r.typed; t != nil && !t.list.Kept.IsZero() && client.StaleRefusal(err) && ctx.Err() == nil {
		fresh, lerr := p.Session.RefreshTools(ctx)
		if lerr == nil && !bytes.Equal(fresh.Raw[r.Target], t.list.Raw[r.Target]) {
			again := &Request{Method: ToolsCall, Target: r.Target, typed: &typed{base: t.base, pairs: t.pairs, list: fresh}}
			if again.Target, again.Args, err = p.fromList(ctx, r.Target, fresh.Find(r.Target), fresh, t.base, t.pairs); err != nil {
				return nil, r, err
			}
			r = again
			if res, err = Send(ctx, p.Session, r, call); err == nil {
				return res, r, nil
			}
		}
	}
	if r.typed == nil {
		err = p.Explain(ctx, r, err)
	}
	return nil, r, err
}

func orUnknown(err error, unknown func() error) error {
	if err != nil {
		return err
	}
	return unknown()
}

// NeedsToolList reports whether a call needs the tool's definition first:
// KEY=VALUE pairs are typed by its inputSchema; when someone can be asked,
// missing required arguments are asked on a form; over Streamable HTTP,
// arguments annotated x-mcp-header are mirrored in headers and a tool whose
// annotations are invalid is left out (the spec's MUSTs); a 2025-11-25
// tool may require a task; and a name with markers may be one as mcpcli
// shows it. A call with no arguments at all is checked for required ones
// too (a server need not refuse it); arguments given whole are the
// server's to check.
func (p *Preparer) NeedsToolList(tool string, base map[string]any, pairs []Pair) bool {
	_, http := p.Session.Transport().(*transport.HTTP)
	return len(pairs) > 0 || len(base) == 0 || p.Form != nil || !p.Session.Server().Modern() || http || looksShown(tool)
}

// callArgs types the pairs over base with the tool's inputSchema, and
// asks for the required arguments still missing.
func (p *Preparer) callArgs(ctx context.Context, tool *mcp.Tool, list *client.ToolList, base map[string]any, pairs []Pair) (map[string]any, error) {
	inputSchema := jsonpeek.Get(list.Raw[tool.Name], "inputSchema")
	spec := p.spec(list, tool.Name, inputSchema)
	out := maps.Clone(base) // a call prepared again starts from what was given
	if out == nil {
		out = map[string]any{}
	}
	for _, pr := range pairs {
		if _, known := spec.Props[pr.Key]; !known && len(spec.Names) > 0 {
			maybe := suggest.Closest(pr.Key, spec.Names)
			switch {
			case spec.Closed:
				return nil, &NoSuchArgumentError{What: "tool", Name: tool.Name, Key: pr.Key, Maybe: maybe, Names: spec.Names}
			case len(maybe) > 0:
				p.note(&OpenKeyNote{Tool: tool.Name, Key: pr.Key, Maybe: maybe})
			}
		}
		v, err := spec.Coerce(pr.Key, pr.Value)
		if err != nil {
			return nil, &ArgumentError{Key: pr.Key, Value: pr.Value, Err: err}
		}
		out[pr.Key] = v
	}
	if missing := spec.Missing(out); len(missing) > 0 {
		form, ferr := schema.ParseArguments(inputSchema)
		if p.Form == nil || ferr != nil || !form.Renderable() {
			return nil, &MissingError{What: "tool", Name: tool.Name, Missing: missing, Asker: p.Form != nil}
		}
		return p.askForm(ctx, Arguments{Server: p.Session.Server(), Method: ToolsCall, Target: tool.Name, Description: tool.Description, Form: form, Given: out})
	}
	return out, nil
}

// spec is the tool's inputSchema as argument types, parsed once per list;
// one that cannot be read types nothing (the server checks).
func (p *Preparer) spec(list *client.ToolList, name string, inputSchema json.RawMessage) *schema.Args {
	if p.specsOf != list {
		p.specsOf, p.specs = list, map[string]*schema.Args{}
	}
	spec := p.specs[name]
	if spec == nil {
		var err error
		if spec, err = schema.ParseArgs(inputSchema); err != nil {
			spec = &schema.Args{Props: map[string]*schema.Arg{}}
		}
		p.specs[name] = spec
	}
	return spec
}

// Explain is what a call r was refused for, in the tool list's terms, when
// it went without the list: a tool that is not there (*UnknownError), or
// required arguments it lacked (*MissingError, with the server's
// message). Anything else is err as it was.
func (p *Preparer) Explain(ctx context.Context, r *Request, err error) error {
	var je *jsonrpc.Error
	if r.Method != ToolsCall || !errors.As(err, &je) || ctx.Err() != nil {
		return err
	}
	tool, list, lerr := p.Session.Tool(ctx, r.Target)
	switch {
	case lerr != nil:
		return err
	case tool == nil:
		return UnknownTool(p.Session, list, r.Target)
	}
	spec, perr := schema.ParseArgs(jsonpeek.Get(list.Raw[tool.Name], "inputSchema"))
	if perr != nil {
		return err
	}
	if missing := spec.Missing(r.Args); len(missing) > 0 {
		return &MissingError{What: "tool", Name: r.Target, Missing: missing, Refusal: je.Message}
	}
	return err
}

// UnknownTool is the *UnknownError for a tool list lacks.
func UnknownTool(s Server, list *client.ToolList, name string) error {
	e := &UnknownError{Server: s.Server().Display(), What: "tool", Name: name}
	for _, d := range list.Dropped {
		if d.Name == name {
			e.Dropped = d.Reason
			return e
		}
	}
	e.Maybe = suggest.Closest(name, toolNames(list))
	if len(e.Maybe) == 0 {
		// server-everything lists trigger-sampling-request only to a
		// client that declares sampling, get-roots-list to one with roots.
		for _, c := range []string{"sampling", "roots"} {
			if !s.Declares(c) {
				e.Undeclared = append(e.Undeclared, c)
			}
		}
	}
	return e
}

// UnknownPrompt is the *UnknownError for a prompt list lacks.
func UnknownPrompt(server string, list *client.PromptList, name string) error {
	return &UnknownError{Server: server, What: "prompt", Name: name, Maybe: suggest.Closest(name, promptNames(list))}
}

func toolNames(list *client.ToolList) []string {
	names := make([]string, len(list.Tools))
	for i, t := range list.Tools {
		names[i] = t.Name
	}
	return names
}

func promptNames(list *client.PromptList) []string {
	names := make([]string, 0, len(list.Prompts))
	for _, p := range list.Prompts {
		names = append(names, p.Name)
	}
	return names
}

// resolveShown is the real name of one typed as mcpcli shows it (said in
// a ShownNote); "" when there is none.
func (p *Preparer) resolveShown(what, name string, names []string) (string, error) {
	if !looksShown(name) {
		return "", nil
	}
	server := p.Session.Server().Display()
	real, err := shownAs(server, what, name, names)
	if real != "" {
		p.note(&ShownNote{Server: server, What: what, Typed: name, Real: real})
	}
	return real, err
}

// askForm asks for the arguments on the form, keeping what was given that
// the form does not show (keys an open schema allows).
func (p *Preparer) askForm(ctx context.Context, a Arguments) (map[string]any, error) {
	got, err := p.Form.AskArguments(ctx, a)
	if errors.Is(err, ErrCancelled) {
		return nil, client.ErrAbandoned
	}
	if err != nil {
		return nil, &AskError{Err: err}
	}
	out := map[string]any{}
	for k, v := range a.Given {
		if a.Form.Field(k) == nil {
			out[k] = v
		}
	}
	maps.Copy(out, got)
	return out, nil
}

// Prompt prepares getting the prompt name with the arguments given
// (always strings): the prompt must be listed, take each argument given
// and get each required one, asked for when someone can be asked (one by
// one with the server's suggestions when it completes them, else on a
// form).
func (p *Preparer) Prompt(ctx context.Context, name string, given map[string]string) (*Request, error) {
	list, err := p.Session.ListPrompts(ctx)
	if err != nil {
		return nil, err
	}
	prompt := findPrompt(list, name)
	if prompt == nil {
		real, err := p.resolveShown("prompt", name, promptNames(list))
		if err != nil || real == "" {
			return nil, orUnknown(err, func() error { return UnknownPrompt(p.Session.Server().Display(), list, name) })
		}
		name, prompt = real, findPrompt(list, real)
	}
	args := maps.Clone(given)
	if args == nil {
		args = map[string]string{}
	}
	var argNames []string
	for _, a := range prompt.Arguments {
		if a != nil {
			argNames = append(argNames, a.Name)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(args)) {
		if !slices.Contains(argNames, k) {
			return nil, &NoSuchArgumentError{What: "prompt", Name: name, Key: k, Maybe: suggest.Closest(k, argNames), Names: argNames}
		}
	}
	r := &Request{Method: PromptsGet, Target: name}
	if len(argNames) == 0 {
		r.Args = map[string]any{}
		return r, nil
	}
	if p.Value != nil && p.completes() && len(argNames) > len(args) && (!p.Edit || len(given) == 0) {
		// The server suggests values: ask for every argument not given,
		// one by one, each with its suggestions.
		var want []wanted
		for _, a := range prompt.Arguments {
			if a != nil {
				want = append(want, wanted{name: a.Name, description: a.Description, required: a.Required})
			}
		}
		ref := &mcp.CompleteReference{Type: "ref/prompt", Name: name}
		if err := p.askValues(ctx, ref, "prompt "+name, want, args); err != nil {
			return nil, err
		}
	} else if p.Edit && p.Form != nil {
		if args, err = p.promptForm(ctx, prompt, args); err != nil {
			return nil, err
		}
	}
	var missing []string
	for _, a := range prompt.Arguments {
		if _, ok := args[a.Name]; a != nil && a.Required && !ok {
			missing = append(missing, a.Name)
		}
	}
	if len(missing) > 0 {
		if p.Form == nil {
			return nil, &MissingError{What: "prompt", Name: name, Missing: missing}
		}
		if args, err = p.promptForm(ctx, prompt, args); err != nil {
			return nil, err
		}
	}
	r.Args = make(map[string]any, len(args))
	for k, v := range args {
		r.Args[k] = v
	}
	return r, nil
}

// promptForm asks for a prompt's arguments on a form, starting from args.
func (p *Preparer) promptForm(ctx context.Context, prompt *mcp.Prompt, args map[string]string) (map[string]string, error) {
	form, err := schema.ParseArguments(PromptSchema(prompt))
	if err != nil {
		return nil, &MissingError{What: "prompt", Name: prompt.Name, Asker: true}
	}
	given := make(map[string]any, len(args))
	for k, v := range args {
		given[k] = v
	}
	got, err := p.askForm(ctx, Arguments{Server: p.Session.Server(), Method: PromptsGet, Target: prompt.Name, Description: prompt.Description, Form: form, Given: given})
	if err != nil {
		return nil, err
	}
	return PromptArgs(got), nil
}

func findPrompt(list *client.PromptList, name string) *mcp.Prompt {
	for _, p := range list.Prompts {
		if p != nil && p.Name == name {
			return p
		}
	}
	return nil
}

// completes says whether the server offers completion/complete.
func (p *Preparer) completes() bool {
	c := p.Session.Capabilities()
	return c != nil && c.Completions != nil
}

// Read prepares reading uri: a URI as it is, or a URI template filled
// with vars and what is asked (Fill).
func (p *Preparer) Read(ctx context.Context, uri string, vars map[string]string) (*Request, error) {
	t, err := ParseTemplate(uri, vars)
	if err != nil {
		return nil, err
	}
	if t == nil {
		return &Request{Method: ResourcesRead, Target: uri}, nil
	}
	return p.Fill(ctx, t, "")
}

// Fill fills a template in: its variables not given are asked, one by one
// with the server's suggestions (or, in Edit, on a form when the server
// completes none); the URI it gives is said in a FilledNote. description
// is the template's, for the form.
func (p *Preparer) Fill(ctx context.Context, t *Template, description string) (*Request, error) {
	if missing := t.Missing(); len(missing) > 0 {
		switch {
		case p.Edit && p.Form != nil && (p.Value == nil || !p.completes()):
			form, err := schema.ParseArguments(VariablesSchema(missing))
			if err != nil {
				return nil, &TemplateError{Template: t.Raw, Err: err}
			}
			got, err := p.askForm(ctx, Arguments{Server: p.Session.Server(), Method: ResourcesRead, Target: t.Raw, Description: description, Form: form})
			if err != nil {
				return nil, err
			}
			maps.Copy(t.Vars, PromptArgs(got))
		case p.Value == nil:
			return nil, &MissingError{What: "template", Name: t.Raw, Missing: missing}
		default:
			want := make([]wanted, len(missing))
			for i, n := range missing {
				want[i] = wanted{name: n, required: true}
			}
			ref := &mcp.CompleteReference{Type: "ref/resource", URI: t.Raw}
			if err := p.askValues(ctx, ref, "resource template "+t.Raw, want, t.Vars); err != nil {
				return nil, err
			}
		}
	}
	uri, err := t.Expand()
	if err != nil {
		return nil, err
	}
	p.note(&FilledNote{URI: uri})
	return &Request{Method: ResourcesRead, Target: uri, Template: t.Raw, Vars: maps.Clone(t.Vars)}, nil
}

// wanted is one value a request needs: a prompt argument or a template
// variable.
type wanted struct {
	name, description string
	required          bool
}

// askValues asks for each wanted value not in given, in order, offering
// the server's completion/complete suggestions (with the values chosen so
// far as their context), and adds the answers to given.
func (p *Preparer) askValues(ctx context.Context, ref *mcp.CompleteReference, what string, want []wanted, given map[string]string) error {
	complete := p.completes()
	for _, w := range want {
		if _, ok := given[w.name]; ok {
			continue
		}
		q := Question{Server: p.Session.Server(), For: what, Name: w.name, Description: w.description, Required: w.required}
		if complete {
			c, err := p.Session.Complete(ctx, ref, w.name, "", given)
			switch {
			case err == nil:
				q.Suggestions, q.More = c.Values, c.More
			case ctx.Err() != nil:
				return &AskError{Err: ctx.Err()}
			}
			// A server that fails to complete is still asked the
			// request: the person types the value.
		}
		v, err := p.Value.AskValue(ctx, q)
		if errors.Is(err, ErrSkipped) {
			continue
		}
		if err != nil {
			return &AskError{Err: err}
		}
		given[w.name] = v
	}
	return nil
}

// PromptSchema is a prompt's arguments as an inputSchema of strings, in
// the prompt's order: the form of its arguments.
func PromptSchema(p *mcp.Prompt) json.RawMessage {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	var required []string
	n := 0
	for _, a := range p.Arguments {
		if a == nil {
			continue
		}
		prop := map[string]any{"type": "string"}
		if a.Title != "" {
			prop["title"] = a.Title
		}
		if a.Description != "" {
			prop["description"] = a.Description
		}
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		k, _ := json.Marshal(a.Name)
		v, _ := json.Marshal(prop)
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
		if a.Required {
			required = append(required, a.Name)
		}
	}
	b.WriteString(`}`)
	if len(required) > 0 {
		r, _ := json.Marshal(required)
		fmt.Fprintf(&b, `,"required":%s`, r)
	}
	b.WriteString(`}`)
	return json.RawMessage(b.String())
}

// VariablesSchema is a template's variables as an inputSchema of
// required strings, in the template's order: the form of its variables.
func VariablesSchema(names []string) json.RawMessage {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	for i, n := range names {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(n)
		b.Write(k)
		b.WriteString(`:{"type":"string"}`)
	}
	b.WriteString(`},"required":`)
	r, _ := json.Marshal(names)
	b.Write(r)
	b.WriteString(`}`)
	return json.RawMessage(b.String())
}

// Destructive reports whether a tool is marked as one that may destroy
// things (readOnlyHint false, destructiveHint true or unsaid): the shells
// ask before calling it. A tool with no hints at all is not: a question
// before every call of every such tool would teach people to say yes
// without reading.
func Destructive(t *mcp.Tool) bool {
	a := t.Annotations
	if a == nil {
		return false // no hints at all: not worth a question each call
	}
	return !a.ReadOnlyHint && (a.DestructiveHint == nil || *a.DestructiveHint)
}
