package oauth

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
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
	c := &http.Client{CheckRedirect: SameOriginPosts}

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
