package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/internal/jsonpeek"
	"github.com/mcpcli/mcpcli/internal/suggest"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/schema"
	"github.com/mcpcli/mcpcli/transport"
)

// pair is one KEY=VALUE argument.
type pair struct{ key, value string }

func splitPairs(cmd *cobra.Command, args []string) ([]pair, error) {
	var out []pair
	seen := map[string]bool{}
	for _, arg := range args {
		k, v, ok := strings.Cut(arg, "=")
		if !ok || k == "" {
			return nil, usageErrorf(cmd, "argument %q must look like KEY=VALUE", arg)
		}
		if err := once(seen, "argument", k); err != nil {
			return nil, usageErrorf(cmd, "%v", err)
		}
		out = append(out, pair{k, v})
	}
	return out, nil
}

// once refuses a key given twice (as a duplicate key in --args is: one
// value would be lost), and notes it as given.
func once(seen map[string]bool, what, k string) error {
	if seen[k] {
		return fmt.Errorf("%s %s is given twice; give it once", what, render.Line(k))
	}
	seen[k] = true
	return nil
}

// CallOptions are what call needs.
type CallOptions struct {
	Out     io.Writer
	Console *render.Console
	Connect connector
	JSON    bool

	Tool  string
	Base  map[string]any // --args
	Pairs []pair         // KEY=VALUE, applied over Base
	// Ask asks for missing required arguments; nil means they are a usage
	// error (no terminal, or a scripted run).
	Ask  argumentAsker
	Save string // --save DIR
}

// NewCmdCall is the call command.
func NewCmdCall(f *Factory, runF func(context.Context, *CallOptions) error) *cobra.Command {
	var argsJSON, save string
	cmd := &cobra.Command{
		Use:   "call TOOL [KEY=VALUE ...]",
		Short: "Call a tool, answering what the server asks along the way",
		Long: `call calls TOOL with arguments. KEY=VALUE pairs are typed by the tool's
inputSchema: integers, numbers and booleans are parsed, arrays and objects are
read as JSON, strings are kept exactly as typed. --args gives the arguments as
one JSON object (or @FILE); KEY=VALUE pairs are applied on top of it.

When the server answers input_required, mcpcli asks you (or reads --answers)
and retries, round after round, until the result arrives.

When the server runs the call as a task (2026-07-28 tasks extension, or a
2025-11-25 tool whose taskSupport is required), mcpcli shows the task's
status as it changes, answers what the task asks the same way, and prints
its result; Ctrl+C cancels the task (tasks/cancel).

--save DIR writes every image, audio and blob content of the result to a
file in DIR; the paths go to stderr.

Exit status: 0 done, 1 error, 2 the tool reported an error (isError),
130 you abandoned the request (or declined a sampling request it needed).`,
		Example: `  mcpcli call delete_project project=apollo -- mcpcli demo-server
  mcpcli call edit_profile --answers answers.json -o json -- mcpcli demo-server
  mcpcli call search --args '{"query": "mcp", "limit": 5}' --url http://127.0.0.1:8080/mcp`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			args = splitOwn(f, cmd, args)
			if len(args) == 0 {
				return usageErrorf(cmd, "name the tool to call: mcpcli call TOOL [KEY=VALUE ...]; 'mcpcli tools' lists them")
			}
			base, err := parseArgsFlag(cmd, argsJSON)
			if err != nil {
				return err
			}
			pairs, err := splitPairs(cmd, args[1:])
			if err != nil {
				return err // before starting any server
			}
			connect, err := f.connector(cmd)
			if err != nil {
				return err
			}
			f.rawOnly = f.JSON() && save == "" // -o json prints the bytes: nothing to decode
			opts := &CallOptions{Out: f.Deps.Out, Console: f.Console(), Connect: connect, JSON: f.JSON(), Tool: args[0], Base: base, Pairs: pairs, Ask: f.arguments(), Save: save}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return callRun(cmd.Context(), cmd, opts)
		},
	}
	cmd.Flags().StringVar(&argsJSON, "args", "", "tool arguments as a JSON object, or @FILE")
	cmd.Flags().StringVar(&save, "save", "", "write every image, audio and blob content of the result to `DIR` (paths on stderr)")
	return cmd
}

