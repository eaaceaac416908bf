package main

import (
	"context"
	"fmt"

	"github.com/mcpcli/mcpcli/connect"
	"github.com/mcpcli/mcpcli/oauth"
	"github.com/mcpcli/mcpcli/render"
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

// keyring is the system keyring, or nil.
func (f *Factory) keyring() oauth.Keyring {
	if f.Deps.Keyring == nil {
		return nil
	}
	return f.Deps.Keyring()
}

// notice tells the person a fact about signing in, on stderr.
func (f *Factory) notice(msg string) {
	con := f.Console()
	con.EndProgress()
	con.Printf("mcpcli: %s", render.Line(msg))
}

// tokenStore opens where tokens are kept ($MCPCLI_TOKEN_STORE).
func (f *Factory) tokenStore(kr oauth.Keyring) (oauth.Store, error) {
	home := f.Deps.Home
	if home == nil {
		home = func() (string, error) { return "", fmt.Errorf("no home directory") }
	}
	return oauth.OpenStoreFromEnv(oauth.StoreOptions{Keyring: kr, Getenv: f.getenv, Home: home, Notice: f.notice})
}

// signIn is how this run signs in to an HTTP server: with the token kept
// for it, and when it asks, by asking the person. login is set for mcpcli
// auth login, which signs in even without a terminal (it prints the URL
// and waits); share lends the full-screen shell's terminal to the
// question (nil where the terminal is free).
func (f *Factory) signIn(login bool, share func(ctx context.Context, run func()) error) *connect.SignIn {
	kr := f.keyring()
	return &connect.SignIn{Flags: f.flags(), Named: f.configs().Named(), Console: f.Console(), Keyring: kr, Getenv: f.getenv,
		Store:  oauth.LazyStore(func() (oauth.Store, error) { return f.tokenStore(kr) }),
		Notice: f.notice, Login: f.loginArgs(), Open: f.Deps.Open, Prompter: f.prompter(), Share: share,
		Terminal: f.person().OnTerminal(), Scripted: f.Flags.Answers != "", OpenURLs: f.Flags.OpenURLs, Purpose: login}
}
