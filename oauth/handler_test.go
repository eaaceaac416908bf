package oauth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestSignInDiscovery signs in through each place the metadata can be:
// the protected resource metadata by challenge, at the path or at the
// root, and the authorization server metadata under each well-known name.
func TestSignInDiscovery(t *testing.T) {
	tests := []struct {
		name        string
		as          func(*fakeAS)
		rs          func(*fakeRS)
		wantRes     func(rs *fakeRS) string
		wantPRMPath string
	}{
		{
			name:    "challenge names the metadata; oauth-authorization-server",
			wantRes: func(rs *fakeRS) string { return rs.URL() },
		},
		{
			name:    "path well-known, no challenge; openid-configuration",
			as:      func(as *fakeAS) { as.metadataPath = "/.well-known/openid-configuration" },
			rs:      func(rs *fakeRS) { rs.inChallenge = false },
			wantRes: func(rs *fakeRS) string { return rs.URL() },
		},
		{
			name: "root well-known; issuer with a path, path insertion",
			as:   func(as *fakeAS) { as.prefix = "/tenant1" },
			rs: func(rs *fakeRS) {
				rs.inChallenge = false
				rs.prmPath = "/.well-known/oauth-protected-resource"
			},
			wantRes: func(rs *fakeRS) string { return rs.srv.URL },
		},
		{
			name: "custom metadata location; openid-configuration appended to the issuer path",
			as: func(as *fakeAS) {
				as.prefix = "/tenant1"
				as.metadataPath = "/tenant1/.well-known/openid-configuration"
			},
			rs:      func(rs *fakeRS) { rs.prmPath = "/custom/metadata.json" },
			wantRes: func(rs *fakeRS) string { return rs.URL() },
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			as := newFakeAS(t, tt.as)
			rs := newFakeRS(t, as, tt.rs)
			store := newMemStore()
			b := &browser{}
			h := newHandler(t, rs, store, b, nil)
			status, err := call(t, h, rs.URL())
			if err != nil || status != http.StatusOK {
				t.Fatalf("call(%s) = %d, %v; want 200", rs.URL(), status, err)
			}
			_, auths, toks := as.snapshot()
			if len(auths) != 1 || len(toks) != 1 {
				t.Fatalf("authorization requests %d, token requests %d; want 1 and 1", len(auths), len(toks))
			}
			want := tt.wantRes(rs)
			if got := auths[0].Get("resource"); got != want {
				t.Errorf("authorization request resource = %q, want %q", got, want)
			}
			if got := toks[0].Form.Get("resource"); got != want {
				t.Errorf("token request resource = %q, want %q", got, want)
			}
			rec := keptRecord(t, store, rs)
			if rec.Issuer != as.issuerID() || rec.Resource != want {
				t.Errorf("kept record issuer %q resource %q, want %q and %q", rec.Issuer, rec.Resource, as.issuerID(), want)
			}
		})
	}
}

// TestAuthorizationRequest checks the request a browser is sent to: PKCE
// S256, a state, the loopback redirect URI, the resource.
func TestAuthorizationRequest(t *testing.T) {
	as := newFakeAS(t, nil)
	rs := newFakeRS(t, as, nil)
	b := &browser{}
	h := newHandler(t, rs, newMemStore(), b, nil)
	if status, err := call(t, h, rs.URL()); err != nil || status != 200 {
		t.Fatalf("call = %d, %v", status, err)
	}
	if b.count() != 1 {
		t.Fatalf("the browser was opened %d times, want 1", b.count())
	}
	u, err := url.Parse(b.opened[0])
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	if q.Get("code_challenge_method") != "S256" || len(q.Get("code_challenge")) != 43 {
		t.Errorf("code_challenge %q method %q, want a 43-character S256 challenge", q.Get("code_challenge"), q.Get("code_challenge_method"))
	}
	if len(q.Get("state")) < 16 {
		t.Errorf("state %q is too short to be random", q.Get("state"))
	}
	redirect, err := url.Parse(q.Get("redirect_uri"))
	if err != nil || redirect.Scheme != "http" || redirect.Hostname() != "127.0.0.1" || redirect.Port() == "" || redirect.Path != "/callback" {
		t.Errorf("redirect_uri %q, want http://127.0.0.1:PORT/callback", q.Get("redirect_uri"))
	}
	if q.Get("response_type") != "code" {
		t.Errorf("response_type %q, want code", q.Get("response_type"))
	}
	// The fake authorization server refuses a verifier that does not match
	// the challenge, so a token means PKCE was right.
	_, _, toks := as.snapshot()
	if toks[0].Form.Get("code_verifier") == "" {
		t.Errorf("token request has no code_verifier")
	}
}

