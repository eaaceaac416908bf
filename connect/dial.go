package connect

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/oauth"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/transport"
)

// DefaultConnectTimeout bounds starting a server and its handshake when
// --timeout does not: long enough for npx or uvx to fetch a package.
const DefaultConnectTimeout = 60 * time.Second

// Options are how Dial connects.
type Options struct {
	Flags   Flags
	Console *render.Console
	// Version is mcpcli's, sent as the client's.
	Version string
	// Answerer answers the asks; Sampler, when set, the sampling requests
	// (declared with Flags.Sampling, or once a session turns it on).
	Answerer client.Answerer
	Sampler  client.Sampler
	// RawOnly: the command prints results' bytes only.
	RawOnly   bool
	ToolCache *client.ToolCache
	// SignIn gives an HTTP transport its OAuth handler (nil: it has
	// none); quiet takes the waiting line away while the person signs in.
	SignIn func(h *transport.HTTP, quiet func()) (*oauth.Handler, error)
	// Again: each request the person makes may ask them to sign in again,
	// even after a sign-in they declined (a session).
	Again bool
	// Trace is --trace (nil: none).
	Trace *Trace
	// Mark, when set, is told each round answered (a cast's markers).
	Mark func(label string)
	// Undeclared words a server's request for a capability mcpcli did not
	// declare.
	Undeclared func(*client.UndeclaredError) string
	// Adjust changes the options last (a shell's own hooks).
	Adjust func(*client.Options)
	// Quiet leaves out what only a person watching needs: the "waiting
	// for …" line, task and progress lines (a CI log of flows). Errors,
	// warnings and logs are still shown.
	Quiet bool
}

// Dial starts a session with the server over t: its sign-in, the trace,
// and the console's display while it works. Closing the session closes t;
// t is closed when Dial fails.
func Dial(ctx context.Context, t transport.Transport, o Options) (*client.Session, error) {
	con, fl := o.Console, o.Flags
	roots, err := RootURIs(fl.Roots)
	if err != nil {
		t.Close()
		return nil, &FlagError{Msg: err.Error()}
	}
	wait := con.Waiter()
	if o.Quiet {
		wait = render.NewConsole(io.Discard, render.ConsoleOptions{}).Waiter()
	}
	var signIn *oauth.Handler
	if h, ok := t.(*transport.HTTP); ok && h.OAuth == nil && o.SignIn != nil {
		if signIn, err = o.SignIn(h, wait.Stop); err != nil {
			t.Close()
			return nil, err
		}
	}
	if o.Trace != nil {
		if err := o.Trace.observe(t); err != nil {
			t.Close()
			return nil, err
		}
	}
	modes, _ := client.ParseModes(fl.Elicitation)
	connectTimeout := fl.Timeout
	if connectTimeout == 0 {
		connectTimeout = DefaultConnectTimeout
	}
	what := "the server at " + render.Line(t.Via())
	if st, ok := t.(*transport.Stdio); ok {
		what = fmt.Sprintf("the server (%s) to start", render.Line(st.Cmd.String()))
	}
	wait.Wait(fmt.Sprintf("waiting for %s…", what))
	pinned := fl.Protocol != "" && fl.Protocol != "auto"
	asked := ""
	if pinned {
		asked = fl.Protocol
	}
	answerer := o.Answerer
	opts := client.Options{
		ClientVersion:   o.Version,
		ProtocolVersion: asked,
		PinProtocol:     pinned,
		Modes:           modes,
		Roots:           roots,
		Answerer: client.AnswererFunc(func(ctx context.Context, r client.Round) (map[string]*mcp.ElicitResult, error) {
			wait.Stop() // the person is answering: nobody waits for the server
			return answerer.Answer(ctx, r)
		}),
		OnUndeclared: func(e *client.UndeclaredError) { con.Warn(o.Undeclared(e)) },
		OnTask: func(st client.TaskStatus) {
			if !o.Quiet {
				con.EndProgress()
				con.Printf("%s", render.TaskLine(st))
			}
		},
		RawOnly:        o.RawOnly,
		ToolCache:      o.ToolCache,
		MaxRounds:      fl.MaxRounds,
		Timeout:        fl.Timeout,
		ConnectTimeout: connectTimeout,
		LogLevel:       fl.LogLevel,
		Warn:           con.Warn,
		OnLog:          con.Log,
		OnProgress: func(p *mcp.ProgressNotificationParams) {
			wait.Stop()
			if !o.Quiet {
				con.Progress(p)
			}
		},
		OnStep: func(st client.Step) {
			switch st.Kind {
			case client.StepRootsListed:
				// answered by mcpcli: the server is still at work
			case client.StepSend:
				wait.Wait(fmt.Sprintf("waiting for the server to answer %s %s…", st.Method, render.Line(st.Target)))
			default:
				wait.Stop()
				con.EndProgress()
			}
			if fl.Verbose {
				con.Step(st)
			}
		},
	}
	if sampler := o.Sampler; sampler != nil {
		opts.Sampler = client.SamplerFunc(func(ctx context.Context, r client.SamplingRound) (*client.SamplingAnswer, error) {
			wait.Stop() // the person is writing the reply
			return sampler.Sample(ctx, r)
		})
		opts.SamplingOff = !fl.Sampling
	}
	if o.Adjust != nil {
		o.Adjust(&opts)
	}
	if signIn != nil && o.Again {
		onStep := opts.OnStep
		opts.OnStep = func(st client.Step) {
			if st.Kind == client.StepSend && st.Round == 0 {
				signIn.Rearm()
			}
			if onStep != nil {
				onStep(st)
			}
		}
	}
	if o.Mark != nil {
		// Whoever answers (forms, lines, a file, a shell), each round
		// answered is a marker of the recording.
		opts.Answerer = markRounds(opts.Answerer, o.Mark)
	}
	s, err := client.Connect(ctx, t, opts)
	wait.Stop()
	return s, err
}

