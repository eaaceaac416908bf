package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/internal/jsonpeek"
	"github.com/mcpcli/mcpcli/internal/shellwords"
	"github.com/mcpcli/mcpcli/internal/suggest"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/schema"
	"github.com/mcpcli/mcpcli/session"
	"github.com/mcpcli/mcpcli/transport"
)

// LineOptions are what the line session (session --accessible) needs.
type LineOptions struct {
	Out     io.Writer // results, flushed after each
	Console *render.Console
	JSON    bool
	Save    string
	Replay  session.Replay
	// Connect connects with the answerer and sampler recorded by rec.
	Connect func(ctx context.Context, rec *session.Recorder) (*client.Session, error)
	// Prompter reads the commands, and answers the server's asks, from
	// the same input.
	Prompter *render.Prompter
	// Ask asks for missing arguments (a terminal); nil means they are an
	// error, as in one-shot mode.
	Ask argumentAsker
	// Values asks for a template's variables, and a prompt's arguments
	// one by one when the server completes them; nil means they are an
	// error, as in one-shot mode.
	Values valueAsker
	TTY    bool
	// Scripted is --answers: the asks are answered from a file, and a
	// destructive tool is called without asking (the person decided
	// when they wrote it), saying so.
	Scripted bool
	Now      func() time.Time
	// Settled, when set, is called after each command: nothing waits for
	// the server any more (a "waiting for …" line a request that failed
	// left pending goes, before the next prompt).
	Settled func()
	// ErrorText words an error as report does; nil means explain.
	ErrorText func(error) string
	// Restart is what Connect does again to the server: "restart" (a
	// stdio server) or "reconnect" (HTTP); the command of that name runs it.
	Restart string
}

// line is one line session.
type line struct {
	o        *LineOptions
	s        *client.Session
	out      *bufio.Writer
	con      *render.Console
	rec      *session.Recorder
	reqs     []session.Request
	commands int
	failed   int
	// The tools' argument specs, parsed once per tool list.
	specsOf *client.ToolList
	specs   map[string]*schema.Args
	tool    int // requests whose tool said isError
	// ended is closed when the connection of the moment ends.
	ended    chan struct{}
	toldTail bool // the dead server's last stderr lines were shown
	cut      int  // commands a signal cut short
}

// lineError is a line session in which commands failed.
type lineError struct{ failed, of int }

func (e *lineError) Error() string {
	return fmt.Sprintf("%d of %d commands failed (each said why above)", e.failed, e.of)
}

func lineRun(ctx context.Context, o *LineOptions) error {
	if o.Now == nil {
		o.Now = time.Now
	}
	l := &line{o: o, out: bufio.NewWriterSize(o.Out, 64<<10), con: o.Console}
	l.rec = &session.Recorder{}
	connect := func(ctx context.Context) (*client.Session, error) {
		return o.Connect(ctx, l.rec)
	}
	if o.ErrorText == nil {
		o.ErrorText = explain
	}
	if o.Restart == "" {
		o.Restart = "restart"
	}
	// How the commands went is said apart: it is not the connection's
	// error, for withSession to explain by what became of the server.
	var outcome error
	connected := false
	err := withSession(ctx, o.Console, connect, func(s *client.Session) error {
		connected = true
		l.use(ctx, s)
		defer func() {
			if l.s != s && l.s != nil {
				l.s.Close() // the session's since a restart
			}
		}()
		if o.TTY {
			l.con.Printf("mcpcli session with %s (%s); help lists the commands", render.Line(s.Server().Display()), s.Server().Protocol)
		}
		err := l.loop(ctx)
		if o.Save != "" {
			if msg, serr := session.SaveScript(o.Save, nil, o.Replay, s.Server(), l.reqs, o.Now()); serr != nil {
				l.con.Printf("mcpcli: %s", serr)
			} else {
				l.con.Printf("mcpcli: %s", msg)
			}
		}
		if err != nil {
			return err
		}
		switch {
		case l.failed > 0:
			outcome = &lineError{failed: l.failed, of: l.commands}
		case l.tool > 0:
			outcome = toolError{}
		}
		return nil
	})
	var sig interrupted
	if err != nil && errors.As(context.Cause(ctx), &sig) {
		// The session, not a request, was what the signal stopped.
		return &sessionEndedError{sig: sig, connecting: !connected, cut: l.cut}
	}
	if err != nil {
		return err
	}
	return outcome
}