// TestRegistration covers the three ways to a client ID and their order.
func TestRegistration(t *testing.T) {
	const cimdURL = "https://mcpcli.example/client.json"
	tests := []struct {
		name       string
		as         func(*fakeAS)
		cfg        func(*Config)
		wantClient string // client_id in the authorization request; "dyn-client-1" for DCR
		wantReg    string
		wantDCR    bool
		wantBasic  bool // client_secret_basic at the token endpoint
		// the go-sdk's exchange for a CIMD client tries Basic with an
		// empty secret first (oauth2.AuthStyleAutoDetect)
		anyStyle bool
	}{
		{
			name:       "dynamic registration as a native app",
			wantClient: "dyn-client-1", wantReg: RegistrationDynamic, wantDCR: true,
		},
		{
			name:       "CIMD when advertised and configured",
			as:         func(as *fakeAS) { as.cimd = true },
			cfg:        func(c *Config) { c.ClientMetadataURL = cimdURL },
			wantClient: cimdURL, wantReg: RegistrationCIMD, anyStyle: true,
		},
		{
			name:       "CIMD configured but not advertised: dynamic registration",
			cfg:        func(c *Config) { c.ClientMetadataURL = cimdURL },
			wantClient: "dyn-client-1", wantReg: RegistrationDynamic, wantDCR: true,
		},
		{
			name: "pre-registered with a secret, client_secret_basic",
			as: func(as *fakeAS) {
				as.noDCR = true
				as.authMethods = []string{"client_secret_basic"}
			},
			cfg:        func(c *Config) { c.ClientID, c.ClientSecret = "pre-client", "pre-secret-value" },
			wantClient: "pre-client", wantReg: RegistrationPreregistered, wantBasic: true,
		},
		{
			name:       "CIMD wins over a pre-registered client when advertised",
			as:         func(as *fakeAS) { as.cimd = true },
			cfg:        func(c *Config) { c.ClientMetadataURL, c.ClientID = cimdURL, "pre-client" },
			wantClient: cimdURL, wantReg: RegistrationCIMD, anyStyle: true,
		},
		{
			name: "dynamic registration answered with client_secret_basic",
			as: func(as *fakeAS) {
				as.regMethod = "client_secret_basic"
				as.authMethods = []string{"client_secret_basic"}
			},
			wantClient: "dyn-client-1", wantReg: RegistrationDynamic, wantDCR: true, wantBasic: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			as := newFakeAS(t, tt.as)
			rs := newFakeRS(t, as, nil)
			store := newMemStore()
			h := newHandler(t, rs, store, &browser{}, tt.cfg)
			if status, err := call(t, h, rs.URL()); err != nil || status != 200 {
				t.Fatalf("call = %d, %v", status, err)
			}
			regs, auths, toks := as.snapshot()
			if got := auths[0].Get("client_id"); got != tt.wantClient {
				t.Errorf("client_id = %q, want %q", got, tt.wantClient)
			}
			if (len(regs) == 1) != tt.wantDCR {
				t.Errorf("%d registrations, want DCR %v", len(regs), tt.wantDCR)
			}
			if tt.wantDCR {
				if regs[0]["application_type"] != "native" {
					t.Errorf("registration application_type = %v, want native", regs[0]["application_type"])
				}
				uris, _ := regs[0]["redirect_uris"].([]any)
				if len(uris) != 1 || !strings.HasPrefix(uris[0].(string), "http://127.0.0.1:") {
					t.Errorf("registration redirect_uris = %v, want the loopback URI", regs[0]["redirect_uris"])
				}
				if diff := cmp.Diff([]any{"authorization_code", "refresh_token"}, regs[0]["grant_types"]); diff != "" {
					t.Errorf("registration grant_types (-want +got):\n%s", diff)
				}
			}
			if got := strings.HasPrefix(toks[0].AuthHeader, "Basic "); got != tt.wantBasic && !tt.anyStyle {
				t.Errorf("token request Authorization %q: Basic %v, want %v", toks[0].AuthHeader, got, tt.wantBasic)
			}
			if tt.wantBasic && toks[0].Form.Get("client_secret") != "" {
				t.Errorf("client_secret sent in the body as well as in Basic")
			}
			rec := keptRecord(t, store, rs)
			if rec.Registration != tt.wantReg {
				t.Errorf("kept registration %q, want %q", rec.Registration, tt.wantReg)
			}
			if tt.wantReg == RegistrationPreregistered && rec.ClientSecret != "" {
				t.Errorf("a pre-registered client's secret was kept")
			}
		})
	}
}

// TestNoRegistrationPossible names what to configure when the server
// offers no way to a client ID.
func TestNoRegistrationPossible(t *testing.T) {
	as := newFakeAS(t, func(as *fakeAS) { as.noDCR = true; as.cimd = true })
	rs := newFakeRS(t, as, nil)
	b := &browser{}
	h := newHandler(t, rs, newMemStore(), b, nil)
	_, err := call(t, h, rs.URL())
	var nr *NoRegistrationError
	if !errors.As(err, &nr) || !nr.CIMDSupported {
		t.Fatalf("call = %v, want *NoRegistrationError with CIMDSupported", err)
	}
	if b.count() != 0 {
		t.Errorf("the browser was opened for a sign-in that could not work")
	}
}