func callRun(ctx context.Context, cmd *cobra.Command, opts *CallOptions) error {
	return withSession(ctx, opts.Console, opts.Connect, func(s *client.Session) error {
		if !needsToolList(s, opts) {
			// Nothing to type, ask or mirror: call at once (listing first
			// was most of a plain call's time), and read the list only to
			// explain a refusal.
			res, err := s.CallTool(ctx, opts.Tool, opts.Base)
			if err != nil {
				return explainRefusedCall(ctx, cmd, s, opts, err)
			}
			return printAndSave(opts.Out, opts.Console, res, opts.JSON, opts.Save)
		}
		tool, list, err := s.Tool(ctx, opts.Tool)
		if err != nil {
			return err
		}
		args, err := prepareCall(ctx, cmd, s, opts, tool, list)
		if err != nil && !list.Kept.IsZero() && ctx.Err() == nil && !errors.Is(err, client.ErrAbandoned) {
			// Decided on a list kept from an earlier run: the server may
			// have changed the tool since. Read it again before saying so.
			if list, err = s.RefreshTools(ctx); err != nil {
				return err
			}
			args, err = prepareCall(ctx, cmd, s, opts, list.Find(opts.Tool), list)
		}
		if err != nil {
			return err
		}
		res, err := s.CallTool(ctx, opts.Tool, args)
		if err != nil && !list.Kept.IsZero() && client.StaleRefusal(err) && ctx.Err() == nil {
			// Refused as a call prepared on an old definition would be:
			// read the list again, and call again if the tool changed
			// (the same request would only be refused again).
			fresh, lerr := s.RefreshTools(ctx)
			if lerr == nil && !bytes.Equal(fresh.Raw[opts.Tool], list.Raw[opts.Tool]) {
				if args, err = prepareCall(ctx, cmd, s, opts, fresh.Find(opts.Tool), fresh); err != nil {
					return err
				}
				res, err = s.CallTool(ctx, opts.Tool, args)
			}
		}
		if err != nil {
			return err
		}
		return printAndSave(opts.Out, opts.Console, res, opts.JSON, opts.Save)
	})
}

// prepareCall turns what was typed into the call's arguments with the
// tool's definition from list: KEY=VALUE typed by its inputSchema, and
// missing required arguments asked on a form (or named in the error).
func prepareCall(ctx context.Context, cmd *cobra.Command, s *client.Session, opts *CallOptions, tool *mcp.Tool, list *client.ToolList) (map[string]any, error) {
	if tool == nil {
		// A name typed as mcpcli shows it (<U+200B> for what cannot be
		// shown) is taken for the tool it shows.
		real, err := shownName(s.Server().Display(), "tool", opts.Tool, toolNames(list))
		if err != nil {
			return nil, err
		}
		if real == "" {
			return nil, unknownTool(s, list, opts.Tool, "mcpcli tools")
		}
		sayShown(opts.Console, s.Server().Display(), "tool", opts.Tool, real)
		opts.Tool = real
		tool = list.Find(real)
	}
	inputSchema := jsonpeek.Get(list.Raw[tool.Name], "inputSchema")
	spec, err := schema.ParseArgs(inputSchema)
	if err != nil {
		spec = &schema.Args{Props: map[string]*schema.Arg{}}
	}
	args, err := coerceArgs(cmd, opts, spec)
	if err != nil {
		return nil, err
	}
	if missing := spec.Missing(args); len(missing) > 0 {
		form, ferr := schema.ParseArguments(inputSchema)
		if opts.Ask == nil || ferr != nil || !form.Renderable() {
			return nil, usageErrorf(cmd, "tool %q needs %s: give %s as KEY=VALUE (or run it on a terminal to fill them in); 'mcpcli tools %s' shows what each takes",
				opts.Tool, quoted(missing), plural2(len(missing), "it", "them"), opts.Tool)
		}
		return askArguments(ctx, opts.Ask, render.Arguments{
			Server: s.Server(), Method: "tools/call", Target: opts.Tool, Description: tool.Description, Form: form, Given: args,
		})
	}
	return args, nil
}

// needsToolList reports whether the call needs the tool's definition
// first: KEY=VALUE pairs are typed by its inputSchema; on a terminal,
// missing required arguments are asked on a form; over Streamable HTTP,
// arguments annotated x-mcp-header are mirrored in headers and a tool
// whose annotations are invalid is left out (the spec's MUSTs); and a
// 2025-11-25 tool may require a task. A call with no arguments at all is
// checked for required ones too (a server need not refuse it: the demo's
// echo answers {} with nothing); arguments given whole with --args are
// the server's to check, and a refusal is explained from the list after.
func needsToolList(s *client.Session, opts *CallOptions) bool {
	_, http := s.Transport().(*transport.HTTP)
	// A name with markers may be a name as mcpcli shows it (shownName).
	return len(opts.Pairs) > 0 || len(opts.Base) == 0 || opts.Ask != nil || !s.Server().Modern() || http || strings.Contains(opts.Tool, "<U+")
}

