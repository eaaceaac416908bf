// Package authtest is an OAuth 2.1 authorization server and an MCP server
// that requires its tokens, on one loopback origin, for tests that sign
// in for real: RFC 9728 protected resource metadata, RFC 8414 server
// metadata, dynamic client registration (loopback redirect URIs only),
// PKCE S256 (checked), the RFC 8707 resource (checked), the RFC 9207 iss
// in the redirect, refresh tokens. It is not a fake of the client: it
// refuses what a real server would refuse.
//
// With ConsentPage, the authorization endpoint shows a page whose form a
// script submits on load, as a person would click "Allow": a browser that
// runs scripts (headless Chromium) gets through, a client that only
// follows redirects does not. Without it, it redirects at once.
package authtest

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// Options shape a Server.
type Options struct {
	// ConsentPage: /authorize answers with a page that a script submits.
	ConsentPage bool
	// Scopes are the scopes the MCP server requires (and names in its
	// challenge); none when empty.
	Scopes []string
	// TokenLifetime is the access tokens'; zero means an hour.
	TokenLifetime time.Duration
	// StepUp, when set, is a scope the tool "admin" needs beyond Scopes:
	// calling it with a token that lacks it is answered 403
	// insufficient_scope, naming Scopes and StepUp, the way a server asks
	// for more in the middle of a session.
	StepUp string
}

// Server is the authorization server and the MCP server. Serve its
// Handler on loopback; the MCP endpoint is /mcp.
type Server struct {
	opts Options
	mcp  http.Handler

	mu       sync.Mutex
	clients  map[string][]string // client_id → redirect URIs
	codes    map[string]grant
	tokens   map[string]grant // access token → what it grants
	refresh  map[string]grant
	authz    int // authorization requests approved
	tokenReq int
}

type grant struct {
	clientID, redirect, challenge, resource string
	scopes                                  []string
	expiry                                  time.Time
}

// New returns a Server.
func New(opts Options) *Server {
	if opts.TokenLifetime <= 0 {
		opts.TokenLifetime = time.Hour
	}
	s := &Server{opts: opts, clients: map[string][]string{}, codes: map[string]grant{}, tokens: map[string]grant{}, refresh: map[string]grant{}}
	srv := mcp.NewServer(&mcp.Implementation{Name: "authtest", Version: "1.0.0"}, nil)
	srv.AddTool(&mcp.Tool{Name: "whoami", Description: "Say which client signed in, with which scopes", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			ti := req.Extra.TokenInfo
			text := "not signed in"
			if ti != nil {
				text = fmt.Sprintf("signed in as %s with scopes [%s]", ti.UserID, strings.Join(ti.Scopes, " "))
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil
		})
	if opts.StepUp != "" {
		srv.AddTool(&mcp.Tool{Name: "admin", Description: "Needs the " + opts.StepUp + " scope too", InputSchema: json.RawMessage(`{"type":"object"}`)},
			func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "admin granted: " + strings.Join(req.Extra.TokenInfo.Scopes, " ")}}}, nil
			})
	}
	s.mcp = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{Stateless: true})
	return s
}

