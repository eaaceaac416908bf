package oauth

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

// get fetches a URL on the callback and returns status and body.
func get(t *testing.T, raw string, host string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, raw, nil)
	if err != nil {
		t.Fatal(err)
	}
	if host != "" {
		req.Host = host
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", raw, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func newCallback(t *testing.T) *callback {
	t.Helper()
	cb, err := listenCallback(0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cb.close)
	return cb
}

func callbackURL(cb *callback, q url.Values) string { return cb.uri + "?" + q.Encode() }

// TestCallbackListensOnLoopbackOnly: 127.0.0.1, an ephemeral port.
func TestCallbackListensOnLoopbackOnly(t *testing.T) {
	cb := newCallback(t)
	addr := cb.ln.Addr().(*net.TCPAddr)
	if !addr.IP.Equal(net.IPv4(127, 0, 0, 1)) || addr.Port == 0 {
		t.Errorf("listening on %v, want 127.0.0.1 and a port", addr)
	}
	if !strings.HasPrefix(cb.uri, "http://127.0.0.1:") || !strings.HasSuffix(cb.uri, "/callback") {
		t.Errorf("redirect URI %q", cb.uri)
	}
}

// TestCallbackStateMismatch: a response with another state is refused and
// does not end the wait; the right one then counts.
func TestCallbackStateMismatch(t *testing.T) {
	cb := newCallback(t)
	cb.expect("the-state", "https://as.example", false)
	status, body := get(t, callbackURL(cb, url.Values{"code": {"c1"}, "state": {"forged"}}), "")
	if status != http.StatusBadRequest || !strings.Contains(body, "does not belong") {
		t.Errorf("forged state: %d %q, want 400 and a page saying it does not belong", status, body)
	}
	select {
	case r := <-cb.result:
		t.Fatalf("a forged state delivered a result: %+v", r)
	default:
	}
	status, _ = get(t, callbackURL(cb, url.Values{"code": {"c2"}, "state": {"the-state"}, "iss": {"https://as.example"}}), "")
	if status != http.StatusOK {
		t.Errorf("right state: status %d, want 200", status)
	}
	r := <-cb.result
	if r.err != nil || r.res.Code != "c2" || r.res.Iss != "https://as.example" {
		t.Errorf("result %+v, %v; want code c2", r.res, r.err)
	}
	// Only the first valid callback counts.
	status, body = get(t, callbackURL(cb, url.Values{"code": {"c3"}, "state": {"the-state"}}), "")
	if status != http.StatusOK || !strings.Contains(body, "already") {
		t.Errorf("second callback: %d %q, want 200 already done", status, body)
	}
	select {
	case r := <-cb.result:
		t.Errorf("a second callback delivered a result: %+v", r)
	default:
	}
}

// TestCallbackBeforeExpect: nothing is accepted before the sign-in has a
// state.
func TestCallbackBeforeExpect(t *testing.T) {
	cb := newCallback(t)
	if status, _ := get(t, callbackURL(cb, url.Values{"code": {"c"}, "state": {""}}), ""); status != http.StatusBadRequest {
		t.Errorf("callback before expect: %d, want 400", status)
	}
}

// TestCallbackHost: another Host (a rebound name) is refused.
func TestCallbackHost(t *testing.T) {
	cb := newCallback(t)
	cb.expect("s", "https://as.example", false)
	status, _ := get(t, callbackURL(cb, url.Values{"code": {"c"}, "state": {"s"}}), "evil.example:"+strings.Split(cb.host, ":")[1])
	if status != http.StatusBadRequest {
		t.Errorf("foreign Host: %d, want 400", status)
	}
	select {
	case r := <-cb.result:
		t.Errorf("a foreign Host delivered a result: %+v", r)
	default:
	}
}

// TestCallbackErrorPage: the server's error is shown escaped, and ends the
// sign-in with an AuthorizationError.
func TestCallbackErrorPage(t *testing.T) {
	cb := newCallback(t)
	cb.expect("s", "https://as.example", false)
	status, body := get(t, callbackURL(cb, url.Values{"error": {"access_denied"}, "error_description": {"<script>alert(1)</script>"}, "state": {"s"}}), "")
	if status != http.StatusBadRequest || !strings.Contains(body, "access_denied") {
		t.Errorf("error page: %d %q", status, body)
	}
	if strings.Contains(body, "<script>") {
		t.Errorf("error page carries the server's markup unescaped: %q", body)
	}
	r := <-cb.result
	var ae *AuthorizationError
	if !errors.As(r.err, &ae) || ae.Code != "access_denied" {
		t.Errorf("result error %v, want *AuthorizationError access_denied", r.err)
	}
}