// explainRefusedCall is a call made without the tool list that the server
// refused with a JSON-RPC error: the list says whether the tool exists (and
// what it may have been meant to be) and which required arguments were
// missing. Anything else stays as it was.
func explainRefusedCall(ctx context.Context, cmd *cobra.Command, s *client.Session, opts *CallOptions, err error) error {
	var je *jsonrpc.Error
	if !errors.As(err, &je) || ctx.Err() != nil {
		return err
	}
	tool, list, lerr := s.Tool(ctx, opts.Tool)
	switch {
	case lerr != nil:
		return err
	case tool == nil:
		return unknownTool(s, list, opts.Tool, "mcpcli tools")
	}
	spec, perr := schema.ParseArgs(jsonpeek.Get(list.Raw[tool.Name], "inputSchema"))
	if perr != nil {
		return err
	}
	if missing := spec.Missing(opts.Base); len(missing) > 0 {
		return usageErrorf(cmd, "tool %q needs %s (the server refused the call: %s): give %s as KEY=VALUE; 'mcpcli tools %s' shows what each takes",
			opts.Tool, quoted(missing), render.Line(je.Message), plural2(len(missing), "it", "them"), opts.Tool)
	}
	return err
}

// askArguments asks for the arguments on the form, keeping what was given
// that the form does not show (keys an open schema allows).
func askArguments(ctx context.Context, ask argumentAsker, a render.Arguments) (map[string]any, error) {
	got, err := ask.AskArguments(ctx, a)
	if errors.Is(err, render.ErrCancelled) {
		return nil, client.ErrAbandoned
	}
	if err != nil {
		return nil, beforeSending(ctx, err)
	}
	out := map[string]any{}
	for k, v := range a.Given {
		if a.Form.Field(k) == nil {
			out[k] = v
		}
	}
	for k, v := range got {
		out[k] = v
	}
	return out, nil
}

// unknownTool says the server has no such tool, and which it may be.
// lists is the command that lists the tools where the person is:
// "mcpcli tools", or "tools" in the line session.
func unknownTool(s *client.Session, list *client.ToolList, name, lists string) error {
	for _, d := range list.Dropped {
		if d.Name == name {
			return fmt.Errorf("server %q lists tool %q, but its inputSchema is invalid (%s), so mcpcli leaves it out; the server's inputSchema must be fixed", s.Server().Display(), name, d.Reason)
		}
	}
	names := make([]string, len(list.Tools))
	for i, t := range list.Tools {
		names[i] = t.Name
	}
	nf := &notFoundError{server: s.Server().Display(), what: "tool", name: name, maybe: suggest.Closest(name, names), list: lists}
	if len(nf.maybe) == 0 {
		// server-everything lists trigger-sampling-request only to a
		// client that declares sampling, get-roots-list to one with roots.
		var flags []string
		if !s.Declares("sampling") {
			flags = append(flags, "--sampling")
		}
		if !s.Declares("roots") {
			flags = append(flags, "--root DIR")
		}
		if len(flags) > 0 {
			nf.hint = "; some servers list a tool only to clients that declare a capability: try " + strings.Join(flags, " or ")
		}
	}
	return nf
}

// printAndSave prints a final result, then writes its binary contents to
// dir when --save asked for it.
func printAndSave(w io.Writer, con *render.Console, res *client.Result, asJSON bool, dir string) error {
	err := printResult(w, res, asJSON)
	var te toolError
	if err != nil && !errors.As(err, &te) {
		return err
	}
	if serr := saveBlobs(con, dir, res); serr != nil {
		return serr
	}
	return err
}

// printResult prints a final result, and says so in the exit code when
// the tool reported an error.
func printResult(w io.Writer, res *client.Result, asJSON bool) error {
	if err := render.PrintResult(w, res, asJSON); err != nil {
		return err
	}
	if res.IsError() {
		return toolError{}
	}
	return nil
}

