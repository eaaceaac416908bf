package oauth

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"
)

// Config configures sign-in to one MCP server.
type Config struct {
	// ServerURL is the MCP endpoint (--url).
	ServerURL string
	// Store keeps tokens (see OpenStore).
	Store Store

	// Consent shows the person the authorization URL and opens it in
	// their browser once they agree. It returns when the URL is open (or
	// shown, for the person to open), or an error when they decline. The
	// sign-in then waits for the redirect; a Consent still running when
	// the redirect arrives (a $BROWSER that waits) is not waited for.
	// nil means this run may not sign in: a server that asks gets a
	// *SignInRequiredError.
	Consent func(ctx context.Context, authURL string) error
	// Waiting, when set, is told once Consent has returned that the
	// sign-in now waits for the browser, and for how long at most. It is
	// not told when the browser came back first (a $BROWSER that follows
	// the link before it returns): nobody waits then.
	Waiting func(timeout time.Duration)

	// ClientMetadataURL is mcpcli's client ID metadata document (CIMD),
	// used as the client ID with authorization servers that advertise
	// client_id_metadata_document_supported. It must be an https URL with
	// a path.
	ClientMetadataURL string
	// ClientID is a client registered beforehand with the authorization
	// server, and ClientSecret its secret if it has one (from the
	// environment or the keyring: see ClientSecret). Used when CIMD does
	// not apply; then dynamic registration is never tried.
	ClientID     string
	ClientSecret string
	// ClientName is the client_name for dynamic registration; "mcpcli"
	// when empty.
	ClientName string
	// Scopes, when set, are the scopes to ask for instead of those the
	// server names (its challenge, else its scopes_supported). A step-up
	// still adds what a 403 insufficient_scope challenges.
	Scopes []string
	// CallbackPort fixes the port of the loopback redirect URI, for a
	// client registered with one; 0 means any free port.
	CallbackPort int

	// HTTPClient makes the requests to the authorization server and the
	// metadata requests. It must not be the MCP transport's client: the
	// --header values are for the MCP server alone. nil: a client of its
	// own over http.DefaultTransport. Without a Timeout of its own, each
	// request gets RequestTimeout.
	HTTPClient *http.Client
	// RequestTimeout bounds each request to the authorization server when
	// HTTPClient sets no Timeout: one that never answers does not hang
	// the sign-in. 0 means DefaultRequestTimeout.
	RequestTimeout time.Duration
	// CallbackTimeout bounds the wait for the redirect after the URL is
	// opened; 0 means DefaultCallbackTimeout.
	CallbackTimeout time.Duration
	// MaxSignIns bounds the interactive sign-ins of one Handler (one
	// command); 0 means DefaultMaxSignIns.
	MaxSignIns int
	// Notice, when set, is told short facts for people: which
	// authorization server a sign-in goes to, a token kept in a file, a
	// token that could not be kept. Never a secret.
	Notice func(msg string)
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

const (
	// DefaultCallbackTimeout is how long a sign-in waits for the browser
	// to come back.
	DefaultCallbackTimeout = 5 * time.Minute
	// DefaultMaxSignIns bounds the sign-ins of one command: one, and one
	// step-up.
	DefaultMaxSignIns = 2
	// DefaultRequestTimeout bounds each request of a sign-in (metadata,
	// registration, token) when nothing else does.
	DefaultRequestTimeout = 30 * time.Second
)

// Registration kinds, as kept in a Record.
const (
	RegistrationCIMD          = "cimd"
	RegistrationPreregistered = "preregistered"
	RegistrationDynamic       = "dynamic"
)

// Handler signs in to one MCP server. It implements the go-sdk's
// auth.OAuthHandler: set it as mcp.StreamableClientTransport.OAuthHandler.
// The transport asks TokenSource for the bearer token of every request and
// calls Authorize on a 401 or 403, then retries the request once.
//
// The flow itself (registration, PKCE S256, the resource indicator, scope
// selection, the iss check, the code exchange) is the go-sdk's
// auth.AuthorizationCodeHandler; Handler adds what a command-line client
// needs around it: the loopback redirect, the person's consent, tokens
// kept between runs (keyed by issuer and resource), silent refresh,
// re-registration when the authorization server changes, and bounds on
// retries.
type Handler struct {
	cfg    Config
	server string // ServerKey(cfg.ServerURL)
	client *http.Client
	red    redactor

	mu        sync.Mutex          // one Authorize at a time
	signIns   int                 // interactive sign-ins started by this handler
	failed    error               // why the last sign-in failed: not tried again
	signedIn  map[string][]string // issuer → scopes granted by this handler's sign-ins
	refreshed bool                // a refresh was tried after a 401

	state  sync.Mutex // guards what follows
	loaded bool
	entry  *Entry
	ts     oauth2.TokenSource
}

var _ auth.OAuthHandler = (*Handler)(nil)

// New checks cfg and returns its handler.
func New(cfg Config) (*Handler, error) {
	u, err := url.Parse(cfg.ServerURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("sign-in needs an http or https server URL, not %q", cfg.ServerURL)
	}
	if cfg.Store == nil {
		return nil, errors.New("sign-in needs a token store (oauth.OpenStore)")
	}
	if cfg.ClientMetadataURL != "" {
		mu, err := url.Parse(cfg.ClientMetadataURL)
		if err != nil || mu.Scheme != "https" || mu.Host == "" || mu.Path == "" || mu.Path == "/" {
			return nil, fmt.Errorf("client metadata URL %q must be an https URL with a path, like https://example.com/mcpcli.json", cfg.ClientMetadataURL)
		}
	}
	if cfg.CallbackPort < 0 || cfg.CallbackPort > 65535 {
		return nil, fmt.Errorf("callback port %d is not a TCP port", cfg.CallbackPort)
	}
	if cfg.ClientSecret != "" && cfg.ClientID == "" {
		return nil, errors.New("a client secret was given without a client ID")
	}
	if cfg.ClientName == "" {
		cfg.ClientName = "mcpcli"
	}
	if cfg.CallbackTimeout <= 0 {
		cfg.CallbackTimeout = DefaultCallbackTimeout
	}
	if cfg.MaxSignIns <= 0 {
		cfg.MaxSignIns = DefaultMaxSignIns
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	h := &Handler{cfg: cfg, server: ServerKey(cfg.ServerURL), client: cfg.HTTPClient, signedIn: map[string][]string{}}
	if h.client == nil {
		h.client = &http.Client{Transport: http.DefaultTransport}
	}
	if h.client.Timeout <= 0 {
		c := *h.client
		c.Timeout = cmp.Or(cfg.RequestTimeout, DefaultRequestTimeout)
		h.client = &c
	}
	h.red.add(cfg.ClientSecret)
	return h, nil
}

// ServerKey is how a server URL is keyed in the store: scheme and host in
// lower case, no fragment.
func ServerKey(serverURL string) string {
	u, err := url.Parse(serverURL)
	if err != nil {
		return serverURL
	}
	u.Scheme = strings.ToLower(u.Scheme)
	u.Host = strings.ToLower(u.Host)
	u.Fragment, u.RawFragment = "", ""
	return u.String()
}

func (h *Handler) notice(format string, args ...any) {
	if h.cfg.Notice != nil {
		h.cfg.Notice(h.red.String(fmt.Sprintf(format, args...)))
	}
}

// loadEntry reads the store once. h.state must be held.
func (h *Handler) loadEntry() error {
	if h.loaded {
		return nil
	}
	e, err := h.cfg.Store.Load(h.server)
	if err != nil {
		return err
	}
	if e == nil {
		e = &Entry{Server: h.server}
	}
	if e.Records == nil {
		e.Records = map[string]*Record{}
	}
	for _, r := range e.Records {
		h.red.add(r.ClientSecret)
		h.red.addToken(r.Token)
	}
	h.entry, h.loaded = e, true
	if rec := e.current(); rec != nil && rec.Token != nil {
		h.ts = h.sourceFor(rec)
	}
	return nil
}

// TokenSource implements auth.OAuthHandler: the kept token for this
// server, refreshed when it expires; nil before any sign-in.
func (h *Handler) TokenSource(ctx context.Context) (oauth2.TokenSource, error) {
	h.state.Lock()
	defer h.state.Unlock()
	if err := h.loadEntry(); err != nil {
		return nil, err
	}
	if h.ts == nil {
		return nil, nil
	}
	if rec := h.entry.current(); rec != nil && rec.Token != nil && rec.Token.RefreshToken == "" && !rec.Token.Valid() {
		// Expired, and nothing to refresh it with: the request goes
		// without it, and the server's 401 starts a sign-in (golang.org/x/oauth2
		// would fail the request with "token expired and refresh token is
		// not set").
		return nil, nil
	}
	return h.ts, nil
}

// Rearm lets the next refusal ask the person again: a sign-in that failed
// or was declined is not the answer to every later request, and the bound
// on sign-ins starts again. A session calls it for each request the
// person makes; a one-shot command never does (one failed sign-in ends
// it, without asking again for each of its requests).
func (h *Handler) Rearm() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.failed, h.signIns, h.refreshed = nil, 0, false
}

// currentToken is the token in use, or nil.
func (h *Handler) currentToken() *oauth2.Token {
	h.state.Lock()
	defer h.state.Unlock()
	if rec := h.entry.current(); rec != nil && rec.Token != nil {
		t := *rec.Token
		return &t
	}
	return nil
}

// oauth2Config is what refreshing rec needs.
func (h *Handler) oauth2Config(rec *Record) *oauth2.Config {
	secret := rec.ClientSecret
	if rec.Registration == RegistrationPreregistered && rec.ClientID == h.cfg.ClientID {
		secret = h.cfg.ClientSecret
	}
	style := rec.AuthStyle
	if secret == "" {
		// A public client (token_endpoint_auth_method "none") sends its
		// client_id in the form, not an empty Basic password.
		style = oauth2.AuthStyleInParams
	}
	return &oauth2.Config{
		ClientID:     rec.ClientID,
		ClientSecret: secret,
		Endpoint:     oauth2.Endpoint{TokenURL: rec.TokenURL, AuthStyle: style},
		Scopes:       rec.Scopes,
	}
}

// refreshContext carries the handler's HTTP client to golang.org/x/oauth2.
// It is not the request's context: a token source outlives the request
// that made it.
func (h *Handler) refreshContext() context.Context {
	return context.WithValue(context.Background(), oauth2.HTTPClient, h.client)
}

func (h *Handler) sourceFor(rec *Record) oauth2.TokenSource {
	base := h.oauth2Config(rec).TokenSource(h.refreshContext(), rec.Token)
	return &savingSource{h: h, issuer: rec.Issuer, base: base, last: rec.Token.AccessToken}
}

// savingSource keeps every new token it hands out (refreshes rotate
// refresh tokens) and never lets one into an error message.
type savingSource struct {
	h      *Handler
	issuer string
	base   oauth2.TokenSource

	mu   sync.Mutex
	last string
}

func (s *savingSource) Token() (*oauth2.Token, error) {
	t, err := s.base.Token()
	if err != nil {
		return nil, s.h.errText(fmt.Errorf("refreshing the sign-in token: %w", err))
	}
	s.mu.Lock()
	changed := t.AccessToken != s.last
	s.last = t.AccessToken
	s.mu.Unlock()
	if changed {
		s.h.red.addToken(t)
		s.h.keepToken(s.issuer, t)
	}
	return t, nil
}

// keepToken stores a refreshed token for issuer.
func (h *Handler) keepToken(issuer string, t *oauth2.Token) {
	h.state.Lock()
	defer h.state.Unlock()
	rec := h.entry.Records[issuer]
	if rec == nil {
		return
	}
	rec.Token = t
	if s := tokenScopes(t); s != nil {
		rec.Scopes = s
	}
	rec.Saved = h.cfg.Now()
	h.saveEntry()
}

// saveEntry writes h.entry; h.state must be held. A store that fails
// leaves the token usable for this run only.
func (h *Handler) saveEntry() {
	if err := h.cfg.Store.Save(h.server, h.entry); err != nil {
		h.notice("the sign-in for %s is used for this run only: %v", h.server, err)
	}
}

// tokenScopes are the scopes a token response grants ("scope"), or nil.
func tokenScopes(t *oauth2.Token) []string {
	if s, ok := t.Extra("scope").(string); ok && strings.TrimSpace(s) != "" {
		return strings.Fields(s)
	}
	return nil
}

// Authorize implements auth.OAuthHandler. On a 401 it refreshes the kept
// token if it can, else signs in; on a 403 insufficient_scope it signs in
// again for the union of the scopes granted and the scopes challenged
// (step-up); another 403 is left to the caller. It returns nil when the
// request is worth retrying.
func (h *Handler) Authorize(ctx context.Context, req *http.Request, resp *http.Response) error {
	defer resp.Body.Close()
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.wrap(h.authorize(ctx, req, resp, false))
}

// SignInError is every error Authorize and Login return: the transport
// wraps it in its own, and errors.As finds it there. Its message is the
// cause's, with no secret in it.
type SignInError struct {
	Server string
	Err    error
}

func (e *SignInError) Error() string { return e.Err.Error() }
func (e *SignInError) Unwrap() error { return e.Err }

func (h *Handler) wrap(err error) error {
	if err == nil {
		return nil
	}
	return &SignInError{Server: h.server, Err: h.errText(err)}
}

// errText is err as it may be shown: no secret, no more of what the
// authorization server said than a line holds, a request that ran out of
// time said to.
func (h *Handler) errText(err error) error {
	return bound(h.red.Err(timedOut(err, h.client.Timeout)))
}

func (h *Handler) authorize(ctx context.Context, req *http.Request, resp *http.Response, login bool) error {
	challenges, err := oauthex.ParseWWWAuthenticate(resp.Header.Values("WWW-Authenticate"))
	if err != nil {
		return fmt.Errorf("server %s sent a WWW-Authenticate header that cannot be read: %v", h.server, err)
	}
	if resp.StatusCode == http.StatusForbidden && bearerParam(challenges, "error") != "insufficient_scope" {
		// Not about scopes: signing in would not help. The retry gets the
		// same 403, which the caller reports.
		return nil
	}
	h.state.Lock()
	err = h.loadEntry()
	h.state.Unlock()
	if err != nil {
		return err
	}
	if !login {
		// Another request's sign-in or refresh may have happened while
		// this one waited: retry with the new token. (A request that went
		// without a token because the kept one could not be refreshed
		// finds that token expired, and goes on to sign in.)
		if cur := h.currentToken(); cur != nil && cur.Valid() && cur.AccessToken != bearerValue(req.Header.Get("Authorization")) {
			return nil
		}
	}
	serverURL := req.URL.String()
	d, err := discover(ctx, h.client, challenges, serverURL)
	if err != nil {
		return fmt.Errorf("finding how to sign in to %s: %w", h.server, err)
	}
	issuer := d.Issuer()
	h.state.Lock()
	rec := h.entry.Records[issuer]
	h.state.Unlock()

	if !login && resp.StatusCode == http.StatusUnauthorized && !h.refreshed && rec != nil && rec.Token != nil && rec.Token.RefreshToken != "" {
		h.refreshed = true
		if h.refresh(ctx, rec) {
			return nil
		}
	}
	if h.cfg.Consent == nil {
		e := &SignInRequiredError{Server: h.server, Issuer: issuer, Status: resp.StatusCode}
		if rec != nil && rec.Token != nil && !rec.Token.Valid() {
			e.Expired = rec.Token.Expiry
		}
		return e
	}
	if h.failed != nil {
		// One failed sign-in per command: the next request would only
		// open the browser on the same failure.
		return h.failed
	}
	if h.signIns >= h.cfg.MaxSignIns {
		return &SignInLimitError{Server: h.server, Count: h.signIns}
	}
	challenged := strings.Fields(bearerParam(challenges, "scope"))
	if resp.StatusCode == http.StatusForbidden {
		if granted, ok := h.signedIn[issuer]; ok && subset(challenged, granted) {
			return &InsufficientScopeError{Server: h.server, Scopes: challenged}
		}
	}
	var prev []string
	if rec != nil {
		prev = rec.Scopes
	}
	if err := h.signIn(ctx, req, resp, d, prev); err != nil {
		h.failed = err
		return err
	}
	return nil
}

// refresh trades rec's refresh token for a new token; false if that did
// not work (the caller then signs in).
func (h *Handler) refresh(ctx context.Context, rec *Record) bool {
	conf := h.oauth2Config(rec)
	t, err := conf.TokenSource(context.WithValue(ctx, oauth2.HTTPClient, h.client), &oauth2.Token{RefreshToken: rec.Token.RefreshToken}).Token()
	if err != nil {
		h.notice("the kept sign-in for %s could not be refreshed (%v); signing in again", h.server, h.errText(err))
		return false
	}
	if t.RefreshToken == "" {
		t.RefreshToken = rec.Token.RefreshToken
	}
	h.red.addToken(t)
	h.state.Lock()
	rec.Token = t
	if s := tokenScopes(t); s != nil {
		rec.Scopes = s
	}
	rec.Saved = h.cfg.Now()
	h.entry.Current = rec.Issuer
	h.ts = h.sourceFor(rec)
	h.saveEntry()
	h.state.Unlock()
	return true
}

// signIn runs the authorization code flow through the go-sdk's handler.
func (h *Handler) signIn(ctx context.Context, req *http.Request, resp *http.Response, d *discovery, prev []string) error {
	issuer := d.Issuer()
	cimd := h.cfg.ClientMetadataURL != "" && d.Meta != nil && d.Meta.ClientIDMetadataDocumentSupported
	if !cimd && h.cfg.ClientID != "" {
		h.state.Lock()
		for _, r := range h.entry.Records {
			if r.Registration == RegistrationPreregistered && r.ClientID == h.cfg.ClientID && r.Issuer != issuer {
				h.state.Unlock()
				return &ClientIssuerError{ClientID: h.cfg.ClientID, Was: r.Issuer, Now: issuer}
			}
		}
		h.state.Unlock()
	}
	if !cimd && h.cfg.ClientID == "" && d.Meta != nil && d.Meta.RegistrationEndpoint == "" {
		return &NoRegistrationError{Issuer: issuer, CIMDSupported: d.Meta.ClientIDMetadataDocumentSupported}
	}

	cb, err := listenCallback(h.cfg.CallbackPort)
	if err != nil {
		return err
	}
	defer cb.close()
	issSupported := d.Meta != nil && d.Meta.AuthorizationResponseIssParameterSupported

	var gotConf *oauth2.Config
	var gotTok *oauth2.Token
	cfg := &auth.AuthorizationCodeHandlerConfig{
		RedirectURL: cb.uri,
		AuthorizationCodeFetcher: func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
			return h.fetch(ctx, cb, args.URL, issuer, issSupported)
		},
		// Step-up keeps what was granted (2026-07-28: the union of the
		// scopes previously requested and the challenge).
		ScopeFilter: func(discovered []string) []string {
			if len(h.cfg.Scopes) > 0 {
				discovered = h.cfg.Scopes
			}
			return scopesUnion(prev, discovered)
		},
		RequestRefreshToken: true,
		// 2026-07-28: a present iss is compared whether or not the
		// metadata advertises it.
		AcceptUnadvertisedIss: true,
		Client:                h.client,
		NewTokenSource: func(_ context.Context, c *oauth2.Config, t *oauth2.Token) (oauth2.TokenSource, error) {
			gotConf, gotTok = c, t
			return oauth2.StaticTokenSource(t), nil
		},
	}
	if h.cfg.ClientMetadataURL != "" {
		cfg.ClientIDMetadataDocumentConfig = &auth.ClientIDMetadataDocumentConfig{URL: h.cfg.ClientMetadataURL}
	}
	if h.cfg.ClientID != "" {
		cfg.PreregisteredClient = &oauthex.ClientCredentials{ClientID: h.cfg.ClientID}
		if h.cfg.ClientSecret != "" {
			cfg.PreregisteredClient.ClientSecretAuth = &oauthex.ClientSecretAuth{ClientSecret: h.cfg.ClientSecret}
		}
	} else {
		cfg.DynamicClientRegistrationConfig = &auth.DynamicClientRegistrationConfig{
			Metadata: &oauthex.ClientRegistrationMetadata{
				RedirectURIs:            []string{cb.uri},
				ApplicationType:         "native",
				ClientName:              h.cfg.ClientName,
				GrantTypes:              []string{"authorization_code", "refresh_token"},
				ResponseTypes:           []string{"code"},
				TokenEndpointAuthMethod: "none",
			},
		}
	}
	flow, err := auth.NewAuthorizationCodeHandler(cfg)
	if err != nil {
		return fmt.Errorf("sign-in configuration: %w", err)
	}
	h.notice("server %s asks you to sign in with %q", h.server, issuer)
	h.signIns++
	if err := flow.Authorize(ctx, req, resp); err != nil {
		return fmt.Errorf("signing in to %s with %q: %w", h.server, issuer, err)
	}
	if gotConf == nil || gotTok == nil {
		return fmt.Errorf("signing in to %s: the flow ended without a token", h.server)
	}

	reg := RegistrationDynamic
	switch {
	case cimd && gotConf.ClientID == h.cfg.ClientMetadataURL:
		reg = RegistrationCIMD
	case h.cfg.ClientID != "" && gotConf.ClientID == h.cfg.ClientID:
		reg = RegistrationPreregistered
	}
	rec := &Record{
		Issuer:       issuer,
		Resource:     d.Resource,
		TokenURL:     gotConf.Endpoint.TokenURL,
		AuthStyle:    gotConf.Endpoint.AuthStyle,
		Registration: reg,
		ClientID:     gotConf.ClientID,
		RedirectURI:  cb.uri,
		Scopes:       tokenScopes(gotTok),
		Token:        gotTok,
		Saved:        h.cfg.Now(),
	}
	if rec.Scopes == nil {
		rec.Scopes = slices.Clone(gotConf.Scopes)
	}
	if reg == RegistrationDynamic {
		rec.ClientSecret = gotConf.ClientSecret
	}
	h.red.add(gotConf.ClientSecret)
	h.red.addToken(gotTok)
	h.signedIn[issuer] = rec.Scopes

	h.state.Lock()
	h.entry.Records[issuer] = rec
	h.entry.Current = issuer
	h.ts = h.sourceFor(rec)
	h.saveEntry()
	h.state.Unlock()
	return nil
}

