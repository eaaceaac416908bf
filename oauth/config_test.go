package oauth

import (
	"net"
	"net/url"
	"strconv"
	"testing"
)

// Configured scopes (a config file's oauth.scopes) replace the ones the
// server names.
func TestConfiguredScopesAreAskedFor(t *testing.T) {
	as := newFakeAS(t, nil)
	rs := newFakeRS(t, as, func(rs *fakeRS) {
		rs.required, rs.scopeInChal, rs.scopesSupport = []string{"mcp:basic"}, true, []string{"mcp:basic", "mcp:other"}
	})
	h := newHandler(t, rs, newMemStore(), &browser{}, func(c *Config) { c.Scopes = []string{"mcp:basic", "mcp:read"} })
	if status, err := call(t, h, rs.URL()); err != nil || status != 200 {
		t.Fatalf("call = %d, %v", status, err)
	}
	_, auths, _ := as.snapshot()
	if got := sortedScopes(auths[0].Get("scope")); got != "mcp:basic mcp:read" {
		t.Errorf("scope = %q, want the configured mcp:basic mcp:read", auths[0].Get("scope"))
	}
}

// A configured callback port (a client registered with a fixed redirect
// URI) is the one the redirect URI names.
func TestConfiguredCallbackPort(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	as := newFakeAS(t, nil)
	rs := newFakeRS(t, as, nil)
	h := newHandler(t, rs, newMemStore(), &browser{}, func(c *Config) { c.CallbackPort = port })
	if status, err := call(t, h, rs.URL()); err != nil || status != 200 {
		t.Fatalf("call = %d, %v", status, err)
	}
	_, auths, _ := as.snapshot()
	u, err := url.Parse(auths[0].Get("redirect_uri"))
	if err != nil || u.Port() != strconv.Itoa(port) || u.Hostname() != "127.0.0.1" {
		t.Errorf("redirect_uri = %q, want http://127.0.0.1:%d/callback", auths[0].Get("redirect_uri"), port)
	}
	if _, err := New(Config{ServerURL: rs.URL(), Store: newMemStore(), CallbackPort: 70000}); err == nil {
		t.Errorf("New with callback port 70000 succeeded, want an error")
	}
}
