package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/config"
	"github.com/mcpcli/mcpcli/internal/shellwords"
	"github.com/mcpcli/mcpcli/oauth"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/request"
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
	Protocol    string   // auto, or a version to pin
	Transport   string   // for --url: auto, streamable or sse
	Roots       []string // --root directories
	Sampling    bool     // --sampling: declare sampling, answered by a person
	ServerArgv  []string // after --

	Server            string // -s NAME: a server from the config files
	Config            string // --config FILE: read before every other config file
	TrustProject      bool   // --trust-project: trust the project's config files for this run
	ClientID          string // --client-id: a pre-registered OAuth client
	ClientMetadataURL string // --client-metadata-url: mcpcli's OAuth client ID metadata document
	MaxMessageSize    byteSize

	Cast     string  // --cast FILE: record what is drawn as an asciinema cast
	CastIdle float64 // --cast-idle N: cap the recording's pauses at N seconds
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
	recorder     *request.Recorder // what the person answered
	rawOnly      bool              // the command prints results' bytes only (client.Options.RawOnly)
	closers      []func()          // run when the command is done: the trace
	cast         *recording        // --cast, once started

	wait   *render.Waiter // the session's "waiting for …" line, stopped while signing in
	cfg    *config.Config // the config files, loaded once
	server *config.Server // the server -s named, once resolved
	secret []string       // the headers the person gave: redacted in the trace

	// share, in the interactive session, lends the terminal to what asks
	// on it outside a form (a sign-in that comes mid-session).
	share func(ctx context.Context, run func()) error
	// session: the run is a session (the TUI or the line session), whose
	// requests each may ask for a sign-in again.
	session bool

	// Made by the first Connect, and kept by the next (a session that
	// reconnects): how the run answers, and its trace.
	answerer client.Answerer
	sampler  client.Sampler
	tracer   *transport.Tracer
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
		guard, bad := keyGuard(f.getenv(keyGuardEnv))
		f.console = render.NewConsole(d.Err, render.ConsoleOptions{
			TTY:      d.ErrTTY,
			Color:    f.getenv("NO_COLOR") == "" && f.getenv("TERM") != "dumb",
			KeyGuard: guard,
			Width: func() int {
				if fd, ok := d.Err.(interface{ Fd() uintptr }); ok {
					if w, _, err := term.GetSize(int(fd.Fd())); err == nil {
						return w
					}
				}
				return 0
			},
		})
		if bad {
			f.console.Warn(fmt.Sprintf("%s=%q is not a duration (300ms, 1s, 0 for none); the forms ignore keys for the first %v as usual", keyGuardEnv, f.getenv(keyGuardEnv), render.DefaultKeyGuard))
		}
	}
	return f.console
}

// keyGuardEnv lengthens (or, for tests that type at machine speed, turns
// off) the time a form or consent screen ignores keys after it appears.
const keyGuardEnv = "MCPCLI_KEY_GUARD"

// keyGuard reads MCPCLI_KEY_GUARD: "" is the default, 0 none; bad is set
// for a value that is not a duration.
func keyGuard(v string) (d time.Duration, bad bool) {
	if v == "" {
		return 0, false
	}
	if v == "0" {
		return render.NoKeyGuard, false
	}
	d, err := time.ParseDuration(v)
	switch {
	case err != nil || d < 0:
		return 0, true
	case d == 0:
		return render.NoKeyGuard, false
	}
	return d, false
}

func (f *Factory) getenv(k string) string {
	if f.Deps.Getenv == nil {
		return ""
	}
	return f.Deps.Getenv(k)
}

// Transport reads -s NAME, or --stdio, --url and the command after --,
// into the transport to the server. It starts nothing.
func (f *Factory) Transport(cmd *cobra.Command) (transport.Transport, error) {
	fl := f.Flags
	if fl.Server != "" {
		return f.namedTransport(cmd)
	}
	if fl.Config != "" {
		return nil, usageErrorf(cmd, "--config %s says where servers are defined; pick one of them with --server NAME ('mcpcli servers --config %s' lists them)", fl.Config, fl.Config)
	}
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
		return nil, usageErrorf(cmd, "no server given: pass --server NAME (see 'mcpcli servers'), --stdio \"CMD ARGS\", put the command after -- (mcpcli %s -- ./server), or pass --url URL", cmd.Name())
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
		h, err := f.headers(cmd, nil)
		if err != nil {
			return nil, err
		}
		return f.http(cmd, fl.URL, h)
	}
	if fl.Transport != "auto" && fl.Transport != "" {
		return nil, usageErrorf(cmd, "--transport %s applies to --url servers; a stdio server is reached over stdio", fl.Transport)
	}
	if len(fl.Headers) > 0 {
		return nil, usageErrorf(cmd, "--header applies to --url servers; stdio servers take --env")
	}
	if err := f.checkCwd(cmd); err != nil {
		return nil, err
	}
	return f.stdio(transport.Command{Argv: argv, Env: fl.Env, Dir: fl.Cwd}), nil
}

