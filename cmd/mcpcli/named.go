package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/mcpcli/mcpcli/config"
	"github.com/mcpcli/mcpcli/render"
)

// configs are the config files, loaded once, and the server -s names.
type configs struct {
	cfg    *config.Config
	server *config.Server
}

// loadConfig finds the config files, once per run: --config, the
// project's, mcpcli's own, other tools'. ctx is for the questions asked on
// a terminal only: whether to trust a project file, and a VS Code
// ${input:ID}.
func (f *Factory) loadConfig(ctx context.Context) (*config.Config, error) {
	if f.conf.cfg != nil {
		return f.conf.cfg, nil
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
	if f.person().OnTerminal() {
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
	f.conf.cfg = cfg
	return cfg, nil
}

// namedServer resolves -s NAME: its entry, every value expanded.
func (f *Factory) namedServer(cmd *cobra.Command) (*config.Server, error) {
	if f.conf.server != nil {
		return f.conf.server, nil
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
	f.conf.server = srv
	return srv, nil
}
