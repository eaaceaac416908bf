package oauth

import (
	"context"
	"fmt"
	"net/http"
	"strings"
)

// NotProtectedError is a server that neither asks an unauthenticated
// request to sign in nor publishes protected resource metadata: there is
// nothing to sign in to.
type NotProtectedError struct {
	Server string
	Status int // its answer to an unauthenticated request
}

func (e *NotProtectedError) Error() string {
	return fmt.Sprintf("server %s does not ask for sign-in (it answered an unauthenticated request with HTTP %d) and publishes no protected resource metadata", e.Server, e.Status)
}

// Login signs in now, whatever is kept (mcpcli auth login). It sends the
// server one unauthenticated request (a JSON-RPC ping) to read its
// challenge: the WWW-Authenticate of a 401 names the metadata and the
// scopes. A server that does not refuse it is signed in to through its
// well-known protected resource metadata, if it has any.
func (h *Handler) Login(ctx context.Context) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.cfg.Consent == nil {
		return h.wrap(&SignInRequiredError{Server: h.server})
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.cfg.ServerURL,
		strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := h.client.Do(req)
	if err != nil {
		return h.wrap(fmt.Errorf("reaching %s to sign in: %w", h.server, err))
	}
	if resp.StatusCode != http.StatusUnauthorized && resp.StatusCode != http.StatusForbidden {
		resp.Body.Close()
		d, err := discover(ctx, h.client, nil, h.cfg.ServerURL)
		if err != nil {
			return h.wrap(fmt.Errorf("finding how to sign in to %s: %w", h.server, err))
		}
		if d.MetadataURL == "" {
			return h.wrap(&NotProtectedError{Server: h.server, Status: resp.StatusCode})
		}
		resp = &http.Response{StatusCode: http.StatusUnauthorized, Header: http.Header{}, Body: http.NoBody, Request: req}
	} else if resp.StatusCode == http.StatusForbidden {
		// A 403 that is not insufficient_scope still means "sign in" here.
		resp.StatusCode = http.StatusUnauthorized
	}
	defer resp.Body.Close()
	h.failed = nil // asked for: try again
	return h.wrap(h.authorize(ctx, req, resp, true))
}
