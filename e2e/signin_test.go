//go:build unix

package e2e

import (
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpcli/mcpcli/internal/authtest"
	"github.com/mcpcli/mcpcli/internal/chromiumtest"
)

// chromiumFlags give the consent page's script and the redirects time to
// run before --dump-dom prints the page.
var chromiumFlags = append(append([]string{}, chromiumtest.Flags...), "--virtual-time-budget=10000")

// TestSignInWithChromium signs in the way a person does, with nothing
// standing in for them but tmux's keys: mcpcli (the real binary, on a
// terminal) runs tools against a server that answers 401; it shows the
// authorization link and, when o is typed, opens it with $BROWSER, a real
// headless Chromium. Chromium loads the authorization server's consent
// page, whose script submits it; the server redirects to mcpcli's
// loopback callback; Chromium ends on mcpcli's "Signed in" page; mcpcli
// exchanges the code and lists the tools. The next command uses the kept
// token, and opens no browser.
func TestSignInWithChromium(t *testing.T) {
	chromium := chromiumtest.Find(t)
	bin := mcpcli(t)
	as := authtest.New(authtest.Options{ConsentPage: true, Scopes: []string{"mcp:tools"}})
	srv := httptest.NewServer(as.Handler())
	defer srv.Close()
	url := srv.URL + "/mcp"

	dir := t.TempDir()
	browser := filepath.Join(dir, "headless-browser")
	// Like a desktop's opener (xdg-open), it starts the browser in a
	// session of its own (the terminal's hangup must not reach it) and
	// returns: mcpcli goes on once the redirect arrives, and Chromium
	// writes the page it ended on when it is done.
	script := fmt.Sprintf(`#!/bin/sh
# $BROWSER for the sign-in test: a real, headless Chromium.
export D=%[1]s
printf '%%s\n' "$1" >> "$D/opened"
profile=$(mktemp -d "$D/profile.XXXXXX")
setsid -f sh -c '"$0" "$@" > "$D/dom.tmp" 2> "$D/chromium.log" < /dev/null && mv "$D/dom.tmp" "$D/dom.html"' %[2]s %[3]s --user-data-dir="$profile" --dump-dom "$1"
`, shellQuote(dir), shellQuote(chromium), strings.Join(chromiumFlags, " "))
	if err := os.WriteFile(browser, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	env := []string{
		"HOME=" + shellQuote(filepath.Join(dir, "home")),
		"XDG_STATE_HOME=" + shellQuote(filepath.Join(dir, "state")),
		"MCPCLI_TOKEN_STORE=file",
		"BROWSER=" + shellQuote(browser),
	}
	out := filepath.Join(dir, "tools.txt")
	tm := start(t, env, out, bin, "tools", "--url", url, "--timeout", "30s")
	tm.waitFor("To sign in, open this link in your browser:", "Host: 127.0.0.1", "Sign in? [o]pen in browser")
	// A person reads before answering: longer than mcpcli waits before it
	// says it is waiting for a server, which it must not say over the
	// question while the person signs in.
	time.Sleep(2 * time.Second)
	if screen := tm.screen(); strings.Contains(screen, "waiting for") || !strings.Contains(screen, "Sign in? [o]pen in browser") {
		t.Errorf("the sign-in question did not stay on screen:\n%s", screen)
	}
	tm.keys("o", "Enter")
	// Chromium takes a while to start: more than the screen helper waits.
	deadline := time.Now().Add(60 * time.Second)
	for !strings.Contains(tm.screen(), "[exit ") && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	screen := tm.exited()
	if !strings.Contains(screen, "[exit 0]") {
		log, _ := os.ReadFile(filepath.Join(dir, "chromium.log"))
		t.Fatalf("mcpcli tools did not succeed; the screen:\n%s\nchromium's log:\n%s", screen, log)
	}
	if b, _ := os.ReadFile(out); !strings.HasPrefix(string(b), "whoami") {
		t.Errorf("mcpcli tools printed %q, want the server's tools", b)
	}
	if as.Authorizations() != 1 {
		t.Errorf("%d authorization requests approved, want 1", as.Authorizations())
	}
	// Chromium dumps the page it ended on once mcpcli is done with it.
	var dom []byte
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if dom, _ = os.ReadFile(filepath.Join(dir, "dom.html")); len(dom) > 0 {
			break
		}
	}
	if !strings.Contains(string(dom), "Signed in") || !strings.Contains(string(dom), "close this tab") {
		log, _ := os.ReadFile(filepath.Join(dir, "chromium.log"))
		t.Errorf("Chromium ended on another page than mcpcli's:\n%s\nchromium's log:\n%s", dom, log)
	}
	if _, err := os.Stat(filepath.Join(dir, "state", "mcpcli", "oauth.json")); err != nil {
		t.Errorf("the token was not kept: %v", err)
	}

	// The next command uses the kept token: no browser, no terminal.
	cmd := exec.Command(bin, "call", "whoami", "--url", url)
	cmd.Env = append(os.Environ(), "HOME="+filepath.Join(dir, "home"), "XDG_STATE_HOME="+filepath.Join(dir, "state"), "MCPCLI_TOKEN_STORE=file", "BROWSER="+browser)
	got, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(got), "signed in as client-") || !strings.Contains(string(got), "[mcp:tools]") {
		t.Errorf("mcpcli call whoami with the kept token = %v:\n%s", err, got)
	}
	if opened, _ := os.ReadFile(filepath.Join(dir, "opened")); strings.Count(string(opened), "\n") != 1 {
		t.Errorf("the browser was opened %d times, want once:\n%s", strings.Count(string(opened), "\n"), opened)
	}
}
