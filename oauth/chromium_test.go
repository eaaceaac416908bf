package oauth

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpcli/mcpcli/internal/chromiumtest"
)

// chromiumFlags add time for the consent page's script and the redirects
// to run.
var chromiumFlags = append(append([]string{}, chromiumtest.Flags...), "--virtual-time-budget=10000")

// TestChromiumSignIn signs in with a real browser: headless Chromium opens
// the authorization URL, the authorization server's consent page submits
// its form, the server redirects to the loopback callback, and Chromium
// shows mcpcli's "Signed in" page. No stand-in for the browser.
func TestChromiumSignIn(t *testing.T) {
	chromium := chromiumtest.Find(t)
	as := newFakeAS(t, func(as *fakeAS) { as.consentPage = true })
	rs := newFakeRS(t, as, func(rs *fakeRS) { rs.required, rs.scopeInChal = []string{"mcp:basic"}, true })
	dir := t.TempDir()
	// The sign-in goes on as soon as the redirect arrives; Chromium prints
	// its page a little later, into done.
	done := make(chan []byte, 1)
	consent := func(ctx context.Context, authURL string) error {
		ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
		defer cancel()
		args := append(append([]string{}, chromiumFlags...), "--user-data-dir="+filepath.Join(dir, "profile"), "--dump-dom", authURL)
		cmd := exec.CommandContext(ctx, chromium, args...)
		log, err := os.Create(filepath.Join(dir, "chromium.log"))
		if err != nil {
			return err
		}
		defer log.Close()
		cmd.Stderr = log
		dom, err := cmd.Output()
		done <- dom
		return err
	}
	store := &FileStore{Path: filepath.Join(dir, "oauth.json")}
	h := newHandler(t, rs, store, nil, func(c *Config) { c.Consent = consent; c.CallbackTimeout = 60 * time.Second })
	status, err := call(t, h, rs.URL())
	if err != nil || status != 200 {
		b, _ := os.ReadFile(filepath.Join(dir, "chromium.log"))
		t.Fatalf("call = %d, %v\nchromium's log:\n%s", status, err, b)
	}
	rec := keptRecord(t, store, rs)
	if rec.Registration != RegistrationDynamic || len(rec.Scopes) != 1 || rec.Scopes[0] != "mcp:basic" {
		t.Errorf("kept %+v", rec)
	}
	_, auths, _ := as.snapshot()
	if len(auths) != 1 {
		t.Errorf("%d approved authorization requests, want 1", len(auths))
	}
	// --dump-dom prints the page Chromium ended on: mcpcli's.
	select {
	case dom := <-done:
		if !strings.Contains(string(dom), "Signed in") || !strings.Contains(string(dom), "close this tab") {
			t.Errorf("Chromium ended on another page than mcpcli's:\n%s", dom)
		}
	case <-time.After(60 * time.Second):
		t.Errorf("Chromium did not finish")
	}
}