func (l *line) loop(ctx context.Context) error {
	for {
		text, err := l.read(ctx)
		if errors.Is(err, io.EOF) || errors.Is(err, render.ErrNoInput) {
			return nil
		}
		var long *render.LineTooLongError
		if errors.As(err, &long) {
			// Said in one line, and the session goes on at the next.
			l.commands++
			l.fail(err)
			continue
		}
		if err != nil {
			return err
		}
		text = strings.TrimSpace(text)
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		l.commands++
		words, err := splitCommand(text)
		if err != nil {
			l.fail(fmt.Errorf("%q: %v", cutEcho(text), err))
			continue
		}
		quit, err := l.command(ctx, words)
		if l.o.Settled != nil {
			l.o.Settled()
		}
		if ctx.Err() != nil {
			var sig interrupted
			if err != nil && !errors.As(err, &sig) {
				l.cut++ // a request the end cut short (not one still being asked for)
			}
			return ctx.Err()
		}
		if err != nil {
			l.fail(err)
		}
		if ferr := l.out.Flush(); ferr != nil {
			return ferr
		}
		if quit {
			return nil
		}
	}
}

// read reads the next command line. On a terminal it prompts for it; on
// piped input (a script, a thousand calls) it reads the line at once and
// writes it back after the prompt in one write, for the transcript.
func (l *line) read(ctx context.Context) (string, error) {
	if l.o.TTY {
		return l.o.Prompter.ReadLine(ctx, "mcpcli> ")
	}
	if err := ctx.Err(); err != nil {
		return "", err
	}
	s, err := l.o.Prompter.ReadRaw()
	if err != nil && (s == "" || !errors.Is(err, io.EOF)) {
		return "", err
	}
	s = strings.TrimRight(s, "\r\n")
	l.con.Printf("mcpcli> %s", render.Line(s))
	return s, nil
}

// maxEcho is how much of what was typed an error quotes back: enough to
// know it by, not a pasted megabyte.
const maxEcho = 40

// cutEcho is s as an error quotes it: its first maxEcho characters.
func cutEcho(s string) string { return cut(s, maxEcho) }

// splitCommand splits a command line into words, as a shell would; a
// JSON object after "call TOOL" is kept whole, quotes and all.
func splitCommand(text string) ([]string, error) {
	if i := strings.IndexByte(text, '{'); i > 0 {
		head, err := shellwords.Split(text[:i])
		if err == nil && len(head) == 2 && strings.EqualFold(head[0], "call") {
			return append(head, strings.TrimSpace(text[i:])), nil
		}
	}
	return shellwords.Split(text)
}

// fail says what went wrong with a command; the session goes on.
func (l *line) fail(err error) {
	l.out.Flush()
	var te toolError
	if errors.As(err, &te) {
		l.tool++
		return
	}
	l.failed++
	if errors.Is(err, client.ErrAbandoned) {
		l.con.Printf("mcpcli: cancelled; the request was abandoned")
		return
	}
	err = l.s.Explain(err)
	msg := l.o.ErrorText(err)
	if l.gone() || serverGone(err) {
		msg += fmt.Sprintf("; '%s' %ss the server (the history is kept)", l.o.Restart, l.o.Restart)
	}
	l.con.Printf("mcpcli: %s", render.Line(msg))
	if tail := stderrTail(err); len(tail) > 0 && !l.toldTail {
		// Said once: each command after says the server is gone.
		l.toldTail = true
		l.con.Printf("  last %d line%s of the server's stderr:", len(tail), plural(len(tail)))
		for _, t := range tail {
			l.con.Printf("  | %s", render.Line(t))
		}
	}
}

// use makes s the connection commands go to, and watches for its end.
func (l *line) use(ctx context.Context, s *client.Session) {
	l.s = s
	l.specsOf, l.specs, l.toldTail = nil, nil, false
	ended := make(chan struct{})
	l.ended = ended
	go func() {
		s.Wait(ctx)
		close(ended)
	}()
}

// serverGone reports whether err says the server is gone: a stdio server
// that exited, a connection that ended, an HTTP server no longer reached.
func serverGone(err error) bool {
	var (
		ee *transport.ExitError
		sc *transport.StdoutClosedError
		ce *client.ClosedError
		ne *net.OpError
	)
	return errors.As(err, &ee) || errors.As(err, &sc) || errors.As(err, &ce) || errors.As(err, &ne) && ne.Op == "dial"
}

// gone reports whether the connection of the moment has ended.
func (l *line) gone() bool {
	select {
	case <-l.ended:
		return true
	default:
		return false
	}
}