// TestScopeSelection: the challenge's scope, else scopes_supported, else
// none; offline_access only when the authorization server lists it.
func TestScopeSelection(t *testing.T) {
	tests := []struct {
		name string
		as   func(*fakeAS)
		rs   func(*fakeRS)
		want string
	}{
		{"challenge scope", nil, func(rs *fakeRS) {
			rs.required, rs.scopeInChal, rs.scopesSupport = []string{"mcp:basic"}, true, []string{"mcp:other"}
		}, "mcp:basic"},
		{"scopes_supported", nil, func(rs *fakeRS) {
			rs.required, rs.scopesSupport = []string{"mcp:read"}, []string{"mcp:basic", "mcp:read", "mcp:write"}
		}, "mcp:basic mcp:read mcp:write"},
		{"omitted", nil, nil, ""},
		{"offline_access added when supported", func(as *fakeAS) { as.scopesSupport = []string{"mcp:basic", "offline_access"} },
			func(rs *fakeRS) { rs.required, rs.scopesSupport = []string{"mcp:basic"}, []string{"mcp:basic"} }, "mcp:basic offline_access"},
		{"offline_access not added when unsupported", func(as *fakeAS) { as.scopesSupport = []string{"mcp:basic", "mcp:read"} },
			func(rs *fakeRS) { rs.scopesSupport = []string{"mcp:basic", "mcp:read"} }, "mcp:basic mcp:read"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			as := newFakeAS(t, tt.as)
			rs := newFakeRS(t, as, tt.rs)
			h := newHandler(t, rs, newMemStore(), &browser{}, nil)
			if status, err := call(t, h, rs.URL()); err != nil || status != 200 {
				t.Fatalf("call = %d, %v", status, err)
			}
			_, auths, _ := as.snapshot()
			if got := sortedScopes(auths[0].Get("scope")); got != tt.want {
				t.Errorf("scope = %q, want %q (in any order)", auths[0].Get("scope"), tt.want)
			}
			if tt.want == "" && auths[0].Has("scope") {
				t.Errorf("scope parameter present (%q), want it omitted", auths[0].Get("scope"))
			}
		})
	}
}

// TestStepUp: a 403 insufficient_scope signs in again for the union of the
// granted and the challenged scopes, across runs (the scopes granted are
// kept with the token).
func TestStepUp(t *testing.T) {
	as := newFakeAS(t, nil)
	rs := newFakeRS(t, as, func(rs *fakeRS) { rs.required, rs.scopeInChal = []string{"mcp:basic"}, true })
	store := newMemStore()
	if status, err := call(t, newHandler(t, rs, store, &browser{}, nil), rs.URL()); err != nil || status != 200 {
		t.Fatalf("first run: call = %d, %v", status, err)
	}
	rs.mu.Lock()
	rs.required = []string{"mcp:write"}
	rs.mu.Unlock()
	if status, err := call(t, newHandler(t, rs, store, &browser{}, nil), rs.URL()); err != nil || status != 200 {
		t.Fatalf("second run: call = %d, %v", status, err)
	}
	_, auths, _ := as.snapshot()
	if len(auths) != 2 {
		t.Fatalf("%d authorization requests, want 2", len(auths))
	}
	if got := sortedScopes(auths[1].Get("scope")); got != "mcp:basic mcp:write" {
		t.Errorf("step-up scope = %q, want %q (the union)", got, "mcp:basic mcp:write")
	}
	if diff := cmp.Diff("mcp:basic mcp:write", sortedScopes(strings.Join(keptRecord(t, store, rs).Scopes, " "))); diff != "" {
		t.Errorf("kept scopes (-want +got):\n%s", diff)
	}
}

