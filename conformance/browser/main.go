// Command browser is the $BROWSER the conformance adapter gives mcpcli for
// the suite's auth scenarios. It does what a person's browser does with a
// sign-in link when the authorization server asks nothing: GET the
// authorization URL and follow its redirects, back to mcpcli's loopback
// callback. It goes to this machine only (the suite's servers and
// mcpcli's callback are all on loopback), and exits 0 when the last page
// is a 2xx, 1 otherwise, saying where it ended on stderr.
//
//	BROWSER=bin/conformance-browser mcpcli tools --url … --answers a.json --open-urls
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"time"
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stderr))
}

// maxRedirects bounds the chain, as browsers do.
const maxRedirects = 10

func run(ctx context.Context, args []string, stderr io.Writer) int {
	if len(args) != 1 {
		fmt.Fprintln(stderr, "browser: give one URL (mcpcli runs $BROWSER with the URL as its last argument)")
		return 2
	}
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	status, last, err := visit(ctx, args[0])
	if err != nil {
		fmt.Fprintf(stderr, "browser: %v\n", err)
		return 1
	}
	fmt.Fprintf(stderr, "browser: ended at %s with HTTP %d\n", redactQuery(last), status)
	if status < 200 || status > 299 {
		return 1
	}
	return 0
}

// visit GETs raw and follows redirects; it returns the last status and URL.
func visit(ctx context.Context, raw string) (int, *url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return 0, nil, fmt.Errorf("%q is not a URL: %v", raw, err)
	}
	if err := local(u); err != nil {
		return 0, nil, err
	}
	var last *url.URL
	c := &http.Client{
		Transport: http.DefaultTransport,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= maxRedirects {
				return fmt.Errorf("more than %d redirects", maxRedirects)
			}
			return local(req.URL)
		},
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Accept", "text/html")
	resp, err := c.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	last = resp.Request.URL
	return resp.StatusCode, last, nil
}

// local refuses anything but http(s) on a loopback address.
func local(u *url.URL) error {
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("will not open %s: only http and https", redactQuery(u))
	}
	h := u.Hostname()
	if h == "localhost" {
		return nil
	}
	if ip := net.ParseIP(h); ip != nil && ip.IsLoopback() {
		return nil
	}
	return errors.New("will not leave this machine for " + redactQuery(u))
}

// redactQuery drops the query (codes, state) from a URL for messages.
func redactQuery(u *url.URL) string {
	c := *u
	if c.RawQuery != "" {
		c.RawQuery = "…"
	}
	return c.String()
}
