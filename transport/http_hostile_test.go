package transport_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/oauth2"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/internal/wiretest"
	"github.com/mcpcli/mcpcli/transport"
)

// staticOAuth is an OAuth handler that already holds a token, as after a
// sign-in.
type staticOAuth struct{ token string }

func (s staticOAuth) TokenSource(context.Context) (oauth2.TokenSource, error) {
	return oauth2.StaticTokenSource(&oauth2.Token{AccessToken: s.token, TokenType: "Bearer"}), nil
}

func (staticOAuth) Authorize(context.Context, *http.Request, *http.Response) error {
	return errors.New("no sign-in here")
}

var _ auth.OAuthHandler = staticOAuth{}

// seen records every request a server received.
type seen struct {
	mu   sync.Mutex
	reqs []string // method, URL, headers and body, as one string each
}

func (s *seen) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.reqs = append(s.reqs, fmt.Sprintf("%s %s %v %s", r.Method, r.URL, r.Header, body))
	s.mu.Unlock()
	w.WriteHeader(http.StatusOK)
}

func (s *seen) all() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.reqs...)
}

// The attack of issue 10: a server at A answers with a redirect to B. Go
// itself drops Authorization on a cross-host redirect, but mcpcli used to
// add its --header values to every request, redirect hops included, so B
// received the bearer token, the other headers, and (after a 307 or 308)
// the request's body with the person's answers. Now no request reaches B.
func TestARedirectToAnotherOriginCarriesNothingThere(t *testing.T) {
	headers := map[string]http.Header{
		"header":      {"Authorization": {"Bearer header-s3cret"}, "X-Api-Key": {"key-s3cret"}},
		"oauth-token": {"X-Api-Key": {"key-s3cret"}},
	}
	for _, status := range []int{http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther, http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
		for name, header := range headers {
			t.Run(fmt.Sprint(status, "/", name), func(t *testing.T) {
				b := &seen{}
				srvB := httptest.NewServer(b)
				defer srvB.Close()
				// B on another port of the same host is another origin too.
				srvA := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					http.Redirect(w, r, srvB.URL+"/mcp", status)
				}))
				defer srvA.Close()
				h := &transport.HTTP{
					URL:    srvA.URL + "/mcp",
					Header: header,
					OAuth:  staticOAuth{token: "oauth-t0ken"},
				}
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				s, err := client.Connect(ctx, h, client.Options{})
				if err == nil {
					s.Close()
					t.Fatalf("Connect through a %d redirect to another origin succeeded", status)
				}
				if got := b.all(); len(got) != 0 {
					t.Errorf("the other origin received %d requests, want none:\n%s", len(got), strings.Join(got, "\n"))
				}
				var re *transport.RedirectError
				if !errors.As(err, &re) {
					t.Fatalf("Connect error = %v; want a *transport.RedirectError", err)
				}
				if re.Status != status || re.To != srvB.URL+"/mcp" || re.URL != srvA.URL+"/mcp" {
					t.Errorf("RedirectError = %+v; want status %d from %s/mcp to %s/mcp", re, status, srvA.URL, srvB.URL)
				}
			})
		}
	}
}

// A redirect within the server's origin is followed, with the headers.
func TestARedirectWithinTheOriginIsFollowed(t *testing.T) {
	srv := wiretest.New(t, nil)
	var keys []string
	var mu sync.Mutex
	mux := http.NewServeMux()
	mux.HandleFunc("/old", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/mcp", http.StatusPermanentRedirect)
	})
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		keys = append(keys, r.Header.Get("X-Api-Key"))
		mu.Unlock()
		srv.Config.Handler.ServeHTTP(w, r)
	})
	front := httptest.NewServer(mux)
	defer front.Close()
	s, err := client.Connect(testCtx(t), &transport.HTTP{URL: front.URL + "/old", Header: http.Header{"X-Api-Key": {"k"}}}, client.Options{})
	if err != nil {
		t.Fatalf("Connect through a same-origin redirect: %v", err)
	}
	s.Close()
	mu.Lock()
	defer mu.Unlock()
	if len(keys) == 0 || keys[0] != "k" {
		t.Errorf("X-Api-Key at the redirect's target = %q, want it sent", keys)
	}
}