// TestStepUpLimits: a server that keeps refusing is not signed in to
// forever.
func TestStepUpLimits(t *testing.T) {
	as := newFakeAS(t, nil)
	rs := newFakeRS(t, as, func(rs *fakeRS) { rs.required, rs.scopeInChal = []string{"mcp:admin"}, true })
	b := &browser{}
	h := newHandler(t, rs, newMemStore(), b, nil)
	if status, err := call(t, h, rs.URL()); err != nil || status != 200 {
		t.Fatalf("call = %d, %v", status, err)
	}
	// Now the server refuses with insufficient_scope but names no scope
	// beyond what this run's sign-in granted: signing in again cannot help.
	rs.mu.Lock()
	rs.required = []string{"mcp:admin", "mcp:hidden"}
	rs.scopeInChal = false
	rs.mu.Unlock()
	_, err := call(t, h, rs.URL())
	var ise *InsufficientScopeError
	if !errors.As(err, &ise) {
		t.Fatalf("call after a useless grant = %v, want *InsufficientScopeError", err)
	}
	if b.count() != 1 {
		t.Errorf("browser opened %d times, want 1", b.count())
	}

	// A handler stops after MaxSignIns sign-ins.
	rs2 := newFakeRS(t, as, nil)
	b2 := &browser{}
	h2 := newHandler(t, rs2, newMemStore(), b2, func(c *Config) { c.MaxSignIns = 1 })
	if status, err := call(t, h2, rs2.URL()); err != nil || status != 200 {
		t.Fatalf("call = %d, %v", status, err)
	}
	as.revoke(keptRecord(t, h2.cfg.Store, rs2).Token.AccessToken)
	as.mu.Lock()
	as.refresh = map[string][]string{} // and the refresh token with it
	as.mu.Unlock()
	_, err = call(t, h2, rs2.URL())
	var sl *SignInLimitError
	if !errors.As(err, &sl) {
		t.Fatalf("call after the limit = %v, want *SignInLimitError", err)
	}
}

// TestRefresh: an expired token is refreshed silently and the new one
// kept; a token the server rejects is refreshed before any new sign-in.
func TestRefresh(t *testing.T) {
	as := newFakeAS(t, func(as *fakeAS) { as.expiresIn = 1 }) // expires within oauth2's 10s margin
	rs := newFakeRS(t, as, nil)
	store := newMemStore()
	b := &browser{}
	if status, err := call(t, newHandler(t, rs, store, b, nil), rs.URL()); err != nil || status != 200 {
		t.Fatalf("sign-in: call = %d, %v", status, err)
	}
	first := keptRecord(t, store, rs).Token

	// Next run: the kept token is expired; TokenSource refreshes it.
	h := newHandler(t, rs, store, b, nil)
	if status, err := call(t, h, rs.URL()); err != nil || status != 200 {
		t.Fatalf("after expiry: call = %d, %v", status, err)
	}
	second := keptRecord(t, store, rs).Token
	if second.AccessToken == first.AccessToken || second.RefreshToken == first.RefreshToken {
		t.Errorf("kept token not replaced by the refreshed one (rotation)")
	}
	if b.count() != 1 {
		t.Errorf("browser opened %d times, want 1 (refresh is silent)", b.count())
	}

	// The server revokes the access token: a 401 is answered by a refresh.
	as.expiresIn = 3600
	h = newHandler(t, rs, store, b, nil)
	if status, err := call(t, h, rs.URL()); err != nil || status != 200 {
		t.Fatalf("refresh before use: call = %d, %v", status, err)
	}
	as.revoke(keptRecord(t, store, rs).Token.AccessToken)
	if status, err := call(t, h, rs.URL()); err != nil || status != 200 {
		t.Fatalf("after revocation: call = %d, %v", status, err)
	}
	if b.count() != 1 {
		t.Errorf("browser opened %d times, want 1 (a refresh answers the 401)", b.count())
	}
	_, _, toks := as.snapshot()
	grants := map[string]int{}
	for _, tr := range toks {
		grants[tr.Form.Get("grant_type")]++
		if tr.Form.Get("grant_type") == "refresh_token" && tr.Form.Get("client_id") != "dyn-client-1" {
			t.Errorf("refresh sent client_id %q, want the registered dyn-client-1", tr.Form.Get("client_id"))
		}
	}
	// Refreshes: the first run's retry (its token is born expired: 1s is
	// inside oauth2's 10s margin), the second run's, the third run's
	// start, and the 401.
	if diff := cmp.Diff(map[string]int{"authorization_code": 1, "refresh_token": 4}, grants); diff != "" {
		t.Errorf("token requests by grant (-want +got):\n%s", diff)
	}
}