// fetch is the go-sdk's AuthorizationCodeFetcher: it arms the redirect
// endpoint with the request's state and the recorded issuer, asks for
// consent, and waits for the first response that carries the state.
func (h *Handler) fetch(ctx context.Context, cb *callback, authURL, issuer string, issSupported bool) (*auth.AuthorizationResult, error) {
	u, err := url.Parse(authURL)
	if err != nil {
		return nil, fmt.Errorf("the authorization URL cannot be read: %v", err)
	}
	state := u.Query().Get("state")
	if state == "" {
		return nil, errors.New("the authorization URL has no state")
	}
	cb.expect(state, issuer, issSupported)

	consent := make(chan error, 1)
	go func() { consent <- h.cfg.Consent(ctx, authURL) }()
	t := time.NewTimer(h.cfg.CallbackTimeout)
	defer t.Stop()
	for {
		select {
		case r := <-cb.result:
			return r.res, r.err
		case err := <-consent:
			consent = nil
			// The browser may have come back before Consent returned: a
			// browser that fails after delivering the redirect (say it got
			// mcpcli's error page) does not hide the answer, and one that
			// succeeded leaves nothing to wait for.
			select {
			case r := <-cb.result:
				return r.res, r.err
			default:
			}
			if err != nil {
				return nil, &ConsentError{Err: err}
			}
			if h.cfg.Waiting != nil {
				h.cfg.Waiting(h.cfg.CallbackTimeout)
			}
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-t.C:
			return nil, &CallbackTimeoutError{Waited: h.cfg.CallbackTimeout}
		}
	}
}

// bearerParam is a parameter of the first Bearer challenge that has it.
func bearerParam(cs []oauthex.Challenge, name string) string {
	for _, c := range cs {
		if c.Scheme == "bearer" && c.Params[name] != "" {
			return c.Params[name]
		}
	}
	return ""
}

// bearerValue is the token of an "Authorization: Bearer …" value.
func bearerValue(v string) string {
	scheme, tok, ok := strings.Cut(v, " ")
	if !ok || !strings.EqualFold(scheme, "bearer") {
		return ""
	}
	return strings.TrimSpace(tok)
}

// subset reports whether every scope of a is in b.
func subset(a, b []string) bool {
	for _, s := range a {
		if !slices.Contains(b, s) {
			return false
		}
	}
	return true
}
