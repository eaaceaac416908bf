// Package connect reaches a server for mcpcli: the transport that the
// run's flags, or the server they name in the config files, say (a stdio
// server under its supervisor, Streamable HTTP, HTTP+SSE); its sign-in;
// the trace; and the client.Session over it, with the run's answerers and
// what the console shows while it works (the "waiting for …" line,
// progress, logs, tasks, the round trips with -v).
//
// It is the wiring below the commands: cmd/mcpcli parses the flags, picks
// who answers, and words the errors; connect puts them together. A
// mistake in the flags is a *FlagError, which cmd says as a usage error.
package connect

import (
	"errors"
	"fmt"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/config"
	"github.com/mcpcli/mcpcli/internal/shellwords"
	"github.com/mcpcli/mcpcli/oauth"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/request"
	"github.com/mcpcli/mcpcli/transport"
)

// Flags are a run's flags that say how to reach a server and how to talk
// to it.
type Flags struct {
	// Where the server is (-s NAME is resolved by the caller: Named).
	Server, Config, Stdio, URL, Transport, Cwd string
	ServerArgv, Headers, Env                   []string
	MaxMessageSize                             int
	// How to talk to it.
	Protocol, Elicitation, LogLevel string
	Roots                           []string
	MaxRounds                       int
	Timeout                         time.Duration
	Sampling, Verbose               bool
	ClientID, ClientMetadataURL     string
}

// FlagError is a mistake in the flags, in words: the command's usage
// error.
type FlagError struct{ Msg string }

func (e *FlagError) Error() string { return e.Msg }

func flagErrorf(format string, args ...any) error {
	return &FlagError{Msg: fmt.Sprintf(format, args...)}
}

// Machine is what reaching a server needs of the machine mcpcli runs on.
type Machine struct {
	// Executable is mcpcli's own path: its supervisor is beside it.
	Executable func() (string, error)
	// Servers is the run's group of stdio servers, for main to kill
	// should the run not end when told to.
	Servers *transport.Group
	Console *render.Console
	// AtEnd is given what is to be closed when the run ends.
	AtEnd func(func())
	// ExecSupervisor runs each stdio server's supervisor as a program,
	// not made in-process (MCPCLI_SUPERVISOR=exec; see
	// transport.Command).
	ExecSupervisor bool
}

// SupervisorEnv, set to "exec", runs the supervisor as a program.
const SupervisorEnv = "MCPCLI_SUPERVISOR"

// Transport is the transport to the server fl names (named, when fl
// names one with -s, resolved from the config files). It starts nothing;
// command names the command for the messages.
func Transport(fl Flags, named *config.Server, m Machine, command string) (transport.Transport, error) {
	if named != nil {
		return namedTransport(fl, named, m)
	}
	if fl.Config != "" {
		return nil, flagErrorf("--config %s says where servers are defined; pick one of them with --server NAME ('mcpcli servers --config %s' lists them)", fl.Config, fl.Config)
	}
	var argv []string
	if fl.Stdio != "" {
		words, err := shellwords.Split(fl.Stdio)
		if err == nil && len(words) == 0 {
			err = errors.New("the command is empty")
		}
		if err != nil {
			return nil, flagErrorf("--stdio %q: %v", fl.Stdio, err)
		}
		argv = words
	}
	if len(fl.ServerArgv) > 0 {
		if argv != nil {
			return nil, flagErrorf("give the server once: either --stdio \"CMD ARGS\" or the command after --, not both")
		}
		argv = fl.ServerArgv
	}
	switch {
	case argv != nil && fl.URL != "":
		return nil, flagErrorf("give either a stdio command or --url, not both")
	case argv == nil && fl.URL == "":
		return nil, flagErrorf("no server given: pass --server NAME (see 'mcpcli servers'), --stdio \"CMD ARGS\", put the command after -- (mcpcli %s -- ./server), or pass --url URL", command)
	case len(argv) == 0 && fl.URL == "":
		return nil, flagErrorf("the server command is empty")
	}
	if fl.URL != "" {
		if len(fl.Env) > 0 || fl.Cwd != "" {
			return nil, flagErrorf("--env and --cwd apply to stdio servers; they do nothing with --url")
		}
		if _, err := transport.ParseURL(fl.URL); err != nil {
			return nil, flagErrorf("--url %v", err)
		}
		h, err := headers(fl, nil)
		if err != nil {
			return nil, err
		}
		return httpTransport(fl, fl.URL, h)
	}
	if fl.Transport != "auto" && fl.Transport != "" {
		return nil, flagErrorf("--transport %s applies to --url servers; a stdio server is reached over stdio", fl.Transport)
	}
	if len(fl.Headers) > 0 {
		return nil, flagErrorf("--header applies to --url servers; stdio servers take --env")
	}
	if err := checkCwd(fl); err != nil {
		return nil, err
	}
	return stdio(fl, m, transport.Command{Argv: argv, Env: fl.Env, Dir: fl.Cwd}), nil
}