// TestAuthorizationServerMigration: when the resource names a new
// authorization server, the old one's client is not shown to it: mcpcli
// registers anew, and keeps both records apart.
func TestAuthorizationServerMigration(t *testing.T) {
	as1 := newFakeAS(t, nil)
	as2 := newFakeAS(t, nil)
	rs := newFakeRS(t, as1, nil)
	store := newMemStore()
	b := &browser{}
	if status, err := call(t, newHandler(t, rs, store, b, nil), rs.URL()); err != nil || status != 200 {
		t.Fatalf("with the first authorization server: call = %d, %v", status, err)
	}
	rs.setAS(as2)
	h := newHandler(t, rs, store, b, nil)
	if status, err := call(t, h, rs.URL()); err != nil || status != 200 {
		t.Fatalf("after the move: call = %d, %v", status, err)
	}
	regs2, auths2, toks2 := as2.snapshot()
	if len(regs2) != 1 {
		t.Errorf("%d registrations at the new authorization server, want 1", len(regs2))
	}
	for _, a := range auths2 {
		if a.Get("client_id") != "dyn-client-1" {
			t.Errorf("new authorization server saw client_id %q", a.Get("client_id"))
		}
	}
	for _, tr := range toks2 {
		if tr.Form.Get("refresh_token") != "" {
			t.Errorf("the old authorization server's refresh token went to the new one")
		}
	}
	e, _ := store.Load(ServerKey(rs.URL()))
	if e.Current != as2.issuerID() || len(e.Records) != 2 {
		t.Errorf("kept entry current %q with %d records, want %q with 2", e.Current, len(e.Records), as2.issuerID())
	}

	// A pre-registered client ID used with one server is not taken to
	// another.
	store = newMemStore()
	rs.setAS(as1)
	pre := func(c *Config) { c.ClientID = "pre-client" }
	if status, err := call(t, newHandler(t, rs, store, b, pre), rs.URL()); err != nil || status != 200 {
		t.Fatalf("pre-registered: call = %d, %v", status, err)
	}
	rs.setAS(as2)
	_, err := call(t, newHandler(t, rs, store, b, pre), rs.URL())
	var ci *ClientIssuerError
	if !errors.As(err, &ci) || ci.Was != as1.issuerID() || ci.Now != as2.issuerID() {
		t.Fatalf("pre-registered after the move: %v, want *ClientIssuerError from %s to %s", err, as1.issuerID(), as2.issuerID())
	}
}

// TestRefusals: what must stop a sign-in before the token endpoint.
func TestRefusals(t *testing.T) {
	tests := []struct {
		name       string
		as         func(*fakeAS)
		rs         func(*fakeRS)
		wantAuth   bool // the authorization endpoint was reached
		check      func(error) bool
		wantInText string
	}{
		{"resource mismatch", nil, func(rs *fakeRS) { rs.prmResource = "https://evil.example.com/mcp" }, false,
			func(err error) bool { var e *ResourceMismatchError; return errors.As(err, &e) }, "evil.example.com"},
		{"metadata issuer mismatch", func(as *fakeAS) { as.issuer = "https://attacker.example.com" }, nil, false,
			func(err error) bool { return err != nil }, "attacker.example.com"},
		{"no PKCE in metadata", func(as *fakeAS) { as.noPKCE = true }, nil, false,
			func(err error) bool { return err != nil }, "PKCE"},
		{"iss advertised, missing", func(as *fakeAS) { as.issMode = "omit" }, nil, true,
			func(err error) bool { var e *IssuerMismatchError; return errors.As(err, &e) && e.Missing }, "does not name its issuer"},
		{"iss wrong", func(as *fakeAS) { as.issMode = "wrong" }, nil, true,
			func(err error) bool { var e *IssuerMismatchError; return errors.As(err, &e) }, "evil.example.com"},
		{"iss wrong, not advertised", func(as *fakeAS) { as.issMode = "wrong-unadvertised" }, nil, true,
			func(err error) bool { var e *IssuerMismatchError; return errors.As(err, &e) }, "evil.example.com"},
		{"iss with a trailing slash (no normalization)", func(as *fakeAS) { as.issMode = "slash" }, nil, true,
			func(err error) bool { var e *IssuerMismatchError; return errors.As(err, &e) }, "names issuer"},
		{"error response", func(as *fakeAS) { as.denyWith = "access_denied" }, nil, true,
			func(err error) bool {
				var e *AuthorizationError
				return errors.As(err, &e) && e.Code == "access_denied"
			}, `\x1b[31m`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			as := newFakeAS(t, tt.as)
			rs := newFakeRS(t, as, tt.rs)
			h := newHandler(t, rs, newMemStore(), &browser{}, nil)
			_, err := call(t, h, rs.URL())
			if !tt.check(err) {
				t.Fatalf("call = %v (%T)", err, errors.Unwrap(err))
			}
			if !strings.Contains(err.Error(), tt.wantInText) {
				t.Errorf("error %q does not say %q", err, tt.wantInText)
			}
			if strings.Contains(err.Error(), "\x1b") {
				t.Errorf("error %q carries a raw escape character", err)
			}
			_, auths, toks := as.snapshot()
			if (len(auths) > 0) != tt.wantAuth {
				t.Errorf("authorization requests %d, want reached=%v", len(auths), tt.wantAuth)
			}
			if len(toks) != 0 {
				t.Errorf("%d token requests, want none", len(toks))
			}
		})
	}
}

// TestIssAccepted: a correct iss, and no iss from a server that does not
// advertise it, and a correct iss it does not advertise, all proceed.
func TestIssAccepted(t *testing.T) {
	for _, mode := range []string{"", "unadvertised"} {
		as := newFakeAS(t, func(as *fakeAS) { as.issMode = mode })
		rs := newFakeRS(t, as, nil)
		if status, err := call(t, newHandler(t, rs, newMemStore(), &browser{}, nil), rs.URL()); err != nil || status != 200 {
			t.Errorf("iss mode %q: call = %d, %v; want 200", mode, status, err)
		}
	}
}

