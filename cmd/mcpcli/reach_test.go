package main

// Tests of issue 11 with the demo server over HTTP, and (completions) as
// on a terminal against server-everything; the rest against third-party
// servers run the built binary, in e2e/thirdparty_test.go.

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpcli/mcpcli/demoserver"
	"github.com/mcpcli/mcpcli/internal/thirdparty"
)

// withServer is args then the server's argv after --.
func withServer(argv []string, args ...string) []string {
	return append(append(args, "--"), argv...)
}

// wantRun runs mcpcli and fails unless it exits with code; it returns
// stdout and stderr.
func wantRun(t *testing.T, code int, args ...string) (stdout, stderr string) {
	t.Helper()
	got, out, errs := cli(t, args...)
	if got != code {
		t.Fatalf("mcpcli %s exited %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), got, code, out, errs)
	}
	return out, errs
}

func wantContains(t *testing.T, what, got string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(got, w) {
			t.Errorf("%s does not contain %q:\n%s", what, w, got)
		}
	}
}

func wantMatch(t *testing.T, what, got, pattern string) {
	t.Helper()
	if !regexp.MustCompile(pattern).MatchString(got) {
		t.Errorf("%s does not match %s:\n%s", what, pattern, got)
	}
}

// writeFile writes a file in a fresh temporary directory and returns its path.
func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// cliTTY runs mcpcli as on a terminal (stdin and stderr), with piped
// keystrokes for --accessible line prompts.
func cliTTY(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	deps := &Deps{
		Streams:    Streams{In: strings.NewReader(stdin), Out: &out, Err: &errb, InTTY: true, ErrTTY: true},
		Getenv:     func(string) string { return "" },
		Executable: os.Executable,
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	code = Run(ctx, args, deps)
	return code, out.String(), errb.String()
}

// demoHTTP serves the demo server over Streamable HTTP: stateless
// (2026-07-28), or with sessions (2025-11-25).
func demoHTTP(t *testing.T, stateless bool) string {
	d, err := demoserver.New(demoserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return serve(t, d.Server(), stateless)
}

func TestTemplatesAndCompletions(t *testing.T) {
	url := demoHTTP(t, true)
	out, _ := wantRun(t, 0, "resources", "--url", url)
	wantContains(t, "resources", out, "Templates (mcpcli read 'TEMPLATE' --var NAME=VALUE):\ndemo://notes/{topic}  Notes on a topic (text/plain)")
	out, _ = wantRun(t, 0, "resources", "--url", url, "-o", "json")
	wantContains(t, "resources -o json", out, `"resourceTemplates": [`, `"uriTemplate": "demo://notes/{topic}"`)

	out, errs := wantRun(t, 0, "read", "demo://notes/{topic}", "--var", "topic=go", "--url", url)
	wantContains(t, "read --var", out, "Notes on go: nothing here yet")
	wantContains(t, "stderr", errs, "mcpcli: reading demo://notes/go")

	_, errs = wantRun(t, 1, "read", "demo://notes/{topic}", "--url", url)
	wantContains(t, "without a terminal", errs, `template "demo://notes/{topic}" needs --var topic=VALUE`)
	_, errs = wantRun(t, 1, "read", "demo://notes/{topic}", "--var", "subject=go", "--url", url)
	wantContains(t, "a wrong variable", errs, `template "demo://notes/{topic}" has no variable "subject"; its variables are: topic`)
	_, errs = wantRun(t, 1, "read", "demo://clock", "--var", "a=b", "--url", url)
	wantContains(t, "--var without a template", errs, "--var fills a URI template")

	// On a terminal, the missing variable is asked, with the server's
	// suggestions: a number picks one.
	code, out, errs := cliTTY(t, "2\n", "read", "demo://notes/{topic}", "--accessible", "--url", url)
	if code != 0 {
		t.Fatalf("read on a terminal exited %d: %s", code, errs)
	}
	wantContains(t, "stderr", errs, "── mcpcli demo server needs topic for resource template demo://notes/{topic} ──", "1) go", "2) mcp", "4) testing")
	wantContains(t, "read on a terminal", out, "Notes on mcp:")

	// A prompt's missing arguments: the required one with suggestions,
	// the optional one left empty.
	code, out, errs = cliTTY(t, "3\n\n", "prompt", "greeting", "--accessible", "--url", url)
	if code != 0 {
		t.Fatalf("prompt on a terminal exited %d: %s", code, errs)
	}
	wantContains(t, "stderr", errs, "needs language for prompt greeting", "3) Japanese", "name [empty: leave unset]:")
	wantContains(t, "prompt", out, "Greet everyone in Japanese.")
	// Given arguments are not asked again.
	code, out, errs = cliTTY(t, "", "prompt", "greeting", "language=French", "name=Ada", "--accessible", "--url", url)
	if code != 0 || strings.Contains(errs, "needs") {
		t.Fatalf("prompt with every argument exited %d and asked:\n%s", code, errs)
	}
	wantContains(t, "prompt", out, "Greet Ada in French.")
}

func TestCompletionsThirdParty(t *testing.T) {
	t.Parallel()
	argv := thirdparty.Everything(t)
	// completable-prompt: the department's completion, then the name's,
	// which the server narrows by the department chosen (context).
	code, out, errs := cliTTY(t, "1\n2\n", withServer(argv, "prompt", "completable-prompt", "--accessible")...)
	if code != 0 {
		t.Fatalf("prompt completable-prompt exited %d: %s", code, errs)
	}
	wantContains(t, "stderr", errs, "1) Engineering", "4) Support", "1) Alice", "2) Bob", "3) Charlie")
	wantContains(t, "prompt", out, "Please promote Bob to the head of the Engineering team.")

	out, _ = wantRun(t, 0, withServer(argv, "resources")...)
	wantContains(t, "resources", out, "demo://resource/dynamic/text/{resourceId}  Dynamic Text Resource (text/plain)", "demo://resource/dynamic/blob/{resourceId}")
	out, _ = wantRun(t, 0, withServer(argv, "read", "demo://resource/dynamic/text/{resourceId}", "--var", "resourceId=7")...)
	wantContains(t, "read template", out, "Resource 7: This is a plaintext resource")
	// A text/plain blob is shown decoded.
	out, _ = wantRun(t, 0, withServer(argv, "read", "demo://resource/dynamic/blob/{resourceId}", "--var", "resourceId=2")...)
	// The blob's text names the time it was made ("9:05:01 PM" or
	// "10:05:01 PM"), so its size is matched, not fixed.
	wantMatch(t, "read blob template", out, `\[blob text/plain 5[56] B, decoded\]`)
	wantContains(t, "read blob template", out, "Resource 2: This is a base64 blob")
}

// lineWatcher is a stdout that cancels the run once it has seen want
// lines containing match.
type lineWatcher struct {
	mu     sync.Mutex
	b      bytes.Buffer
	match  string
	want   int
	cancel context.CancelFunc
}

func (w *lineWatcher) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.b.Write(p)
	if strings.Count(w.b.String(), w.match) >= w.want {
		w.cancel()
	}
	return len(p), nil
}

func (w *lineWatcher) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// watchUntil runs mcpcli watch until stdout has shown want lines with
// match (then cancels, as Ctrl+C would), or 20 s pass.
func watchUntil(t *testing.T, match string, want int, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	out := &lineWatcher{match: match, want: want, cancel: cancel}
	var errb bytes.Buffer
	deps := &Deps{Streams: Streams{In: strings.NewReader(""), Out: out, Err: &errb}, Getenv: func(string) string { return "" }, Executable: os.Executable}
	code = Run(ctx, append([]string{"watch"}, args...), deps)
	if !errors.Is(ctx.Err(), context.Canceled) {
		t.Fatalf("watch %s did not print %d lines with %q in 20 s; stdout:\n%s\nstderr:\n%s", strings.Join(args, " "), want, match, out.String(), errb.String())
	}
	return code, out.String(), errb.String()
}

func TestWatchOverHTTP(t *testing.T) {
	for _, tc := range []struct {
		name      string
		stateless bool
		ack       string
	}{
		{"2026-07-28, subscriptions/listen", true, "notifications/subscriptions/acknowledged resource demo://clock"},
		{"2025-11-25, resources/subscribe and the GET stream", false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			url := demoHTTP(t, tc.stateless)
			code, out, errs := watchUntil(t, "notifications/resources/updated demo://clock", 2, "--resource", "demo://clock", "--url", url)
			if code != 0 {
				t.Errorf("watch stopped as by Ctrl+C exited %d, want 0; stderr:\n%s", code, errs)
			}
			wantContains(t, "watch", out, tc.ack)
		})
	}
	t.Run("a server without subscriptions", func(t *testing.T) {
		url := serve(t, weatherServer(nil), true)
		_, errs := wantRun(t, 1, "watch", "--resource", "x://y", "--url", url)
		wantContains(t, "stderr", errs, `does not offer resource subscriptions (its resources capability has no subscribe), so "x://y" cannot be watched; drop --resource`)
	})
}