// namedTransport is the transport to the server -s names. --env and --cwd
// add to a stdio entry, --header to an HTTP one; --stdio, --url and a
// command after -- would name a second server.
func namedTransport(fl Flags, srv *config.Server, m Machine) (transport.Transport, error) {
	if err := NamesOnce(fl); err != nil {
		return nil, err
	}
	name := render.Line(srv.Name)
	switch srv.Transport {
	case config.Stdio:
		if len(fl.Headers) > 0 {
			return nil, flagErrorf("--header applies to HTTP servers, and server %q is a stdio server; give it --env instead", name)
		}
		if err := checkCwd(fl); err != nil {
			return nil, err
		}
		dir := srv.Cwd
		if fl.Cwd != "" {
			dir = fl.Cwd
		}
		env := append(srv.Environ(), fl.Env...)
		return stdio(fl, m, transport.Command{Argv: srv.Argv(), Env: env, Unset: srv.UnsetEnv, Dir: dir}), nil
	case config.HTTP, config.SSE:
		kind := map[config.Transport]string{config.HTTP: "an HTTP", config.SSE: "an HTTP+SSE"}[srv.Transport]
		if len(fl.Env) > 0 || fl.Cwd != "" {
			return nil, flagErrorf("--env and --cwd apply to stdio servers, and server %q is %s server", name, kind)
		}
		if _, err := transport.ParseURL(srv.URL); err != nil {
			return nil, fmt.Errorf("server %q in %s: url %v", srv.Name, srv.Source.Path, err)
		}
		base := srv.Headers
		for _, k := range slices.Sorted(maps.Keys(base)) {
			if err := transport.ParseHeader(http.Header{}, k+": "+base[k]); err != nil {
				return nil, fmt.Errorf("server %q in %s: headers: %v", srv.Name, srv.Source.Path, err)
			}
		}
		h, err := headers(fl, base)
		if err != nil {
			return nil, err
		}
		if srv.Transport == config.SSE {
			return sse(fl, fmt.Sprintf("server %q is an HTTP+SSE server, which", name), srv.URL, h)
		}
		return httpTransport(fl, srv.URL, h)
	}
	return nil, fmt.Errorf("server %q in %s: transport %q is not one mcpcli knows", srv.Name, srv.Source.Path, srv.Transport)
}

// NamesOnce checks that -s NAME is the only flag naming the server:
// --stdio, --url and a command after -- would name a second one.
func NamesOnce(fl Flags) error {
	var also []string
	if fl.Stdio != "" {
		also = append(also, "--stdio")
	}
	if fl.URL != "" {
		also = append(also, "--url")
	}
	if len(fl.ServerArgv) > 0 {
		also = append(also, "a command after --")
	}
	if fl.Server != "" && len(also) > 0 {
		return flagErrorf("--server %s and %s both name the server; give one of them", fl.Server, strings.Join(also, " and "))
	}
	return nil
}

// checkCwd checks --cwd.
func checkCwd(fl Flags) error {
	if fl.Cwd != "" {
		if st, err := os.Stat(fl.Cwd); err != nil || !st.IsDir() {
			return flagErrorf("--cwd %q is not a directory", fl.Cwd)
		}
	}
	return nil
}

// headers are the headers of an HTTP server: base (a config entry's),
// then each --header, which replaces a header of the same name.
func headers(fl Flags, base map[string]string) (http.Header, error) {
	h := http.Header{}
	for _, k := range slices.Sorted(maps.Keys(base)) {
		_ = transport.ParseHeader(h, k+": "+base[k]) // checked by the caller
	}
	given := http.Header{}
	for _, raw := range fl.Headers {
		if err := transport.ParseHeader(given, raw); err != nil {
			return nil, flagErrorf("--header %v", err)
		}
	}
	maps.Copy(h, given)
	return h, nil
}

// httpTransport is the transport to an HTTP server at url: Streamable
// HTTP (falling back to HTTP+SSE when the server refuses it), or as
// --transport says.
func httpTransport(fl Flags, url string, h http.Header) (transport.Transport, error) {
	switch fl.Transport {
	case "sse":
		return sse(fl, "--transport sse", url, h)
	case "streamable":
		return &transport.HTTP{URL: url, Header: h, MaxMessage: fl.MaxMessageSize, Streamable: true}, nil
	}
	return &transport.HTTP{URL: url, Header: h, MaxMessage: fl.MaxMessageSize}, nil
}

