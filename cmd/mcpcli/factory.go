package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/config"
	"github.com/mcpcli/mcpcli/connect"
	"github.com/mcpcli/mcpcli/internal/cast"
	"github.com/mcpcli/mcpcli/lint"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/shell"
	"github.com/mcpcli/mcpcli/transport"
)

// GlobalFlags are the flags every server command shares: those that say
// how to reach the server and talk to it (connect's), and the run's own.
type GlobalFlags struct {
	connect.Flags

	Trace        string // --trace FILE
	Answers      string // --answers FILE: answer from a file instead of asking
	SaveAnswers  string // --save-answers FILE
	OpenURLs     bool   // --open-urls: with --answers, open what they accept
	Output       string // -o text|json
	Accessible   bool   // --accessible: lines instead of full-screen forms
	TrustProject bool   // --trust-project: trust the project's config files for this run

	Lint bool // --lint: check every ask against the spec, findings at the end

	Cast     string  // --cast FILE: record what is drawn as an asciinema cast
	CastIdle float64 // --cast-idle N: cap the recording's pauses at N seconds
}

// Factory is what the commands of one run share: the outside world
// (Deps), the global flags, and what is made from them once for the whole
// run, when first needed: the console, how the run asks the person, the
// config files, the trace, the recording. Its methods build and return
// what a command needs (a connector, an answer set, a transport); no
// command sets anything on it for another part to read.
type Factory struct {
	Deps  *Deps
	Flags GlobalFlags
	// Args are the run's arguments, to say how to run it again.
	Args []string

	con   *render.Console
	ask   *connect.Asking  // how this run asks: an answers file, forms or lines
	conf  *connect.Configs // the config files and the server -s names
	trace *connect.Trace   // --trace, opened by the first connection
	cast  *cast.Recording  // --cast, once started
	lint  *lint.Linter     // --lint, made by the first connection
	end   []func()         // closed when the run ends
}

// atEnd has fn run when the run ends.
func (f *Factory) atEnd(fn func()) { f.end = append(f.end, fn) }

// cleanup runs what the run left to do at its end.
func (f *Factory) cleanup() {
	for _, c := range f.end {
		c()
	}
	f.end = nil
}

// JSON reports -o json.
func (f *Factory) JSON() bool { return f.Flags.Output == "json" }

// Console is the run's stderr, made on first use.
func (f *Factory) Console() *render.Console {
	if f.con == nil {
		f.con = render.NewConsoleFor(f.Deps.Err, f.Deps.ErrTTY, f.getenv)
	}
	return f.con
}

func (f *Factory) getenv(k string) string {
	if f.Deps.Getenv == nil {
		return ""
	}
	return f.Deps.Getenv(k)
}

// flags are the global flags connect reads.
func (f *Factory) flags() connect.Flags { return f.Flags.Flags }

// machine is what reaching a server needs of this run's machine.
func (f *Factory) machine() connect.Machine {
	m := connect.Machine{Executable: f.Deps.Executable, Servers: f.Deps.Servers, Console: f.Console(), AtEnd: f.atEnd}
	switch v := f.getenv(connect.SupervisorEnv); v {
	case "":
	case "exec":
		m.ExecSupervisor = true
	default:
		m.Console.Warn(fmt.Sprintf("%s=%q is not \"exec\" (the one value it takes: run the supervisor as a program); it is ignored", connect.SupervisorEnv, v))
	}
	return m
}

// Transport reads -s NAME, or --stdio, --url and the command after --,
// into the transport to the server. It starts nothing.
func (f *Factory) Transport(cmd *cobra.Command) (transport.Transport, error) {
	var named *config.Server
	if f.Flags.Server != "" {
		if err := connect.NamesOnce(f.flags()); err != nil {
			return nil, asUsage(cmd, err)
		}
		var err error
		if named, err = f.configs().Server(cmd.Context(), f.Flags.Server); err != nil {
			return nil, err
		}
	}
	t, err := connect.Transport(f.flags(), named, f.machine(), cmd.Name())
	return t, asUsage(cmd, err)
}

// dial is how one command connects, over what the run does for all.
type dial struct {
	// answers answer the asks (nil: the run's one-shot set, recorded).
	answers *connect.Answers
	// rawOnly: the command prints results' bytes only.
	rawOnly bool
	// session: each request may ask for a sign-in again, and a sign-in's
	// question borrows the terminal through share (the full-screen
	// shell's; nil where the terminal is free).
	session bool
	share   func(ctx context.Context, run func()) error
	// adjust changes the client's options last (a shell's hooks).
	adjust func(*client.Options)
}

// connector is how a command reaches its server: resolved from the flags
// before anything starts (so that a mistake in them is a usage error, and
// no server is started for nothing), connected when the command runs.
type connector func(ctx context.Context) (*client.Session, error)

// connector resolves the server from the flags, to connect as d says.
func (f *Factory) connector(cmd *cobra.Command, d dial) (connector, error) {
	t, err := f.Transport(cmd)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context) (*client.Session, error) { return f.dial(ctx, cmd, t, d) }, nil
}

// dial connects over t with this run's answerers, sign-in, trace and
// display, as d says. Every way mcpcli reaches a server comes through
// here: an HTTP server gets its sign-in whatever the command.
func (f *Factory) dial(ctx context.Context, cmd *cobra.Command, t transport.Transport, d dial) (*client.Session, error) {
	a := d.answers
	if a == nil {
		var err error
		if a, err = f.asking().OneShot(ctx); err != nil {
			t.Close()
			return nil, asUsage(cmd, err)
		}
	}
	signIn := f.signIn(false, d.share)
	f.lintObserve(t)
	s, err := connect.Dial(ctx, t, connect.Options{
		Flags: f.flags(), Console: f.Console(), Version: version,
		Answerer: a.Answerer, Sampler: a.Sampler, RawOnly: d.rawOnly, ToolCache: connect.ToolCache(t, f.Deps.CacheDir),
		SignIn: signIn.For, Again: d.session, Trace: f.runTrace(), Mark: f.mark, Undeclared: shell.Undeclared, Adjust: d.adjust,
	})
	return s, asUsage(cmd, err)
}

// runTrace is --trace (nil without), made once for the run's connections.
func (f *Factory) runTrace() *connect.Trace {
	if f.trace == nil && f.Flags.Trace != "" {
		f.trace = &connect.Trace{Name: f.Flags.Trace, Console: f.Console(), AtEnd: f.atEnd}
	}
	return f.trace
}
