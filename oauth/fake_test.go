package oauth

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/oauth2"
)

// fakeAS is an authorization server on loopback that checks what a client
// must do (PKCE S256, the resource, the state, client authentication) and
// records every request, so tests can say what was sent.
type fakeAS struct {
	t   *testing.T
	srv *httptest.Server

	// Configuration, set before use.
	metadataPath  string // default /.well-known/oauth-authorization-server
	prefix        string // route and issuer path prefix, e.g. /tenant1
	issuer        string // metadata issuer override
	cimd          bool
	noDCR         bool
	noPKCE        bool     // omit code_challenge_methods_supported
	issMode       string   // "" correct, "omit", "wrong", "unadvertised" (correct but not advertised), "slash"
	authMethods   []string // token_endpoint_auth_methods_supported; default none
	regMethod     string   // token_endpoint_auth_method the registration answers with
	scopesSupport []string
	expiresIn     int    // access token lifetime; default 3600
	denyWith      string // authorize answers error=… instead of a code
	// consentPage: /authorize shows a page whose form (submitted by a
	// script on load, as a person would click) approves the request.
	consentPage bool
	// tokenBody, when set, is the token endpoint's only answer: 400 with
	// this body. tokenHang: it never answers (until the client gives up).
	tokenBody string
	tokenHang bool
	// regBody, when set, is the registration endpoint's only answer: 400
	// with this body.
	regBody string

	mu        sync.Mutex
	n         int
	regs      []map[string]any
	authReqs  []url.Values
	tokenReqs []tokenReq
	codes     map[string]codeGrant
	refresh   map[string][]string // refresh token → scopes
	tokens    map[string][]string // access token → scopes
}

type tokenReq struct {
	Form       url.Values
	AuthHeader string
}

type codeGrant struct {
	challenge, clientID, redirect, resource string
	scopes                                  []string
}

func newFakeAS(t *testing.T, configure func(*fakeAS)) *fakeAS {
	as := &fakeAS{t: t, codes: map[string]codeGrant{}, refresh: map[string][]string{}, tokens: map[string][]string{}}
	if configure != nil {
		configure(as)
	}
	if as.metadataPath == "" {
		as.metadataPath = "/.well-known/oauth-authorization-server" + as.prefix
	}
	if as.authMethods == nil {
		as.authMethods = []string{"none"}
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+as.metadataPath, as.metadata)
	mux.HandleFunc("GET "+as.prefix+"/authorize", as.authorize)
	mux.HandleFunc("POST "+as.prefix+"/authorize", as.authorize)
	mux.HandleFunc("POST "+as.prefix+"/token", as.token)
	mux.HandleFunc("POST "+as.prefix+"/register", as.register)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		as.mu.Lock()
		defer as.mu.Unlock()
		http.NotFound(w, r)
	})
	as.srv = httptest.NewServer(mux)
	t.Cleanup(as.srv.Close)
	return as
}

// URL is the authorization server URL as the resource names it.
func (as *fakeAS) URL() string { return as.srv.URL + as.prefix }

func (as *fakeAS) issuerID() string {
	if as.issuer != "" {
		return as.issuer
	}
	return as.URL()
}

func (as *fakeAS) metadata(w http.ResponseWriter, r *http.Request) {
	m := map[string]any{
		"issuer":                                as.issuerID(),
		"authorization_endpoint":                as.URL() + "/authorize",
		"token_endpoint":                        as.URL() + "/token",
		"response_types_supported":              []string{"code"},
		"grant_types_supported":                 []string{"authorization_code", "refresh_token"},
		"token_endpoint_auth_methods_supported": as.authMethods,
	}
	if !as.noPKCE {
		m["code_challenge_methods_supported"] = []string{"S256"}
	}
	if !as.noDCR {
		m["registration_endpoint"] = as.URL() + "/register"
	}
	if as.cimd {
		m["client_id_metadata_document_supported"] = true
	}
	if as.issMode != "unadvertised" && as.issMode != "wrong-unadvertised" {
		m["authorization_response_iss_parameter_supported"] = true
	}
	if as.scopesSupport != nil {
		m["scopes_supported"] = as.scopesSupport
	}
	writeJSON(w, http.StatusOK, m)
}

