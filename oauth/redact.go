package oauth

import (
	"regexp"
	"strings"
	"sync"

	"golang.org/x/oauth2"

	"github.com/mcpcli/mcpcli/internal/lazy"
)

// redactor removes credentials from error messages: every secret it has
// been shown (tokens, client secrets, authorization codes), and anything
// shaped like one (a bearer value, a token field in JSON or a form).
type redactor struct {
	mu      sync.Mutex
	secrets []string
}

const redacted = "[redacted]"

// add remembers secrets; short strings are ignored (they would redact
// ordinary words).
func (r *redactor) add(secrets ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, s := range secrets {
		if len(s) >= 6 && !contains(r.secrets, s) {
			r.secrets = append(r.secrets, s)
		}
	}
}

func (r *redactor) addToken(t *oauth2.Token) {
	if t != nil {
		r.add(t.AccessToken, t.RefreshToken)
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// secretPatterns are compiled on first use, not when every mcpcli
// process (and its supervisor) starts.
var secretPatterns = lazy.Value[[]*regexp.Regexp]{New: func() []*regexp.Regexp {
	return []*regexp.Regexp{
		regexp.MustCompile(`(?i)("(?:access_token|refresh_token|id_token|client_secret|code_verifier|code|assertion)"\s*:\s*")[^"]*(")`),
		regexp.MustCompile(`(?i)(\b(?:access_token|refresh_token|id_token|client_secret|code_verifier|code|assertion)=)[^&\s"]+()`),
		regexp.MustCompile(`(\b(?:Bearer|DPoP)\s+)[A-Za-z0-9\-._~+/]{8,}=*()`),
	}
}}

// String returns s without secrets.
func (r *redactor) String(s string) string {
	r.mu.Lock()
	secrets := append([]string(nil), r.secrets...)
	r.mu.Unlock()
	for _, v := range secrets {
		s = strings.ReplaceAll(s, v, redacted)
	}
	for _, p := range secretPatterns.Get() {
		s = p.ReplaceAllString(s, "${1}"+redacted+"${2}")
	}
	return s
}

// Err returns err with a redacted message; errors.Is and errors.As still
// see through it.
func (r *redactor) Err(err error) error {
	if err == nil {
		return nil
	}
	msg := r.String(err.Error())
	if msg == err.Error() {
		return err
	}
	return &redactedError{msg: msg, err: err}
}

type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }
