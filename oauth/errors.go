package oauth

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/oauth2"
)

// Every string that came from a server is quoted with %q in these
// messages: quoting escapes control characters, escape sequences and
// invisible format characters, so the text stays inert on a terminal.

// SignInRequiredError is a server that wants a sign-in where this run may
// not start one (no Consent: no terminal and no --open-urls). The CLI
// says which command to run.
type SignInRequiredError struct {
	Server string // the MCP server URL
	Issuer string // its authorization server, when known
	Status int    // 401 or 403
	// Expired, when set, is when the token kept for the server expired:
	// it could not be refreshed (no refresh token, or the refresh failed).
	Expired time.Time
}

func (e *SignInRequiredError) Error() string {
	if !e.Expired.IsZero() {
		return fmt.Sprintf("the sign-in kept for server %s expired at %s and cannot be refreshed", e.Server, e.Expired.Local().Format(time.DateTime))
	}
	msg := fmt.Sprintf("server %s requires sign-in (HTTP %d)", e.Server, e.Status)
	if e.Issuer != "" {
		msg += fmt.Sprintf(" with authorization server %q", e.Issuer)
	}
	return msg
}

// CallbackTimeoutError is a sign-in whose redirect never came back.
type CallbackTimeoutError struct {
	Waited time.Duration
}

func (e *CallbackTimeoutError) Error() string {
	return fmt.Sprintf("the sign-in did not come back to mcpcli within %s; open the link again, or sign in with mcpcli auth login", e.Waited)
}

// AuthorizationError is an authorization server's error response to the
// authorization request (RFC 6749 §4.1.2.1), from the redirect.
type AuthorizationError struct {
	Code, Description, URI string
}

func (e *AuthorizationError) Error() string {
	msg := fmt.Sprintf("the authorization server refused the sign-in: %q", e.Code)
	if e.Description != "" {
		msg += fmt.Sprintf(" (%q)", e.Description)
	}
	return msg
}

// IssuerMismatchError is an authorization response that does not name the
// authorization server the sign-in started with (RFC 9207): a possible
// mix-up attack. Nothing in such a response is acted on.
type IssuerMismatchError struct {
	Got, Want string
	// Missing: the server promised iss
	// (authorization_response_iss_parameter_supported) and sent none.
	Missing bool
}

func (e *IssuerMismatchError) Error() string {
	if e.Missing {
		return fmt.Sprintf("the authorization response does not name its issuer, although %q promised to (RFC 9207); mcpcli refused it", e.Want)
	}
	return fmt.Sprintf("the authorization response names issuer %q, not %q, the authorization server the sign-in started with (RFC 9207); mcpcli refused it", e.Got, e.Want)
}

// ResourceMismatchError is protected resource metadata that describes
// another resource than the server asked (RFC 9728 §3.3): its
// authorization servers are not trusted.
type ResourceMismatchError struct {
	MetadataURL, Got, Want string
}

func (e *ResourceMismatchError) Error() string {
	return fmt.Sprintf("the protected resource metadata at %s is for %q, not %s (RFC 9728 §3.3); mcpcli will not sign in with the authorization servers it names", e.MetadataURL, e.Got, e.Want)
}

// InsufficientScopeError is a server that still refuses with
// insufficient_scope after a sign-in that granted what it asked.
type InsufficientScopeError struct {
	Server string
	Scopes []string // what the server asks for
}

func (e *InsufficientScopeError) Error() string {
	return fmt.Sprintf("server %s still refuses (HTTP 403 insufficient_scope) although this run's sign-in granted the scopes it asks for (%q); signing in again would not help", e.Server, strings.Join(e.Scopes, " "))
}

// SignInLimitError is a server that keeps asking for sign-in.
type SignInLimitError struct {
	Server string
	Count  int
}

func (e *SignInLimitError) Error() string {
	return fmt.Sprintf("server %s asked for sign-in again after %d sign-ins in this run; giving up (run mcpcli auth status --url %s to see what is kept)", e.Server, e.Count, e.Server)
}

