package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/mcpcli/mcpcli/internal/authtest"
)

// authServerMain is "authserver ADDR [-scope S]... [-step-up S]": an OAuth
// authorization server and the MCP server it guards, at http://ADDR/mcp.
func authServerMain() {
	fs := flag.NewFlagSet("authserver", flag.ExitOnError)
	var scopes multi
	fs.Var(&scopes, "scope", "a scope the MCP server requires (repeatable)")
	stepUp := fs.String("step-up", "", "a scope the tool admin needs too (403 insufficient_scope without it)")
	fs.Parse(os.Args[1:])
	if fs.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: authserver ADDR [-scope S]... [-step-up S]")
		os.Exit(2)
	}
	srv := authtest.New(authtest.Options{Scopes: scopes, StepUp: *stepUp})
	fmt.Fprintln(os.Stderr, http.ListenAndServe(fs.Arg(0), srv.Handler()))
	os.Exit(1)
}

type multi []string

func (m *multi) String() string     { return strings.Join(*m, " ") }
func (m *multi) Set(s string) error { *m = append(*m, s); return nil }

// testBrowserMain is "testbrowser URL", the $BROWSER of the sign-in
// scripts: it does what a browser does with a sign-in link when the
// authorization server asks nothing, GET and follow the redirects (on
// loopback only) back to mcpcli's callback. It records each URL it is
// given in $TESTBROWSER_LOG. The visit $TESTBROWSER_DENY numbers (1 for
// the first in the log) is denied instead, as a person who clicks Deny:
// the browser comes back to mcpcli with error=access_denied.
func testBrowserMain() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: testbrowser URL")
		os.Exit(2)
	}
	visit := 0
	if log := os.Getenv("TESTBROWSER_LOG"); log != "" {
		f, err := os.OpenFile(log, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
		if err == nil {
			fmt.Fprintln(f, os.Args[1])
			f.Close()
		}
		b, _ := os.ReadFile(log)
		visit = strings.Count(string(b), "\n")
	}
	denied := false
	if deny := os.Getenv("TESTBROWSER_DENY"); deny != "" && deny == fmt.Sprint(visit) {
		denied = true
		if authz, err := url.Parse(os.Args[1]); err == nil {
			q := authz.Query()
			back, err := url.Parse(q.Get("redirect_uri"))
			if err == nil {
				v := url.Values{"error": {"access_denied"}, "state": {q.Get("state")}, "iss": {authz.Scheme + "://" + authz.Host}}
				back.RawQuery = v.Encode()
				os.Args[1] = back.String()
			}
		}
	}
	local := func(u *url.URL) error {
		if h := u.Hostname(); h != "127.0.0.1" && h != "localhost" {
			return fmt.Errorf("testbrowser goes to loopback only, not %s", u.Host)
		}
		return nil
	}
	u, err := url.Parse(os.Args[1])
	if err == nil {
		err = local(u)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "testbrowser:", err)
		os.Exit(1)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c := &http.Client{CheckRedirect: func(req *http.Request, via []*http.Request) error { return local(req.URL) }}
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	resp, err := c.Do(req)
	if err != nil {
		fmt.Fprintln(os.Stderr, "testbrowser:", err)
		os.Exit(1)
	}
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
	resp.Body.Close()
	if resp.StatusCode/100 != 2 && !denied {
		fmt.Fprintf(os.Stderr, "testbrowser: ended at HTTP %d: %s\n", resp.StatusCode, body)
		os.Exit(1)
	}
}
