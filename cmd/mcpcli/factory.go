package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/internal/shellwords"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/transport"
)

// GlobalFlags are the flags every server command shares.
type GlobalFlags struct {
	Stdio       string
	URL         string
	Headers     []string
	Env         []string
	Cwd         string
	Trace       string
	Answers     string
	OpenURLs    bool
	Elicitation string
	MaxRounds   int
	Timeout     time.Duration
	Output      string
	SaveAnswers string
	Accessible  bool
	LogLevel    string
	Verbose     bool
	ServerArgv  []string // after --
}

// Factory is what the commands of one run share: the outside world (Deps),
// the global flags, and what is made from them once (the console).
type Factory struct {
	Deps  *Deps
	Flags GlobalFlags
	// Args are the run's arguments, to say how to run it again.
	Args []string

	console      *render.Console
	formAnswerer *render.FormAnswerer
	linePrompter *render.Prompter
	recorder     *client.Recorder // what the person answered
	closers      []func()         // run when the command is done: the trace
}

// cleanup runs what the run left to do at its end.
func (f *Factory) cleanup() {
	for _, c := range f.closers {
		c()
	}
	f.closers = nil
}

// JSON reports -o json.
func (f *Factory) JSON() bool { return f.Flags.Output == "json" }

// Console is the run's stderr, made on first use.
func (f *Factory) Console() *render.Console {
	if f.console == nil {
		d := f.Deps
		f.console = render.NewConsole(d.Err, render.ConsoleOptions{
			TTY:   d.ErrTTY,
			Color: f.getenv("NO_COLOR") == "" && f.getenv("TERM") != "dumb",
			Width: func() int {
				if fd, ok := d.Err.(interface{ Fd() uintptr }); ok {
					if w, _, err := term.GetSize(int(fd.Fd())); err == nil {
						return w
					}
				}
				return 0
			},
		})
	}
	return f.console
}

func (f *Factory) getenv(k string) string {
	if f.Deps.Getenv == nil {
		return ""
	}
	return f.Deps.Getenv(k)
}

// Transport reads --stdio, --url and the command after -- into the
// transport to the server. It starts nothing.
func (f *Factory) Transport(cmd *cobra.Command) (transport.Transport, error) {
	fl := f.Flags
	var argv []string
	if fl.Stdio != "" {
		words, err := shellwords.Split(fl.Stdio)
		if err == nil && len(words) == 0 {
			err = errors.New("the command is empty")
		}
		if err != nil {
			return nil, usageErrorf(cmd, "--stdio %q: %v", fl.Stdio, err)
		}
		argv = words
	}
	if len(fl.ServerArgv) > 0 {
		if argv != nil {
			return nil, usageErrorf(cmd, "give the server once: either --stdio \"CMD ARGS\" or the command after --, not both")
		}
		argv = fl.ServerArgv
	}
	switch {
	case argv != nil && fl.URL != "":
		return nil, usageErrorf(cmd, "give either a stdio command or --url, not both")
	case argv == nil && fl.URL == "":
		return nil, usageErrorf(cmd, "no server given: pass --stdio \"CMD ARGS\", put the command after -- (mcpcli %s -- ./server), or pass --url URL", cmd.Name())
	case len(argv) == 0 && fl.URL == "":
		return nil, usageErrorf(cmd, "the server command is empty")
	}
	if fl.URL != "" {
		if len(fl.Env) > 0 || fl.Cwd != "" {
			return nil, usageErrorf(cmd, "--env and --cwd apply to stdio servers; they do nothing with --url")
		}
		if _, err := transport.ParseURL(fl.URL); err != nil {
			return nil, usageErrorf(cmd, "--url %v", err)
		}
		h := http.Header{}
		for _, raw := range fl.Headers {
			if err := transport.ParseHeader(h, raw); err != nil {
				return nil, usageErrorf(cmd, "--header %v", err)
			}
		}
		return &transport.HTTP{URL: fl.URL, Header: h}, nil
	}
	if len(fl.Headers) > 0 {
		return nil, usageErrorf(cmd, "--header applies to --url servers; stdio servers take --env")
	}
	if fl.Cwd != "" {
		if st, err := os.Stat(fl.Cwd); err != nil || !st.IsDir() {
			return nil, usageErrorf(cmd, "--cwd %q is not a directory", fl.Cwd)
		}
	}
	return f.stdio(transport.Command{Argv: argv, Env: fl.Env, Dir: fl.Cwd}), nil
}

// DefaultConnectTimeout bounds starting a server and its handshake when
// --timeout does not: long enough for npx or uvx to fetch a package.
const DefaultConnectTimeout = 60 * time.Second

// waitAfter is how long a server may say nothing before mcpcli says it is
// waiting for it.
const waitAfter = 1500 * time.Millisecond

