package urlmode_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mcpcli/mcpcli/internal/chromiumtest"
)

// The one test that opens a real browser. mcpcli runs the demo server's
// connect_account, gets a URL-mode ask for its loopback page, and opens it
// through $BROWSER, which is a script that runs headless Chromium on it.
// Chromium loads the page, the page submits its form, the demo server
// marks the step complete, and mcpcli's retried call must come back with
// the connected result. No mock stands in for the browser.

var chromiumFlags = chromiumtest.Flags

// buildMcpcli builds the mcpcli binary into dir.
func buildMcpcli(t *testing.T, dir string) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		goTool = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	bin := filepath.Join(dir, "mcpcli")
	cmd := exec.Command(goTool, "build", "-o", bin, "github.com/mcpcli/mcpcli/cmd/mcpcli")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build mcpcli: %v\n%s", err, out)
	}
	return bin
}

// browserScript writes the $BROWSER the test uses: it records the URL it
// was given, then has headless Chromium load it with auto=1 (the demo page
// then submits its form on load) and dump the final page.
func browserScript(t *testing.T, dir, chromium string) string {
	t.Helper()
	script := filepath.Join(dir, "headless-browser")
	body := fmt.Sprintf(`#!/bin/sh
# $BROWSER for the URL-mode test: a real, headless Chromium.
printf '%%s\n' "$1" >> %[1]s/opened
case "$1" in *\?*) url="$1&auto=1" ;; *) url="$1?auto=1" ;; esac
profile=$(mktemp -d %[1]s/profile.XXXXXX)
%[2]s %[3]s --user-data-dir="$profile" --dump-dom "$url" > %[1]s/dom.html 2> %[1]s/chromium.log
`, shellQuote(dir), shellQuote(chromium), strings.Join(chromiumFlags, " "))
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return script
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func TestChromiumCompletesConnect(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a real browser")
	}
	chromium := chromiumtest.Find(t)
	dir := t.TempDir()
	bin := buildMcpcli(t, dir)

	tests := []struct {
		name  string
		args  []string
		stdin string
	}{
		// The answers file's accept is the script's consent; --open-urls
		// lets it open the browser.
		{name: "answers file with --open-urls", args: []string{"--answers", "ANSWERS", "--open-urls"}},
		// A person at the line prompter: o opens, Enter comes back.
		{name: "line prompts", args: []string{"--accessible"}, stdin: "o\n\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			work := t.TempDir()
			answers := filepath.Join(work, "answers.json")
			if err := os.WriteFile(answers, []byte(`{"connect": {"action": "accept"}}`), 0o644); err != nil {
				t.Fatal(err)
			}
			// The browser script writes next to itself; give each run its own.
			script := browserScript(t, work, chromium)
			args := []string{"call", "connect_account", "service=calendar"}
			for _, a := range tt.args {
				if a == "ANSWERS" {
					a = answers
				}
				args = append(args, a)
			}
			args = append(args, "--", bin, "demo-server")

			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, bin, args...)
			cmd.Env = append(os.Environ(), "BROWSER="+script, "NO_COLOR=1")
			cmd.Stdin = strings.NewReader(tt.stdin)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			start := time.Now()
			err := cmd.Run()
			t.Logf("mcpcli with headless Chromium took %s", time.Since(start).Round(10*time.Millisecond))
			logs := func() string {
				dom, _ := os.ReadFile(filepath.Join(work, "dom.html"))
				clog, _ := os.ReadFile(filepath.Join(work, "chromium.log"))
				return fmt.Sprintf("stdout:\n%s\nstderr:\n%s\nChromium's page:\n%s\nChromium's log (tail):\n%s",
					stdout.String(), stderr.String(), dom, tail(string(clog), 15))
			}
			if err != nil {
				t.Fatalf("mcpcli %s: %v\n%s", strings.Join(args, " "), err, logs())
			}
			if !strings.Contains(stdout.String(), "Connected your calendar account") {
				t.Fatalf("the retried call did not complete with the connected result\n%s", logs())
			}
			opened, err := os.ReadFile(filepath.Join(work, "opened"))
			if err != nil {
				t.Fatalf("the browser was never started: %v\n%s", err, logs())
			}
			urls := strings.Fields(string(opened))
			if len(urls) != 1 || !strings.HasPrefix(urls[0], "http://127.0.0.1:") || !strings.Contains(urls[0], "/connect?id=") {
				t.Errorf("$BROWSER was given %q; want exactly one loopback connect URL", urls)
			}
			dom, _ := os.ReadFile(filepath.Join(work, "dom.html"))
			if !strings.Contains(string(dom), `id="done"`) {
				t.Errorf("Chromium did not end on the page's connected state\n%s", logs())
			}
			if !strings.Contains(stderr.String(), "in your browser.") || !strings.Contains(stderr.String(), "Opened http://127.0.0.1:") {
				t.Errorf("stderr does not say the browser was opened\n%s", logs())
			}
		})
	}
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