// checkCwd checks --cwd.
func (f *Factory) checkCwd(cmd *cobra.Command) error {
	if fl := f.Flags; fl.Cwd != "" {
		if st, err := os.Stat(fl.Cwd); err != nil || !st.IsDir() {
			return usageErrorf(cmd, "--cwd %q is not a directory", fl.Cwd)
		}
	}
	return nil
}

// headers are the headers of an HTTP server: base (a config entry's),
// then each --header, which replaces a header of the same name. Every
// name is kept to be redacted in the trace.
func (f *Factory) headers(cmd *cobra.Command, base map[string]string) (http.Header, error) {
	h := http.Header{}
	for _, k := range slices.Sorted(maps.Keys(base)) {
		if err := transport.ParseHeader(h, k+": "+base[k]); err != nil {
			return nil, fmt.Errorf("server %q in %s: headers: %v", f.server.Name, f.server.Source.Path, err)
		}
	}
	given := http.Header{}
	for _, raw := range f.Flags.Headers {
		if err := transport.ParseHeader(given, raw); err != nil {
			return nil, usageErrorf(cmd, "--header %v", err)
		}
	}
	maps.Copy(h, given)
	for k := range h {
		f.secret = append(f.secret, k)
	}
	return h, nil
}

// http is the transport to an HTTP server at url: Streamable HTTP (falling
// back to HTTP+SSE when the server refuses it), or as --transport says.
func (f *Factory) http(cmd *cobra.Command, url string, h http.Header) (transport.Transport, error) {
	fl := f.Flags
	max := int(fl.MaxMessageSize)
	switch fl.Transport {
	case "sse":
		return f.sse(cmd, "--transport sse", url, h)
	case "streamable":
		return &transport.HTTP{URL: url, Header: h, MaxMessage: max, Streamable: true}, nil
	}
	return &transport.HTTP{URL: url, Header: h, MaxMessage: max}, nil
}

// sse is the transport to an HTTP+SSE server (2024-11-05) at url.
// why is what chose it, for the error when --protocol rules it out.
func (f *Factory) sse(cmd *cobra.Command, why, url string, h http.Header) (transport.Transport, error) {
	if f.Flags.Protocol == client.ModernVersion {
		return nil, usageErrorf(cmd, "%s carries the initialize handshake only (2025-11-25 at most); it cannot go with --protocol %s", why, client.ModernVersion)
	}
	return &transport.SSE{URL: url, Header: h, MaxMessage: int(f.Flags.MaxMessageSize)}, nil
}

// DefaultConnectTimeout bounds starting a server and its handshake when
// --timeout does not: long enough for npx or uvx to fetch a package.
const DefaultConnectTimeout = 60 * time.Second

// supervisorName is the small supervisor binary, installed beside mcpcli.
const supervisorName = "mcpcli-supervise"

// supervisorBeside is the supervisor for the mcpcli binary exe: the small
// mcpcli-supervise beside it, which starts in half the time, or else exe
// itself (a go install of cmd/mcpcli alone).
func supervisorBeside(exe string) string {
	sib := filepath.Join(filepath.Dir(exe), supervisorName)
	if st, err := os.Stat(sib); err == nil && st.Mode().IsRegular() && st.Mode().Perm()&0o111 != 0 {
		return sib
	}
	return exe
}