// restart ends the connection (and a stdio server that still runs) and
// connects again: the requests so far stay, to list, re-run and save.
func (l *line) restart(ctx context.Context) error {
	l.s.Close()
	s, err := l.o.Connect(ctx, l.rec)
	if err != nil {
		return fmt.Errorf("%s failed: %w", l.o.Restart, err)
	}
	l.use(ctx, s)
	l.con.Printf("mcpcli: %sed: connected to %s (%s); the history is kept", l.o.Restart, render.Line(s.Server().Display()), s.Server().Protocol)
	return nil
}

const lineHelp = `commands:
  tools [NAME]          list the tools, or one in full
  call TOOL [K=V ...]   call a tool; or: call TOOL {"k": "v"}
                        (a tool marked destructive asks first: y calls it)
  prompts [NAME]        list the prompts, or one in full
  prompt NAME [K=V ...] get a prompt
  resources             list the resources and resource templates
  read URI [K=V ...]    read a resource; K=V fill a template's {variables}
  history               the requests so far, numbered
  rerun N               send request N again
  level LEVEL           set the server's log level (debug ... emergency)
  roots                 the roots the server is given
  root add|rm DIR       give the server a root, or take one away
  sampling on|off       answer the server's sampling requests, or not
  save [FILE]           write the requests as a script of one-shot commands
                        (without FILE: in mcpcli's state directory)
  restart, reconnect    start the server again (stdio) or connect again (HTTP)
  quit                  end the session (so does end of input)`

// command runs one command line.
func (l *line) command(ctx context.Context, words []string) (quit bool, err error) {
	cmd, args := strings.ToLower(words[0]), words[1:]
	switch cmd {
	case "quit", "exit", "q":
		return true, nil
	case "help", "?":
		fmt.Fprintln(l.out, lineHelp)
	case "tools":
		return false, l.tools(ctx, args)
	case "prompts":
		return false, l.prompts(ctx, args)
	case "resources":
		return false, listResources(ctx, l.s, l.out, l.con, l.o.JSON, "read 'TEMPLATE' NAME=VALUE ...")
	case "call":
		if len(args) == 0 {
			return false, errors.New("call what? call TOOL [K=V ...]; 'tools' lists them")
		}
		name, argv, err := l.toolArgs(ctx, args[0], args[1:])
		if err != nil {
			return false, err
		}
		if ok, err := l.confirmCall(ctx, name, argv); !ok || err != nil {
			return false, err
		}
		return false, l.send(ctx, "tools/call", name, argv, 0)
	case "prompt":
		if len(args) == 0 {
			return false, errors.New("get which prompt? prompt NAME [K=V ...]; 'prompts' lists them")
		}
		name, argv, err := l.promptArgs(ctx, args[0], args[1:])
		if err != nil {
			return false, err
		}
		return false, l.send(ctx, "prompts/get", name, argv, 0)
	case "read":
		if len(args) == 0 {
			return false, errors.New("read what? read URI, or read TEMPLATE NAME=VALUE ...; 'resources' lists them")
		}
		uri, err := l.readURI(ctx, args[0], args[1:])
		if err != nil {
			return false, err
		}
		return false, l.send(ctx, "resources/read", uri, nil, 0)
	case "history":
		l.history()
	case "restart", "reconnect":
		if len(args) > 0 {
			return false, fmt.Errorf("%s takes no arguments", cmd)
		}
		return false, l.restart(ctx)
	case "rerun":
		n, err := strconv.Atoi(strings.TrimPrefix(strings.Join(args, ""), "#"))
		if err != nil || n < 1 || n > len(l.reqs) {
			return false, fmt.Errorf("rerun takes a request number from 1 to %d ('history' lists them)", len(l.reqs))
		}
		r := l.reqs[n-1]
		if r.Method == "tools/call" {
			if ok, err := l.confirmCall(ctx, r.Target, r.Args); !ok || err != nil {
				return false, err
			}
		}
		if l.rec != nil {
			// Its forms start from the answers given to it.
			l.rec.StartFrom(len(l.reqs)+1, r.Rounds)
		}
		return false, l.send(ctx, r.Method, r.Target, r.Args, n)
	case "level":
		if len(args) != 1 {
			return false, errors.New("level takes one of: debug, info, notice, warning, error, critical, alert, emergency")
		}
		if err := l.s.SetLogLevel(ctx, args[0]); err != nil {
			return false, err
		}
		l.con.Printf("log level: %s", render.Line(args[0]))
	case "roots":
		l.roots()
	case "root":
		return false, l.root(args)
	case "sampling":
		return false, l.sampling(args)
	case "save":
		path := l.o.Replay.DefaultPath
		switch {
		case len(args) == 1:
			path = args[0]
		case len(args) > 1 || path == "":
			return false, errors.New("save takes one file name: save [FILE]")
		}
		msg, err := session.SaveScript(path, nil, l.o.Replay, l.s.Server(), l.reqs, l.o.Now())
		if err != nil {
			return false, err
		}
		l.con.Printf("%s", msg)
	default:
		names := []string{"tools", "call", "prompts", "prompt", "resources", "read", "history", "rerun", "level", "roots", "root", "sampling", "save", "restart", "reconnect", "quit", "help"}
		var maybe []string
		if len(cmd) <= maxEcho {
			maybe = suggest.Closest(cmd, names)
		}
		return false, fmt.Errorf("unknown command %q%s; 'help' lists them", cutEcho(cmd), didYouMean(maybe))
	}
	return false, nil
}

