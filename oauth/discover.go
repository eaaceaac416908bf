package oauth

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// discovery is what a sign-in needs to know before it starts: which
// authorization server, under which issuer, for which resource. The go-sdk
// handler discovers the same again when it runs the flow; mcpcli needs the
// issuer first, to key what it keeps and to choose between a refresh and a
// new sign-in, and refuses outright what the handler would only skip
// (protected resource metadata for another resource).
type discovery struct {
	// Resource is the RFC 8707 resource: the metadata's resource.
	Resource string
	// MetadataURL is where the protected resource metadata was found;
	// "" when there was none (the 2025-03-26 fallback: the MCP server's
	// origin is the authorization server).
	MetadataURL string
	// ScopesSupported is the protected resource metadata's.
	ScopesSupported []string
	// AuthServer is the authorization server URL chosen (the first).
	AuthServer string
	// Meta is its validated metadata; nil when it publishes none and the
	// 2025-03-26 default endpoints are used.
	Meta *oauthex.AuthServerMeta
}

// Issuer is the recorded issuer: the metadata's, else the authorization
// server URL.
func (d *discovery) Issuer() string {
	if d.Meta != nil {
		return d.Meta.Issuer
	}
	return d.AuthServer
}

// maxMetadata bounds a metadata document.
const maxMetadata = 1 << 20

// discover finds the authorization server for serverURL the way the go-sdk
// handler does (the challenge's resource_metadata, then the path and root
// well-known URIs, then the 2025-03-26 fallback), but a document that is
// found and describes another resource is an error, not a reason to look
// elsewhere.
func discover(ctx context.Context, c *http.Client, challenges []oauthex.Challenge, serverURL string) (*discovery, error) {
	type candidate struct{ url, resource string }
	var cands []candidate
	for _, ch := range challenges {
		if u := ch.Params["resource_metadata"]; u != "" {
			cands = append(cands, candidate{u, serverURL})
			break
		}
	}
	su, err := url.Parse(serverURL)
	if err != nil {
		return nil, fmt.Errorf("server URL %q: %v", serverURL, err)
	}
	pathURL := *su
	pathURL.RawQuery, pathURL.Fragment = "", ""
	pathURL.Path = "/.well-known/oauth-protected-resource/" + strings.TrimLeft(su.Path, "/")
	pathURL.RawPath = ""
	cands = append(cands, candidate{pathURL.String(), serverURL})
	rootURL := pathURL
	rootURL.Path = "/.well-known/oauth-protected-resource"
	root := *su
	root.Path, root.RawPath, root.RawQuery, root.Fragment = "", "", "", ""
	cands = append(cands, candidate{rootURL.String(), root.String()})

	for _, cand := range cands {
		prm, err := getResourceMetadata(ctx, c, cand.url)
		if err != nil {
			return nil, err
		}
		if prm == nil {
			continue
		}
		if prm.Resource != cand.resource {
			return nil, &ResourceMismatchError{MetadataURL: cand.url, Got: prm.Resource, Want: cand.resource}
		}
		if len(prm.AuthorizationServers) == 0 {
			return nil, fmt.Errorf("the protected resource metadata at %s names no authorization server", cand.url)
		}
		d := &discovery{Resource: prm.Resource, MetadataURL: cand.url, ScopesSupported: prm.ScopesSupported, AuthServer: prm.AuthorizationServers[0]}
		return d, d.authServerMeta(ctx, c)
	}
	// 2025-03-26: no protected resource metadata; the server's origin is
	// the authorization server.
	d := &discovery{Resource: serverURL, AuthServer: root.String()}
	return d, d.authServerMeta(ctx, c)
}

func (d *discovery) authServerMeta(ctx context.Context, c *http.Client) error {
	asm, err := auth.GetAuthServerMetadata(ctx, d.AuthServer, c)
	if err != nil {
		return fmt.Errorf("authorization server %q: %w", d.AuthServer, err)
	}
	d.Meta = asm
	return nil
}

// getResourceMetadata fetches one protected resource metadata document:
// nil when there is none there (a 4xx).
func getResourceMetadata(ctx context.Context, c *http.Client, u string) (*oauthex.ProtectedResourceMetadata, error) {
	if err := httpsOrLoopback(u); err != nil {
		return nil, fmt.Errorf("protected resource metadata at %q: %v", u, err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, fmt.Errorf("protected resource metadata at %q: %v", u, err)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		return nil, fmt.Errorf("fetching protected resource metadata: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 400 && resp.StatusCode < 500 {
		return nil, nil
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("protected resource metadata at %s: HTTP %d", u, resp.StatusCode)
	}
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt != "application/json" {
		return nil, fmt.Errorf("protected resource metadata at %s is %q, not JSON", u, mt)
	}
	var prm oauthex.ProtectedResourceMetadata
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxMetadata)).Decode(&prm); err != nil {
		return nil, fmt.Errorf("protected resource metadata at %s is not valid JSON: %v", u, err)
	}
	return &prm, nil
}

// httpsOrLoopback refuses metadata URLs that are neither HTTPS nor on this
// machine.
func httpsOrLoopback(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return err
	}
	if u.Scheme == "https" {
		return nil
	}
	if u.Scheme == "http" && isLoopbackHost(u.Hostname()) {
		return nil
	}
	return fmt.Errorf("not HTTPS and not on this machine")
}

func isLoopbackHost(h string) bool {
	if h == "localhost" {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}