// sse is the transport to an HTTP+SSE server (2024-11-05) at url. why is
// what chose it, for the error when --protocol rules it out.
func sse(fl Flags, why, url string, h http.Header) (transport.Transport, error) {
	if fl.Protocol == client.ModernVersion {
		return nil, flagErrorf("%s carries the initialize handshake only (2025-11-25 at most); it cannot go with --protocol %s", why, client.ModernVersion)
	}
	return &transport.SSE{URL: url, Header: h, MaxMessage: fl.MaxMessageSize}, nil
}

// supervisorName is the small supervisor binary, installed beside mcpcli.
const supervisorName = "mcpcli-supervise"

// SupervisorBeside is the supervisor program for the mcpcli binary exe
// (where the supervisor is not made by clone; see transport.Command): the
// small mcpcli-supervise beside it, which starts in half the time, or else
// exe itself (a go install of cmd/mcpcli alone).
func SupervisorBeside(exe string) string {
	sib := filepath.Join(filepath.Dir(exe), supervisorName)
	if st, err := os.Stat(sib); err == nil && st.Mode().IsRegular() && st.Mode().Perm()&0o111 != 0 {
		return sib
	}
	return exe
}

// Stdio is the transport to a server started as c: under a supervisor
// (so nothing it starts outlives mcpcli), in the run's group of servers.
// With -v the server's stderr is shown as it arrives; either way its last
// lines are kept for when it fails.
func Stdio(fl Flags, m Machine, c transport.Command) *transport.Stdio { return stdio(fl, m, c) }

func stdio(fl Flags, m Machine, c transport.Command) *transport.Stdio {
	if m.Executable != nil {
		if exe, err := m.Executable(); err == nil {
			c.Supervisor = SupervisorBeside(exe)
		}
	}
	c.ExecSupervisor = c.ExecSupervisor || m.ExecSupervisor
	c.Group = m.Servers
	if fl.Verbose && c.Stderr == nil {
		w := m.Console.ServerStderr("[server stderr] ")
		c.Stderr = w
		if m.AtEnd != nil {
			m.AtEnd(func() { w.Close() })
		}
	}
	s := &transport.Stdio{Cmd: c, Warn: m.Console.Warn, MaxMessage: fl.MaxMessageSize}
	switch {
	case fl.Protocol == client.ModernVersion:
		// Pinned: no fallback, so nothing to probe for; the server has
		// all of the handshake's time to answer.
		s.DiscoverWait = transport.NoDiscoverProbe
	case fl.Timeout/2 > transport.DefaultDiscoverWait:
		// A longer --timeout gives a slow server longer before it is
		// taken for an older one (leaving half for that handshake); a
		// shorter one never cuts the probe short.
		s.DiscoverWait = fl.Timeout / 2
	}
	return s
}

// Entry is the config entry the server flags describe (servers add).
func Entry(fl Flags) (config.Entry, error) {
	var argv []string
	if fl.Stdio != "" {
		words, err := shellwords.Split(fl.Stdio)
		if err != nil || len(words) == 0 {
			return config.Entry{}, flagErrorf("--stdio %q: give a command", fl.Stdio)
		}
		argv = words
	}
	if len(fl.ServerArgv) > 0 {
		if argv != nil {
			return config.Entry{}, flagErrorf("give the command once: either --stdio \"CMD ARGS\" or after --, not both")
		}
		argv = fl.ServerArgv
	}
	switch {
	case fl.Server != "":
		return config.Entry{}, flagErrorf("--server names a server to use; servers add takes the new server's name as its argument")
	case argv != nil && fl.URL != "":
		return config.Entry{}, flagErrorf("give either a command or --url, not both")
	case argv == nil && fl.URL == "":
		return config.Entry{}, flagErrorf("give the server's command after -- (mcpcli servers add NAME -- ./server) or its --url")
	}
	if fl.URL != "" {
		if len(fl.Env) > 0 || fl.Cwd != "" {
			return config.Entry{}, flagErrorf("--env and --cwd apply to stdio servers; they do nothing with --url")
		}
		if _, err := transport.ParseURL(fl.URL); err != nil && !strings.Contains(fl.URL, "${") {
			return config.Entry{}, flagErrorf("--url %v", err)
		}
		e := config.Entry{Type: config.HTTP, URL: fl.URL}
		if len(fl.Headers) > 0 {
			h := http.Header{}
			e.Headers = map[string]string{}
			for _, raw := range fl.Headers {
				if err := transport.ParseHeader(h, raw); err != nil {
					return config.Entry{}, flagErrorf("--header %v", err)
				}
				name, value, _ := strings.Cut(raw, ":")
				e.Headers[http.CanonicalHeaderKey(strings.TrimSpace(name))] = strings.TrimSpace(value)
			}
		}
		if fl.ClientID != "" || fl.ClientMetadataURL != "" {
			e.OAuth = &config.OAuth{ClientID: fl.ClientID, ClientMetadataURL: fl.ClientMetadataURL}
		}
		return e, nil
	}
	if len(fl.Headers) > 0 || fl.ClientID != "" || fl.ClientMetadataURL != "" {
		return config.Entry{}, flagErrorf("--header, --client-id and --client-metadata-url apply to --url servers; stdio servers take --env")
	}
	e := config.Entry{Type: config.Stdio, Command: argv[0], Args: argv[1:], Cwd: fl.Cwd}
	for _, kv := range fl.Env {
		k, v, _ := strings.Cut(kv, "=")
		if e.Env == nil {
			e.Env = map[string]string{}
		}
		e.Env[k] = v
	}
	return e, nil
}

