package transport

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// What an HTTP server sends is bounded, and what mcpcli sends stays with
// the server's origin. This file holds both rules.

// FormatSize says a size the way the --max-message-size flag takes it:
// "256MiB", "64KiB", or a number of bytes.
func FormatSize(n int64) string {
	switch {
	case n > 0 && n%(1<<30) == 0:
		return fmt.Sprintf("%dGiB", n>>30)
	case n > 0 && n%(1<<20) == 0:
		return fmt.Sprintf("%dMiB", n>>20)
	case n > 0 && n%(1<<10) == 0:
		return fmt.Sprintf("%dKiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// TooLargeError is a message from an HTTP server larger than mcpcli reads:
// a response body (counted after decompression) or one server-sent event.
type TooLargeError struct {
	URL   string
	Limit int64
	Event bool // a server-sent event; otherwise a response body
}

func (e *TooLargeError) Error() string {
	what := "a response body"
	if e.Event {
		what = "a server-sent event"
	}
	return fmt.Sprintf("server %s sent %s larger than %s, more than mcpcli reads", e.URL, what, FormatSize(e.Limit))
}

// RedirectError is a server that answered a request with a redirect to
// another origin. mcpcli does not follow it: the headers given for the
// server, its sign-in token and the answers in a request's body are for
// the origin the person configured, and a redirect must not carry them
// anywhere else.
type RedirectError struct {
	URL    string // the server, as configured
	To     string // where the redirect points
	Status int
}

func (e *RedirectError) Error() string {
	return fmt.Sprintf("server %s answered HTTP %d, a redirect to %s; mcpcli does not follow redirects to another origin, so that headers, tokens and answers meant for %s go nowhere else",
		e.URL, e.Status, e.To, origin(mustParse(e.URL)))
}

func mustParse(raw string) *url.URL {
	u, err := url.Parse(raw)
	if err != nil {
		return &url.URL{}
	}
	return u
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

// maxRedirects bounds a chain of same-origin redirects, as browsers do.
const maxRedirects = 10

// checkRedirect follows a redirect within the server's origin only.
func (r *recorder) checkRedirect(req *http.Request, via []*http.Request) error {
	if origin(req.URL) != origin(mustParse(r.url)) {
		e := &RedirectError{URL: r.url, To: req.URL.Redacted()}
		if req.Response != nil {
			e.Status = req.Response.StatusCode
		}
		r.fail(e)
		return e
	}
	if len(via) >= maxRedirects {
		return fmt.Errorf("server %s redirected %d times", r.url, len(via))
	}
	return nil
}

// fail keeps the first failure of the transport itself, which Explain
// then reports in place of what the go-sdk made of it.
func (r *recorder) fail(err error) {
	r.mu.Lock()
	if r.failure == nil {
		r.failure = err
	}
	r.mu.Unlock()
}

// maxMessage is the bound on one message.
func (r *recorder) maxMessage() int64 {
	if r.max > 0 {
		return int64(r.max)
	}
	return MaxMessageSize
}

// limit bounds a response body: a stream of server-sent events one event
// at a time, anything else as a whole. The bound applies to the bytes the
// go-sdk and mcpcli's own filters read, after decompression.
func (r *recorder) limit(resp *http.Response, events bool) {
	max := r.maxMessage()
	// The readers above say whether it ends a request or the transport
	// (see eventBody.fail).
	tooLarge := func() error { return &TooLargeError{URL: r.url, Limit: max, Event: events} }
	if events {
		resp.Body = &eventLimit{rc: resp.Body, max: max, blank: true, tooLarge: tooLarge}
	} else {
		resp.Body = &bodyLimit{rc: resp.Body, left: max, tooLarge: tooLarge}
	}
}

// bodyLimit reads at most left bytes; a body longer than that is an error,
// not a short read.
type bodyLimit struct {
	rc       io.ReadCloser
	left     int64
	tooLarge func() error
	err      error
}

func (b *bodyLimit) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	if b.left <= 0 {
		// At the bound: the body is fine if it ends here.
		var one [1]byte
		n, err := b.rc.Read(one[:])
		if n == 0 {
			return 0, err
		}
		b.err = b.tooLarge()
		return 0, b.err
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	return n, err
}

func (b *bodyLimit) Close() error { return b.rc.Close() }

// eventLimit passes a stream of server-sent events on while no event (the
// lines up to a blank line) is longer than max bytes. It buffers nothing:
// it only counts.
type eventLimit struct {
	rc       io.ReadCloser
	max      int64
	event    int64 // bytes of the current event so far, line endings included
	blank    bool  // the current line has nothing but \r so far
	tooLarge func() error
	err      error
}

func (l *eventLimit) Read(p []byte) (int, error) {
	if l.err != nil {
		return 0, l.err
	}
	n, err := l.rc.Read(p)
	for rest := p[:n]; len(rest) > 0; {
		i := bytes.IndexByte(rest, '\n')
		seg := rest
		if i >= 0 {
			seg = rest[:i]
		}
		if len(bytes.Trim(seg, "\r")) > 0 {
			l.blank = false
		}
		l.event += int64(len(seg))
		if l.event > l.max {
			l.err = l.tooLarge()
			return 0, l.err
		}
		if i < 0 {
			break
		}
		l.event++ // the newline is the event's too, as the go-sdk counts it
		if l.event > l.max {
			l.err = l.tooLarge()
			return 0, l.err
		}
		if l.blank {
			l.event = 0 // a blank line ends the event
		}
		l.blank = true
		rest = rest[i+1:]
	}
	return n, err
}

func (l *eventLimit) Close() error { return l.rc.Close() }

// explainFailure is the transport's own failure, if any, in place of err.
func (r *recorder) explainFailure(err error) (error, bool) {
	var tl *TooLargeError
	var re *RedirectError
	if errors.As(err, &tl) || errors.As(err, &re) {
		return err, true
	}
	if tl, ok := r.refused(err); ok {
		return &failure{err: tl, cause: err}, true
	}
	r.mu.Lock()
	f := r.failure
	r.mu.Unlock()
	switch f := f.(type) {
	case *TooLargeError:
		c := *f
		return &failure{err: &c, cause: err}, true
	case *RedirectError:
		c := *f
		return &failure{err: &c, cause: err}, true
	}
	return err, false
}

// failure is a typed transport failure with what the go-sdk made of it.
type failure struct {
	err   error
	cause error
}

func (f *failure) Error() string   { return f.err.Error() }
func (f *failure) Unwrap() []error { return []error{f.err, f.cause} }

// Bounds of a message size: below 1 KiB no MCP message fits; above 16 GiB
// the bound no longer protects anything.
const (
	minMessageSize = 1 << 10
	maxMessageSize = 16 << 30
)

var sizeUnits = map[string]int64{
	"": 1, "b": 1,
	"k": 1 << 10, "kib": 1 << 10, "m": 1 << 20, "mib": 1 << 20, "g": 1 << 30, "gib": 1 << 30,
	"kb": 1000, "mb": 1000 * 1000, "gb": 1000 * 1000 * 1000,
}

// ParseMessageSize reads "256MiB", "1MB", "65536": a message size, as
// the --max-message-size flag takes it.
func ParseMessageSize(s string) (int64, error) {
	n, err := ParseSize(s)
	if err != nil {
		return 0, err
	}
	if n < minMessageSize {
		return 0, fmt.Errorf("%q is less than %s, too small for an MCP message", s, FormatSize(minMessageSize))
	}
	return n, nil
}

// MessageSizeValue is --max-message-size's value (a pflag.Value over
// the int it points to): a size as ParseMessageSize reads it.
type MessageSizeValue int

func (v *MessageSizeValue) String() string { return FormatSize(int64(*v)) }
func (v *MessageSizeValue) Type() string   { return "SIZE" }

func (v *MessageSizeValue) Set(s string) error {
	n, err := ParseMessageSize(s)
	if err != nil {
		return err
	}
	*v = MessageSizeValue(n)
	return nil
}

// ParseSize reads a size of at most 16 GiB: a number of bytes, or a
// number with a unit (KiB, MiB, GiB; KB, MB, GB for powers of ten).
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := strings.IndexFunc(t, func(r rune) bool { return r < '0' || r > '9' })
	if i < 0 {
		i = len(t)
	}
	num, unit := t[:i], strings.ToLower(strings.TrimSpace(t[i:]))
	mult, ok := sizeUnits[unit]
	n, err := strconv.ParseInt(num, 10, 64)
	if !ok || err != nil || num == "" {
		return 0, fmt.Errorf("%q is not a size: write it like 256MiB, 64KiB or 1048576", s)
	}
	if n > maxMessageSize/mult || n*mult > maxMessageSize {
		return 0, fmt.Errorf("%q is more than %s", s, FormatSize(maxMessageSize))
	}
	return n * mult, nil
}