// TestCallbackIssuerMismatchHidesError: an error response from another
// issuer is neither acted on nor shown.
func TestCallbackIssuerMismatchHidesError(t *testing.T) {
	cb := newCallback(t)
	cb.expect("s", "https://as.example", false)
	_, body := get(t, callbackURL(cb, url.Values{"error": {"access_denied"}, "error_description": {"call 555-0100"}, "state": {"s"}, "iss": {"https://evil.example"}}), "")
	if strings.Contains(body, "555-0100") || strings.Contains(body, "access_denied") {
		t.Errorf("a response from another issuer had its error shown: %q", body)
	}
	r := <-cb.result
	var im *IssuerMismatchError
	if !errors.As(r.err, &im) {
		t.Errorf("result error %v, want *IssuerMismatchError", r.err)
	}
}

// TestCallbackTimeout: a browser that never comes back ends the sign-in
// with a CallbackTimeoutError.
func TestCallbackTimeout(t *testing.T) {
	as := newFakeAS(t, nil)
	rs := newFakeRS(t, as, nil)
	h := newHandler(t, rs, newMemStore(), nil, func(c *Config) {
		c.Consent = func(context.Context, string) error { return nil } // shown, never opened
		c.CallbackTimeout = 50 * time.Millisecond
	})
	_, err := call(t, h, rs.URL())
	var te *CallbackTimeoutError
	if !errors.As(err, &te) || te.Waited != 50*time.Millisecond {
		t.Fatalf("call = %v, want *CallbackTimeoutError after 50ms", err)
	}
	if _, _, toks := as.snapshot(); len(toks) != 0 {
		t.Errorf("token requests without a callback")
	}
}

// TestCallbackCancelled: the command's context ends the wait.
func TestCallbackCancelled(t *testing.T) {
	as := newFakeAS(t, nil)
	rs := newFakeRS(t, as, nil)
	ctx, cancel := context.WithCancel(context.Background())
	h := newHandler(t, rs, newMemStore(), nil, func(c *Config) {
		c.Consent = func(context.Context, string) error { cancel(); return nil }
	})
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, rs.URL(), nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Authorize(ctx, req, resp); !errors.Is(err, context.Canceled) {
		t.Errorf("Authorize after cancel = %v, want context.Canceled", err)
	}
}

// What the authorization server sends back (an error's description, say)
// reaches the page as text, never as markup.
func TestPageEscapesWhatItShows(t *testing.T) {
	rec := httptest.NewRecorder()
	page(rec, http.StatusBadRequest, `<b>T</b>`, `refused: <script>alert("x")</script> & 'more'`, `<a href="https://evil.example">next</a>`)
	body := rec.Body.String()
	for _, want := range []string{
		"<title>mcpcli: &lt;b&gt;T&lt;/b&gt;</title>",
		"<h1>&lt;b&gt;T&lt;/b&gt;</h1>",
		"<p>refused: &lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; &amp; &#39;more&#39;</p>",
		"<p>&lt;a href=&#34;https://evil.example&#34;&gt;next&lt;/a&gt;</p>",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("page(...) = %q, want it to hold %q", body, want)
		}
	}
	if strings.Contains(body, "<script>") || strings.Contains(body, "<a ") || strings.Contains(body, "<b>") {
		t.Errorf("page(...) = %q: markup from the caller's strings reached the page", body)
	}
	if rec.Code != http.StatusBadRequest || rec.Header().Get("Content-Type") != "text/html; charset=utf-8" {
		t.Errorf("page(...) answered %d %q, want 400 text/html; charset=utf-8", rec.Code, rec.Header().Get("Content-Type"))
	}
	rec = httptest.NewRecorder()
	page(rec, http.StatusOK, "Signed in", "done", "")
	if strings.Count(rec.Body.String(), "<p>") != 1 {
		t.Errorf("page with no next line = %q, want one paragraph", rec.Body.String())
	}
}
