package connect

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/config"
	"github.com/mcpcli/mcpcli/oauth"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/transport"
)

// SignIn is how a run signs in to the HTTP servers it reaches (OAuth).
type SignIn struct {
	Flags Flags
	// Named is the server -s named, for its oauth settings (nil: none).
	Named   *config.Server
	Console *render.Console
	// Store keeps the tokens; Keyring holds a client's secret.
	Store   oauth.Store
	Keyring oauth.Keyring
	Getenv  func(string) string
	// Consent asks the person to sign in at authURL (nil: this run
	// cannot); Waiting says the sign-in waits for the browser.
	Consent func(ctx context.Context, authURL string) error
	Waiting func(time.Duration)
	Notice  func(string)
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
		Store:             s.Store,
		Consent:           s.Consent,
		Waiting:           s.Waiting,
		ClientID:          fl.ClientID,
		ClientMetadataURL: fl.ClientMetadataURL,
		// The authorization server is reached by a client of its own:
		// the --header values are for the MCP server alone.
		HTTPClient: &http.Client{Timeout: fl.Timeout, CheckRedirect: oauth.SameOriginPosts},
		Notice:     s.Notice,
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
