package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/internal/shellwords"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/transport"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

// globalFlags are the flags every server command shares.
type globalFlags struct {
	stdio       string
	url         string
	headers     []string
	env         []string
	cwd         string
	trace       string
	answers     string
	openURLs    bool
	elicitation string
	maxRounds   int
	timeout     time.Duration
	output      string
	accessible  bool
	logLevel    string
	verbose     bool
	serverArgv  []string // after --
}

// app is one run of mcpcli.
type app struct {
	deps  *Deps
	flags globalFlags
	root  *cobra.Command

	progOnce sync.Once
	prog     *render.Progress // see progressView
}

// Run runs mcpcli with args and returns the exit code.
func Run(ctx context.Context, args []string, deps *Deps) int {
	a := &app{deps: deps}
	a.root = a.newRoot()
	a.root.SetArgs(args)
	a.root.SetIn(deps.In)
	a.root.SetOut(deps.Out)
	a.root.SetErr(deps.Err)
	cmd, err := a.root.ExecuteContextC(ctx)
	var name string
	if err != nil && cmd == a.root {
		if _, serr := fmt.Sscanf(err.Error(), "unknown command %q", &name); serr == nil {
			err = a.unknownCommand(name)
		}
	}
	return a.report(ctx, cmd, err)
}

// unknownCommand words cobra's error for a mistyped command on one line,
// with its suggestion.
func (a *app) unknownCommand(name string) error {
	msg := fmt.Sprintf("unknown command %q", name)
	if sug := a.root.SuggestionsFor(name); len(sug) > 0 {
		msg += fmt.Sprintf("; did you mean %s?", strings.Join(sug, " or "))
	}
	return usageErrorf(a.root, "%s", msg)
}

func (a *app) newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:   "mcpcli",
		Short: "A terminal MCP client that renders elicitations",
		Long: `mcpcli talks to an MCP server, over stdio or Streamable HTTP, and shows you
what it asks for. When a server answers a tool call, a prompt or a resource
read with "input_required", mcpcli shows each question (a form, or a URL to
open), then retries the original request with your answers until the result
arrives. Results go to stdout; everything else goes to stderr.

Point it at a server with --stdio "CMD ARGS", with CMD ARGS after --, or with
--url for Streamable HTTP. Try it first with:

  mcpcli demo`,
		Example: `  mcpcli demo
  mcpcli tools --stdio "npx -y @modelcontextprotocol/server-everything"
  mcpcli call delete_project project=apollo -- mcpcli demo-server
  mcpcli call edit_profile --answers answers.json -o json --url http://127.0.0.1:8080/mcp
  mcpcli prompt release_notes version=2.0 --trace trace.jsonl -- ./my-server`,
		Version:       version,
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, args []string) error {
			return a.validateFlags(cmd)
		},
	}
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageErrorf(c, "%v", err)
	})
	f := root.PersistentFlags()
	f.StringVar(&a.flags.stdio, "stdio", "", "start the server `\"CMD ARGS\"` and talk to it over stdio (or put the command after --)")
	f.StringVar(&a.flags.url, "url", "", "talk to a Streamable HTTP server at `URL`")
	f.StringArrayVar(&a.flags.headers, "header", nil, "add an HTTP header `\"Name: value\"` to every request (repeatable)")
	f.StringArrayVar(&a.flags.env, "env", nil, "set `K=V` in the stdio server's environment (repeatable)")
	f.StringVar(&a.flags.cwd, "cwd", "", "start the stdio server in `DIR`")
	f.StringVar(&a.flags.trace, "trace", "", "write every JSON-RPC message (and HTTP headers) as JSON Lines to `FILE` (- for stderr)")
	f.StringVar(&a.flags.answers, "answers", "", "answer elicitations from `FILE` (- for stdin) instead of asking; see 'mcpcli help answers'")
	f.BoolVar(&a.flags.openURLs, "open-urls", false, "with --answers: open each URL the answers accept in the browser ($BROWSER, else the system's); without it they are printed")
	f.StringVar(&a.flags.elicitation, "elicitation", "form,url", "elicitation modes to declare: form,url | form | url | none")
	f.IntVar(&a.flags.maxRounds, "max-rounds", client.DefaultMaxRounds, "give up after `N` rounds of input requests for one request")
	f.DurationVar(&a.flags.timeout, "timeout", 0, "give up on a request the server has not answered within `DURATION` (time spent answering is not counted; 0 waits)")
	f.StringVarP(&a.flags.output, "output", "o", "text", "result format: text or json (json prints only the final result)")
	f.BoolVar(&a.flags.accessible, "accessible", false, "ask questions as plain lines instead of full-screen forms (also used when stdin is not a terminal)")
	f.StringVar(&a.flags.logLevel, "log-level", "", "ask the server for log messages at `LEVEL` (debug, info, notice, warning, error, ...) and show them on stderr")
	f.BoolVarP(&a.flags.verbose, "verbose", "v", false, "show each round trip on stderr")

	root.AddCommand(
		a.newDiscoverCmd(),
		a.newToolsCmd(),
		a.newCallCmd(),
		a.newPromptsCmd(),
		a.newPromptCmd(),
		a.newResourcesCmd(),
		a.newReadCmd(),
		a.newDemoCmd(),
		a.newDemoServerCmd(),
	)
	root.AddCommand(helpTopics()...)
	return root
}

// validateFlags checks the global flags once, before any command runs.
func (a *app) validateFlags(cmd *cobra.Command) error {
	switch a.flags.output {
	case "text", "json":
	default:
		return usageErrorf(cmd, "--output %q: use text or json", a.flags.output)
	}
	if _, err := client.ParseModes(a.flags.elicitation); err != nil {
		return usageErrorf(cmd, "%v", err)
	}
	if a.flags.openURLs && a.flags.answers == "" {
		return usageErrorf(cmd, "--open-urls goes with --answers FILE; without an answers file you choose for each URL whether it opens")
	}
	if a.flags.maxRounds < 1 {
		return usageErrorf(cmd, "--max-rounds %d: give at least 1", a.flags.maxRounds)
	}
	if a.flags.timeout < 0 {
		return usageErrorf(cmd, "--timeout %s: give a positive duration such as 30s", a.flags.timeout)
	}
	if a.flags.logLevel != "" {
		switch a.flags.logLevel {
		case "debug", "info", "notice", "warning", "error", "critical", "alert", "emergency":
		default:
			return usageErrorf(cmd, "--log-level %q: use debug, info, notice, warning, error, critical, alert or emergency", a.flags.logLevel)
		}
	}
	for _, kv := range a.flags.env {
		if k, _, ok := strings.Cut(kv, "="); !ok || k == "" {
			return usageErrorf(cmd, "--env %q must look like K=V", kv)
		}
	}
	return nil
}

// splitDash separates a command's own arguments from the server command
// after "--".
func (a *app) splitDash(cmd *cobra.Command, args []string) []string {
	if i := cmd.ArgsLenAtDash(); i >= 0 {
		a.flags.serverArgv = args[i:]
		return args[:i]
	}
	return args
}

// target describes how to reach the server, for messages and for Server.Via.
type target struct {
	stdio *transport.Stdio
	http  *transport.HTTP
	via   string
}

// resolveTarget reads --stdio, --url and the command after --.
func (a *app) resolveTarget(cmd *cobra.Command) (*target, error) {
	f := a.flags
	var argv []string
	if f.stdio != "" {
		words, err := shellwords.Split(f.stdio)
		if err == nil && len(words) == 0 {
			err = errors.New("the command is empty")
		}
		if err != nil {
			return nil, usageErrorf(cmd, "--stdio %q: %v", f.stdio, err)
		}
		argv = words
	}
	if len(f.serverArgv) > 0 {
		if argv != nil {
			return nil, usageErrorf(cmd, "give the server once: either --stdio \"CMD ARGS\" or the command after --, not both")
		}
		argv = f.serverArgv
	}
	switch {
	case argv != nil && f.url != "":
		return nil, usageErrorf(cmd, "give either a stdio command or --url, not both")
	case argv == nil && f.url == "":
		return nil, usageErrorf(cmd, "no server given: pass --stdio \"CMD ARGS\", put the command after -- (mcpcli %s -- ./server), or pass --url URL", cmd.Name())
	case len(argv) == 0 && f.url == "":
		return nil, usageErrorf(cmd, "the server command is empty")
	}
	if f.url != "" {
		if len(f.env) > 0 || f.cwd != "" {
			return nil, usageErrorf(cmd, "--env and --cwd apply to stdio servers; they do nothing with --url")
		}
		if _, err := transport.ParseURL(f.url); err != nil {
			return nil, usageErrorf(cmd, "%v", err)
		}
		h := http.Header{}
		for _, raw := range f.headers {
			if err := transport.ParseHeader(h, raw); err != nil {
				return nil, usageErrorf(cmd, "%v", err)
			}
		}
		return &target{http: &transport.HTTP{URL: f.url, Header: h}, via: f.url}, nil
	}
	if len(f.headers) > 0 {
		return nil, usageErrorf(cmd, "--header applies to --url servers; stdio servers take --env")
	}
	if f.cwd != "" {
		if st, err := os.Stat(f.cwd); err != nil || !st.IsDir() {
			return nil, usageErrorf(cmd, "--cwd %q is not a directory", f.cwd)
		}
	}
	c := transport.Command{Argv: argv, Env: f.env, Dir: f.cwd}
	return &target{stdio: &transport.Stdio{Cmd: c}, via: "stdio: " + c.String()}, nil
}

// session is a connected server plus what must happen when done with it.
type session struct {
	*client.Session
	target   *target
	closers  []func() error
	discover *discoverNotes
	wire     *wireWatch
	ctx      context.Context // the run's; done when interrupted
	warn     func(msg string, args ...any)
}

