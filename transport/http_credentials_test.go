package transport_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"golang.org/x/oauth2"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/transport"
)

// staticSignIn is a sign-in that has a token and cannot get another.
type staticSignIn struct{ token string }

func (s staticSignIn) TokenSource(context.Context) (oauth2.TokenSource, error) {
	if s.token == "" {
		return nil, nil
	}
	return oauth2.StaticTokenSource(&oauth2.Token{AccessToken: s.token}), nil
}

func (staticSignIn) Authorize(_ context.Context, _ *http.Request, resp *http.Response) error {
	resp.Body.Close()
	return nil // nothing better to offer: the retry is refused the same way
}

// A refusal (401, 403) or a failure (500) says what the refused request
// carried, so that the words blame only credentials that were sent: a
// sign-in's token, headers the person gave, or nothing.
func TestRefusalSaysWhatWasSent(t *testing.T) {
	for _, status := range []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusInternalServerError} {
		hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if status == http.StatusUnauthorized {
				w.Header().Set("WWW-Authenticate", `Bearer realm="mcp"`)
			}
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			w.Write([]byte(`{"error":"server_error"}`))
		}))
		for _, tt := range []struct {
			name    string
			header  http.Header
			signIn  bool
			token   string
			want    transport.Credentials
			signsIn bool
		}{
			{name: "nothing", want: transport.Credentials{}},
			{name: "a sign-in with no token yet", signIn: true, want: transport.Credentials{}, signsIn: true},
			{name: "a sign-in's token", signIn: true, token: "t0ken", want: transport.Credentials{Token: true}, signsIn: true},
			{name: "--header X-Api-Key", header: http.Header{"X-Api-Key": {"k"}}, want: transport.Credentials{Headers: true}},
			{name: "--header Authorization over a sign-in", header: http.Header{"Authorization": {"Bearer mine"}}, signIn: true, token: "t0ken", want: transport.Credentials{Headers: true}, signsIn: true},
		} {
			h := &transport.HTTP{URL: hs.URL + "/mcp", Header: tt.header, Streamable: true}
			if tt.signIn {
				h.OAuth = staticSignIn{tt.token}
			}
			_, err := client.Connect(testCtx(t), h, client.Options{ProtocolVersion: "2025-11-25"})
			if status == http.StatusInternalServerError {
				var se *transport.StatusError
				if !errors.As(err, &se) || se.Sent != tt.want {
					t.Errorf("HTTP %d, %s: Connect = %v, want a *StatusError with Sent %+v", status, tt.name, err, tt.want)
				}
				continue
			}
			var ae *transport.AuthError
			if !errors.As(err, &ae) || ae.Sent != tt.want || ae.SignsIn != tt.signsIn {
				t.Errorf("HTTP %d, %s: Connect = %v (%+v), want an *AuthError with Sent %+v, SignsIn %v", status, tt.name, err, ae, tt.want, tt.signsIn)
			}
		}
		hs.Close()
	}
}