// stepUp answers 403 insufficient_scope to a call of "admin" with a token
// that lacks Options.StepUp; it reports whether it did.
func (s *Server) stepUp(w http.ResponseWriter, r *http.Request) bool {
	if s.opts.StepUp == "" || r.Method != http.MethodPost {
		return false
	}
	ti := auth.TokenInfoFromContext(r.Context())
	if ti == nil || slices.Contains(ti.Scopes, s.opts.StepUp) {
		return false
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	r.Body = io.NopCloser(bytes.NewReader(body))
	if err != nil {
		return false
	}
	var m struct {
		Method string `json:"method"`
		Params struct {
			Name string `json:"name"`
		} `json:"params"`
	}
	if json.Unmarshal(body, &m) != nil || m.Method != "tools/call" || m.Params.Name != "admin" {
		return false
	}
	scopes := strings.Join(append(slices.Clone(s.opts.Scopes), s.opts.StepUp), " ")
	w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer error="insufficient_scope", scope=%q, resource_metadata=%q`, scopes, base(r)+"/.well-known/oauth-protected-resource/mcp"))
	http.Error(w, "insufficient scope", http.StatusForbidden)
	return true
}

// Authorizations is how many authorization requests were approved: how
// many times someone signed in.
func (s *Server) Authorizations() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.authz
}

// base is the origin the request came to: the issuer, and the MCP
// server's origin.
func base(r *http.Request) string { return "http://" + r.Host }

// Handler serves both servers.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/oauth-authorization-server", s.asMetadata)
	mux.HandleFunc("GET /.well-known/oauth-protected-resource/mcp", s.prMetadata)
	mux.HandleFunc("POST /register", s.register)
	mux.HandleFunc("GET /authorize", s.authorize)
	mux.HandleFunc("POST /approve", s.approve)
	mux.HandleFunc("POST /token", s.token)
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		opts := &auth.RequireBearerTokenOptions{ResourceMetadataURL: base(r) + "/.well-known/oauth-protected-resource/mcp", Scopes: s.opts.Scopes}
		auth.RequireBearerToken(s.verify, opts)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !s.stepUp(w, r) {
				s.mcp.ServeHTTP(w, r)
			}
		})).ServeHTTP(w, r)
	})
	return mux
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func oauthError(w http.ResponseWriter, status int, code, desc string) {
	writeJSON(w, status, map[string]string{"error": code, "error_description": desc})
}

func (s *Server) asMetadata(w http.ResponseWriter, r *http.Request) {
	b := base(r)
	writeJSON(w, http.StatusOK, map[string]any{
		"issuer":                                         b,
		"authorization_endpoint":                         b + "/authorize",
		"token_endpoint":                                 b + "/token",
		"registration_endpoint":                          b + "/register",
		"response_types_supported":                       []string{"code"},
		"grant_types_supported":                          []string{"authorization_code", "refresh_token"},
		"code_challenge_methods_supported":               []string{"S256"},
		"token_endpoint_auth_methods_supported":          []string{"none"},
		"scopes_supported":                               s.supported(),
		"authorization_response_iss_parameter_supported": true,
	})
}

func (s *Server) prMetadata(w http.ResponseWriter, r *http.Request) {
	auth.ProtectedResourceMetadataHandler(&oauthex.ProtectedResourceMetadata{
		Resource:             base(r) + "/mcp",
		AuthorizationServers: []string{base(r)},
		ScopesSupported:      s.supported(),
	}).ServeHTTP(w, r)
}

// supported are the scopes the servers name: Scopes, and StepUp.
func (s *Server) supported() []string {
	if s.opts.StepUp == "" {
		return s.opts.Scopes
	}
	return append(slices.Clone(s.opts.Scopes), s.opts.StepUp)
}

// loopback reports whether a redirect URI is http on a loopback address.
func loopback(raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && u.Scheme == "http" && (u.Hostname() == "127.0.0.1" || u.Hostname() == "localhost" || u.Hostname() == "::1")
}

func (s *Server) register(w http.ResponseWriter, r *http.Request) {
	var req struct {
		RedirectURIs []string `json:"redirect_uris"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<16)).Decode(&req); err != nil || len(req.RedirectURIs) == 0 {
		oauthError(w, http.StatusBadRequest, "invalid_client_metadata", "redirect_uris is required")
		return
	}
	for _, u := range req.RedirectURIs {
		if !loopback(u) {
			oauthError(w, http.StatusBadRequest, "invalid_redirect_uri", "only loopback redirect URIs here")
			return
		}
	}
	id := "client-" + rand.Text()[:10]
	s.mu.Lock()
	s.clients[id] = req.RedirectURIs
	s.mu.Unlock()
	writeJSON(w, http.StatusCreated, map[string]any{
		"client_id": id, "redirect_uris": req.RedirectURIs, "token_endpoint_auth_method": "none",
		"grant_types": []string{"authorization_code", "refresh_token"}, "response_types": []string{"code"},
	})
}

// check validates an authorization request; "" when it is good.
func (s *Server) check(q url.Values, r *http.Request) string {
	s.mu.Lock()
	uris, ok := s.clients[q.Get("client_id")]
	s.mu.Unlock()
	switch {
	case !ok:
		return "unknown client_id"
	case !slices.Contains(uris, q.Get("redirect_uri")):
		return "redirect_uri is not registered"
	case q.Get("response_type") != "code":
		return "response_type must be code"
	case q.Get("code_challenge") == "" || q.Get("code_challenge_method") != "S256":
		return "PKCE S256 is required"
	case q.Get("state") == "":
		return "state is required"
	case q.Get("resource") != base(r)+"/mcp":
		return "resource must be " + base(r) + "/mcp"
	}
	return ""
}