// TestSignInRequired: without Consent a run never starts a sign-in; it
// says the server wants one.
func TestSignInRequired(t *testing.T) {
	as := newFakeAS(t, nil)
	rs := newFakeRS(t, as, nil)
	h := newHandler(t, rs, newMemStore(), nil, nil)
	_, err := call(t, h, rs.URL())
	var sr *SignInRequiredError
	if !errors.As(err, &sr) || sr.Issuer != as.issuerID() || sr.Status != 401 {
		t.Fatalf("call = %v, want *SignInRequiredError naming %s and 401", err, as.issuerID())
	}
	if _, auths, _ := as.snapshot(); len(auths) != 0 {
		t.Errorf("an authorization request was made without consent")
	}
}

// TestConsentDeclined: a person who says no stops the sign-in.
func TestConsentDeclined(t *testing.T) {
	as := newFakeAS(t, nil)
	rs := newFakeRS(t, as, nil)
	no := errors.New("you declined")
	h := newHandler(t, rs, newMemStore(), nil, func(c *Config) {
		c.Consent = func(context.Context, string) error { return no }
	})
	_, err := call(t, h, rs.URL())
	var ce *ConsentError
	if !errors.As(err, &ce) || !errors.Is(err, no) {
		t.Fatalf("call = %v, want a *ConsentError wrapping the refusal", err)
	}
}

// TestLogin signs in on demand, from the server's challenge or, when it
// does not refuse an unauthenticated request, from its well-known
// metadata; and says so when there is nothing to sign in to.
func TestLogin(t *testing.T) {
	as := newFakeAS(t, nil)
	rs := newFakeRS(t, as, func(rs *fakeRS) { rs.required, rs.scopeInChal = []string{"mcp:basic"}, true })
	store := newMemStore()
	b := &browser{}
	h := newHandler(t, rs, store, b, nil)
	if err := h.Login(context.Background()); err != nil {
		t.Fatalf("Login: %v", err)
	}
	if got := keptRecord(t, store, rs).Scopes; !cmp.Equal(got, []string{"mcp:basic"}) {
		t.Errorf("Login kept scopes %v, want [mcp:basic] from the challenge", got)
	}
	// Login again signs in again, although a token is kept.
	if err := h.Login(context.Background()); err != nil {
		t.Fatalf("second Login: %v", err)
	}
	if b.count() != 2 {
		t.Errorf("browser opened %d times, want 2", b.count())
	}

	open := newHandler(t, &fakeRS{srv: newPlainServer(t)}, newMemStore(), b, nil)
	var np *NotProtectedError
	if err := open.Login(context.Background()); !errors.As(err, &np) {
		t.Errorf("Login to an open server = %v, want *NotProtectedError", err)
	}
}

// TestForbiddenNotScope: a 403 that is not insufficient_scope is the
// caller's to report; no sign-in.
func TestForbiddenNotScope(t *testing.T) {
	as := newFakeAS(t, nil)
	rs := newFakeRS(t, as, nil)
	b := &browser{}
	h := newHandler(t, rs, newMemStore(), b, nil)
	req, _ := http.NewRequest(http.MethodPost, rs.URL(), nil)
	resp := &http.Response{StatusCode: 403, Header: http.Header{"Www-Authenticate": {`Bearer error="invalid_token"`}}, Body: http.NoBody}
	if err := h.Authorize(context.Background(), req, resp); err != nil {
		t.Errorf("Authorize(403 invalid_token) = %v, want nil (retry, then the caller reports)", err)
	}
	if b.count() != 0 {
		t.Errorf("a 403 that is not about scopes opened the browser")
	}
}

// sortedScopes sorts a scope parameter: the go-sdk's union does not keep
// an order.
func sortedScopes(s string) string {
	f := strings.Fields(s)
	slices.Sort(f)
	return strings.Join(f, " ")
}

// TestFailedSignInNotRepeated: within one command, a sign-in that failed
// is not started again by the next request; Login tries again.
func TestFailedSignInNotRepeated(t *testing.T) {
	as := newFakeAS(t, func(as *fakeAS) { as.issMode = "wrong" })
	rs := newFakeRS(t, as, nil)
	b := &browser{}
	h := newHandler(t, rs, newMemStore(), b, nil)
	for i := range 2 {
		_, err := call(t, h, rs.URL())
		var se *SignInError
		var im *IssuerMismatchError
		if !errors.As(err, &se) || !errors.As(err, &im) || se.Server != ServerKey(rs.URL()) {
			t.Fatalf("call %d = %v, want a *SignInError for %s around an *IssuerMismatchError", i+1, err, rs.URL())
		}
	}
	if b.count() != 1 {
		t.Errorf("browser opened %d times, want 1", b.count())
	}
	if err := h.Login(context.Background()); err == nil {
		t.Errorf("Login against the same server succeeded")
	}
	if b.count() != 2 {
		t.Errorf("Login did not try again: browser opened %d times, want 2", b.count())
	}
}