func (as *fakeAS) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if as.consentPage {
		if r.Method == http.MethodGet {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, `<!doctype html><html><body><h1>Allow mcpcli?</h1>
<form id="f" method="post" action="%s/authorize?%s"><button name="approve" value="yes">Allow</button></form>
<script>document.getElementById("f").requestSubmit(document.querySelector("button"))</script></body></html>`,
				as.prefix, html.EscapeString(r.URL.RawQuery))
			return
		}
		if r.FormValue("approve") != "yes" {
			http.Error(w, "not approved", http.StatusForbidden)
			return
		}
	}
	as.mu.Lock()
	as.authReqs = append(as.authReqs, q)
	as.n++
	code := fmt.Sprintf("code-%d-abcdef", as.n)
	if q.Get("code_challenge_method") == "S256" && q.Get("code_challenge") != "" {
		as.codes[code] = codeGrant{challenge: q.Get("code_challenge"), clientID: q.Get("client_id"),
			redirect: q.Get("redirect_uri"), resource: q.Get("resource"), scopes: strings.Fields(q.Get("scope"))}
	}
	as.mu.Unlock()
	redirect, err := url.Parse(q.Get("redirect_uri"))
	if err != nil || redirect.Hostname() != "127.0.0.1" {
		http.Error(w, "redirect_uri must be loopback", http.StatusBadRequest)
		return
	}
	v := redirect.Query()
	if as.denyWith != "" {
		v.Set("error", as.denyWith)
		v.Set("error_description", "the person said no \x1b[31m")
	} else {
		v.Set("code", code)
	}
	v.Set("state", q.Get("state"))
	switch as.issMode {
	case "", "unadvertised":
		v.Set("iss", as.issuerID())
	case "wrong", "wrong-unadvertised":
		v.Set("iss", "https://evil.example.com")
	case "slash":
		v.Set("iss", as.issuerID()+"/")
	}
	redirect.RawQuery = v.Encode()
	http.Redirect(w, r, redirect.String(), http.StatusFound)
}

func (as *fakeAS) register(w http.ResponseWriter, r *http.Request) {
	if as.regBody != "" {
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, as.regBody)
		return
	}
	var body map[string]any
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	as.mu.Lock()
	as.regs = append(as.regs, body)
	id := fmt.Sprintf("dyn-client-%d", len(as.regs))
	as.mu.Unlock()
	resp := map[string]any{"client_id": id, "redirect_uris": body["redirect_uris"]}
	method := as.regMethod
	if method == "" {
		method, _ = body["token_endpoint_auth_method"].(string)
	}
	if method != "" {
		resp["token_endpoint_auth_method"] = method
	}
	if method != "none" {
		resp["client_secret"] = "dyn-secret-" + id
	}
	writeJSON(w, http.StatusCreated, resp)
}

func (as *fakeAS) token(w http.ResponseWriter, r *http.Request) {
	switch {
	case as.tokenHang:
		io.Copy(io.Discard, r.Body) // read whole, the server notices the client leave
		<-r.Context().Done()
		return
	case as.tokenBody != "":
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, as.tokenBody)
		return
	}
	if err := r.ParseForm(); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	as.mu.Lock()
	defer as.mu.Unlock()
	as.tokenReqs = append(as.tokenReqs, tokenReq{Form: r.PostForm, AuthHeader: r.Header.Get("Authorization")})
	var scopes []string
	switch r.PostForm.Get("grant_type") {
	case "authorization_code":
		g, ok := as.codes[r.PostForm.Get("code")]
		if !ok {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant", "error_description": "unknown code"})
			return
		}
		delete(as.codes, r.PostForm.Get("code"))
		sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
		if base64.RawURLEncoding.EncodeToString(sum[:]) != g.challenge {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant", "error_description": "PKCE verifier does not match"})
			return
		}
		if r.PostForm.Get("resource") != g.resource || r.PostForm.Get("redirect_uri") != g.redirect {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant", "error_description": "resource or redirect_uri differs"})
			return
		}
		scopes = g.scopes
	case "refresh_token":
		s, ok := as.refresh[r.PostForm.Get("refresh_token")]
		if !ok {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant", "error_description": "unknown refresh token"})
			return
		}
		delete(as.refresh, r.PostForm.Get("refresh_token")) // rotated
		scopes = s
	default:
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "unsupported_grant_type"})
		return
	}
	as.n++
	access := fmt.Sprintf("access-%d-%s", as.n, strings.Repeat("x", 12))
	refresh := fmt.Sprintf("refresh-%d-%s", as.n, strings.Repeat("y", 12))
	as.tokens[access] = scopes
	as.refresh[refresh] = scopes
	expires := as.expiresIn
	if expires == 0 {
		expires = 3600
	}
	resp := map[string]any{"access_token": access, "token_type": "Bearer", "expires_in": expires, "refresh_token": refresh}
	if len(scopes) > 0 {
		resp["scope"] = strings.Join(scopes, " ")
	}
	writeJSON(w, http.StatusOK, resp)
}

