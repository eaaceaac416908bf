package oauth

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/mcpcli/mcpcli/internal/htmltext"
)

// callbackPath is the loopback redirect URI's path.
const callbackPath = "/callback"

// callback is the loopback redirect endpoint of one sign-in (RFC 8252
// §7.3): an HTTP server on 127.0.0.1 only, on an ephemeral port unless a
// registered one is asked for, that takes the first response carrying the
// sign-in's state and ignores the rest.
type callback struct {
	ln   net.Listener
	srv  *http.Server
	host string // 127.0.0.1:port, the only Host accepted
	uri  string // the redirect URI

	mu           sync.Mutex
	state        string // expected; "" until expect
	issuer       string // recorded issuer (RFC 9207)
	issSupported bool
	done         bool
	result       chan callbackResult
}

type callbackResult struct {
	res *auth.AuthorizationResult
	err error
}

// listenCallback starts the redirect endpoint on 127.0.0.1:port (0: any
// free port).
func listenCallback(port int) (*callback, error) {
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return nil, fmt.Errorf("cannot listen on 127.0.0.1 for the sign-in redirect: %w", err)
	}
	c := &callback{ln: ln, host: ln.Addr().String(), result: make(chan callbackResult, 1)}
	c.uri = "http://" + c.host + callbackPath
	mux := http.NewServeMux()
	mux.HandleFunc(callbackPath, c.serve)
	c.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go c.srv.Serve(ln)
	return c, nil
}

// port is the port listened on.
func (c *callback) port() int { return c.ln.Addr().(*net.TCPAddr).Port }

// expect sets what the response must carry: the state sent in the
// authorization request and the issuer recorded from the authorization
// server's metadata.
func (c *callback) expect(state, issuer string, issSupported bool) {
	c.mu.Lock()
	c.state, c.issuer, c.issSupported = state, issuer, issSupported
	c.mu.Unlock()
}

func (c *callback) close() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	c.srv.Shutdown(ctx)
}

func (c *callback) serve(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
	if r.Method != http.MethodGet {
		page(w, http.StatusMethodNotAllowed, "Not this way", "The sign-in redirect is a GET request.", "")
		return
	}
	if r.Host != c.host {
		// Only the redirect URI's own host: not a name that a web page
		// could have rebound to 127.0.0.1.
		page(w, http.StatusBadRequest, "Wrong address", "mcpcli's sign-in redirect answers at "+c.host+" only.", "")
		return
	}
	q := r.URL.Query()
	c.mu.Lock()
	state, issuer, issSupported, done := c.state, c.issuer, c.issSupported, c.done
	if state == "" || subtle.ConstantTimeCompare([]byte(q.Get("state")), []byte(state)) != 1 {
		c.mu.Unlock()
		page(w, http.StatusBadRequest, "Not this sign-in",
			"This response does not belong to the sign-in mcpcli started (its state does not match), so mcpcli ignored it.",
			"If you started a new sign-in, use the newest link mcpcli showed.")
		return
	}
	if done {
		c.mu.Unlock()
		page(w, http.StatusOK, "Already done", "mcpcli already has the answer to this sign-in.", "You can close this tab.")
		return
	}
	c.done = true
	c.mu.Unlock()

	res, err := checkResponse(q.Get("code"), state, q.Has("iss"), q.Get("iss"), issuer, issSupported, q.Has("error"),
		q.Get("error"), q.Get("error_description"), q.Get("error_uri"))
	// The answer goes first: whatever the browser does with the page
	// (closes, fails), the sign-in has it.
	c.result <- callbackResult{res: res, err: err}
	var ae *AuthorizationError
	switch {
	case errors.As(err, &ae):
		page(w, http.StatusBadRequest, "Sign-in refused",
			"The authorization server did not sign you in: "+ae.Code+describe(ae.Description)+".",
			"mcpcli stopped; you can close this tab.")
	case err != nil:
		page(w, http.StatusBadRequest, "Sign-in refused by mcpcli", err.Error()+".", "mcpcli did not use this response; you can close this tab.")
	default:
		page(w, http.StatusOK, "Signed in", "mcpcli has what it needs.", "You can close this tab and go back to the terminal.")
	}
}

func describe(d string) string {
	if d == "" {
		return ""
	}
	return " (" + d + ")"
}

// checkResponse validates an authorization response whose state matched:
// the issuer first (RFC 9207 §2.4 as MCP 2026-07-28 tabulates it, simple
// string comparison: a response from another issuer is not acted on, not
// even its error), then the error, then the code.
func checkResponse(code, state string, hasIss bool, iss, issuer string, issSupported, hasErr bool, errCode, errDesc, errURI string) (*auth.AuthorizationResult, error) {
	if hasIss && iss != issuer {
		return nil, &IssuerMismatchError{Got: iss, Want: issuer}
	}
	if !hasIss && issSupported {
		return nil, &IssuerMismatchError{Want: issuer, Missing: true}
	}
	if hasErr {
		return nil, &AuthorizationError{Code: errCode, Description: errDesc, URI: errURI}
	}
	if code == "" {
		return nil, errors.New("the response to the sign-in has neither a code nor an error")
	}
	return &auth.AuthorizationResult{Code: code, State: state, Iss: iss}, nil
}

// page writes a plain page; every string is escaped (htmltext.Escape:
// each goes into an element's text, where that is all the escaping there
// is to do). html/template would do the same here at the cost of its
// package's start-up work in every run of mcpcli.
func page(w http.ResponseWriter, status int, title, text, next string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	esc := htmltext.Escape
	var b strings.Builder
	b.WriteString(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>mcpcli: ` + esc(title) + `</title>
<style>body{font-family:system-ui,sans-serif;max-width:36em;margin:4em auto;padding:0 1em;line-height:1.5}</style>
</head><body><h1>` + esc(title) + `</h1><p>` + esc(text) + `</p>`)
	if next != "" {
		b.WriteString(`<p>` + esc(next) + `</p>`)
	}
	b.WriteString("</body></html>\n")
	io.WriteString(w, b.String())
}
