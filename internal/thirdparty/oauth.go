package thirdparty

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// DemoOAuthToken gets a bearer token for mcpURL, an endpoint of a TypeScript
// SDK example guarded by its demo OAuth server (elicitationUrlExample, or
// simpleStreamableHttp with --oauth). That server authorizes anyone at
// once, so the whole authorization-code flow (RFC 9728 resource metadata,
// RFC 8414 server metadata, dynamic client registration, PKCE, RFC 8707
// resource) runs here without a browser. Send the token as
// "Authorization: Bearer TOKEN".
func DemoOAuthToken(t testing.TB, mcpURL string) string {
	t.Helper()
	token, err := demoOAuthToken(mcpURL)
	if err != nil {
		t.Fatalf("thirdparty: getting a demo OAuth token for %s: %v", mcpURL, err)
	}
	return token
}

func demoOAuthToken(mcpURL string) (string, error) {
	client := &http.Client{
		Timeout: 10 * time.Second,
		// The authorization endpoint answers with a redirect carrying the
		// code: read it rather than follow it.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	u, err := url.Parse(mcpURL)
	if err != nil {
		return "", err
	}

	var resource struct {
		Resource             string   `json:"resource"`
		AuthorizationServers []string `json:"authorization_servers"`
	}
	wellKnown := u.Scheme + "://" + u.Host + "/.well-known/oauth-protected-resource" + u.Path
	if err := getJSON(client, wellKnown, &resource); err != nil {
		return "", err
	}
	if len(resource.AuthorizationServers) == 0 {
		return "", fmt.Errorf("%s names no authorization server", wellKnown)
	}

	var meta struct {
		AuthorizationEndpoint string `json:"authorization_endpoint"`
		TokenEndpoint         string `json:"token_endpoint"`
		RegistrationEndpoint  string `json:"registration_endpoint"`
	}
	issuer := strings.TrimSuffix(resource.AuthorizationServers[0], "/")
	if err := getJSON(client, issuer+"/.well-known/oauth-authorization-server", &meta); err != nil {
		return "", err
	}

	// The redirect is never followed, so nothing needs to listen there.
	const redirect = "http://127.0.0.1:9/callback"
	reg, _ := json.Marshal(map[string]any{
		"client_name":                "mcpcli tests",
		"redirect_uris":              []string{redirect},
		"grant_types":                []string{"authorization_code"},
		"response_types":             []string{"code"},
		"token_endpoint_auth_method": "none",
	})
	var registered struct {
		ClientID     string `json:"client_id"`
		ClientSecret string `json:"client_secret"`
	}
	if err := postJSON(client, meta.RegistrationEndpoint, "application/json", strings.NewReader(string(reg)), &registered); err != nil {
		return "", err
	}

	verifier := rand.Text() + rand.Text()
	sum := sha256.Sum256([]byte(verifier))
	q := url.Values{
		"response_type":         {"code"},
		"client_id":             {registered.ClientID},
		"redirect_uri":          {redirect},
		"code_challenge":        {base64.RawURLEncoding.EncodeToString(sum[:])},
		"code_challenge_method": {"S256"},
		"resource":              {resource.Resource},
		"scope":                 {"mcp:tools"},
		"state":                 {"mcpcli-tests"},
	}
	resp, err := client.Get(meta.AuthorizationEndpoint + "?" + q.Encode())
	if err != nil {
		return "", err
	}
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	resp.Body.Close()
	loc, err := resp.Location()
	if err != nil {
		return "", fmt.Errorf("GET %s: %s, not a redirect with a code: %s", meta.AuthorizationEndpoint, resp.Status, body)
	}
	code := loc.Query().Get("code")
	if code == "" {
		return "", fmt.Errorf("GET %s redirected to %s, which has no code", meta.AuthorizationEndpoint, loc)
	}

	form := url.Values{
		"grant_type":    {"authorization_code"},
		"code":          {code},
		"code_verifier": {verifier},
		"redirect_uri":  {redirect},
		"client_id":     {registered.ClientID},
		"resource":      {resource.Resource},
	}
	if registered.ClientSecret != "" {
		form.Set("client_secret", registered.ClientSecret)
	}
	var token struct {
		AccessToken string `json:"access_token"`
	}
	if err := postJSON(client, meta.TokenEndpoint, "application/x-www-form-urlencoded", strings.NewReader(form.Encode()), &token); err != nil {
		return "", err
	}
	if token.AccessToken == "" {
		return "", fmt.Errorf("POST %s gave no access_token", meta.TokenEndpoint)
	}
	return token.AccessToken, nil
}

func getJSON(client *http.Client, u string, v any) error {
	resp, err := client.Get(u)
	if err != nil {
		return err
	}
	return decodeResponse("GET "+u, resp, v)
}

func postJSON(client *http.Client, u, contentType string, body io.Reader, v any) error {
	resp, err := client.Post(u, contentType, body)
	if err != nil {
		return err
	}
	return decodeResponse("POST "+u, resp, v)
}

func decodeResponse(what string, resp *http.Response, v any) error {
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return fmt.Errorf("%s: %v", what, err)
	}
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s: %s: %s", what, resp.Status, data)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s: %v in %q", what, err, data)
	}
	return nil
}