// rootURIs turns --root directories into roots: absolute file:// URIs,
// named after the directory.
func rootURIs(dirs []string) ([]*mcp.Root, error) {
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

// stdio is the transport to a server started as c: under a supervisor
// (so nothing it starts outlives mcpcli), in the run's group of servers.
// With -v the server's stderr is shown as it arrives; either way its last
// lines are kept for when it fails.
func (f *Factory) stdio(c transport.Command) *transport.Stdio {
	if f.Deps.Executable != nil {
		if exe, err := f.Deps.Executable(); err == nil {
			c.Supervisor = supervisorBeside(exe)
		}
	}
	c.Group = f.Deps.Servers
	if f.Flags.Verbose && c.Stderr == nil {
		w := f.Console().ServerStderr("[server stderr] ")
		c.Stderr = w
		f.closers = append(f.closers, func() { w.Close() })
	}
	s := &transport.Stdio{Cmd: c, Warn: f.Console().Warn, MaxMessage: int(f.Flags.MaxMessageSize)}
	switch {
	case f.Flags.Protocol == client.ModernVersion:
		// Pinned: no fallback, so nothing to probe for; the server has
		// all of the handshake's time to answer.
		s.DiscoverWait = transport.NoDiscoverProbe
	case f.Flags.Timeout/2 > transport.DefaultDiscoverWait:
		// A longer --timeout gives a slow server longer before it is
		// taken for an older one (leaving half for that handshake); a
		// shorter one never cuts the probe short.
		s.DiscoverWait = f.Flags.Timeout / 2
	}
	return s
}

// Connect starts a session with the server over t, with this run's
// answerer, trace and display; adjust, when given, changes the options
// last. Closing the session closes t.
//
// Every way mcpcli reaches a server comes through here: an HTTP server
// gets its sign-in (signInFor) whatever the command. A session may call it
// again to reconnect: the answerers and the trace of the first call are
// kept.
func (f *Factory) Connect(ctx context.Context, cmd *cobra.Command, t transport.Transport, adjust ...func(*client.Options)) (*client.Session, error) {
	con := f.Console()
	if f.answerer == nil {
		// The sampler is there even without --sampling, off: the session
		// can turn sampling on (client.Session.SetSampling).
		var err error
		if f.answerer, f.sampler, err = f.answerers(cmd); err != nil {
			f.answerer = nil
			t.Close()
			return nil, err
		}
	}
	answerer, sampler := f.answerer, f.sampler
	roots, err := rootURIs(f.Flags.Roots)
	if err != nil {
		t.Close()
		return nil, usageErrorf(cmd, "%v", err)
	}
	var signIn *oauth.Handler
	if h, ok := t.(*transport.HTTP); ok && h.OAuth == nil {
		if signIn, err = f.signInFor(h, false); err != nil {
			t.Close()
			return nil, err
		}
	}
	var closers []func()
	if f.Flags.Trace != "" {
		if f.tracer == nil {
			if closers, err = f.trace(cmd); err != nil {
				t.Close()
				return nil, err
			}
		}
		t.Observe(f.tracer.Observe)
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
	wait := con.Waiter()
	f.wait = wait
	wait.Wait(fmt.Sprintf("waiting for %s…", what))
	pinned := f.Flags.Protocol != "" && f.Flags.Protocol != "auto"
	asked := ""
	if pinned {
		asked = f.Flags.Protocol
	}
	opts := client.Options{
		ClientVersion:   version,
		ProtocolVersion: asked,
		PinProtocol:     pinned,
		Modes:           modes,
		Roots:           roots,
		Answerer: client.AnswererFunc(func(ctx context.Context, r client.Round) (map[string]*mcp.ElicitResult, error) {
			wait.Stop() // the person is answering: nobody waits for the server
			return answerer.Answer(ctx, r)
		}),
		OnUndeclared: func(e *client.UndeclaredError) { con.Warn(undeclared(e)) },
		OnTask: func(st client.TaskStatus) {
			con.EndProgress()
			con.Printf("%s", render.TaskLine(st))
		},
		RawOnly:        f.rawOnly,
		ToolCache:      f.toolCache(t),
		MaxRounds:      f.Flags.MaxRounds,
		Timeout:        f.Flags.Timeout,
		ConnectTimeout: connectTimeout,
		LogLevel:       f.Flags.LogLevel,
		Warn:           con.Warn,
		OnLog:          con.Log,
		OnProgress: func(p *mcp.ProgressNotificationParams) {
			wait.Stop()
			con.Progress(p)
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
			if f.Flags.Verbose {
				con.Step(st)
			}
		},
	}
	if sampler != nil {
		opts.Sampler = client.SamplerFunc(func(ctx context.Context, r client.SamplingRound) (*client.SamplingAnswer, error) {
			wait.Stop() // the person is writing the reply
			return sampler.Sample(ctx, r)
		})
		opts.SamplingOff = !f.Flags.Sampling
	}
	for _, a := range adjust {
		a(&opts)
	}
	if signIn != nil && f.session {
		// Each request the person makes in a session may ask them to sign
		// in, even after a sign-in they declined.
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
	// Whoever answers (forms, lines, a file, the session), each round
	// answered is a marker of the recording.
	opts.Answerer = f.markRounds(opts.Answerer)
	s, err := client.Connect(ctx, t, opts)
	wait.Stop()
	f.closers = append(f.closers, closers...)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// trace opens --trace, once a run, and returns what closes it.
func (f *Factory) trace(cmd *cobra.Command) ([]func(), error) {
	con := f.Console()
	var closers []func()
	var w io.Writer
	escape := false
	if f.Flags.Trace == "-" {
		w, escape = con, true
	} else {
		file, err := os.Create(f.Flags.Trace)
		if err != nil {
			return nil, usageErrorf(cmd, "--trace %q: %v", f.Flags.Trace, err)
		}
		w = file
		closers = append(closers, func() { file.Close() })
	}
	tr := transport.NewTracer(w)
	tr.EscapeControls = escape
	tr.RedactHeaders = f.secret
	f.tracer = tr
	name := f.Flags.Trace
	return append([]func(){func() {
		if err := tr.Err(); err != nil {
			con.Warn(fmt.Sprintf("the trace %s is incomplete: %v", name, err))
		}
	}}, closers...), nil
}