var consentPage = template.Must(template.New("consent").Parse(`<!doctype html>
<html><head><meta charset="utf-8"><title>Allow access?</title></head>
<body>
<h1>Allow {{.Client}} to use the authtest MCP server?</h1>
<form id="allow" method="post" action="/approve">
{{range $k, $v := .Params}}<input type="hidden" name="{{$k}}" value="{{$v}}">
{{end}}<button type="submit">Allow</button>
</form>
<script>document.getElementById("allow").submit();</script>
</body></html>
`))

func (s *Server) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if msg := s.check(q, r); msg != "" {
		http.Error(w, msg, http.StatusBadRequest)
		return
	}
	if !s.opts.ConsentPage {
		s.redirectWithCode(w, r, q)
		return
	}
	params := map[string]string{}
	for k := range q {
		params[k] = q.Get(k)
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	consentPage.Execute(w, map[string]any{"Client": q.Get("client_id"), "Params": params})
}

func (s *Server) approve(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if msg := s.check(r.PostForm, r); msg != "" {
		http.Error(w, msg, http.StatusBadRequest)
		return
	}
	s.redirectWithCode(w, r, r.PostForm)
}

func (s *Server) redirectWithCode(w http.ResponseWriter, r *http.Request, q url.Values) {
	code := rand.Text()
	s.mu.Lock()
	s.codes[code] = grant{clientID: q.Get("client_id"), redirect: q.Get("redirect_uri"), challenge: q.Get("code_challenge"),
		resource: q.Get("resource"), scopes: strings.Fields(q.Get("scope"))}
	s.authz++
	s.mu.Unlock()
	back, _ := url.Parse(q.Get("redirect_uri"))
	v := back.Query()
	v.Set("code", code)
	v.Set("state", q.Get("state"))
	v.Set("iss", base(r))
	back.RawQuery = v.Encode()
	http.Redirect(w, r, back.String(), http.StatusFound)
}

func (s *Server) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		oauthError(w, http.StatusBadRequest, "invalid_request", err.Error())
		return
	}
	f := r.PostForm
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tokenReq++
	var g grant
	switch f.Get("grant_type") {
	case "authorization_code":
		var ok bool
		g, ok = s.codes[f.Get("code")]
		delete(s.codes, f.Get("code"))
		sum := sha256.Sum256([]byte(f.Get("code_verifier")))
		switch {
		case !ok:
			oauthError(w, http.StatusBadRequest, "invalid_grant", "unknown or used code")
			return
		case f.Get("client_id") != g.clientID || f.Get("redirect_uri") != g.redirect:
			oauthError(w, http.StatusBadRequest, "invalid_grant", "client_id or redirect_uri differ from the authorization request")
			return
		case base64.RawURLEncoding.EncodeToString(sum[:]) != g.challenge:
			oauthError(w, http.StatusBadRequest, "invalid_grant", "the code_verifier does not match the code_challenge")
			return
		case f.Get("resource") != g.resource:
			oauthError(w, http.StatusBadRequest, "invalid_target", "resource differs from the authorization request")
			return
		}
	case "refresh_token":
		var ok bool
		g, ok = s.refresh[f.Get("refresh_token")]
		if !ok || f.Get("client_id") != g.clientID {
			oauthError(w, http.StatusBadRequest, "invalid_grant", "unknown refresh token")
			return
		}
		delete(s.refresh, f.Get("refresh_token"))
	default:
		oauthError(w, http.StatusBadRequest, "unsupported_grant_type", f.Get("grant_type"))
		return
	}
	access, refresh := "at-"+rand.Text(), "rt-"+rand.Text()
	g.expiry = time.Now().Add(s.opts.TokenLifetime)
	s.tokens[access] = g
	s.refresh[refresh] = g
	writeJSON(w, http.StatusOK, map[string]any{
		"access_token": access, "token_type": "Bearer", "expires_in": int(s.opts.TokenLifetime.Seconds()),
		"refresh_token": refresh, "scope": strings.Join(g.scopes, " "),
	})
}

// verify is the MCP server's token check.
func (s *Server) verify(_ context.Context, token string, r *http.Request) (*auth.TokenInfo, error) {
	s.mu.Lock()
	g, ok := s.tokens[token]
	s.mu.Unlock()
	if !ok || g.resource != base(r)+"/mcp" {
		return nil, auth.ErrInvalidToken
	}
	return &auth.TokenInfo{Scopes: g.scopes, Expiration: g.expiry, UserID: g.clientID}, nil
}
