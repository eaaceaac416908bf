// Package line is the line shell over an MCP session (mcpcli session
// --accessible): one command a line, from a terminal or a pipe, results on
// stdout flushed after each. It is the full-screen shell's sibling
// (shell/tui), over the same request layer: they differ only in how they
// ask and how they show.
package line

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

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/flow"
	"github.com/mcpcli/mcpcli/flow/runner"
	"github.com/mcpcli/mcpcli/internal/plural"
	"github.com/mcpcli/mcpcli/internal/safefile"
	"github.com/mcpcli/mcpcli/internal/shellwords"
	"github.com/mcpcli/mcpcli/internal/suggest"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/request"
	"github.com/mcpcli/mcpcli/shell"
	"github.com/mcpcli/mcpcli/transport"
)

// Options are what the line shell needs.
type Options struct {
	Out     io.Writer // results, flushed after each
	Console *render.Console
	JSON    bool
	Save    string
	Replay  request.Replay
	// Flow is the server a flow file saved here names (save flow FILE).
	Flow flow.Server
	// Ledger proves the files mcpcli wrote: save writes over a file only
	// when it says mcpcli wrote it (safefile.Write).
	Ledger *safefile.Ledger
	// ResultBudget bounds the bytes of the results kept for save flow
	// (0: 64 MiB, the session's --result-budget); past it the oldest are
	// let go, and save flow says which steps it leaves out.
	ResultBudget int64
	// Connect connects with the answerer, sampler and step hook recorded
	// by rec.
	Connect func(ctx context.Context, rec *request.Recorder) (*client.Session, error)
	// Prompter reads the commands, and answers the server's asks, from
	// the same input.
	Prompter *render.Prompter
	// Form asks for missing arguments (a terminal), Value for a
	// template's variables and, when the server completes them, a
	// prompt's arguments one by one; nil means they are an error, as in
	// one-shot mode.
	Form  request.FormAsker
	Value request.ValueAsker
	TTY   bool
	// Scripted is --answers: the asks are answered from a file, and a
	// destructive tool is called without asking (the person decided
	// when they wrote it), saying so.
	Scripted bool
	Now      func() time.Time
	// Settled, when set, is called after each command: nothing waits for
	// the server any more (a "waiting for …" line a request that failed
	// left pending goes, before the next prompt).
	Settled func()
	// Words words errors and notes as the one-shot commands do, naming
	// this shell's commands ("'tools' lists them").
	Words Words
	// Restart is what Connect does again to the server: "restart" (a
	// stdio server) or "reconnect" (HTTP); the command of that name runs it.
	Restart string
}

// Words are how errors and notes are said.
type Words interface {
	Error(err error) string
	Note(n request.Note) string
}

// FailedError is a line shell in which commands failed.
type FailedError struct{ Failed, Of int }

func (e *FailedError) Error() string {
	return fmt.Sprintf("%d of %d commands failed (each said why above)", e.Failed, e.Of)
}

// ErrToolReported is a line shell in which no command failed, but a tool
// said its call did (isError).
var ErrToolReported = errors.New("a tool reported an error")

// line is one line shell.
type line struct {
	o        *Options
	s        *client.Session
	prep     *request.Preparer
	out      *bufio.Writer
	con      *render.Console
	rec      *request.Recorder
	reqs     []request.Saved
	kept     int64 // the bytes of the results in reqs
	dropped  int   // the results let go to stay within the budget
	commands int
	failed   int
	tool     int // requests whose tool said isError
	// ended is closed when the connection of the moment ends.
	ended    chan struct{}
	toldTail bool // the dead server's last stderr lines were shown
	cut      int  // commands a signal cut short
}

// Run runs the line shell until its input ends, or quit. It returns what
// ended it: nil; *shell.Ended when ctx did; what connecting failed with;
// *FailedError when commands failed; ErrToolReported when only tools did.
func Run(ctx context.Context, o *Options) error {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Restart == "" {
		o.Restart = "restart"
	}
	l := &line{o: o, out: bufio.NewWriterSize(o.Out, 64<<10), con: o.Console, rec: &request.Recorder{}}
	s, err := o.Connect(ctx, l.rec)
	if err != nil {
		if ctx.Err() != nil {
			return &shell.Ended{Connecting: true, Err: err}
		}
		return err
	}
	l.use(ctx, s)
	defer func() { l.s.Close() }()
	if o.TTY {
		l.con.Printf("mcpcli session with %s (%s); help lists the commands", render.Line(s.Server().Display()), s.Server().Protocol)
	}
	err = l.loop(ctx)
	if ctx.Err() == nil {
		l.s.Drain()
	}
	l.con.EndProgress()
	if o.Save != "" {
		if msg, serr := request.SaveScript(o.Save, o.Ledger, o.Replay, l.s.Server(), l.reqs, o.Now()); serr != nil {
			l.con.Printf("mcpcli: %s", serr)
		} else {
			l.con.Printf("mcpcli: %s", msg)
		}
	}
	switch {
	case err != nil && ctx.Err() != nil:
		return &shell.Ended{Cut: l.cut, Err: err}
	case err != nil:
		return l.s.Explain(err)
	case l.failed > 0:
		return &FailedError{Failed: l.failed, Of: l.commands}
	case l.tool > 0:
		return ErrToolReported
	}
	return nil
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
			var ae *request.AskError
			if err != nil && !errors.As(err, &ae) {
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
func cutEcho(s string) string {
	r := []rune(s)
	if len(r) <= maxEcho {
		return s
	}
	return string(r[:maxEcho-1]) + "…"
}

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
	if errors.Is(err, ErrToolReported) {
		l.tool++
		return
	}
	l.failed++
	if errors.Is(err, client.ErrAbandoned) {
		l.con.Printf("mcpcli: cancelled; the request was abandoned")
		return
	}
	err = l.s.Explain(err)
	msg := l.o.Words.Error(err)
	if l.gone() || serverGone(err) {
		msg += fmt.Sprintf("; '%s' %ss the server (the history is kept)", l.o.Restart, l.o.Restart)
	}
	l.con.Printf("mcpcli: %s", render.Line(msg))
	if tail := transport.StderrTail(err); len(tail) > 0 && !l.toldTail {
		// Said once: each command after says the server is gone.
		l.toldTail = true
		l.con.Printf("  last %d line%s of the server's stderr:", len(tail), plural.S(len(tail)))
		for _, t := range tail {
			l.con.Printf("  | %s", render.Line(t))
		}
	}
}

// use makes s the connection commands go to, and watches for its end.
func (l *line) use(ctx context.Context, s *client.Session) {
	l.s, l.toldTail = s, false
	l.prep = &request.Preparer{Session: s, Form: l.o.Form, Value: l.o.Value, Note: func(n request.Note) {
		l.con.Printf("mcpcli: %s", l.o.Words.Note(n))
	}}
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

const help = `commands:
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
  save flow FILE        write the requests as a flow file that 'mcpcli test' replays
  restart, reconnect    start the server again (stdio) or connect again (HTTP)
  quit                  end the session (so does end of input)`

// commands are the line shell's commands, for "did you mean".
var commands = []string{"tools", "call", "prompts", "prompt", "resources", "read", "history", "rerun", "level", "roots", "root", "sampling", "save", "restart", "reconnect", "quit", "help"}

// command runs one command line.
func (l *line) command(ctx context.Context, words []string) (quit bool, err error) {
	cmd, args := strings.ToLower(words[0]), words[1:]
	switch cmd {
	case "quit", "exit", "q":
		return true, nil
	case "help", "?":
		fmt.Fprintln(l.out, help)
	case "tools":
		return false, l.lists().Tools(ctx, l.s, name(args))
	case "prompts":
		return false, l.lists().Prompts(ctx, l.s, name(args))
	case "resources":
		return false, l.lists().Resources(ctx, l.s)
	case "call":
		if len(args) == 0 {
			return false, errors.New("call what? call TOOL [K=V ...]; 'tools' lists them")
		}
		r, err := l.call(ctx, args[0], args[1:])
		if err != nil {
			return false, err
		}
		if ok, err := l.confirmCall(ctx, r); !ok || err != nil {
			return false, err
		}
		return false, l.send(ctx, r)
	case "prompt":
		if len(args) == 0 {
			return false, errors.New("get which prompt? prompt NAME [K=V ...]; 'prompts' lists them")
		}
		pairs, err := request.ParsePairs(args[1:], "argument")
		if err != nil {
			return false, err
		}
		r, err := l.prep.Prompt(ctx, args[0], request.Values(pairs))
		if err != nil {
			return false, err
		}
		return false, l.send(ctx, r)
	case "read":
		if len(args) == 0 {
			return false, errors.New("read what? read URI, or read TEMPLATE NAME=VALUE ...; 'resources' lists them")
		}
		pairs, err := request.ParsePairs(args[1:], "variable")
		if err != nil {
			return false, err
		}
		r, err := l.prep.Read(ctx, args[0], request.Values(pairs))
		if err != nil {
			return false, err
		}
		return false, l.send(ctx, r)
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
		prev := l.reqs[n-1]
		r := prev.Request.Clone()
		if ok, err := l.confirmCall(ctx, r); !ok || err != nil {
			return false, err
		}
		// Its forms start from the answers given to it.
		l.rec.StartFrom(len(l.reqs)+1, prev.Rounds)
		return false, l.send(ctx, r)
	case "level":
		if len(args) != 1 {
			return false, errors.New("level takes one of: " + strings.Join(client.LogLevels, ", "))
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
		if len(args) > 0 && args[0] == "flow" {
			if len(args) != 2 {
				return false, errors.New("save flow takes one file name: save flow FILE.flow")
			}
			msg, err := runner.Save(args[1], l.o.Flow, runner.FromSession(l.reqs), l.o.Ledger)
			if err != nil {
				return false, err
			}
			if l.dropped > 0 {
				msg += fmt.Sprintf("; %s over --result-budget left out", plural.Count(l.dropped, "request whose result went", "requests whose results went"))
			}
			l.con.Printf("%s", render.Line(msg))
			return false, nil
		}
		path := l.o.Replay.DefaultPath
		switch {
		case len(args) == 1:
			path = args[0]
		case len(args) > 1 || path == "":
			return false, errors.New("save takes one file name: save [FILE]")
		}
		msg, err := request.SaveScript(path, l.o.Ledger, l.o.Replay, l.s.Server(), l.reqs, l.o.Now())
		if err != nil {
			return false, err
		}
		l.con.Printf("%s", msg)
	default:
		var maybe []string
		if len(cmd) <= maxEcho {
			maybe = suggest.Closest(cmd, commands)
		}
		return false, fmt.Errorf("unknown command %q%s; 'help' lists them", cutEcho(cmd), suggest.DidYouMean(maybe))
	}
	return false, nil
}

// call prepares a call from its words: a JSON object, KEY=VALUE pairs
// typed by the tool's inputSchema, or both.
func (l *line) call(ctx context.Context, name string, words []string) (*request.Request, error) {
	base := map[string]any{}
	if len(words) > 0 && strings.HasPrefix(words[0], "{") {
		obj, err := request.ParseObject([]byte(words[0]))
		if err != nil {
			return nil, err
		}
		base, words = obj, words[1:]
	}
	pairs, err := request.ParsePairs(words, "argument")
	if err != nil {
		return nil, err
	}
	return l.prep.Call(ctx, name, base, pairs)
}

// confirmCall asks before calling a tool marked destructive, as the
// full-screen shell does: the answer is the next line, y to call it (a
// script puts y on the line after the call). End of input, or anything
// but y, sends nothing. With --answers the run is scripted: the tool is
// called, and a line says it was not asked.
func (l *line) confirmCall(ctx context.Context, r *request.Request) (bool, error) {
	if r.Method != request.ToolsCall {
		return true, nil
	}
	tool, _, err := l.s.Tool(ctx, r.Target)
	if err != nil || tool == nil || !request.Destructive(tool) {
		return true, nil // the server says what is wrong with the call
	}
	if l.o.Scripted {
		l.con.Printf("mcpcli: %s is marked destructive; called without asking (--answers)", render.Line(r.Target))
		return true, nil
	}
	l.out.Flush()
	with := argText(r.Args)
	if with != "" {
		with = " with " + with
	}
	l.con.Printf("%s is marked destructive: it may delete or overwrite things.", render.Line(r.Target))
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
func (l *line) send(ctx context.Context, r *request.Request) error {
	id := len(l.reqs) + 1
	l.reqs = append(l.reqs, request.Saved{ID: id, Request: r, Caps: request.CapsOf(l.s.Sampling(), l.s.Roots())})
	res, sent, err := l.prep.Send(ctx, r, id)
	l.reqs[id-1].Request = sent
	// Logs the server sent before its answer are shown before the result.
	l.s.Drain()
	saved := &l.reqs[id-1]
	saved.Rounds = l.rec.Rounds(id)
	saved.Result, saved.Err = l.keep(res), err
	l.con.EndProgress()
	if err != nil {
		saved.Left = "failed"
		if errors.Is(err, client.ErrAbandoned) {
			saved.Left = "cancelled"
		}
		return err
	}
	if err := render.PrintResult(l.out, res, l.o.JSON); err != nil {
		return err
	}
	if res.IsError() {
		return ErrToolReported
	}
	return nil
}

// keep is res as the session keeps it for save flow (client.Result.Kept),
// within ResultBudget: past it, the oldest kept results are let go, as is
// one bigger than the whole budget.
func (l *line) keep(res *client.Result) *client.Result {
	budget := l.o.ResultBudget
	if budget <= 0 {
		budget = 64 << 20
	}
	k := res.Kept()
	if k == nil {
		return nil
	}
	if int64(len(k.Raw)) > budget {
		l.dropped++
		return nil
	}
	l.kept += int64(len(k.Raw))
	for i := 0; l.kept > budget && i < len(l.reqs); i++ {
		if old := l.reqs[i].Result; old != nil {
			l.kept -= int64(len(old.Raw))
			l.reqs[i].Result = nil
			l.dropped++
		}
	}
	return k
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
		args := argText(r.Args)
		if args != "" {
			args = " " + args
		}
		rounds := ""
		if n := len(r.Rounds); n > 0 {
			rounds = fmt.Sprintf(", %d round%s", n, plural.S(n))
		}
		fmt.Fprintf(l.out, "%3d  %s %s%s  (%s%s)\n", r.ID, r.Verb(), render.Line(r.Target), args, state, rounds)
	}
}

// argText is arguments as K=V words, sanitized, in key order.
func argText(args map[string]any) string {
	var words []string
	for _, k := range slices.Sorted(maps.Keys(args)) {
		v, ok := args[k].(string)
		if !ok {
			b, err := json.Marshal(args[k])
			if v = string(b); err != nil {
				v = fmt.Sprint(args[k])
			}
		}
		words = append(words, render.Line(k)+"="+render.Line(v))
	}
	return strings.Join(words, " ")
}

// lists show the lists as the one-shot commands do, naming this shell's
// read command.
func (l *line) lists() shell.Lists {
	return shell.Lists{Out: l.out, Console: l.con, JSON: l.o.JSON, ReadTemplate: "read 'TEMPLATE' NAME=VALUE ..."}
}

// name is the one name a list command may take.
func name(args []string) string {
	if len(args) > 0 {
		return args[0]
	}
	return ""
}
