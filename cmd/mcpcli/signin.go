package main

import (
	"context"

	"github.com/mcpcli/mcpcli/connect"
	"github.com/mcpcli/mcpcli/oauth"
	"github.com/mcpcli/mcpcli/shell"
)

// loginArgs is how this run names its server to mcpcli, for the commands
// an error suggests: "-s NAME" or "--url URL"; "" for a stdio server
// given by its command.
func (f *Factory) loginArgs() string {
	switch {
	case f.Flags.Server != "":
		return "-s " + f.Flags.Server
	case f.Flags.URL != "":
		return "--url " + f.Flags.URL
	}
	return ""
}

// errorText words an error of this run as report does, naming the server
// as the run named it.
func (f *Factory) errorText(err error) string { return shell.Words{Login: f.loginArgs()}.Error(err) }

// signIn is how this run signs in to an HTTP server: with the token kept
// for it, and when it asks, by asking the person. login is set for mcpcli
// auth login, which signs in even without a terminal (it prints the URL
// and waits); share lends the full-screen shell's terminal to the
// question (nil where the terminal is free).
func (f *Factory) signIn(login bool, share func(ctx context.Context, run func()) error) *connect.SignIn {
	var kr oauth.Keyring
	if f.Deps.Keyring != nil {
		kr = f.Deps.Keyring()
	}
	return &connect.SignIn{Flags: f.flags(), Named: f.configs().Named(), Console: f.Console(), Keyring: kr, Getenv: f.getenv, Home: f.Deps.Home,
		Login: f.loginArgs(), Open: f.Deps.Open, Prompter: f.asking().Prompter(), Share: share,
		Terminal: f.person().OnTerminal(), Scripted: f.Flags.Answers != "", OpenURLs: f.Flags.OpenURLs, Purpose: login}
}
