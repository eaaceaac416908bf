package urlmode

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestBrowserCommand(t *testing.T) {
	const u = "https://example.com/cb?a=1&b=$(touch x);c=`id`"
	tests := []struct {
		browser string
		want    []string
		err     string
	}{
		{browser: "firefox", want: []string{"firefox", u}},
		{browser: "  firefox  --new-tab ", want: []string{"firefox", "--new-tab", u}},
		{browser: `open -a 'Google Chrome'`, want: []string{"open", "-a", "Google Chrome", u}},
		{browser: `"/opt/my browser/run" --x`, want: []string{"/opt/my browser/run", "--x", u}},
		{browser: `chromium --app=%s --incognito`, want: []string{"chromium", "--app=" + u, "--incognito"}},
		{browser: `w3m\ -o`, want: []string{"w3m -o", u}},
		{browser: `firefox 'unterminated`, err: "unterminated single quote"},
		{browser: `firefox "unterminated`, err: "unterminated double quote"},
		{browser: `''`, err: "names no command"},
	}
	for _, tt := range tests {
		got, err := BrowserCommand(tt.browser, u)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("BrowserCommand(%q) error = %v, want %q", tt.browser, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("BrowserCommand(%q) error = %v", tt.browser, err)
			continue
		}
		if d := cmp.Diff(tt.want, got); d != "" {
			t.Errorf("BrowserCommand(%q) (-want +got):\n%s", tt.browser, d)
		}
	}
}

// fakeBrowser writes a script that records its arguments, one a line.
func fakeBrowser(t *testing.T, exit int) (script, record string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the fake $BROWSER is a shell script")
	}
	dir := t.TempDir()
	record = filepath.Join(dir, "args")
	script = filepath.Join(dir, "browser")
	body := "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\" >> '" + record + "'; done\necho 'browser says hello'\necho 'browser warns' >&2\nexit " + string(rune('0'+exit)) + "\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return script, record
}

func TestBrowserRunsBROWSER(t *testing.T) {
	script, record := fakeBrowser(t, 0)
	const u = "https://example.com/cb?a=1&b=$(touch pwned);c=`id`"
	var stderr bytes.Buffer
	b := &Browser{
		Getenv: env(map[string]string{"BROWSER": script + " --new-tab"}),
		Stderr: &stderr,
		System: func(string) error { t.Error("the system opener ran although $BROWSER is set"); return nil },
	}
	if err := b.Open(context.Background(), u); err != nil {
		t.Fatalf("Open: %v", err)
	}
	got, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	if want := "--new-tab\n" + u + "\n"; string(got) != want {
		t.Errorf("$BROWSER got arguments %q, want %q (the URL as one argument, no shell)", got, want)
	}
	if s := stderr.String(); !strings.Contains(s, "browser says hello") || !strings.Contains(s, "browser warns") {
		t.Errorf("$BROWSER's stdout and stderr should go to mcpcli's stderr; got %q", s)
	}
}

func TestBrowserFailures(t *testing.T) {
	script, _ := fakeBrowser(t, 3)
	tests := []struct {
		browser, want string
	}{
		{script, "failed: exit status 3"},
		{filepath.Join(t.TempDir(), "no-such-browser"), "no-such-browser"},
		{"mcpcli-no-such-browser-anywhere", "not installed or not on $PATH"},
		{"firefox 'x", "unterminated"},
	}
	for _, tt := range tests {
		b := &Browser{Getenv: env(map[string]string{"BROWSER": tt.browser}), Stderr: &bytes.Buffer{}}
		err := b.Open(context.Background(), "https://example.com/")
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Open with $BROWSER=%q: error %v, want one mentioning %q", tt.browser, err, tt.want)
		}
	}
}

func TestBrowserSystemOpener(t *testing.T) {
	var got []string
	b := &Browser{
		Getenv: env(map[string]string{"DISPLAY": ":0"}),
		System: func(u string) error { got = append(got, u); return nil },
	}
	if err := b.Open(context.Background(), "https://example.com/x"); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"https://example.com/x"}, got); d != "" {
		t.Errorf("system opener (-want +got):\n%s", d)
	}
	b.System = func(string) error { return errors.New("xdg-open: no method available") }
	if err := b.Open(context.Background(), "https://example.com/x"); err == nil || !strings.Contains(err.Error(), "no method") {
		t.Errorf("a failing system opener gave %v", err)
	}
}

func TestBrowserNoDisplay(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the display check is for Linux")
	}
	b := &Browser{Getenv: env(nil)} // System nil: would be pkg/browser, but must not get there
	err := b.Open(context.Background(), "https://example.com/")
	if err == nil || !strings.Contains(err.Error(), "no graphical display") {
		t.Errorf("Open without $DISPLAY and $BROWSER = %v, want a no-display error", err)
	}
}