// waitLine is a "waiting for …" line that shows only if its wait lasts.
type waitLine struct {
	t     *time.Timer
	con   *render.Console
	shown chan struct{} // closed once the line is on screen
}

// waiting shows msg on the console after waitAfter, until stop.
func (f *Factory) waiting(msg string) *waitLine {
	w := &waitLine{con: f.Console(), shown: make(chan struct{})}
	w.t = time.AfterFunc(waitAfter, func() {
		w.con.Waiting(msg)
		close(w.shown)
	})
	return w
}

func (w *waitLine) stop() {
	if !w.t.Stop() {
		<-w.shown // it is being drawn: let it finish, then take it away
		w.con.Waited()
	}
}

// waitSlot holds the one wait of a session at a time.
type waitSlot struct {
	mu sync.Mutex
	w  *waitLine
}

// set ends the current wait, and starts w (if not nil).
func (s *waitSlot) set(w *waitLine) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.w != nil {
		s.w.stop()
	}
	s.w = w
}

// stdio is the transport to a server started as c.
func (f *Factory) stdio(c transport.Command) *transport.Stdio {
	s := &transport.Stdio{Cmd: c, Warn: f.Console().Warn}
	if t := f.Flags.Timeout; t > 0 && t/2 < transport.DefaultDiscoverWait {
		// Leave the initialize handshake half of --timeout.
		s.DiscoverWait = t / 2
	}
	return s
}

// Connect starts a session with the server over t, with this run's
// answerer, trace and display. Closing the session closes t.
func (f *Factory) Connect(ctx context.Context, cmd *cobra.Command, t transport.Transport) (*client.Session, error) {
	return f.connect(ctx, cmd, t, nil)
}

// connect is Connect, with tweak given the client's options last: the
// interactive session sends the hooks to itself instead of the console.
func (f *Factory) connect(ctx context.Context, cmd *cobra.Command, t transport.Transport, tweak func(*client.Options)) (*client.Session, error) {
	con := f.Console()
	answerer, err := f.Answerer(cmd)
	if err != nil {
		t.Close()
		return nil, err
	}
	var closers []func()
	if f.Flags.Trace != "" {
		var w io.Writer
		escape := false
		if f.Flags.Trace == "-" {
			w, escape = con, true
		} else {
			file, err := os.Create(f.Flags.Trace)
			if err != nil {
				t.Close()
				return nil, usageErrorf(cmd, "--trace %q: %v", f.Flags.Trace, err)
			}
			w = file
			closers = append(closers, func() { file.Close() })
		}
		tr := transport.NewTracer(w)
		tr.EscapeControls = escape
		t.Observe(tr.Observe)
		name := f.Flags.Trace
		closers = append([]func(){func() {
			if err := tr.Err(); err != nil {
				con.Warn(fmt.Sprintf("the trace %s is incomplete: %v", name, err))
			}
		}}, closers...)
	}
	modes, _ := client.ParseModes(f.Flags.Elicitation)
	connectTimeout := f.Flags.Timeout
	if connectTimeout == 0 {
		connectTimeout = DefaultConnectTimeout
	}
	what := "the server at " + render.Line(t.Via())
	if st, ok := t.(*transport.Stdio); ok {
		what = fmt.Sprintf("the server (%s) to start", render.Line(st.Cmd.String()))
	}
	wait := &waitSlot{}
	wait.set(f.waiting(fmt.Sprintf("waiting for %s…", what)))
	opts := client.Options{
		ClientVersion: version,
		Modes:         modes,
		Answerer: client.AnswererFunc(func(ctx context.Context, r client.Round) (map[string]*mcp.ElicitResult, error) {
			wait.set(nil) // the person is answering: nobody waits for the server
			return answerer.Answer(ctx, r)
		}),
		MaxRounds:      f.Flags.MaxRounds,
		Timeout:        f.Flags.Timeout,
		ConnectTimeout: connectTimeout,
		LogLevel:       f.Flags.LogLevel,
		Warn:           con.Warn,
		OnLog:          con.Log,
		OnProgress: func(p *mcp.ProgressNotificationParams) {
			wait.set(nil)
			con.Progress(p)
		},
		OnStep: func(st client.Step) {
			if st.Kind != client.StepSend {
				wait.set(nil)
				con.EndProgress()
			} else {
				wait.set(f.waiting(fmt.Sprintf("waiting for the server to answer %s %s…", st.Method, render.Line(st.Target))))
			}
			if f.Flags.Verbose {
				con.Step(st)
			}
		},
	}
	if tweak != nil {
		tweak(&opts)
	}
	s, err := client.Connect(ctx, t, opts)
	wait.set(nil)
	if err != nil {
		for _, c := range closers {
			c()
		}
		return nil, err
	}
	f.closers = append(f.closers, closers...)
	return s, nil
}