// Close ends the session and releases what it held.
func (s *session) Close() error {
	var first error
	if s.Session != nil {
		s.awaitCancelNotice()
		if err := s.Session.Close(); err != nil {
			first = err
		}
	}
	for i := len(s.closers) - 1; i >= 0; i-- {
		if err := s.closers[i](); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// explain adds what is known about the server process to an error.
func (s *session) explain(err error) error {
	if err == nil {
		return err
	}
	if s.target.http != nil {
		return s.wire.explainHTTP(err, s.target.via)
	}
	return s.target.stdio.Explain(err)
}

// connect reaches the server and starts a session.
func (a *app) connect(cmd *cobra.Command) (*session, error) {
	t, err := a.resolveTarget(cmd)
	if err != nil {
		return nil, err
	}
	return a.connectTarget(cmd, t)
}

func (a *app) connectTarget(cmd *cobra.Command, t *target) (*session, error) {
	ctx := cmd.Context()
	s := &session{target: t, discover: &discoverNotes{}, wire: newWireWatch(), ctx: ctx}
	modes, _ := client.ParseModes(a.flags.elicitation)
	schemas := client.NewSchemaIndex()
	var obs []transport.Observer
	obs = append(obs, s.wire.observe, func(ev transport.Event) {
		if ev.Dir == transport.Recv && len(ev.Msg) > 0 {
			schemas.Observe(ev.Msg)
			s.discover.observe(ev.Msg)
		}
	})
	if a.flags.trace != "" {
		var w io.Writer
		escape := false
		if a.flags.trace == "-" {
			w, escape = a.deps.Err, true
		} else {
			f, err := os.Create(a.flags.trace)
			if err != nil {
				return nil, usageErrorf(cmd, "--trace %q: %v", a.flags.trace, err)
			}
			s.closers = append(s.closers, f.Close)
			w = f
		}
		tr := transport.NewTracer(w)
		tr.EscapeControls = escape
		obs = append(obs, tr.Observe)
		s.closers = append(s.closers, func() error {
			if err := tr.Err(); err != nil {
				fmt.Fprintf(a.deps.Err, "mcpcli: warning: the trace %s is incomplete: %v\n", a.flags.trace, err)
			}
			return nil
		})
	}
	observer := transport.Observers(obs...)
	answerer, err := a.answerer(cmd)
	if err != nil {
		s.Close()
		return nil, err
	}
	logger := newWarnLogger(clearingWriter{a.deps.Err, a.clearProgress})
	s.warn = logger.Warn
	opts := client.Options{
		ClientVersion: version,
		Modes:         modes,
		Answerer:      a.clearingAnswerer(answerer),
		MaxRounds:     a.flags.maxRounds,
		Timeout:       a.flags.timeout,
		LogLevel:      a.flags.logLevel,
		Schemas:       schemas,
		Logger:        logger,
		OnLog:         func(p *mcp.LoggingMessageParams) { a.showLog(p); s.wire.shown() },
		OnProgress:    func(p *mcp.ProgressNotificationParams) { a.showProgress(p); s.wire.shown() },
		OnStep: func(st client.Step) {
			if st.Kind != client.StepSend {
				s.wire.drain()
			}
			a.onStep(st)
		},
	}
	cctx := ctx
	if a.flags.timeout > 0 {
		var cancel context.CancelFunc
		cctx, cancel = context.WithTimeout(ctx, a.flags.timeout)
		defer cancel()
	}
	var cs *client.Session
	if t.stdio != nil {
		t.stdio.Observer = observer
		t.stdio.Warn = func(msg string) { logger.Warn(msg) }
		if a.flags.timeout > 0 && a.flags.timeout/2 < transport.DefaultDiscoverWait {
			// Leave the initialize handshake half of --timeout.
			t.stdio.DiscoverWait = a.flags.timeout / 2
		}
		s.closers = append(s.closers, func() error {
			if p := t.stdio.Process(); p != nil {
				return p.Close()
			}
			return nil
		})
		cs, err = client.Connect(cctx, t.stdio, t.via, opts)
	} else {
		t.http.Observer = observer
		cs, err = client.Connect(cctx, t.http.Transport(), t.via, opts)
	}
	if err != nil {
		err = s.explain(err)
		s.Close()
		if cctx.Err() != nil && ctx.Err() == nil {
			return nil, fmt.Errorf("server (%s) did not finish connecting within %s (--timeout)", t.via, a.flags.timeout)
		}
		return nil, &connectError{via: t.via, err: err}
	}
	s.Session = cs
	return s, nil
}

// connectError is a failure to start a session.
type connectError struct {
	via string
	err error
}

func (e *connectError) Error() string { return fmt.Sprintf("connecting to %s: %v", e.via, e.err) }
func (e *connectError) Unwrap() error { return e.err }