// gzipBomb is a gzip body of about 1 MB that expands to 1 GiB of zeros:
// 1024 gzip members of 1 MiB each (a reader takes them as one stream).
func gzipBomb(t testing.TB) []byte {
	t.Helper()
	var member bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&member, gzip.BestCompression)
	zw.Write(make([]byte, 1<<20))
	zw.Close()
	return bytes.Repeat(member.Bytes(), 1024)
}

// allocated runs f and returns the bytes the process allocated meanwhile.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// A JSON body is bounded after decompression: a gzip bomb stops at the
// bound with an error that says so, and memory stays near the bound.
func TestAGzipBombStopsAtTheBound(t *testing.T) {
	bomb := gzipBomb(t)
	srv := wiretest.New(t, map[string]wiretest.Handler{
		"tools/list": func(w http.ResponseWriter, r *wiretest.Request, n int) {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Content-Encoding", "gzip")
			w.Write(bomb)
		},
	})
	const limit = 1 << 20
	var err error
	alloc := allocated(func() {
		h := &transport.HTTP{URL: srv.URL, MaxMessage: limit}
		h.Observe(transport.NewTracer(io.Discard).Observe) // the trace reads the body too
		s, cerr := client.Connect(testCtx(t), h, client.Options{})
		if cerr != nil {
			t.Fatalf("Connect: %v", cerr)
		}
		defer s.Close()
		_, err = s.ListTools(testCtx(t))
		err = s.Explain(err)
	})
	var tl *transport.TooLargeError
	if !errors.As(err, &tl) || tl.Limit != limit || tl.Event {
		t.Fatalf("ListTools of a 1 GiB gzip bomb = %v; want a *transport.TooLargeError for a body over %d bytes", err, limit)
	}
	if want := "larger than 1MiB"; !strings.Contains(err.Error(), want) {
		t.Errorf("error %q does not say %q", err, want)
	}
	if alloc > 64<<20 {
		t.Errorf("reading the bomb allocated %d MiB; want it bounded near the 1 MiB limit", alloc>>20)
	}
}

// An SSE data line that never ends stops at the bound, the same way.
func TestAnEndlessEventStopsAtTheBound(t *testing.T) {
	chunk := bytes.Repeat([]byte("x"), 64<<10)
	srv := wiretest.New(t, map[string]wiretest.Handler{
		"tools/list": func(w http.ResponseWriter, r *wiretest.Request, n int) {
			w.Header().Set("Content-Type", "text/event-stream")
			w.WriteHeader(http.StatusOK)
			w.Write([]byte("event: message\ndata: "))
			for r.Context.Err() == nil {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		},
	})
	const limit = 1 << 20
	var err error
	alloc := allocated(func() {
		h := &transport.HTTP{URL: srv.URL, MaxMessage: limit}
		h.Observe(transport.NewTracer(io.Discard).Observe) // sseTee
		s, cerr := client.Connect(testCtx(t), h, client.Options{})
		if cerr != nil {
			t.Fatalf("Connect: %v", cerr)
		}
		defer s.Close()
		_, err = s.ListTools(testCtx(t))
		err = s.Explain(err)
	})
	var tl *transport.TooLargeError
	if !errors.As(err, &tl) || tl.Limit != limit || !tl.Event {
		t.Fatalf("ListTools of an endless event = %v; want a *transport.TooLargeError for an event over %d bytes", err, limit)
	}
	if alloc > 64<<20 {
		t.Errorf("reading the endless event allocated %d MiB; want it bounded near the 1 MiB limit", alloc>>20)
	}
}

// Many events, each under the bound, make a stream longer than the bound:
// that is fine, the bound is per event.
func TestTheBoundIsPerEvent(t *testing.T) {
	srv := wiretest.New(t, map[string]wiretest.Handler{
		"tools/list": func(w http.ResponseWriter, r *wiretest.Request, n int) {
			w.Header().Set("Content-Type", "text/event-stream")
			note := fmt.Sprintf("event: message\r\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":%q}}\r\n\r\n", strings.Repeat("n", 3000))
			for i := 0; i < 10; i++ {
				io.WriteString(w, note)
			}
			fmt.Fprintf(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"tools\":[]}}\n\n", r.ID)
		},
	})
	s, err := client.Connect(testCtx(t), &transport.HTTP{URL: srv.URL, MaxMessage: 4096}, client.Options{})
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	defer s.Close()
	if _, err := s.ListTools(testCtx(t)); err != nil {
		t.Errorf("ListTools with ten 3 KB events under a 4 KiB bound: %v", s.Explain(err))
	}
}

