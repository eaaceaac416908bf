package main

import (
	"context"
	"fmt"
	"time"

	"github.com/mcpcli/mcpcli/connect"
	"github.com/mcpcli/mcpcli/oauth"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/urlmode"
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
func (f *Factory) errorText(err error) string { return explainAs(err, f.loginArgs()) }

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
// for it, and when it asks, by asking the person (consent). login is set
// for mcpcli auth login, which signs in even without a terminal (it
// prints the URL and waits), and needs somewhere to keep the token; share
// lends the full-screen shell's terminal to the question (nil where the
// terminal is free).
func (f *Factory) signIn(login bool, share func(ctx context.Context, run func()) error) *connect.SignIn {
	kr := f.keyring()
	s := &connect.SignIn{Flags: f.flags(), Named: f.conf.server, Console: f.Console(), Keyring: kr, Getenv: f.getenv,
		Store:   oauth.LazyStore(func() (oauth.Store, error) { return f.tokenStore(kr) }),
		Consent: f.consent(login, share), Waiting: f.browserWait(share), Notice: f.notice, Login: f.loginArgs()}
	return s
}

// onTerminal reports whether the person can be asked on the terminal:
// stdin to answer, stderr to see the question (piped answers never
// consent to a sign-in, nor fill in a secret).
func (f *Factory) onTerminal() bool { return f.Deps.InTTY && f.Deps.ErrTTY }

// consent is how this run asks the person to sign in: on the terminal,
// the URL shown and analysed like a URL-mode ask, opened when they say so;
// with --answers (or for mcpcli auth login without a terminal) printed,
// and opened with --open-urls. Without either, nil: the run cannot sign
// in, and the error says which command to run.
func (f *Factory) consent(login bool, share func(ctx context.Context, run func()) error) func(ctx context.Context, authURL string) error {
	con := f.Console()
	c := &urlmode.Consent{Open: f.Deps.Open, Out: con}
	if f.sessionSignIn(share) {
		// In the session: the line sign-in reads the keys the session
		// reads, so the session lends it the terminal.
		return func(ctx context.Context, authURL string) error {
			var err error
			if serr := share(ctx, func() {
				con.EndProgress()
				if err = c.SignIn(ctx, f.prompter(), authURL); err == nil {
					con.Printf("   %s", waitingLine(oauth.DefaultCallbackTimeout))
				}
			}); serr != nil {
				return serr
			}
			return err
		}
	}
	switch {
	case f.Flags.Answers != "" || login && !f.onTerminal():
		return func(ctx context.Context, authURL string) error {
			con.EndProgress()
			return c.SignInScript(ctx, con, authURL, f.Flags.OpenURLs)
		}
	case f.onTerminal():
		return func(ctx context.Context, authURL string) error {
			con.EndProgress()
			return c.SignIn(ctx, f.prompter(), authURL)
		}
	}
	return nil
}

// sessionSignIn reports whether a sign-in is asked inside the session,
// on the terminal the session lends it.
func (f *Factory) sessionSignIn(share func(ctx context.Context, run func()) error) bool {
	return share != nil && f.onTerminal() && f.Flags.Answers == ""
}

// browserWait says that the sign-in waits for the browser, once the link is
// opened or shown and the browser has not come back yet. (In the session
// the line is written while the session lends the terminal: see consent.)
func (f *Factory) browserWait(share func(ctx context.Context, run func()) error) func(time.Duration) {
	if f.sessionSignIn(share) {
		return nil
	}
	return func(d time.Duration) { f.Console().Printf("   %s", waitingLine(d)) }
}

func waitingLine(d time.Duration) string {
	return fmt.Sprintf("Waiting for your browser to come back to mcpcli (up to %s; Ctrl+C stops)…", d)
}
