package main

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/oauth"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/transport"
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

// signInFor gives an HTTP transport the OAuth handler of its server: the
// token kept for it, refreshed when it expires, and a sign-in when the
// server answers 401 or 403. login is set for mcpcli auth login, which
// signs in even without a terminal (it prints the URL and waits).
func (f *Factory) signInFor(h *transport.HTTP, login bool) (*oauth.Handler, error) {
	kr := f.keyring()
	store := oauth.LazyStore(func() (oauth.Store, error) { return f.tokenStore(kr) })
	if login {
		// Signing in on purpose needs somewhere to keep the token.
		var err error
		if store, err = f.tokenStore(kr); err != nil {
			return nil, err
		}
	}
	var err error
	cfg := oauth.Config{
		ServerURL:         h.URL,
		Store:             store,
		Consent:           f.consent(login),
		Waiting:           f.browserWait(),
		ClientID:          f.Flags.ClientID,
		ClientMetadataURL: f.Flags.ClientMetadataURL,
		// The authorization server is reached by a client of its own:
		// the --header values are for the MCP server alone.
		HTTPClient: &http.Client{Timeout: f.Flags.Timeout, CheckRedirect: oauth.SameOriginPosts},
		Notice:     f.notice,
	}
	if srv := f.server; srv != nil && srv.OAuth != nil {
		o := srv.OAuth
		if cfg.ClientID == "" {
			cfg.ClientID, cfg.ClientSecret = o.ClientID, o.ClientSecret
		}
		if cfg.ClientMetadataURL == "" {
			cfg.ClientMetadataURL = o.ClientMetadataURL
		}
		cfg.Scopes, cfg.CallbackPort = o.Scopes, o.CallbackPort
		if o.AuthServerMetadataURL != "" {
			f.Console().Warn(fmt.Sprintf("server %q in %s: oauth.authServerMetadataUrl is not used: mcpcli finds the authorization server from the server's own metadata", srv.Name, srv.Source.Path))
		}
	}
	if cfg.ClientID != "" && cfg.ClientSecret == "" {
		if cfg.ClientSecret, err = oauth.ClientSecret(f.getenv, kr, cfg.ClientID); err != nil {
			return nil, err
		}
	}
	handler, err := oauth.New(cfg)
	if err != nil {
		return nil, &oauthSetupError{err: err}
	}
	h.OAuth = &pausing{Handler: handler, login: f.loginArgs(), quiet: func() {
		if f.wait != nil {
			f.wait.Stop() // nobody waits for the server while the person signs in
		}
	}}
	return handler, nil
}

// oauthSetupError is sign-in settings that cannot work.
type oauthSetupError struct{ err error }

func (e *oauthSetupError) Error() string { return e.err.Error() }
func (e *oauthSetupError) Unwrap() error { return e.err }

// onTerminal reports whether the person can be asked on the terminal:
// stdin to answer, stderr to see the question (piped answers never
// consent to a sign-in, nor fill in a secret).
func (f *Factory) onTerminal() bool { return f.Deps.InTTY && f.Deps.ErrTTY }

// consent is how this run asks the person to sign in: on the terminal,
// the URL shown and analysed like a URL-mode ask, opened when they say so;
// with --answers (or for mcpcli auth login without a terminal) printed,
// and opened with --open-urls. Without either, nil: the run cannot sign
// in, and the error says which command to run.
func (f *Factory) consent(login bool) func(ctx context.Context, authURL string) error {
	con := f.Console()
	c := &urlmode.Consent{Open: f.Deps.Open, Out: con}
	if f.sessionSignIn() {
		// In the session: the line sign-in reads the keys the session
		// reads, so the session lends it the terminal.
		return func(ctx context.Context, authURL string) error {
			var err error
			if serr := f.share(ctx, func() {
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
func (f *Factory) sessionSignIn() bool {
	return f.share != nil && f.onTerminal() && f.Flags.Answers == ""
}

// browserWait says that the sign-in waits for the browser, once the link is
// opened or shown and the browser has not come back yet. (In the session
// the line is written while the session lends the terminal: see consent.)
func (f *Factory) browserWait() func(time.Duration) {
	if f.sessionSignIn() {
		return nil
	}
	return func(d time.Duration) { f.Console().Printf("   %s", waitingLine(d)) }
}

func waitingLine(d time.Duration) string {
	return fmt.Sprintf("Waiting for your browser to come back to mcpcli (up to %s; Ctrl+C stops)…", d)
}

// pausing is a server's OAuth handler, with the --timeout clock stopped
// (and the "waiting for the server" line taken away) while it signs in,
// and its errors marked with how to sign in again.
type pausing struct {
	*oauth.Handler
	login string
	quiet func()
}

func (p *pausing) Authorize(ctx context.Context, req *http.Request, resp *http.Response) error {
	defer client.PauseTimeout(ctx)()
	if p.quiet != nil {
		p.quiet()
	}
	if err := p.Handler.Authorize(ctx, req, resp); err != nil {
		return &signInFailed{login: p.login, err: err}
	}
	return nil
}

// signInFailed is a failed sign-in, with the arguments that name the
// server to mcpcli auth login.
type signInFailed struct {
	login string
	err   error
}

func (e *signInFailed) Error() string { return e.err.Error() }
func (e *signInFailed) Unwrap() error { return e.err }