// The attack of issue 22: a server answers tools/call with a message
// larger than mcpcli reads. mcpcli refused it, but the go-sdk took the
// refusal for a stream that broke, and mcpcli sent the call again: a tool
// with side effects ran twice. A refusal now ends the request, with its
// own error, and the session goes on.
func TestARefusedResponseIsNotSentAgain(t *testing.T) {
	const limit = 4 << 10
	big := strings.Repeat("x", 64<<10)
	legacy := map[string]wiretest.Handler{
		"server/discover": func(w http.ResponseWriter, r *wiretest.Request, n int) {
			wiretest.Error(w, r, http.StatusBadRequest, -32601, "Method not found", "")
		},
		"initialize": func(w http.ResponseWriter, r *wiretest.Request, n int) {
			w.Header().Set("Mcp-Session-Id", "s1")
			wiretest.Result(w, r, `{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"old","version":"1"}}`)
		},
	}
	for _, tc := range []struct {
		name   string
		legacy bool
		event  bool
		answer func(w http.ResponseWriter, r *wiretest.Request)
	}{
		{"a JSON body", false, false, func(w http.ResponseWriter, r *wiretest.Request) {
			wiretest.Text(big)(w, r, 1)
		}},
		{"a JSON body that says its length", false, false, func(w http.ResponseWriter, r *wiretest.Request) {
			body := wiretest.ResultEvent(r, `{"content":[{"type":"text","text":"`+big+`"}]}`)
			w.Header().Set("Content-Length", fmt.Sprint(len(body)))
			wiretest.Result(w, r, `{"content":[{"type":"text","text":"`+big+`"}]}`)
		}},
		{"an event", false, true, func(w http.ResponseWriter, r *wiretest.Request) {
			wiretest.Stream(w, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"starting"}}`,
				wiretest.ResultEvent(r, `{"content":[{"type":"text","text":"`+big+`"}]}`))
		}},
		{"an event of a resumable 2025-11-25 stream", true, true, func(w http.ResponseWriter, r *wiretest.Request) {
			wiretest.Stream(w, "id: 1\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"starting\"}}\n\n",
				"id: 2\ndata: "+wiretest.ResultEvent(r, `{"content":[{"type":"text","text":"`+big+`"}]}`)+"\n\n")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			handlers := map[string]wiretest.Handler{
				"tools/call": func(w http.ResponseWriter, r *wiretest.Request, n int) {
					var p struct {
						Name string `json:"name"`
					}
					json.Unmarshal(r.Params, &p)
					if p.Name == "small" {
						wiretest.Text("fine")(w, r, n)
						return
					}
					tc.answer(w, r)
				},
			}
			if tc.legacy {
				for k, h := range legacy {
					handlers[k] = h
				}
			}
			srv := wiretest.New(t, handlers)
			s, err := client.Connect(testCtx(t), &transport.HTTP{URL: srv.URL, MaxMessage: limit}, client.Options{})
			if err != nil {
				t.Fatalf("Connect: %v", err)
			}
			defer s.Close()
			_, err = s.CallTool(testCtx(t), "delete_everything", nil)
			err = s.Explain(err)
			var tl *transport.TooLargeError
			if !errors.As(err, &tl) || tl.Limit != limit || tl.Event != tc.event {
				t.Fatalf("CallTool answered with %s = %v (%T); want a *transport.TooLargeError (event: %v)", tc.name, err, err, tc.event)
			}
			if n := len(srv.Calls("tools/call")); n != 1 {
				t.Errorf("the tool was called %d times, want once", n)
			}
			for _, r := range srv.Requests() {
				if r.HTTPMethod == http.MethodGet && r.Header.Get("Last-Event-ID") != "" {
					t.Errorf("mcpcli resumed the refused stream (GET, Last-Event-ID %s)", r.Header.Get("Last-Event-ID"))
				}
			}
			// Only the request ended: the next one is answered, and an
			// error of its own is not taken for the refusal.
			res, err := s.CallTool(testCtx(t), "small", nil)
			if err != nil || res.Tool == nil || res.Tool.Content[0].(*mcp.TextContent).Text != "fine" {
				t.Fatalf("the call after the refusal = %v, %v; want its result", res, err)
			}
		})
	}
}

// A server cannot pass its own error off as mcpcli's refusal: the code is
// not enough, the transport's token is not known to it.
func TestARefusalCannotBeForged(t *testing.T) {
	srv := wiretest.New(t, map[string]wiretest.Handler{
		"tools/call": func(w http.ResponseWriter, r *wiretest.Request, n int) {
			wiretest.Error(w, r, http.StatusOK, transport.CodeRefused, "too large", `{"mcpcli":"guess","limit":1,"event":true}`)
		},
	})
	s := connect(t, srv.URL, client.Options{})
	_, err := s.CallTool(testCtx(t), "x", nil)
	err = s.Explain(err)
	var tl *transport.TooLargeError
	if err == nil || errors.As(err, &tl) {
		t.Fatalf("CallTool = %v; want the server's own error, not a refusal", err)
	}
}

// writeText answers r with a tool result of size bytes of text, written
// in pieces (the server allocates next to nothing), as JSON, as an event,
// or as a gzip-compressed event.
func writeText(w http.ResponseWriter, r *wiretest.Request, size int, how string) {
	var out io.Writer = w
	if how == "gzip event" {
		w.Header().Set("Content-Encoding", "gzip")
		zw := gzip.NewWriter(w)
		defer zw.Close()
		out = zw
	}
	if how == "json" {
		w.Header().Set("Content-Type", "application/json")
	} else {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(out, "event: message\ndata: ")
	}
	fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"`, r.ID)
	chunk := []byte(strings.Repeat("the quick brown fox jumps over the lazy dog 0123456789 abcdefgh\\n", 1024))
	for n := 0; n < size; n += len(chunk) {
		out.Write(chunk)
	}
	io.WriteString(out, `"}]}}`)
	if how != "json" {
		io.WriteString(out, "\n\n")
	}
}

// A big result over HTTP is read once, as over stdio: mcpcli gathers the
// body or event and keeps its bytes, and the go-sdk, which used to copy
// it some four times over (a 100 MB body took 947 MB), gets a stub. What
// the whole call allocates stays within three times the result (twice:
// gathering in pieces, then joined), or five when the text is decoded
// too.
func TestABigHTTPResultIsReadOnce(t *testing.T) {
	const size = 24 << 20
	for _, how := range []string{"json", "event", "gzip event"} {
		for _, rawOnly := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s, raw only %v", how, rawOnly), func(t *testing.T) {
				srv := wiretest.New(t, map[string]wiretest.Handler{
					"tools/call": func(w http.ResponseWriter, r *wiretest.Request, n int) { writeText(w, r, size, how) },
				})
				h := &transport.HTTP{URL: srv.URL}
				h.Observe(transport.NewTracer(io.Discard).Observe) // a trace sees it too
				s, err := client.Connect(testCtx(t), h, client.Options{RawOnly: rawOnly})
				if err != nil {
					t.Fatalf("Connect: %v", err)
				}
				defer s.Close()
				var res *client.Result
				alloc := allocated(func() {
					res, err = s.CallTool(testCtx(t), "big", nil)
				})
				if err != nil {
					t.Fatalf("CallTool: %v", s.Explain(err))
				}
				if len(res.Raw) < size {
					t.Fatalf("the result kept is %d bytes, want the %d the server sent", len(res.Raw), size)
				}
				if !rawOnly && len(res.Tool.Content[0].(*mcp.TextContent).Text) < size*64/65 {
					t.Fatalf("the text decoded is %d bytes, want about %d", len(res.Tool.Content[0].(*mcp.TextContent).Text), size)
				}
				limit := uint64(3 * size)
				if !rawOnly {
					limit = 5 * size
				}
				t.Logf("a %d MiB result (%s) allocated %d MiB (%.1fx)", size>>20, how, alloc>>20, float64(alloc)/size)
				if alloc > limit {
					t.Errorf("a %d MiB result (%s) allocated %d MiB (%.1fx); want at most %.0fx", size>>20, how, alloc>>20, float64(alloc)/size, float64(limit)/size)
				}
			})
		}
	}
}