// ClientIssuerError is a pre-registered client ID used before with one
// authorization server while the server now names another: client IDs
// belong to the authorization server that issued them.
type ClientIssuerError struct {
	ClientID, Was, Now string
}

func (e *ClientIssuerError) Error() string {
	return fmt.Sprintf("client ID %q was registered with authorization server %q, but the server now uses %q; register mcpcli with the new one and pass its client ID, or run mcpcli auth logout to forget the old one", e.ClientID, e.Was, e.Now)
}

// ConsentError is a sign-in the person did not start.
type ConsentError struct {
	Err error
}

func (e *ConsentError) Error() string { return "sign-in not started: " + e.Err.Error() }
func (e *ConsentError) Unwrap() error { return e.Err }

// NoRegistrationError is an authorization server that offers mcpcli no way
// to get a client ID: no dynamic registration, and no client ID metadata
// document (or none configured), and no pre-registered client ID given.
type NoRegistrationError struct {
	Issuer string
	// CIMDSupported: the server takes client ID metadata documents, but
	// no client metadata URL was configured.
	CIMDSupported bool
}

func (e *NoRegistrationError) Error() string {
	msg := fmt.Sprintf("authorization server %q does not register clients dynamically", e.Issuer)
	if e.CIMDSupported {
		return msg + "; give mcpcli a client metadata document URL, or a client ID registered with it"
	}
	return msg + "; register mcpcli with it and give its client ID"
}

// maxServerText bounds what an error repeats of an authorization server's
// answer: an error is one line, and a server's whole body (an HTML page,
// a megabyte of JSON) is not one.
const maxServerText = 300

// boundedError is an error whose text repeats no more than the start of
// what the authorization server sent, on one line, with its size.
type boundedError struct {
	msg string
	err error
}

func (e *boundedError) Error() string { return e.msg }
func (e *boundedError) Unwrap() error { return e.err }

// bound cuts what err repeats of an authorization server's answer: the
// body of a token endpoint's refusal (golang.org/x/oauth2 quotes it
// whole), its error_description, the registration endpoint's body (the
// go-sdk quotes it whole), and any text of the error past what a line
// holds. Control characters and line breaks become spaces.
func bound(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	var re *oauth2.RetrieveError
	if errors.As(err, &re) {
		if len(re.Body) > maxServerText {
			msg = strings.Replace(msg, string(re.Body), cutText(string(re.Body)), 1)
		}
		if len(re.ErrorDescription) > maxServerText {
			msg = strings.Replace(msg, fmt.Sprintf("%q", re.ErrorDescription), fmt.Sprintf("%q", cutText(re.ErrorDescription)), 1)
		}
	}
	msg = oneLine(msg)
	if len(msg) > 3*maxServerText {
		msg = cutText(msg)
	}
	if msg == err.Error() {
		return err
	}
	return &boundedError{msg: msg, err: err}
}

// cutText is the start of s, cut at a character, with the size of all.
func cutText(s string) string {
	if len(s) <= maxServerText {
		return s
	}
	n := maxServerText
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return oneLine(s[:n]) + fmt.Sprintf("… (%d bytes in all)", len(s))
}

// oneLine turns line breaks and other control characters into spaces.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			return ' '
		}
		return r
	}, s)
}

// RequestTimeoutError is a request to the authorization server (or for
// its metadata) that got no answer in time.
type RequestTimeoutError struct {
	URL   string
	After time.Duration
	Err   error
}

func (e *RequestTimeoutError) Error() string {
	return fmt.Sprintf("%s did not answer within %s, the time mcpcli gives each sign-in request (--timeout sets another)", e.URL, e.After)
}

func (e *RequestTimeoutError) Unwrap() error { return e.Err }

// timedOut is err as a *RequestTimeoutError when a request to an
// authorization server ran out of time, after the client's limit.
func timedOut(err error, after time.Duration) error {
	var ue *url.Error
	if err == nil || !errors.As(err, &ue) || !ue.Timeout() {
		return err
	}
	u := ue.URL
	if p, perr := url.Parse(u); perr == nil {
		p.RawQuery, p.Fragment = "", ""
		u = p.String()
	}
	return &RequestTimeoutError{URL: u, After: after, Err: err}
}
