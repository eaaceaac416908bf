package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mcpcli/mcpcli/internal/wiretest"
)

// The attack of issue 10 through the CLI: a server at A answers every
// request with a 307 to B. B must see nothing: no --header value, no
// answers (a 307 resends the body), and the person is told why.
func TestCLIRefusesARedirectToAnotherOrigin(t *testing.T) {
	var hits atomic.Int32
	b := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer b.Close()
	a := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, b.URL+"/mcp", http.StatusTemporaryRedirect)
	}))
	defer a.Close()
	answers := t.TempDir() + "/answers.json"
	os.WriteFile(answers, []byte(`{"*": {"action": "accept", "content": {"password": "hunter2"}}}`), 0o600)
	code, _, errs := cli(t, "call", "anything", "--url", a.URL+"/mcp", "--header", "Authorization: Bearer s3cret", "--header", "X-Api-Key: k3y", "--answers", answers)
	if n := hits.Load(); n != 0 {
		t.Errorf("the other origin received %d requests, want none", n)
	}
	want := "answered HTTP 307, a redirect to " + b.URL + "/mcp; mcpcli does not follow redirects to another origin"
	if code != 1 || !strings.Contains(errs, want) || !strings.Contains(errs, "point mcpcli at the new URL") {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 1 and %q", code, errs, want)
	}
}

// A response body that decompresses past --max-message-size ends the
// command with an error that names the size and the flag.
func TestCLIBoundsAGzipBomb(t *testing.T) {
	var member bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&member, gzip.BestCompression)
	zw.Write(make([]byte, 1<<20))
	zw.Close()
	bomb := bytes.Repeat(member.Bytes(), 64) // 64 MiB of zeros
	srv := wiretest.New(t, map[string]wiretest.Handler{
		"tools/list": func(w http.ResponseWriter, r *wiretest.Request, n int) {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Content-Encoding", "gzip")
			io.Copy(w, bytes.NewReader(bomb))
		},
	})
	code, _, errs := cli(t, "tools", "--url", srv.URL, "--max-message-size", "1MiB")
	want := "sent a response body larger than 1MiB, more than mcpcli reads; if the server means to send that much, raise --max-message-size (now 1MiB)"
	if code != 1 || !strings.Contains(errs, want) {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 1 and %q", code, errs, want)
	}
}

func TestCLIMaxMessageSizeFlag(t *testing.T) {
	code, _, errs := cli(t, "tools", "--url", "http://127.0.0.1:1/mcp", "--max-message-size", "12 parsecs")
	if code != 1 || !strings.Contains(errs, `invalid argument "12 parsecs" for "--max-message-size" flag: "12 parsecs" is not a size: write it like 256MiB, 64KiB or 1048576`) {
		t.Errorf("exit %d, stderr:\n%s", code, errs)
	}
}
