package client

import (
	"fmt"
	"strings"
)

// StreamError is a request whose response stream broke before the result,
// twice: once as first sent, once more when sent again under a new id.
type StreamError struct {
	Server string
	Method string
	Target string
	Cause  error
}

func (e *StreamError) Error() string {
	return fmt.Sprintf("server %s closed the response stream for %s %q before sending the result, twice "+
		"(mcpcli sent the request again once, with a new id); the server may have crashed while handling it, "+
		"or a proxy in between may cut long responses",
		quoteName(e.Server), e.Method, e.Target)
}

func (e *StreamError) Unwrap() error { return e.Cause }

// brokenStream reports whether err is the go-sdk's answer to a response
// stream that ended (cleanly or not) before the response arrived, without
// a way to resume it. That is the only signal the SDK gives; the
// transport's tests pin it against a real server.
func brokenStream(err error) bool {
	return strings.Contains(err.Error(), "request terminated without response")
}

// warn reports something the person should know through Options.Logger.
func (s *Session) warn(msg string, args ...any) {
	if s.opts.Logger != nil {
		s.opts.Logger.Warn(msg, args...)
	}
}