// TestRefreshRejected: when the kept refresh token no longer works, the
// request goes without a token, and its 401 starts a new sign-in.
func TestRefreshRejected(t *testing.T) {
	as := newFakeAS(t, nil)
	rs := newFakeRS(t, as, nil)
	store := newMemStore()
	b := &browser{}
	if status, err := call(t, newHandler(t, rs, store, b, nil), rs.URL()); err != nil || status != 200 {
		t.Fatalf("sign-in: %d, %v", status, err)
	}
	e, _ := store.Load(ServerKey(rs.URL()))
	e.current().Token.Expiry = e.current().Token.Expiry.AddDate(-1, 0, 0)
	store.Save(ServerKey(rs.URL()), e)
	as.mu.Lock()
	as.refresh = map[string][]string{} // the authorization server forgot it
	as.mu.Unlock()
	if status, err := call(t, newHandler(t, rs, store, b, nil), rs.URL()); err != nil || status != 200 {
		t.Fatalf("after the refresh token was rejected: %d, %v", status, err)
	}
	if b.count() != 2 {
		t.Errorf("browser opened %d times, want 2 (a new sign-in)", b.count())
	}
}

// TestWaiting: the person is told that the sign-in waits for the browser
// only when it does: after Consent returned and before the browser came
// back. A browser that follows the link before Consent returns (a
// $BROWSER that waits) leaves nothing to wait for.
func TestWaiting(t *testing.T) {
	for _, tc := range []struct {
		name       string
		background bool // the browser follows the link after Consent returned
		want       []time.Duration
	}{
		{name: "browser back before Consent returned", background: false, want: nil},
		{name: "browser back after Consent returned", background: true, want: []time.Duration{10 * time.Second}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			as := newFakeAS(t, nil)
			rs := newFakeRS(t, as, nil)
			b := &browser{}
			var mu sync.Mutex
			var told []time.Duration
			waiting := make(chan struct{}, 1)
			h := newHandler(t, rs, newMemStore(), nil, func(c *Config) {
				c.CallbackTimeout = 10 * time.Second
				c.Waiting = func(d time.Duration) {
					mu.Lock()
					defer mu.Unlock()
					told = append(told, d)
					waiting <- struct{}{}
				}
				c.Consent = func(ctx context.Context, authURL string) error {
					if !tc.background {
						return b.consent(ctx, authURL)
					}
					// The browser comes back once mcpcli says it waits
					// (were it never said, the sign-in would time out).
					go func() {
						<-waiting
						b.consent(context.Background(), authURL)
					}()
					return nil
				}
			})
			if err := h.Login(context.Background()); err != nil {
				t.Fatalf("Login: %v", err)
			}
			mu.Lock()
			defer mu.Unlock()
			if !cmp.Equal(told, tc.want) {
				t.Errorf("Waiting was told %v, want %v", told, tc.want)
			}
		})
	}
}

// expireKept makes the token kept for rs expired an hour ago, without a
// refresh token (a server that issues none).
func expireKept(t *testing.T, store Store, rs *fakeRS) time.Time {
	t.Helper()
	e, _ := store.Load(ServerKey(rs.URL()))
	tok := e.current().Token
	tok.Expiry = time.Now().Add(-time.Hour).Round(time.Second)
	tok.RefreshToken = ""
	store.Save(ServerKey(rs.URL()), e)
	return tok.Expiry
}

// TestExpiredWithoutRefresh: a kept token that expired and cannot be
// refreshed is not sent (golang.org/x/oauth2 would fail the request with
// "token expired and refresh token is not set"): the server's 401 signs in
// again where the person can be asked, and says the sign-in expired where
// they cannot.
func TestExpiredWithoutRefresh(t *testing.T) {
	as := newFakeAS(t, nil)
	rs := newFakeRS(t, as, nil)
	store := newMemStore()
	b := &browser{}
	if status, err := call(t, newHandler(t, rs, store, b, nil), rs.URL()); err != nil || status != 200 {
		t.Fatalf("sign-in: %d, %v", status, err)
	}

	expired := expireKept(t, store, rs)
	_, err := call(t, newHandler(t, rs, store, nil, nil), rs.URL())
	var sr *SignInRequiredError
	if !errors.As(err, &sr) || !sr.Expired.Equal(expired) {
		t.Fatalf("call without a way to ask = %v, want a *SignInRequiredError that says the sign-in expired at %v", err, expired)
	}
	if !strings.Contains(sr.Error(), "expired") || strings.Contains(err.Error(), "refresh token is not set") {
		t.Errorf("the error says %q", err)
	}

	if status, err := call(t, newHandler(t, rs, store, b, nil), rs.URL()); err != nil || status != 200 {
		t.Fatalf("call with a way to ask = %d, %v; want a new sign-in", status, err)
	}
	if b.count() != 2 {
		t.Errorf("browser opened %d times, want 2 (a new sign-in)", b.count())
	}
	if tok := keptRecord(t, store, rs).Token; !tok.Valid() {
		t.Errorf("the new sign-in's token was not kept: %+v", tok)
	}
}