func parseArgsFlag(cmd *cobra.Command, raw string) (map[string]any, error) {
	if raw == "" {
		return map[string]any{}, nil
	}
	data := []byte(raw)
	if strings.HasPrefix(raw, "@") {
		b, err := readInput(cmd.Context(), raw[1:], openFile(raw[1:]))
		if err != nil {
			if cmd.Context().Err() != nil {
				return nil, err
			}
			return nil, usageErrorf(cmd, "--args: %v", err)
		}
		data = b
	}
	v, err := schema.DecodeJSON(data)
	m, ok := v.(map[string]any)
	if err != nil || !ok {
		if err == nil {
			err = errors.New("it is not an object")
		}
		return nil, usageErrorf(cmd, "--args must be a JSON object like '{\"key\": \"value\"}': %v", err)
	}
	return m, nil
}

// coerceArgs applies KEY=VALUE pairs over the base arguments, typed by the
// tool's inputSchema.
func coerceArgs(cmd *cobra.Command, opts *CallOptions, spec *schema.Args) (map[string]any, error) {
	out := maps.Clone(opts.Base) // a call prepared again starts from what was given
	if out == nil {
		out = map[string]any{}
	}
	for _, p := range opts.Pairs {
		if _, known := spec.Props[p.key]; !known && len(spec.Names) > 0 {
			maybe := suggest.Closest(p.key, spec.Names)
			switch {
			case spec.Closed:
				return nil, usageErrorf(cmd, "tool %q has no argument %q%s; its arguments are: %s", opts.Tool, p.key, didYouMean(maybe), strings.Join(spec.Names, ", "))
			case len(maybe) > 0:
				opts.Console.Printf("mcpcli: note: tool %q has no argument %q%s; sending it anyway (its schema allows other keys)",
					render.Line(opts.Tool), render.Line(p.key), render.Line(didYouMean(maybe)))
			}
		}
		v, err := spec.Coerce(p.key, p.value)
		if err != nil {
			return nil, usageErrorf(cmd, "argument %s=%q: %v", p.key, p.value, err)
		}
		out[p.key] = v
	}
	return out, nil
}

// didYouMean is ` (did you mean "a" or "b"?)`, or "".
func didYouMean(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return " (did you mean " + quotedOr(names) + "?)"
}

func quotedOr(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, " or ")
}

// quoted is "a", "b" and "c".
func quoted(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}

func plural2(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// PromptOptions are what prompt needs.
type PromptOptions struct {
	Out     io.Writer
	Console *render.Console
	Connect connector
	JSON    bool

	Name string
	Args map[string]string
	// Ask asks for missing required arguments; nil means they are a usage
	// error.
	Ask argumentAsker
	// Values asks, one by one with the server's completion suggestions,
	// for the arguments not given, when the server offers completions;
	// nil when nobody can be asked.
	Values valueAsker
}

// NewCmdPrompt is the prompt command.
func NewCmdPrompt(f *Factory, runF func(context.Context, *PromptOptions) error) *cobra.Command {
	return &cobra.Command{
		Use:   "prompt NAME [KEY=VALUE ...]",
		Short: "Get a prompt, answering what the server asks along the way",
		Long: `prompt gets the prompt NAME and prints its messages. Prompt arguments are
always strings: KEY=VALUE pairs are sent exactly as typed ('mcpcli prompts'
lists each prompt's arguments, required ones without brackets).

On a terminal, mcpcli asks for the arguments you did not give: when the
server offers completions, one by one with its suggestions (optional ones
may be left empty); otherwise the required ones, on a form.

When the server answers input_required, mcpcli asks you (or reads --answers)
and retries, round after round, until the messages arrive.

Exit status: 0 done, 1 error, 130 you abandoned the request.`,
		Example: `  mcpcli prompt release_notes version=2.0 -- mcpcli demo-server
  mcpcli prompt code_review file=main.go -o json --url http://127.0.0.1:8080/mcp`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			args = splitOwn(f, cmd, args)
			if len(args) == 0 {
				return usageErrorf(cmd, "name the prompt: mcpcli prompt NAME [KEY=VALUE ...]; 'mcpcli prompts' lists them")
			}
			pairs, err := splitPairs(cmd, args[1:])
			if err != nil {
				return err
			}
			arguments := map[string]string{}
			for _, p := range pairs {
				arguments[p.key] = p.value
			}
			connect, err := f.connector(cmd)
			if err != nil {
				return err
			}
			f.rawOnly = f.JSON()
			opts := &PromptOptions{Out: f.Deps.Out, Console: f.Console(), Connect: connect, JSON: f.JSON(), Name: args[0], Args: arguments, Ask: f.arguments(), Values: f.values()}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return promptRun(cmd.Context(), cmd, opts)
		},
	}
}