// toolArgs reads a call's arguments: a JSON object, KEY=VALUE pairs typed
// by the tool's inputSchema, or both. The tool list is read (once a
// session) only when something needs it: pairs to type, a terminal to
// ask for missing arguments on, or a name as mcpcli shows it, which it
// returns resolved to the real one.
func (l *line) toolArgs(ctx context.Context, name string, words []string) (string, map[string]any, error) {
	args, err := l.toolArgsOf(ctx, &name, words)
	return name, args, err
}

func (l *line) toolArgsOf(ctx context.Context, namep *string, words []string) (map[string]any, error) {
	name := *namep
	out := map[string]any{}
	if len(words) > 0 && strings.HasPrefix(words[0], "{") {
		v, err := schema.DecodeJSON([]byte(words[0]))
		obj, ok := v.(map[string]any)
		if err != nil || !ok {
			if err == nil {
				err = errors.New("it is not an object")
			}
			return nil, fmt.Errorf("the arguments must be a JSON object like {\"key\": \"value\"}: %v", err)
		}
		out, words = obj, words[1:]
	}
	if len(words) == 0 && l.o.Ask == nil && len(out) > 0 && !strings.Contains(name, "<U+") {
		// Arguments given whole, as --args: the server's to check. With
		// none at all the (kept) tool list is read, as one-shot call does,
		// to name a tool that is not there or a required argument missing.
		return out, nil
	}
	tool, list, err := l.s.Tool(ctx, name)
	if err != nil {
		return nil, err
	}
	args, err := l.argsFrom(ctx, namep, words, maps.Clone(out), tool, list)
	if err != nil && !list.Kept.IsZero() && ctx.Err() == nil && !errors.Is(err, client.ErrAbandoned) {
		// Decided on a list kept from an earlier run: read it again
		// before saying so, as one-shot call does.
		if list, err = l.s.RefreshTools(ctx); err != nil {
			return nil, err
		}
		return l.argsFrom(ctx, namep, words, out, list.Find(name), list)
	}
	return args, err
}

// argsFrom types the words of a call with tool's definition from list,
// over the arguments out already has. A name typed as mcpcli shows it is
// taken for the tool it shows, and *namep becomes the tool's own.
func (l *line) argsFrom(ctx context.Context, namep *string, words []string, out map[string]any, tool *mcp.Tool, list *client.ToolList) (map[string]any, error) {
	name := *namep
	if tool == nil {
		real, err := shownName(l.s.Server().Display(), "tool", name, toolNames(list))
		if err != nil {
			return nil, err
		}
		if real == "" {
			return nil, unknownTool(l.s, list, name, "tools")
		}
		sayShown(l.con, l.s.Server().Display(), "tool", name, real)
		name, *namep = real, real
		if tool, list, err = l.s.Tool(ctx, real); err != nil {
			return nil, err
		}
	}
	inputSchema := jsonpeek.Get(list.Raw[tool.Name], "inputSchema")
	if l.specsOf != list {
		l.specsOf, l.specs = list, map[string]*schema.Args{}
	}
	spec := l.specs[tool.Name]
	if spec == nil {
		var err error
		if spec, err = schema.ParseArgs(inputSchema); err != nil {
			spec = &schema.Args{Props: map[string]*schema.Arg{}}
		}
		l.specs[tool.Name] = spec
	}
	seen := map[string]bool{}
	for _, w := range words {
		k, v, ok := strings.Cut(w, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("argument %q must look like KEY=VALUE", w)
		}
		if err := once(seen, "argument", k); err != nil {
			return nil, err
		}
		if _, known := spec.Props[k]; !known && spec.Closed && len(spec.Names) > 0 {
			return nil, fmt.Errorf("tool %q has no argument %q%s; its arguments are: %s", name, k, didYouMean(suggest.Closest(k, spec.Names)), strings.Join(spec.Names, ", "))
		}
		val, err := spec.Coerce(k, v)
		if err != nil {
			return nil, fmt.Errorf("argument %s=%q: %v", k, v, err)
		}
		out[k] = val
	}
	if missing := spec.Missing(out); len(missing) > 0 {
		form, ferr := schema.ParseArguments(inputSchema)
		if l.o.Ask == nil || ferr != nil || !form.Renderable() {
			return nil, fmt.Errorf("tool %q needs %s: give %s as KEY=VALUE; 'tools %s' shows what each takes", name, quoted(missing), plural2(len(missing), "it", "them"), name)
		}
		return askArguments(ctx, l.o.Ask, render.Arguments{Server: l.s.Server(), Method: "tools/call", Target: name, Description: tool.Description, Form: form, Given: out})
	}
	return out, nil
}

