package transport

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// CodeRejectedByTransport is the go-sdk's code for a request that never
// reached the server (the HTTP request itself failed).
const CodeRejectedByTransport = -32005

// maxErrorText bounds the text of an error body kept to show.
const maxErrorText = 300

// recorder keeps what the last answer to a request said, to explain a
// failure the go-sdk reports only by its status text.
//
// It also holds the rules every HTTP request of the transport follows
// (see http_limits.go): the server's URL, whose origin nothing leaves, and
// the bound on one message; and the transport's own first failure.
type recorder struct {
	url     string // the server, as configured
	max     int    // the bound on one message; zero means MaxMessageSize
	headers bool   // the person gave headers to send (--header, a config entry's)

	mu      sync.Mutex
	last    exchange
	failure error // the transport's own first failure: *TooLargeError, *RedirectError

	tokenOnce sync.Once
	nonce     string // see token
}

func (r *recorder) get() exchange {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.last
}

// record keeps what the response to a request says, and what the request
// carried to prove who sent it, to explain a failure.
func (r *recorder) record(method string, sent Credentials, resp *http.Response) {
	ex := exchange{method: method, sent: sent, status: resp.StatusCode, ctype: resp.Header.Get("Content-Type"), challenge: resp.Header.Get("WWW-Authenticate")}
	if mt, _, _ := mime.ParseMediaType(ex.ctype); resp.StatusCode >= 400 && (mt == "text/plain" || mt == "") {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorText+1))
		resp.Body = readCloser{io.MultiReader(bytes.NewReader(b), resp.Body), resp.Body}
		ex.text = plainText(b)
	}
	r.mu.Lock()
	if ex.challenge == "" {
		ex.challenge = r.last.challenge // a later answer without one does not take it back
	}
	r.last = ex
	r.mu.Unlock()
}

// plainText is a short body as one line of printable text, or "" when it
// is not text.
func plainText(b []byte) string {
	cut := len(b) > maxErrorText
	if cut {
		b = b[:maxErrorText]
	}
	if !utf8.Valid(b) && !cut {
		return ""
	}
	s := strings.Join(strings.Fields(strings.ToValidUTF8(string(b), "")), " ")
	if cut && s != "" {
		s += "…"
	}
	return s
}

// Explain turns what the go-sdk says about an HTTP failure into a typed
// error: the transport's own failure (*TooLargeError, *RedirectError),
// else from what the last response showed, *AuthError for 401 and 403,
// *StatusError for an answer that carries no JSON-RPC message.
func (h *HTTP) Explain(err error) error {
	err = h.rec.explain(h.URL, err, false)
	var ae *AuthError
	if errors.As(err, &ae) {
		ae.SignsIn = h.OAuth != nil
	}
	return err
}

// explain is Explain for either HTTP transport; sse says a 2xx without a
// body is the normal answer to a POST (HTTP+SSE answers on its stream), so
// that it never stands for an error it did not cause.
func (r *recorder) explain(url string, err error, sse bool) error {
	if err == nil || errors.Is(err, context.Canceled) {
		return err
	}
	var oe *OriginError
	if errors.As(err, &oe) {
		return oe
	}
	if ferr, ok := r.explainFailure(err); ok {
		return ferr
	}
	ex := r.get()
	switch ex.status {
	case http.StatusUnauthorized, http.StatusForbidden:
		return &AuthError{URL: url, Status: ex.status, Challenge: ex.challenge, Sent: ex.sent, Cause: err}
	}
	var je *jsonrpc.Error
	if errors.As(err, &je) && je.Code != CodeRejectedByTransport {
		return err // the server answered in JSON-RPC
	}
	if sse && ex.status >= 200 && ex.status < 300 {
		return err
	}
	mt, _, _ := mime.ParseMediaType(ex.ctype)
	se := &StatusError{URL: url, Status: ex.status, ContentType: mt, Text: ex.text, Sent: ex.sent, Cause: err}
	switch {
	case ex.status == http.StatusNotFound:
		se.Kind = NotFound
	case ex.status >= 500:
		se.Kind = ServerFailed
	case ex.status >= 400:
		se.Kind = Refused
	case ex.status == http.StatusAccepted:
		se.Kind = NoBody
	case ex.status >= 200 && ex.status < 300 && mt != "" && mt != "application/json" && mt != "text/event-stream":
		se.Kind = NotMCP
	default:
		return err
	}
	return se
}

// StatusKind says what an HTTP answer without a JSON-RPC message means.
type StatusKind int

const (
	NotFound     StatusKind = iota + 1 // 404: nothing at that path
	ServerFailed                       // 5xx
	Refused                            // another 4xx
	NoBody                             // 202 to a request: a server bug
	NotMCP                             // 2xx with another content type
)

// StatusError is an HTTP answer to a request that carries no JSON-RPC
// message.
type StatusError struct {
	URL         string
	Status      int
	Kind        StatusKind
	ContentType string
	Text        string // the start of a text/plain body, on one line
	// Sent is what the request carried to prove who sent it: a server
	// that forgot a token (it restarted) may answer it with a 500.
	Sent  Credentials
	Cause error
}

func (e *StatusError) Error() string {
	msg := fmt.Sprintf("server %s answered HTTP %d %s", e.URL, e.Status, http.StatusText(e.Status))
	switch e.Kind {
	case NoBody:
		msg += " to a request, with no body"
	case NotMCP:
		msg += " with Content-Type " + e.ContentType + ", not application/json or text/event-stream"
	case ServerFailed, Refused:
		msg += " with no JSON-RPC error saying why"
	}
	if e.Text != "" {
		msg += fmt.Sprintf(" (its body says %q)", e.Text)
	}
	return msg
}

func (e *StatusError) Unwrap() error { return e.Cause }

// AuthError is a server that refused a request with 401 (it wants
// credentials, or others than those sent) or 403 (they do not allow it).
type AuthError struct {
	URL       string
	Status    int
	Challenge string      // WWW-Authenticate
	Sent      Credentials // what the refused request carried
	// SignsIn: the transport signs in when refused (Streamable HTTP with
	// mcpcli's OAuth handler), so a sign-in kept for the server is used.
	SignsIn bool
	Cause   error
}

// Credentials says what a request carried to prove who sent it.
type Credentials struct {
	// Token: a bearer token of mcpcli's own sign-in (OAuth).
	Token bool
	// Headers: headers the person gave (--header, a config entry's
	// headers), which may be credentials of their own.
	Headers bool
}

// None reports a request that carried nothing to prove who sent it.
func (c Credentials) None() bool { return !c.Token && !c.Headers }

// credentials is what req carries, header being the person's headers.
func credentials(req *http.Request, header http.Header) Credentials {
	return Credentials{
		Token:   req.Header.Get("Authorization") != "" && header.Get("Authorization") == "",
		Headers: len(header) > 0,
	}
}

func (e *AuthError) Error() string {
	if e.Status == http.StatusForbidden {
		return fmt.Sprintf("server %s refused the request (HTTP 403 Forbidden)", e.URL)
	}
	msg := fmt.Sprintf("server %s requires authorization (HTTP 401 Unauthorized)", e.URL)
	if e.Challenge != "" {
		msg += "; it asks for: " + e.Challenge
	}
	return msg
}

func (e *AuthError) Unwrap() error { return e.Cause }