// markRounds is a, each round it answers said to mark once the answers
// are chosen: call, round, and each key with the action sent.
func markRounds(a client.Answerer, mark func(string)) client.Answerer {
	return client.AnswererFunc(func(ctx context.Context, r client.Round) (map[string]*mcp.ElicitResult, error) {
		out, err := a.Answer(ctx, r)
		if label := render.RoundMarker(r, out, err); label != "" {
			mark(label)
		}
		return out, err
	})
}

// RootURIs turns --root directories into roots: absolute file:// URIs,
// named after the directory.
func RootURIs(dirs []string) ([]*mcp.Root, error) {
	var roots []*mcp.Root
	for _, d := range dirs {
		r, err := client.DirRoot(d)
		if err != nil {
			return nil, fmt.Errorf("--root %v", err)
		}
		roots = append(roots, r)
	}
	return roots, nil
}

// Trace is a run's --trace: every JSON-RPC message (and HTTP headers) as
// JSON Lines, to a file or (Name "-") the console. It is opened by the
// first connection and given to the next; AtEnd closes it.
type Trace struct {
	Name    string
	Console *render.Console
	AtEnd   func(func())

	once sync.Once
	tr   *transport.Tracer
	err  error
}

// observe has the trace watch t, opening it first. The headers the person
// gave (those of t) are redacted.
func (t *Trace) observe(tp transport.Transport) error {
	t.once.Do(func() {
		var w io.Writer = t.Console
		if t.Name != "-" {
			file, err := os.Create(t.Name)
			if err != nil {
				t.err = &FlagError{Msg: fmt.Sprintf("--trace %q: %v", t.Name, err)}
				return
			}
			w = file
			defer t.AtEnd(func() { file.Close() })
		}
		t.tr = transport.NewTracer(w)
		t.tr.EscapeControls = t.Name == "-"
		switch tp := tp.(type) {
		case *transport.HTTP:
			t.tr.RedactHeaders = headerNames(tp.Header)
		case *transport.SSE:
			t.tr.RedactHeaders = headerNames(tp.Header)
		}
		t.AtEnd(func() {
			if err := t.tr.Err(); err != nil {
				t.Console.Warn(fmt.Sprintf("the trace %s is incomplete: %v", t.Name, err))
			}
		})
	})
	if t.err != nil {
		return t.err
	}
	tp.Observe(t.tr.Observe)
	return nil
}

func headerNames(h map[string][]string) []string {
	var out []string
	for k := range h {
		out = append(out, k)
	}
	return out
}

// ToolCache is where the tool list of the server t reaches is kept
// between runs (client.ToolCacheFor) under the cache directory dir gives,
// or nil when there is nowhere to keep it (dir nil, or failing).
func ToolCache(t transport.Transport, dir func() (string, error)) *client.ToolCache {
	if dir == nil {
		return nil
	}
	d, err := dir()
	if err != nil || d == "" {
		return nil
	}
	return client.ToolCacheFor(t, d)
}

// With connects (dial), runs fn on the session, and always closes it (and
// with it a stdio server), explaining fn's error with what happened to
// the server (client.Session.Explain). The console's progress line ends
// before anything more is said.
func With(ctx context.Context, con *render.Console, dial func(context.Context) (*client.Session, error), fn func(s *client.Session) error) error {
	s, err := dial(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	err = fn(s)
	if ctx.Err() == nil {
		s.Drain()
	}
	con.EndProgress()
	return s.Explain(err)
}
