package main

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpcli/mcpcli/oauth"
)

// The sign-in's own requests: a POST with secrets in its body is not
// carried to another origin by a 307; a GET for metadata may be.
func TestAuthServerRedirect(t *testing.T) {
	var hits atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer other.Close()
	as := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	defer as.Close()
	c := &http.Client{CheckRedirect: authServerRedirect}

	_, err := c.PostForm(as.URL+"/token", url.Values{"code": {"c0de"}, "client_secret": {"s3cret"}})
	if err == nil || !strings.Contains(err.Error(), "does not send the sign-in's secrets there") {
		t.Errorf("POST /token redirected to another origin: error %v, want it refused", err)
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the other origin received %d requests after a redirected POST, want none", n)
	}

	resp, err := c.Get(as.URL + "/.well-known/oauth-authorization-server")
	if err != nil {
		t.Fatalf("GET metadata through a redirect: %v", err)
	}
	resp.Body.Close()
	if n := hits.Load(); n != 1 {
		t.Errorf("the metadata GET reached the other origin %d times, want once", n)
	}
}

func TestExpiryText(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.Local)
	for _, tt := range []struct {
		r    oauth.RecordStatus
		want string
	}{
		{oauth.RecordStatus{Expiry: now.Add(59*time.Minute + 40*time.Second), Refreshable: true}, "2026-12-01 12:59:40 (in 1h0m0s); then it is refreshed without asking"},
		{oauth.RecordStatus{Expiry: now.Add(-3 * time.Hour)}, "2026-12-01 09:00:00 (expired 3h0m0s ago); then mcpcli signs in again"},
		{oauth.RecordStatus{Refreshable: true}, "not said by the server; then it is refreshed without asking when the server refuses it"},
	} {
		if got := expiryText(tt.r, now); got != tt.want {
			t.Errorf("expiryText(expiry %v, refreshable %v) = %q, want %q", tt.r.Expiry, tt.r.Refreshable, got, tt.want)
		}
	}
}
