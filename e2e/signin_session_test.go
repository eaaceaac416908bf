//go:build unix

package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpcli/mcpcli/internal/thirdparty"
)

var (
	browserOnce sync.Once
	browserPath string
	browserErr  error
)

// loopbackBrowser is the $BROWSER of the conformance suite
// (conformance/browser), built once: it does what a browser does with a
// sign-in link when the authorization server asks nothing, following the
// redirects (on this machine only) back to mcpcli.
func loopbackBrowser(t *testing.T) string {
	t.Helper()
	browserOnce.Do(func() {
		dir, err := os.MkdirTemp("", "mcpcli-e2e-browser")
		if err != nil {
			browserErr = err
			return
		}
		browserPath = filepath.Join(dir, "browser")
		cmd := exec.Command("go", "build", "-o", browserPath, "github.com/mcpcli/mcpcli/conformance/browser")
		cmd.Dir = ".."
		if out, err := cmd.CombinedOutput(); err != nil {
			browserErr = fmt.Errorf("go build conformance/browser: %v\n%s", err, out)
		}
	})
	if browserErr != nil {
		t.Fatal(browserErr)
	}
	return browserPath
}

// expireAt makes every token kept in mcpcli's token file (oauth.json)
// expire at when.
func expireAt(t *testing.T, file string, when time.Time) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range doc["entries"].(map[string]any) {
		for _, r := range e.(map[string]any)["records"].(map[string]any) {
			if tok, ok := r.(map[string]any)["token"].(map[string]any); ok {
				tok["expiry"] = when.UTC().Format(time.RFC3339Nano)
				delete(tok, "expires_in")
				n++
			}
		}
	}
	if n == 0 {
		t.Fatalf("%s keeps no token:\n%s", file, b)
	}
	out, _ := json.Marshal(doc)
	if err := os.WriteFile(file, out, 0o600); err != nil {
		t.Fatal(err)
	}
}

// Sign-in from the session, against the TypeScript SDK's example server
// guarded by its demo OAuth server (which issues one-hour tokens and no
// refresh tokens, and forgets them when it restarts): the session signs in
// as it starts; a token that expires while it runs is signed in again in
// place, and the call goes on; a restarted server answers the kept token
// with a 500, and the words name the command that signs in again, which
// does.
func TestSessionSignInAgainstTheTypeScriptSDK(t *testing.T) {
	bin := mcpcli(t)
	browser := loopbackBrowser(t)
	srv := thirdparty.SDKOAuthServer(t)
	dir := t.TempDir()
	home, state := filepath.Join(dir, "home"), filepath.Join(dir, "state")
	tokens := filepath.Join(state, "mcpcli", "oauth.json")
	env := []string{"HOME=" + shellQuote(home), "XDG_STATE_HOME=" + shellQuote(state), "MCPCLI_TOKEN_STORE=file", "BROWSER=" + shellQuote(browser)}

	// The session signs in before it opens.
	tm := start(t, env, "", bin, "session", "--url", srv.URL)
	tm.waitFor("asks you to sign in with", "To sign in, open this link in your browser:", "Sign in? [o]pen in browser")
	tm.keys("o", "Enter")
	tm.waitFor("simple-streamable-http", "Tools 7", "greet")
	tm.keys("q")
	if s := tm.exited(); !strings.Contains(s, "[exit 0]") {
		t.Fatalf("the first session did not end well:\n%s", s)
	}

	// The kept token expires while the next session runs (oauth2 takes a
	// token for expired 10 s before it is): the call that meets the 401
	// signs in in place, and goes on.
	expiry := time.Now().Add(25 * time.Second)
	expireAt(t, tokens, expiry)
	tm = start(t, env, "", bin, "session", "--url", srv.URL)
	s := tm.waitFor("simple-streamable-http", "Tools 7")
	if strings.Contains(s, "Sign in?") {
		t.Fatalf("the session asked to sign in with a token still good:\n%s", s)
	}
	for time.Now().Before(expiry.Add(-9 * time.Second)) {
		time.Sleep(100 * time.Millisecond)
	}
	tm.pick("greet")
	tm.waitFor("Arguments for tool greet", "name *")
	tm.text("Ada")
	tm.keys("Enter")
	tm.waitFor("[ Send ]")
	tm.keys("Enter")
	tm.waitFor("asks you to sign in with", "Sign in? [o]pen in browser")
	tm.keys("o", "Enter")
	tm.waitFor("#1 greet", "Hello, Ada!", "✓ complete")

	// The server restarts and forgets its tokens: it answers the kept one
	// with a 500. Reconnecting says why, and which command signs in.
	srv.Restart()
	tm.keys("R")
	s = tm.waitFor("reconnecting failed", "✗ disconnected", "R reconnect")
	// The reason wraps where it may (after a hyphen too): compared
	// without the spaces.
	nospace := func(s string) string { return strings.Join(strings.Fields(s), "") }
	banner := nospace(strings.Join(strings.Split(tm.now(), "\n")[3:10], " "))
	want := "mcpcli sent the sign-in token kept for it, which a server that restarted may have forgotten: sign in again with 'mcpcli auth login --url " + srv.URL + "'"
	if !strings.Contains(banner, nospace(want)) {
		t.Errorf("the reason above the body does not say\n%s\nthe screen:\n%s", want, s)
	}

	// Which does: signed in again elsewhere, R reconnects with the new
	// token, and History is still there.
	login := exec.Command(bin, "auth", "login", "--url", srv.URL, "--open-urls")
	login.Env = append(os.Environ(), "HOME="+home, "XDG_STATE_HOME="+state, "MCPCLI_TOKEN_STORE=file", "BROWSER="+browser)
	if out, err := login.CombinedOutput(); err != nil || !strings.Contains(string(out), "Signed in to "+srv.URL) {
		t.Fatalf("mcpcli auth login = %v:\n%s", err, out)
	}
	tm.keys("R")
	tm.waitFor("reconnected: History, Activity and the wire are kept", "Tools 7", "History 1")
}
