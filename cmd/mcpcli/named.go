package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/mcpcli/mcpcli/config"
	"github.com/mcpcli/mcpcli/connect"
)

// configs are the run's config files (connect.Configs), made on first use:
// after --cast has taken the streams.
func (f *Factory) configs() *connect.Configs {
	if f.conf == nil {
		f.conf = &connect.Configs{Options: f.Deps.ConfigOptions, File: f.Flags.Config, TrustProject: f.Flags.TrustProject,
			Home: f.Deps.Home, Getenv: f.getenv, Person: f.person(), Prompter: f.prompter()}
	}
	return f.conf
}

// loadConfig finds the config files, once per run. ctx is for the
// questions asked on a terminal only: whether to trust a project file,
// and a VS Code ${input:ID}.
func (f *Factory) loadConfig(ctx context.Context) (*config.Config, error) {
	return f.configs().Load(ctx)
}

// namedServer resolves -s NAME: its entry, every value expanded.
func (f *Factory) namedServer(cmd *cobra.Command) (*config.Server, error) {
	return f.configs().Server(cmd.Context(), f.Flags.Server)
}

// home is the home directory, "" when unknown.
func (f *Factory) home() string { return f.configs().HomeDir() }
