package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpcli/mcpcli/config"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/transport"
)

// loadConfig finds the config files, once per run: --config, the
// project's, mcpcli's own, other tools'. ctx is for the questions asked on
// a terminal only: whether to trust a project file, and a VS Code
// ${input:ID}.
func (f *Factory) loadConfig(ctx context.Context) (*config.Config, error) {
	if f.cfg != nil {
		return f.cfg, nil
	}
	if f.Deps.ConfigOptions == nil {
		return nil, errors.New("named servers cannot be read in this run")
	}
	opts, err := f.Deps.ConfigOptions()
	if err != nil {
		return nil, fmt.Errorf("finding the config files: %w", err)
	}
	opts.File = f.Flags.Config
	opts.Trusted = f.trustStore()
	opts.TrustProject = f.Flags.TrustProject
	if f.onTerminal() {
		opts.Ask = func(in config.Input) (string, error) {
			f.Console().EndProgress()
			return render.AskInput(ctx, f.prompter(), in)
		}
		opts.Approve = f.approveProject(ctx)
	}
	cfg, err := config.Load(opts)
	if err != nil {
		return nil, err
	}
	f.cfg = cfg
	return cfg, nil
}

// namedServer resolves -s NAME: its entry, every value expanded.
func (f *Factory) namedServer(cmd *cobra.Command) (*config.Server, error) {
	if f.server != nil {
		return f.server, nil
	}
	cfg, err := f.loadConfig(cmd.Context())
	if err != nil {
		return nil, err
	}
	if err := cfg.TrustStoreErr(); err != nil {
		f.Console().Warn(err.Error() + "; no project file counts as trusted")
	}
	srv, err := cfg.Server(f.Flags.Server)
	if err != nil {
		return nil, adviseTrust(err)
	}
	if err := cfg.RememberErr(); err != nil {
		f.Console().Warn(fmt.Sprintf("%s; %s is trusted for this run only", err, render.Line(srv.Source.Path)))
	}
	f.sayWhichRuns(srv)
	f.server = srv
	return srv, nil
}

// namedTransport is the transport to the server -s names. --env and --cwd
// add to a stdio entry, --header to an HTTP one; --stdio, --url and a
// command after -- would name a second server.
func (f *Factory) namedTransport(cmd *cobra.Command) (transport.Transport, error) {
	fl := f.Flags
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
	if len(also) > 0 {
		return nil, usageErrorf(cmd, "--server %s and %s both name the server; give one of them", fl.Server, strings.Join(also, " and "))
	}
	srv, err := f.namedServer(cmd)
	if err != nil {
		return nil, err
	}
	switch srv.Transport {
	case config.Stdio:
		if len(fl.Headers) > 0 {
			return nil, usageErrorf(cmd, "--header applies to HTTP servers, and server %q is a stdio server; give it --env instead", render.Line(srv.Name))
		}
		if err := f.checkCwd(cmd); err != nil {
			return nil, err
		}
		dir := srv.Cwd
		if fl.Cwd != "" {
			dir = fl.Cwd
		}
		env := append(srv.Environ(), fl.Env...)
		return f.stdio(transport.Command{Argv: srv.Argv(), Env: env, Unset: srv.UnsetEnv, Dir: dir}), nil
	case config.HTTP:
		if len(fl.Env) > 0 || fl.Cwd != "" {
			return nil, usageErrorf(cmd, "--env and --cwd apply to stdio servers, and server %q is an HTTP server", render.Line(srv.Name))
		}
		if _, err := transport.ParseURL(srv.URL); err != nil {
			return nil, fmt.Errorf("server %q in %s: url %v", srv.Name, srv.Source.Path, err)
		}
		h, err := f.headers(cmd, srv.Headers)
		if err != nil {
			return nil, err
		}
		return f.http(cmd, srv.URL, h)
	case config.SSE:
		if len(fl.Env) > 0 || fl.Cwd != "" {
			return nil, usageErrorf(cmd, "--env and --cwd apply to stdio servers, and server %q is an HTTP+SSE server", render.Line(srv.Name))
		}
		if _, err := transport.ParseURL(srv.URL); err != nil {
			return nil, fmt.Errorf("server %q in %s: url %v", srv.Name, srv.Source.Path, err)
		}
		h, err := f.headers(cmd, srv.Headers)
		if err != nil {
			return nil, err
		}
		return f.sse(cmd, fmt.Sprintf("server %q is an HTTP+SSE server, which", render.Line(srv.Name)), srv.URL, h)
	}
	return nil, fmt.Errorf("server %q in %s: transport %q is not one mcpcli knows", srv.Name, srv.Source.Path, srv.Transport)
}