// promptArgs reads a prompt's KEY=VALUE arguments (always strings) and
// checks them as the one-shot prompt command does; it returns the prompt's
// name, resolved when given as mcpcli shows it.
func (l *line) promptArgs(ctx context.Context, name string, words []string) (string, map[string]any, error) {
	given := map[string]string{}
	seen := map[string]bool{}
	for _, w := range words {
		k, v, ok := strings.Cut(w, "=")
		if !ok || k == "" {
			return "", nil, fmt.Errorf("argument %q must look like KEY=VALUE", w)
		}
		if err := once(seen, "argument", k); err != nil {
			return "", nil, err
		}
		given[k] = v
	}
	args, err := promptArguments(ctx, nil, l.s, promptRequest{name: name, args: given, ask: l.o.Ask, values: l.o.Values, lists: "prompts",
		shown: func(real string) {
			sayShown(l.con, l.s.Server().Display(), "prompt", name, real)
			name = real
		}})
	if err != nil {
		return "", nil, err
	}
	out := make(map[string]any, len(args))
	for k, v := range args {
		out[k] = v
	}
	return name, out, nil
}

// readURI is the URI to read: raw, or the template raw filled with the
// NAME=VALUE words (and what is asked), as the one-shot read fills it.
func (l *line) readURI(ctx context.Context, raw string, words []string) (string, error) {
	values := map[string]string{}
	seen := map[string]bool{}
	for _, w := range words {
		k, v, ok := strings.Cut(w, "=")
		if !ok || k == "" {
			return "", fmt.Errorf("%q must look like NAME=VALUE: read URI, or read TEMPLATE NAME=VALUE ...", w)
		}
		if err := once(seen, "variable", k); err != nil {
			return "", err
		}
		values[k] = v
	}
	if !isTemplate(raw) {
		if len(words) > 0 {
			return "", fmt.Errorf("NAME=VALUE fills a resource template (a URI with {variables}, as 'resources' lists them); %q has none", raw)
		}
		return raw, nil
	}
	t, err := newTemplate(raw, values)
	if err != nil {
		return "", err
	}
	if missing := t.missing(); len(missing) > 0 && l.o.Values == nil {
		pairs := make([]string, len(missing))
		for i, n := range missing {
			pairs[i] = n + "=VALUE"
		}
		return "", fmt.Errorf("template %q needs %s: read %s %s", raw, quoted(missing), raw, strings.Join(pairs, " "))
	}
	return t.resolve(ctx, l.s, l.con, l.o.Values)
}