// scopesOf is what a token grants, and whether this server issued it.
func (as *fakeAS) scopesOf(token string) ([]string, bool) {
	as.mu.Lock()
	defer as.mu.Unlock()
	s, ok := as.tokens[token]
	return s, ok
}

func (as *fakeAS) revoke(token string) {
	as.mu.Lock()
	defer as.mu.Unlock()
	delete(as.tokens, token)
}

func (as *fakeAS) snapshot() (regs []map[string]any, auths []url.Values, toks []tokenReq) {
	as.mu.Lock()
	defer as.mu.Unlock()
	return slices.Clone(as.regs), slices.Clone(as.authReqs), slices.Clone(as.tokenReqs)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// fakeRS is a protected MCP endpoint at /mcp: it answers 200 to a request
// whose bearer token the current authorization server issued with the
// scopes required, 401 without one, 403 insufficient_scope with too few.
type fakeRS struct {
	srv *httptest.Server

	mu            sync.Mutex
	as            *fakeAS
	prmPath       string // "" none
	prmResource   string // override
	inChallenge   bool   // resource_metadata in WWW-Authenticate
	scopeInChal   bool   // scope in WWW-Authenticate
	required      []string
	scopesSupport []string
	seen          []string // Authorization headers received at /mcp
}

func newFakeRS(t *testing.T, as *fakeAS, configure func(*fakeRS)) *fakeRS {
	rs := &fakeRS{as: as, prmPath: "/.well-known/oauth-protected-resource/mcp", inChallenge: true}
	if configure != nil {
		configure(rs)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/", rs.serve)
	rs.srv = httptest.NewServer(mux)
	t.Cleanup(rs.srv.Close)
	return rs
}

func (rs *fakeRS) URL() string { return rs.srv.URL + "/mcp" }

func (rs *fakeRS) setAS(as *fakeAS) {
	rs.mu.Lock()
	rs.as = as
	rs.mu.Unlock()
}

func (rs *fakeRS) serve(w http.ResponseWriter, r *http.Request) {
	rs.mu.Lock()
	as, prmPath := rs.as, rs.prmPath
	rs.mu.Unlock()
	if prmPath != "" && r.URL.Path == prmPath {
		resource := rs.srv.URL + "/mcp"
		if prmPath == "/.well-known/oauth-protected-resource" {
			resource = rs.srv.URL
		}
		if rs.prmResource != "" {
			resource = rs.prmResource
		}
		m := map[string]any{"resource": resource, "authorization_servers": []string{as.URL()}}
		if rs.scopesSupport != nil {
			m["scopes_supported"] = rs.scopesSupport
		}
		writeJSON(w, http.StatusOK, m)
		return
	}
	if r.URL.Path != "/mcp" {
		http.NotFound(w, r)
		return
	}
	io.Copy(io.Discard, r.Body)
	rs.mu.Lock()
	rs.seen = append(rs.seen, r.Header.Get("Authorization"))
	rs.mu.Unlock()
	challenge := func(extra string) string {
		var params []string
		if extra != "" {
			params = append(params, extra)
		}
		if rs.scopeInChal && len(rs.required) > 0 {
			params = append(params, fmt.Sprintf("scope=%q", strings.Join(rs.required, " ")))
		}
		if rs.inChallenge && prmPath != "" {
			params = append(params, fmt.Sprintf("resource_metadata=%q", rs.srv.URL+prmPath))
		}
		return strings.TrimSpace("Bearer " + strings.Join(params, ", "))
	}
	tok := bearerValue(r.Header.Get("Authorization"))
	scopes, ok := as.scopesOf(tok)
	if !ok {
		w.Header().Set("WWW-Authenticate", challenge(""))
		writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "invalid_token"})
		return
	}
	if !subset(rs.required, scopes) {
		w.Header().Set("WWW-Authenticate", challenge(`error="insufficient_scope"`))
		writeJSON(w, http.StatusForbidden, map[string]string{"error": "insufficient_scope"})
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"ok": "yes"})
}

