package oauth

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"golang.org/x/oauth2"
)

func TestRedactString(t *testing.T) {
	var r redactor
	r.add("s3cr3t-access-token", "rt-rotating-1", "abc") // "abc" is too short to redact
	tests := []struct{ in, want string }{
		{"token s3cr3t-access-token rejected", "token [redacted] rejected"},
		{`{"access_token":"eyJhbGciOi.payload.sig","token_type":"Bearer"}`, `{"access_token":"[redacted]","token_type":"Bearer"}`},
		{`Response: {"refresh_token": "anything-at-all"}`, `Response: {"refresh_token": "[redacted]"}`},
		{"grant_type=refresh_token&refresh_token=rt-unknown-xyz&client_secret=hunter22", "grant_type=refresh_token&refresh_token=[redacted]&client_secret=[redacted]"},
		{"Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.e30.sig", "Authorization: Bearer [redacted]"},
		{"callback?code=SplxlOBeZQQYbYS6WxSbIA&state=xyz", "callback?code=[redacted]&state=xyz"},
		{"client_secret_basic is not supported; abc", "client_secret_basic is not supported; abc"},
		{"nothing secret here", "nothing secret here"},
	}
	for _, tt := range tests {
		if got := r.String(tt.in); got != tt.want {
			t.Errorf("String(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestRedactErrKeepsChain(t *testing.T) {
	var r redactor
	r.add("the-secret-token")
	base := &oauth2.RetrieveError{ErrorCode: "invalid_grant", Body: []byte(`{"error":"invalid_grant","refresh_token":"the-secret-token"}`)}
	err := r.Err(errors.Join(context.Canceled, base))
	if strings.Contains(err.Error(), "the-secret-token") {
		t.Errorf("Err(...).Error() = %q still carries the token", err)
	}
	var re *oauth2.RetrieveError
	if !errors.As(err, &re) || !errors.Is(err, context.Canceled) {
		t.Errorf("Err(...) hides the chain: As RetrieveError %v, Is Canceled %v", errors.As(err, &re), errors.Is(err, context.Canceled))
	}
}

// TestNoTokenInErrors: a token endpoint that fails with the tokens in its
// body leaves none in the error a person sees.
func TestNoTokenInErrors(t *testing.T) {
	as := newFakeAS(t, nil)
	rs := newFakeRS(t, as, nil)
	store := newMemStore()
	if status, err := call(t, newHandler(t, rs, store, &browser{}, nil), rs.URL()); err != nil || status != 200 {
		t.Fatalf("sign-in: %d, %v", status, err)
	}
	rec := keptRecord(t, store, rs)
	// The token endpoint now fails, echoing the refresh token it got.
	bad := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		writeJSON(w, http.StatusBadGateway, map[string]string{"error": "server_error", "error_description": "upstream said no to " + r.PostForm.Get("refresh_token")})
	}))
	defer bad.Close()
	e, _ := store.Load(ServerKey(rs.URL()))
	e.current().TokenURL = bad.URL
	e.current().Token.Expiry = e.current().Token.Expiry.AddDate(-1, 0, 0) // expired: TokenSource refreshes
	store.Save(ServerKey(rs.URL()), e)
	h := newHandler(t, rs, store, &browser{}, nil)
	ts, err := h.TokenSource(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	_, err = ts.Token()
	if err == nil {
		t.Fatal("refresh against a failing token endpoint succeeded")
	}
	for _, secret := range []string{rec.Token.RefreshToken, rec.Token.AccessToken} {
		if strings.Contains(err.Error(), secret) {
			t.Errorf("error %q carries a token", err)
		}
	}
	if !strings.Contains(err.Error(), "refreshing") {
		t.Errorf("error %q does not say a refresh failed", err)
	}
}