func promptRun(ctx context.Context, cmd *cobra.Command, opts *PromptOptions) error {
	return withSession(ctx, opts.Console, opts.Connect, func(s *client.Session) error {
		args, err := promptArguments(ctx, cmd, s, promptRequest{name: opts.Name, args: opts.Args, ask: opts.Ask, values: opts.Values, lists: "mcpcli prompts",
			shown: func(real string) {
				sayShown(opts.Console, s.Server().Display(), "prompt", opts.Name, real)
				opts.Name = real
			}})
		if err != nil {
			return err
		}
		res, err := s.GetPrompt(ctx, opts.Name, args)
		if err != nil {
			return err
		}
		return printResult(opts.Out, res, opts.JSON)
	})
}

// promptRequest is a prompt to get, as typed: one-shot, or in the line
// session.
type promptRequest struct {
	name string
	args map[string]string // filled in with what is asked
	// ask asks for missing required arguments on a form, values one by
	// one with the server's suggestions; nil when nobody can be asked.
	ask    argumentAsker
	values valueAsker
	// lists is the command that lists the prompts, for the messages.
	lists string
	// shown is told the real name of a prompt named as mcpcli shows it
	// (with markers for what cannot be shown): it is the one to get.
	shown func(real string)
}

// promptArguments checks a prompt's arguments against the server's list
// before anything is sent: the prompt must be there, take each argument
// given and get each required one (asked for, when someone can be asked).
func promptArguments(ctx context.Context, cmd *cobra.Command, s *client.Session, r promptRequest) (map[string]string, error) {
	list, err := s.ListPrompts(ctx)
	if err != nil {
		return nil, err
	}
	var prompt *mcp.Prompt
	var names []string
	for _, p := range list.Prompts {
		names = append(names, p.Name)
		if p.Name == r.name {
			prompt = p
		}
	}
	if prompt == nil {
		real, err := shownName(s.Server().Display(), "prompt", r.name, names)
		if err != nil {
			return nil, err
		}
		if real == "" {
			return nil, &notFoundError{server: s.Server().Display(), what: "prompt", name: r.name, maybe: suggest.Closest(r.name, names), list: r.lists}
		}
		if r.shown != nil {
			r.shown(real)
		}
		r.name = real
		for _, p := range list.Prompts {
			if p.Name == real {
				prompt = p
			}
		}
	}
	var argNames, missing []string
	for _, a := range prompt.Arguments {
		argNames = append(argNames, a.Name)
		if _, ok := r.args[a.Name]; a.Required && !ok {
			missing = append(missing, a.Name)
		}
	}
	for k := range r.args {
		if !slices.Contains(argNames, k) {
			return nil, usageErrorf(cmd, "prompt %q has no argument %q%s; its arguments are: %s", r.name, k, didYouMean(suggest.Closest(k, argNames)), orNone(argNames))
		}
	}
	if r.values != nil && s.Capabilities().Completions != nil && len(prompt.Arguments) > len(r.args) {
		// The server suggests values: ask for every argument not
		// given, one by one, each with its suggestions.
		var want []wanted
		for _, a := range prompt.Arguments {
			if a != nil {
				want = append(want, wanted{name: a.Name, description: a.Description, required: a.Required})
			}
		}
		ref := &mcp.CompleteReference{Type: "ref/prompt", Name: r.name}
		if err := askMissing(ctx, s, r.values, ref, "prompt "+r.name, want, r.args); err != nil {
			return nil, err
		}
		missing = missing[:0]
		for _, a := range prompt.Arguments {
			if _, ok := r.args[a.Name]; a.Required && !ok {
				missing = append(missing, a.Name)
			}
		}
	}
	if len(missing) == 0 {
		return r.args, nil
	}
	form, ferr := schema.ParseArguments(render.PromptSchema(prompt))
	if r.ask == nil || ferr != nil {
		return nil, usageErrorf(cmd, "prompt %q needs %s: give %s as KEY=VALUE (or run it on a terminal to fill them in); '%s' lists each prompt's arguments",
			r.name, quoted(missing), plural2(len(missing), "it", "them"), r.lists)
	}
	given := map[string]any{}
	for k, v := range r.args {
		given[k] = v
	}
	got, err := askArguments(ctx, r.ask, render.Arguments{
		Server: s.Server(), Method: "prompts/get", Target: r.name, Description: prompt.Description, Form: form, Given: given,
	})
	if err != nil {
		return nil, err
	}
	args := map[string]string{}
	for k, v := range got {
		args[k] = fmt.Sprint(v)
	}
	return args, nil
}