// A body or event refused at the bound costs no more than the bound: what
// was gathered up to it is dropped, never joined (a body refused at 256
// MiB took 1.1 to 1.6 GB).
func TestARefusedBodyCostsNoMoreThanTheBound(t *testing.T) {
	const limit = 8 << 20
	for _, how := range []string{"json", "event", "gzip event"} {
		t.Run(how, func(t *testing.T) {
			srv := wiretest.New(t, map[string]wiretest.Handler{
				"tools/call": func(w http.ResponseWriter, r *wiretest.Request, n int) { writeText(w, r, 4*limit, how) },
			})
			h := &transport.HTTP{URL: srv.URL, MaxMessage: limit}
			h.Observe(transport.NewTracer(io.Discard).Observe)
			s, err := client.Connect(testCtx(t), h, client.Options{})
			if err != nil {
				t.Fatalf("Connect: %v", err)
			}
			defer s.Close()
			alloc := allocated(func() {
				_, err = s.CallTool(testCtx(t), "big", nil)
			})
			var tl *transport.TooLargeError
			if !errors.As(s.Explain(err), &tl) {
				t.Fatalf("CallTool = %v; want a *transport.TooLargeError", err)
			}
			t.Logf("refusing a %d MiB %s at %d MiB allocated %d MiB", 4*limit>>20, how, limit>>20, alloc>>20)
			if alloc > limit*3/2 {
				t.Errorf("refusing a %d MiB %s at %d MiB allocated %d MiB; want no more than the bound and a little", 4*limit>>20, how, limit>>20, alloc>>20)
			}
		})
	}
}