// confirmCall asks before calling a tool marked destructive, as the
// full-screen session does: the answer is the next line, y to call it (a
// script puts y on the line after the call). End of input, or anything
// but y, sends nothing. With --answers the run is scripted: the tool is
// called, and a line says it was not asked.
func (l *line) confirmCall(ctx context.Context, name string, args map[string]any) (bool, error) {
	tool, _, err := l.s.Tool(ctx, name)
	if err != nil || tool == nil || !session.Destructive(tool) {
		return true, nil // the server says what is wrong with the call
	}
	if l.o.Scripted {
		l.con.Printf("mcpcli: %s is marked destructive; called without asking (--answers)", render.Line(name))
		return true, nil
	}
	l.out.Flush()
	with := ""
	for _, k := range sortedMapKeys(args) {
		with += " " + render.Line(k) + "=" + render.Line(valueString(args[k]))
	}
	if with != "" {
		with = " with" + with
	}
	l.con.Printf("%s is marked destructive: it may delete or overwrite things.", render.Line(name))
	answer, err := l.o.Prompter.ReadLine(ctx, fmt.Sprintf("Call it%s? [y/N] ", with))
	switch {
	case errors.Is(err, io.EOF) || errors.Is(err, render.ErrNoInput):
		l.con.Printf("not called (end of input): nothing was sent")
		return false, nil
	case err != nil:
		return false, err
	}
	if a := strings.ToLower(strings.TrimSpace(answer)); a == "y" || a == "yes" {
		return true, nil
	}
	l.con.Printf("not called: nothing was sent (y calls it)")
	return false, nil
}

// send sends one request and prints its result.
func (l *line) send(ctx context.Context, method, target string, args map[string]any, rerunOf int) error {
	id := len(l.reqs) + 1
	l.reqs = append(l.reqs, session.Request{ID: id, Method: method, Target: target, Args: args, Caps: session.CapsOf(l.s)})
	cctx := client.WithCall(ctx, id)
	var (
		res *client.Result
		err error
	)
	switch method {
	case "tools/call":
		res, err = l.s.CallTool(cctx, target, args)
	case "prompts/get":
		pa := make(map[string]string, len(args))
		for k, v := range args {
			pa[k] = fmt.Sprint(v)
		}
		res, err = l.s.GetPrompt(cctx, target, pa)
	case "resources/read":
		res, err = l.s.ReadResource(cctx, target)
	}
	// Logs the server sent before its answer are shown before the result.
	l.s.Drain()
	r := &l.reqs[id-1]
	if l.rec != nil {
		r.Rounds = l.rec.Rounds(id)
	}
	l.con.EndProgress()
	if err != nil {
		r.Left = "failed"
		if errors.Is(err, client.ErrAbandoned) {
			r.Left = "cancelled"
		}
		return err
	}
	return printResult(l.out, res, l.o.JSON)
}

func (l *line) history() {
	if len(l.reqs) == 0 {
		fmt.Fprintln(l.out, "no requests yet")
		return
	}
	for _, r := range l.reqs {
		state := "done"
		if r.Left != "" {
			state = r.Left
		}
		what := map[string]string{"tools/call": "call", "prompts/get": "prompt", "resources/read": "read"}[r.Method]
		args := ""
		for _, k := range sortedMapKeys(r.Args) {
			args += " " + render.Line(k) + "=" + render.Line(valueString(r.Args[k]))
		}
		rounds := ""
		if n := len(r.Rounds); n > 0 {
			rounds = fmt.Sprintf(", %d round%s", n, plural(n))
		}
		fmt.Fprintf(l.out, "%3d  %s %s%s  (%s%s)\n", r.ID, what, render.Line(r.Target), args, state, rounds)
	}
}

func (l *line) tools(ctx context.Context, args []string) error {
	list, err := l.s.ListTools(ctx)
	if err != nil {
		return err
	}
	if len(args) > 0 {
		tool, _, err := l.s.Tool(ctx, args[0])
		if err != nil {
			return err
		}
		if tool == nil {
			return unknownTool(l.s, list, args[0], "tools")
		}
		render.ToolDetail(l.out, tool, list.Raw[tool.Name], 0)
		return nil
	}
	for _, t := range list.Tools {
		render.ToolEntry(l.out, t, list.Raw[t.Name], 0)
	}
	return nil
}

func (l *line) prompts(ctx context.Context, args []string) error {
	list, err := l.s.ListPrompts(ctx)
	if len(args) == 0 && notOffered(l.out, l.con, l.o.JSON, err) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, p := range list.Prompts {
		switch {
		case len(args) == 0:
			render.PromptEntry(l.out, p, 0)
		case p.Name == args[0]:
			render.PromptDetail(l.out, p, 0)
			return nil
		}
	}
	if len(args) > 0 {
		var names []string
		for _, p := range list.Prompts {
			names = append(names, p.Name)
		}
		return &notFoundError{server: l.s.Server().Display(), what: "prompt", name: args[0], maybe: suggest.Closest(args[0], names), list: "prompts"}
	}
	return nil
}

func sortedMapKeys(m map[string]any) []string { return slices.Sorted(maps.Keys(m)) }

func valueString(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