func orNone(names []string) string {
	if len(names) == 0 {
		return "(none)"
	}
	return strings.Join(names, ", ")
}

// ReadOptions are what read needs.
type ReadOptions struct {
	Out     io.Writer
	Console *render.Console
	Connect connector
	JSON    bool

	URI string
	// Template is set when URI is a URI template; its missing variables
	// are asked of Ask (nil when nobody can be asked).
	Template *template
	Ask      valueAsker
	Save     string // --save DIR
}

// NewCmdRead is the read command.
func NewCmdRead(f *Factory, runF func(context.Context, *ReadOptions) error) *cobra.Command {
	var vars []string
	var save string
	cmd := &cobra.Command{
		Use:   "read URI | TEMPLATE [--var NAME=VALUE ...]",
		Short: "Read a resource, answering what the server asks along the way",
		Long: `read reads the resource at URI, given exactly as 'mcpcli resources' lists it
(quote it for the shell), and prints its contents: text as it is (text/*
blobs decoded), other binary contents as a one-line summary; -o json gives
everything, and --save DIR writes each blob to a file.

A resource template (a URI with {variables}, listed under Templates) is
filled with --var NAME=VALUE. On a terminal, mcpcli asks for the variables
you did not give, with the server's completion suggestions; elsewhere a
missing one is an error.

When the server answers input_required, mcpcli asks you (or reads --answers)
and retries, round after round, until the contents arrive.

Exit status: 0 done, 1 error, 130 you abandoned the request.`,
		Example: `  mcpcli read demo://reports/q3 -- mcpcli demo-server
  mcpcli read 'demo://resource/dynamic/text/{resourceId}' --var resourceId=3 --stdio "npx -y @modelcontextprotocol/server-everything"
  mcpcli read file:///notes.txt -o json --url http://127.0.0.1:8080/mcp`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			args = splitOwn(f, cmd, args)
			if len(args) != 1 {
				if len(args) > 1 && isTemplate(args[0]) && strings.Contains(args[1], "=") {
					return usageErrorf(cmd, "a template's variables go in --var: mcpcli read '%s' --var %s", render.Line(args[0]), render.Line(args[1]))
				}
				return usageErrorf(cmd, "give one resource URI: mcpcli read URI (a template's variables go in --var NAME=VALUE); 'mcpcli resources' lists them")
			}
			tmpl, err := parseTemplate(cmd, args[0], vars)
			if err != nil {
				return err
			}
			ask := f.values()
			if tmpl != nil && ask == nil {
				if missing := tmpl.missing(); len(missing) > 0 {
					flags := make([]string, len(missing))
					for i, n := range missing {
						flags[i] = "--var " + n + "=VALUE"
					}
					return usageErrorf(cmd, "template %q needs %s (without a terminal nobody can be asked)", args[0], strings.Join(flags, " "))
				}
			}
			connect, err := f.connector(cmd)
			if err != nil {
				return err
			}
			f.rawOnly = f.JSON() && save == ""
			opts := &ReadOptions{Out: f.Deps.Out, Console: f.Console(), Connect: connect, JSON: f.JSON(), URI: args[0], Template: tmpl, Ask: ask, Save: save}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return readRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringArrayVar(&vars, "var", nil, "fill the URI template's variable: `NAME=VALUE` (repeatable)")
	cmd.Flags().StringVar(&save, "save", "", "write every blob of the contents to `DIR` (paths on stderr)")
	return cmd
}

func readRun(ctx context.Context, opts *ReadOptions) error {
	return withSession(ctx, opts.Console, opts.Connect, func(s *client.Session) error {
		uri := opts.URI
		if opts.Template != nil {
			var err error
			if uri, err = opts.Template.resolve(ctx, s, opts.Console, opts.Ask); err != nil {
				return err
			}
		}
		res, err := s.ReadResource(ctx, uri)
		var je *jsonrpc.Error
		if errors.As(err, &je) && (je.Code == jsonrpc.CodeInvalidParams || je.Code == -32002) {
			// 2026-07-28 answers an unknown resource with -32602; older
			// servers with -32002.
			return &resourceError{server: s.Server().Display(), uri: uri, rpc: je}
		}
		if err != nil {
			return err
		}
		return printAndSave(opts.Out, opts.Console, res, opts.JSON, opts.Save)
	})
}