// browser is a Consent that does what the conformance suite's $BROWSER
// helper does: GET the authorization URL and follow the redirects back to
// the loopback callback. It records the URLs it was given.
type browser struct {
	mu     sync.Mutex
	opened []string
	status int // the final page's status
}

func (b *browser) consent(ctx context.Context, authURL string) error {
	b.mu.Lock()
	b.opened = append(b.opened, authURL)
	b.mu.Unlock()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, authURL, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	b.mu.Lock()
	b.status = resp.StatusCode
	b.mu.Unlock()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("the browser ended on HTTP %d", resp.StatusCode)
	}
	return nil
}

func (b *browser) count() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.opened)
}

// memStore is a Store in memory.
type memStore struct {
	mu      sync.Mutex
	entries map[string][]byte
	saves   int
}

func newMemStore() *memStore { return &memStore{entries: map[string][]byte{}} }

func (s *memStore) Load(server string) (*Entry, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.entries[server]
	if !ok {
		return nil, nil
	}
	var e Entry
	return &e, json.Unmarshal(b, &e)
}

func (s *memStore) Save(server string, e *Entry) error {
	b, err := json.Marshal(e)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.entries[server] = b
	s.saves++
	return nil
}

func (s *memStore) Delete(server string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.entries, server)
	return nil
}

func (s *memStore) Where() string { return "memory" }

// call does what mcp.StreamableClientTransport does with an OAuthHandler:
// the token from TokenSource on the request, Authorize on a 401 or 403,
// then one retry. It returns the final status.
func call(t *testing.T, h *Handler, serverURL string) (int, error) {
	t.Helper()
	ctx := context.Background()
	do := func() (*http.Request, *http.Response, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, serverURL, strings.NewReader(`{}`))
		if err != nil {
			return nil, nil, err
		}
		ts, err := h.TokenSource(ctx)
		if err != nil {
			return nil, nil, err
		}
		if ts != nil {
			tok, err := ts.Token()
			var re *oauth2.RetrieveError
			switch {
			case errors.As(err, &re) && re.ErrorCode == "invalid_grant":
				// As the transport does: go without, and let the 401 say.
			case err != nil:
				return nil, nil, err
			default:
				tok.SetAuthHeader(req)
			}
		}
		resp, err := http.DefaultClient.Do(req)
		return req, resp, err
	}
	req, resp, err := do()
	if err != nil {
		return 0, err
	}
	if resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden {
		if err := h.Authorize(ctx, req, resp); err != nil {
			return resp.StatusCode, err
		}
		_, resp, err = do()
		if err != nil {
			return 0, err
		}
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}

// newHandler builds a Handler for rs with the browser b.
func newHandler(t *testing.T, rs *fakeRS, store Store, b *browser, edit func(*Config)) *Handler {
	t.Helper()
	cfg := Config{ServerURL: rs.URL(), Store: store, CallbackTimeout: 30 * time.Second}
	if b != nil {
		cfg.Consent = b.consent
	}
	if edit != nil {
		edit(&cfg)
	}
	h, err := New(cfg)
	if err != nil {
		t.Fatalf("New(%+v): %v", cfg, err)
	}
	return h
}

// keptRecord is the current record kept for rs.
func keptRecord(t *testing.T, store Store, rs *fakeRS) *Record {
	t.Helper()
	e, err := store.Load(ServerKey(rs.URL()))
	if err != nil {
		t.Fatalf("Load(%s): %v", rs.URL(), err)
	}
	if e == nil || e.current() == nil {
		t.Fatalf("nothing kept for %s", rs.URL())
	}
	return e.current()
}

// newPlainServer answers every request with 200 and publishes no
// metadata: a server that wants no sign-in.
func newPlainServer(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/.well-known/") {
			http.NotFound(w, r)
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"jsonrpc": "2.0", "id": 1, "result": map[string]any{}})
	}))
	t.Cleanup(srv.Close)
	return srv
}