// TestRearm: a declined sign-in is the answer to the rest of a command's
// requests, but a session asks again for the next request the person
// makes (Rearm).
func TestRearm(t *testing.T) {
	as := newFakeAS(t, nil)
	rs := newFakeRS(t, as, nil)
	asked := 0
	no := errors.New("you declined")
	h := newHandler(t, rs, newMemStore(), nil, func(c *Config) {
		c.Consent = func(context.Context, string) error { asked++; return no }
	})
	for range 2 {
		if _, err := call(t, h, rs.URL()); !errors.Is(err, no) {
			t.Fatalf("call = %v, want the refusal", err)
		}
	}
	if asked != 1 {
		t.Fatalf("asked %d times before Rearm, want 1", asked)
	}
	h.Rearm()
	if _, err := call(t, h, rs.URL()); !errors.Is(err, no) {
		t.Fatalf("call after Rearm = %v, want the refusal", err)
	}
	if asked != 2 {
		t.Errorf("asked %d times after Rearm, want 2", asked)
	}
}

// An authorization server's whole answer never makes one error line
// (issue 22): golang.org/x/oauth2 quotes a token endpoint's refusal
// whole, the go-sdk a registration endpoint's, and a hostile server can
// make that a megabyte of HTML with escape sequences. The error keeps
// the start, on one line, and says how big it was.
func TestAnAuthorizationServersBodyIsCutInErrors(t *testing.T) {
	page := "<html><body>\x1b[2J\nlogin failed\r\n" + strings.Repeat("<p>padding padding padding</p>\n", 20000) + "</body></html>"
	for _, tc := range []struct {
		name string
		as   func(*fakeAS)
	}{
		{"the token endpoint", func(as *fakeAS) { as.tokenBody = page }},
		{"the registration endpoint", func(as *fakeAS) { as.regBody = page }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			as := newFakeAS(t, tc.as)
			rs := newFakeRS(t, as, nil)
			h := newHandler(t, rs, newMemStore(), &browser{}, nil)
			_, err := call(t, h, rs.URL())
			if err == nil {
				t.Fatal("the sign-in succeeded; want the server's refusal")
			}
			msg := err.Error()
			if len(msg) > 1200 || strings.ContainsAny(msg, "\n\r\x1b") {
				t.Errorf("the error is %d bytes, with line breaks or escapes: %q; want one short line", len(msg), msg)
			}
			// The token endpoint's body is known apart (its size is the
			// body's); the go-sdk writes a registration's into its text
			// (the size is the text's).
			if !strings.Contains(msg, "login failed") || !strings.Contains(msg, " bytes in all)") {
				t.Errorf("error %q does not show the start of the answer and its size", msg)
			}
			if tc.name == "the token endpoint" && !strings.Contains(msg, fmt.Sprintf("(%d bytes in all)", len(page))) {
				t.Errorf("error %q does not say the body was %d bytes", msg, len(page))
			}
		})
	}
}

// A token endpoint that never answers does not hang the sign-in when no
// --timeout was given: each request of a sign-in has a time of its own,
// and the error names it.
func TestATokenEndpointThatNeverAnswersTimesOut(t *testing.T) {
	as := newFakeAS(t, func(as *fakeAS) { as.tokenHang = true })
	rs := newFakeRS(t, as, nil)
	h := newHandler(t, rs, newMemStore(), &browser{}, func(c *Config) {
		c.HTTPClient = &http.Client{} // as the CLI's, without --timeout
		c.RequestTimeout = 300 * time.Millisecond
	})
	done := make(chan error, 1)
	go func() {
		_, err := call(t, h, rs.URL())
		done <- err
	}()
	var err error
	select {
	case err = <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("the sign-in still waits for the token endpoint")
	}
	var te *RequestTimeoutError
	if !errors.As(err, &te) || te.After != 300*time.Millisecond {
		t.Fatalf("sign-in error = %v; want a *RequestTimeoutError after 300ms", err)
	}
	for _, want := range []string{"/token did not answer within 300ms", "--timeout"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if h := newHandler(t, rs, newMemStore(), nil, nil); h.client.Timeout != DefaultRequestTimeout {
		t.Errorf("a handler's client times out after %s; want DefaultRequestTimeout (%s)", h.client.Timeout, DefaultRequestTimeout)
	}
}