// Replay is how a saved script's commands reach the server fl names, run
// by program (mcpcli's path) from dir; defaultPath is where the script
// goes when no file is named.
func Replay(fl Flags, program, dir, defaultPath string) request.Replay {
	return request.NewReplay(request.ReplayFlags{Program: program, Dir: dir, DefaultPath: defaultPath,
		Server: fl.Server, Config: fl.Config, URL: fl.URL, Stdio: fl.Stdio, ServerArgv: fl.ServerArgv,
		Headers: fl.Headers, Env: fl.Env, Roots: fl.Roots, Cwd: fl.Cwd, Elicitation: fl.Elicitation,
		Protocol: fl.Protocol, Transport: fl.Transport, Timeout: fl.Timeout, MaxRounds: fl.MaxRounds, Sampling: fl.Sampling})
}

// ReplayHere is Replay for this run: the saved script's commands run by
// the mcpcli that saved it, by its path when executable gives an absolute
// one (on a fresh clone built with go build, mcpcli is not on $PATH), from
// the working directory, saved by default in mcpcli's state directory
// (outside the working tree: a repository's own files, or a link planted
// there, are never written), one file per session.
func ReplayHere(fl Flags, executable func() (string, error), getenv func(string) string, home func() (string, error)) request.Replay {
	var exe, dir, path string
	if executable != nil {
		if e, err := executable(); err == nil && filepath.IsAbs(e) {
			exe = e
		}
	}
	if d, err := os.Getwd(); err == nil {
		dir = d
	}
	if home != nil {
		if state, err := oauth.StateDir(getenv, home); err == nil {
			path = filepath.Join(state, "sessions", "session-"+time.Now().Format("20060102-150405")+"-"+strconv.Itoa(os.Getpid())+".sh")
		}
	}
	return Replay(fl, exe, dir, path)
}

// RestartWord is what restarting a session does to the server t: restart
// a stdio server, reconnect to an HTTP one.
func RestartWord(t transport.Transport) string {
	if _, ok := t.(*transport.Stdio); ok {
		return "restart"
	}
	return "reconnect"
}

// Check checks fl once, before anything starts: each mistake a
// *FlagError that names the flag and what it takes.
func (fl Flags) Check() error {
	switch fl.Transport {
	case "auto", "streamable", "sse":
	default:
		return flagErrorf("--transport %q: use auto, streamable or sse", fl.Transport)
	}
	switch fl.Protocol {
	case "auto", client.ModernVersion, client.LegacyVersion:
	default:
		return flagErrorf("--protocol %q: use auto, %s or %s", fl.Protocol, client.ModernVersion, client.LegacyVersion)
	}
	if _, err := client.ParseModes(fl.Elicitation); err != nil {
		return flagErrorf("--elicitation %v", err)
	}
	if fl.MaxRounds < 1 {
		return flagErrorf("--max-rounds %d: give at least 1", fl.MaxRounds)
	}
	if fl.Timeout < 0 {
		return flagErrorf("--timeout %s: give a positive duration such as 30s", fl.Timeout)
	}
	if l := client.LogLevels; fl.LogLevel != "" && !slices.Contains(l, fl.LogLevel) {
		return flagErrorf("--log-level %q: use %s or %s", fl.LogLevel, strings.Join(l[:len(l)-1], ", "), l[len(l)-1])
	}
	if _, err := RootURIs(fl.Roots); err != nil {
		return flagErrorf("%v", err)
	}
	for _, kv := range fl.Env {
		if k, _, ok := strings.Cut(kv, "="); !ok || k == "" {
			return flagErrorf("--env %q must look like K=V", kv)
		}
	}
	return nil
}