// stderrWatcher is a stderr that cancels the run once it shows match.
type stderrWatcher struct {
	mu     sync.Mutex
	b      bytes.Buffer
	match  string
	cancel context.CancelFunc
}

func (w *stderrWatcher) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.b.Write(p)
	if strings.Contains(w.b.String(), w.match) {
		w.cancel()
	}
	return len(p), nil
}

func TestDemoTaskOverHTTP(t *testing.T) {
	url := demoHTTP(t, true)
	answers := writeFile(t, "answers.json", `{"approve": {"action": "accept", "content": {"publish": true, "channel": "stable"}}}`)
	trace := filepath.Join(t.TempDir(), "trace.jsonl")
	out, _ := wantRun(t, 0, "call", "build_release", "version=5.0", "--answers", answers, "--trace", trace, "--url", url)
	wantContains(t, "build_release", out, "Published release 5.0 to the stable channel.")
	// tasks/* carry the task id in Mcp-Name, for routing.
	tr := readFile(t, trace)
	var taskID string
	for _, line := range strings.Split(tr, "\n") {
		if i := strings.Index(line, `"resultType":"task","taskId":"`); i >= 0 {
			rest := line[i+len(`"resultType":"task","taskId":"`):]
			taskID = rest[:strings.Index(rest, `"`)]
			break
		}
	}
	if taskID == "" {
		t.Fatalf("no CreateTaskResult in the trace:\n%s", tr)
	}
	wantContains(t, "the trace", tr, `"Mcp-Method":["tasks/get"],"Mcp-Name":["`+taskID+`"]`, `"Mcp-Method":["tasks/update"],"Mcp-Name":["`+taskID+`"]`)
}
