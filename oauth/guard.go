package oauth

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// OriginGuard wraps the MCP transport's RoundTripper so that credentials
// go to the MCP server's origin only: a request bound anywhere else (a
// redirect, say) loses its Authorization and Cookie headers. The authorization server is reached with Config.HTTPClient,
// never through this.
func OriginGuard(base http.RoundTripper, serverURL string) (http.RoundTripper, error) {
	u, err := url.Parse(serverURL)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("server URL %q cannot be read", serverURL)
	}
	if base == nil {
		base = http.DefaultTransport
	}
	return &originGuard{base: base, origin: origin(u)}, nil
}

type originGuard struct {
	base   http.RoundTripper
	origin string
}

func (g *originGuard) RoundTrip(req *http.Request) (*http.Response, error) {
	if origin(req.URL) != g.origin {
		if req.Header.Get("Authorization") != "" || req.Header.Get("Cookie") != "" {
			req = req.Clone(req.Context())
			req.Header.Del("Authorization")
			req.Header.Del("Cookie")
		}
	}
	return g.base.RoundTrip(req)
}

// origin is scheme://host:port, with the default port made explicit.
func origin(u *url.URL) string {
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	if port == "" {
		switch scheme {
		case "http":
			port = "80"
		case "https":
			port = "443"
		}
	}
	return scheme + "://" + strings.ToLower(u.Hostname()) + ":" + port
}
