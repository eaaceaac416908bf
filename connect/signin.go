package connect

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/config"
	"github.com/mcpcli/mcpcli/oauth"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/transport"
	"github.com/mcpcli/mcpcli/urlmode"
)

// SignIn is how a run signs in to the HTTP servers it reaches (OAuth).
type SignIn struct {
	Flags Flags
	// Named is the server -s named, for its oauth settings (nil: none).
	Named   *config.Server
	Console *render.Console
	// Store keeps the tokens (nil: the one $MCPCLI_TOKEN_STORE chooses,
	// opened when first needed: OpenStore); Keyring holds a client's
	// secret, and tokens where it is chosen. Getenv and Home find them.
	Store   oauth.Store
	Keyring oauth.Keyring
	Getenv  func(string) string
	Home    func() (string, error)
	// How the person is asked to sign in: on the terminal (Terminal:
	// stdin and stderr are one), the link shown and analysed like a URL
	// ask and opened (Open) when they say so, on the line Prompter; with
	// an answers file (Scripted), or for auth login (Purpose) without a
	// terminal, printed, and opened with OpenURLs. Share lends the
	// full-screen shell's terminal to the question (nil: it is free).
	Open                                  urlmode.OpenFunc
	Prompter                              *render.Prompter
	Share                                 func(ctx context.Context, run func()) error
	Terminal, Scripted, OpenURLs, Purpose bool
	// Login names the server to mcpcli auth login ("-s NAME"), for the
	// errors.
	Login string
}

// For gives h the OAuth handler of its server: the token kept for it,
// refreshed when it expires, and a sign-in when the server answers 401 or
// 403. quiet is called when a sign-in starts (nobody waits for the server
// meanwhile).
func (s *SignIn) For(h *transport.HTTP, quiet func()) (*oauth.Handler, error) {
	fl := s.Flags
	cfg := oauth.Config{
		ServerURL:         h.URL,
		Store:             s.store(),
		Consent:           s.consent(),
		Waiting:           s.waiting(),
		ClientID:          fl.ClientID,
		ClientMetadataURL: fl.ClientMetadataURL,
		// The authorization server is reached by a client of its own:
		// the --header values are for the MCP server alone.
		HTTPClient: &http.Client{Timeout: fl.Timeout, CheckRedirect: oauth.SameOriginPosts},
		Notice:     s.notice,
	}
	if srv := s.Named; srv != nil && srv.OAuth != nil {
		o := srv.OAuth
		if cfg.ClientID == "" {
			cfg.ClientID, cfg.ClientSecret = o.ClientID, o.ClientSecret
		}
		if cfg.ClientMetadataURL == "" {
			cfg.ClientMetadataURL = o.ClientMetadataURL
		}
		cfg.Scopes, cfg.CallbackPort = o.Scopes, o.CallbackPort
		if o.AuthServerMetadataURL != "" {
			s.Console.Warn(fmt.Sprintf("server %q in %s: oauth.authServerMetadataUrl is not used: mcpcli finds the authorization server from the server's own metadata", srv.Name, srv.Source.Path))
		}
	}
	if cfg.ClientID != "" && cfg.ClientSecret == "" {
		var err error
		if cfg.ClientSecret, err = oauth.ClientSecret(s.Getenv, s.Keyring, cfg.ClientID); err != nil {
			return nil, err
		}
	}
	handler, err := oauth.New(cfg)
	if err != nil {
		return nil, &SetupError{Err: err}
	}
	h.OAuth = &pausing{Handler: handler, login: s.Login, quiet: quiet}
	return handler, nil
}

// LoginTo is how mcpcli auth login signs in to h on purpose: h given its
// handler (For), over the token store opened now (signing in on purpose
// needs somewhere to keep the token: a store that cannot open is the
// error, before anything is asked).
func (s *SignIn) LoginTo(h *transport.HTTP) (func(context.Context) error, error) {
	var err error
	if s.Store, err = s.OpenStore(); err != nil {
		return nil, err
	}
	handler, err := s.For(h, nil)
	if err != nil {
		return nil, err
	}
	return handler.Login, nil
}

// OpenStore opens where tokens are kept, as $MCPCLI_TOKEN_STORE chooses.
func (s *SignIn) OpenStore() (oauth.Store, error) {
	home := s.Home
	if home == nil {
		home = func() (string, error) { return "", errors.New("no home directory") }
	}
	return oauth.OpenStoreFromEnv(oauth.StoreOptions{Keyring: s.Keyring, Getenv: s.Getenv, Home: home, Notice: s.notice})
}

// store is s.Store, or the chosen store opened when first needed.
func (s *SignIn) store() oauth.Store {
	if s.Store == nil {
		s.Store = oauth.LazyStore(s.OpenStore)
	}
	return s.Store
}

// notice tells the person a fact about signing in, on stderr.
func (s *SignIn) notice(msg string) {
	s.Console.EndProgress()
	s.Console.Printf("mcpcli: %s", render.Line(msg))
}

// SetupError is sign-in settings that cannot work.
type SetupError struct{ Err error }

func (e *SetupError) Error() string { return e.Err.Error() }
func (e *SetupError) Unwrap() error { return e.Err }

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
		return &SignInFailed{Login: p.login, Err: err}
	}
	return nil
}

// SignInFailed is a failed sign-in, with the arguments that name the
// server to mcpcli auth login.
type SignInFailed struct {
	Login string
	Err   error
}

func (e *SignInFailed) Error() string { return e.Err.Error() }
func (e *SignInFailed) Unwrap() error { return e.Err }

// inShell says whether the question is asked inside the full-screen
// shell, on the terminal it lends.
func (s *SignIn) inShell() bool { return s.Share != nil && s.Terminal && !s.Scripted }

// consent is how the person is asked to sign in; nil when nobody can be:
// the run cannot sign in, and the error says which command to run.
func (s *SignIn) consent() func(ctx context.Context, authURL string) error {
	con := s.Console
	c := &urlmode.Consent{Open: s.Open, Out: con}
	switch {
	case s.inShell():
		// The line sign-in reads the keys the shell reads, so the shell
		// lends it the terminal.
		return func(ctx context.Context, authURL string) error {
			var err error
			if serr := s.Share(ctx, func() {
				con.EndProgress()
				if err = c.SignIn(ctx, s.Prompter, authURL); err == nil {
					con.Printf("   %s", waitingLine(oauth.DefaultCallbackTimeout))
				}
			}); serr != nil {
				return serr
			}
			return err
		}
	case s.Scripted || s.Purpose && !s.Terminal:
		return func(ctx context.Context, authURL string) error {
			con.EndProgress()
			return c.SignInScript(ctx, con, authURL, s.OpenURLs)
		}
	case s.Terminal:
		return func(ctx context.Context, authURL string) error {
			con.EndProgress()
			return c.SignIn(ctx, s.Prompter, authURL)
		}
	}
	return nil
}

// waiting says that the sign-in waits for the browser, once the link is
// opened or shown and the browser has not come back yet. (In the shell
// the line is written while it lends the terminal: see consent.)
func (s *SignIn) waiting() func(time.Duration) {
	if s.inShell() {
		return nil
	}
	return func(d time.Duration) { s.Console.Printf("   %s", waitingLine(d)) }
}

func waitingLine(d time.Duration) string {
	return fmt.Sprintf("Waiting for your browser to come back to mcpcli (up to %s; Ctrl+C stops)…", d)
}