// An AuthError says whether the person gave headers and whether the
// request carried credentials, so that the advice names only what was
// sent (issue 22).
func TestAnAuthErrorSaysWhatWasSent(t *testing.T) {
	for _, tc := range []struct {
		name    string
		header  http.Header
		oauth   bool
		headers bool
	}{
		{"nothing", nil, false, false},
		{"a header", http.Header{"X-Api-Key": {"k"}}, false, true},
		{"a sign-in's token", nil, true, false},
		{"an Authorization header", http.Header{"Authorization": {"Bearer k"}}, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := wiretest.New(t, map[string]wiretest.Handler{
				"tools/list": func(w http.ResponseWriter, r *wiretest.Request, n int) { w.WriteHeader(http.StatusForbidden) },
			})
			h := &transport.HTTP{URL: srv.URL, Header: tc.header}
			if tc.oauth {
				h.OAuth = staticOAuth{token: "t0ken"}
			}
			s, err := client.Connect(testCtx(t), h, client.Options{})
			if err != nil {
				t.Fatalf("Connect: %v", err)
			}
			defer s.Close()
			_, err = s.ListTools(testCtx(t))
			var ae *transport.AuthError
			want := transport.Credentials{Token: tc.oauth, Headers: tc.headers}
			if !errors.As(s.Explain(err), &ae) || ae.Sent != want {
				t.Fatalf("ListTools refused with 403 = %v (%+v); want an AuthError that says it carried %+v", s.Explain(err), ae, want)
			}
		})
	}
}
