//go:build unix

package e2e

// mcpcli against real third-party servers (issue 11): server-everything
// (stdio, Streamable HTTP, HTTP+SSE), the TypeScript SDK's examples and the
// go-sdk's, started by internal/thirdparty (install them with
// `npm ci --prefix thirdparty --no-audit --no-fund`). Each runs the built
// binary, as a person's shell would.

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mcpcli/mcpcli/internal/shellwords"
	"github.com/mcpcli/mcpcli/internal/thirdparty"
)

// run runs the built mcpcli with args, stdin as given, in an environment
// of its own (a home, a cache, a state directory, no terminal); it
// returns the exit code, stdout and stderr.
func run(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary(t), args...)
	cmd.Env = cliEnv(t)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), out.String(), errb.String()
	}
	if err != nil {
		t.Fatalf("mcpcli %s: %v", strings.Join(args, " "), err)
	}
	return 0, out.String(), errb.String()
}

// cliEnv is the environment a test's mcpcli runs in: PATH (for node, npx
// and go) and directories of its own, nothing of the person's.
func cliEnv(t *testing.T) []string {
	dir := t.TempDir()
	return []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "XDG_STATE_HOME=" + filepath.Join(dir, "state"),
		"XDG_CONFIG_HOME=" + filepath.Join(dir, "config"), "MCPCLI_CACHE_DIR=" + filepath.Join(dir, "cache")}
}

// interruptWhen runs mcpcli until its stdout or stderr (where) has shown
// want count times, then sends it SIGINT, as Ctrl+C would; it fails the
// test when that does not come within 20 s.
func interruptWhen(t *testing.T, where, match string, args ...string) (code int, stdout, stderr string) {
	return interruptAfter(t, where, match, 1, args...)
}

func interruptAfter(t *testing.T, where, match string, count int, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(binary(t), args...)
	cmd.Env = cliEnv(t)
	seen := make(chan struct{})
	out := &watcher{match: match, count: count, seen: seen}
	errw := &watcher{match: match, count: count, seen: seen}
	if where == "stdout" {
		errw.count = -1
	} else {
		out.count = -1
	}
	cmd.Stdout, cmd.Stderr = out, errw
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-seen:
		cmd.Process.Signal(syscall.SIGINT)
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("mcpcli %s did not show %q %d times on %s in 20 s; stdout:\n%s\nstderr:\n%s", strings.Join(args, " "), match, count, where, out, errw)
	}
	err := cmd.Wait()
	code = 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	return code, out.String(), errw.String()
}

// watcher is a stream that closes seen once it has shown match count
// times (never, for a count below 0).
type watcher struct {
	mu    sync.Mutex
	b     bytes.Buffer
	match string
	count int
	seen  chan struct{}
	once  sync.Once
}

func (w *watcher) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.b.Write(p)
	if w.count >= 0 && strings.Count(w.b.String(), w.match) >= w.count {
		w.once.Do(func() { close(w.seen) })
	}
	return len(p), nil
}

func (w *watcher) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// watchUntil runs mcpcli watch until stdout has shown want lines with
// match, then stops it with Ctrl+C.
func watchUntil(t *testing.T, match string, want int, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return interruptAfter(t, "stdout", match, want, append([]string{"watch"}, args...)...)
}

// withServer is args then the server's argv after --.
func withServer(argv []string, args ...string) []string {
	return append(append(args, "--"), argv...)
}

// stdioArgs is --stdio for an argv.
func stdioArgs(argv []string) []string {
	var q []string
	for _, a := range argv {
		q = append(q, shellwords.Quote(a))
	}
	return []string{"--stdio", strings.Join(q, " ")}
}

// wantRun runs mcpcli and fails unless it exits with code; it returns
// stdout and stderr.
func wantRun(t *testing.T, code int, args ...string) (stdout, stderr string) {
	t.Helper()
	got, out, errs := run(t, "", args...)
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

// writeAnswers writes an answers file.
func writeAnswers(t *testing.T, body string) string { return writeFile(t, "answers.json", body) }

func TestProtocolThirdParty(t *testing.T) {
	t.Run("go-sdk everything over stdio, pinned to 2025-11-25", func(t *testing.T) {
		t.Parallel()
		argv := thirdparty.GoSDKServer(t, "everything")
		out, _ := wantRun(t, 0, withServer(argv, "discover")...)
		wantContains(t, "discover (auto)", out, "Protocol:     2026-07-28, modern", "How:          negotiated with server/discover")
		out, _ = wantRun(t, 0, withServer(argv, "discover", "--protocol", "2025-11-25")...)
		wantContains(t, "discover --protocol 2025-11-25", out, "Protocol:     2025-11-25, legacy (initialize handshake)",
			"How:          pinned with --protocol 2025-11-25: the initialize handshake, no server/discover")
		// Its elicit tool uses the legacy elicitation/create, refused at
		// 2026-07-28: pinned, it works.
		answers := writeFile(t, "answers.json", `{"elicitation": {"action": "accept", "content": {"random": "xyzzy"}}}`)
		out, errs := wantRun(t, 0, withServer(argv, "call", "elicit (form)", "--protocol", "2025-11-25", "--answers", answers)...)
		wantContains(t, "call elicit (form)", out, "xyzzy")
		wantContains(t, "stderr", errs, `→ elicitation: accept (answers file, key "elicitation")`)
	})
	t.Run("server-everything over stdio, pinned to 2026-07-28", func(t *testing.T) {
		t.Parallel()
		argv := thirdparty.Everything(t)
		_, errs := wantRun(t, 1, withServer(argv, "discover", "--protocol", "2026-07-28")...)
		wantContains(t, "stderr", errs, "did not start a 2026-07-28 session with server/discover (-32601 method not found",
			"--protocol 2026-07-28 allows no fallback; use --protocol auto or 2025-11-25")
		out, _ := wantRun(t, 0, withServer(argv, "discover")...)
		wantContains(t, "discover (auto)", out, "How:          fallback: the server refused server/discover (-32601 method not found")
	})
	t.Run("server-everything over Streamable HTTP", func(t *testing.T) {
		t.Parallel()
		url := thirdparty.EverythingHTTP(t)
		out, _ := wantRun(t, 0, "discover", "--url", url)
		wantContains(t, "discover (auto)", out, "Protocol:     2025-11-25, legacy (initialize handshake, HTTP session)",
			"How:          fallback: the server refused server/discover (HTTP 400 Bad Request with JSON-RPC error -32000: Bad Request: Server not initialized)")
		out, _ = wantRun(t, 0, "discover", "--url", url, "--protocol", "2025-11-25", "-o", "json")
		wantContains(t, "discover -o json", out, `"pinned": true`, `"discover": "not-sent"`, `"transport": "streamable-http"`)
	})
}

func TestHTTPSSEThirdParty(t *testing.T) {
	for _, tc := range []struct {
		name     string
		url      func(t testing.TB) string
		status   string // what the POST to the SSE URL got
		tool     string
		callArgs []string
		want     string
	}{
		{"server-everything sse", thirdparty.EverythingSSE, "HTTP 404 Not Found", "trigger-elicitation-request", []string{"echo", "message=over sse"}, "Echo: over sse"},
		{"TypeScript SDK simpleSseServer", func(t testing.TB) string { return thirdparty.SDKExampleSSE(t, "simpleSseServer") }, "HTTP 404 Not Found", "start-notification-stream", nil, ""},
		{"TypeScript SDK sseAndStreamableHttpCompatibleServer", func(t testing.TB) string {
			return thirdparty.SDKExampleSSE(t, "sseAndStreamableHttpCompatibleServer")
		}, "HTTP 404 Not Found", "start-notification-stream", nil, ""},
		{"go-sdk sse", func(t testing.TB) string { return thirdparty.GoSDKServerHTTP(t, "sse") }, `HTTP 400 Bad Request: "sessionid must be provided"`, "greet1", []string{"greet1", "name=Ada"}, "Ada"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			url := tc.url(t)
			out, _ := wantRun(t, 0, "discover", "--url", url)
			wantContains(t, "discover", out, "Protocol:     2025-11-25, legacy (initialize handshake, HTTP+SSE)",
				"How:          HTTP+SSE (the 2024-11-05 transport): the POST to the URL got "+tc.status+", and a GET opened the event stream")
			out, _ = wantRun(t, 0, "tools", "--url", url, "--transport", "sse")
			wantContains(t, "tools --transport sse", out, tc.tool)
			if tc.callArgs != nil {
				trace := t.TempDir() + "/trace.jsonl"
				out, _ = wantRun(t, 0, append([]string{"call", "--url", url, "--trace", trace}, tc.callArgs...)...)
				wantContains(t, "call", out, tc.want)
				wantContains(t, "the trace", readFile(t, trace), `"method":"GET"`, `"method":"tools/call"`, `"result":{"content"`)
			}
			_, errs := wantRun(t, 1, "tools", "--url", url, "--transport", "streamable")
			wantContains(t, "tools --transport streamable", errs, "answered HTTP 40")
		})
	}
	t.Run("neither", func(t *testing.T) {
		t.Parallel()
		url := strings.TrimSuffix(thirdparty.EverythingSSE(t), "/sse") + "/nothing"
		_, errs := wantRun(t, 1, "tools", "--url", url)
		wantContains(t, "stderr", errs, "answers neither Streamable HTTP (POST: HTTP 404 Not Found) nor HTTP+SSE (GET: HTTP 404 Not Found)",
			"check the URL's path")
	})
}

func TestRootsThirdParty(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("from a root\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	uri := "file://" + filepath.ToSlash(dir)
	t.Run("server-everything get-roots-list over stdio and HTTP", func(t *testing.T) {
		t.Parallel()
		for _, where := range [][]string{withServer(thirdparty.Everything(t)), {"--url", thirdparty.EverythingHTTP(t)}} {
			out, _ := wantRun(t, 0, append([]string{"call", "get-roots-list", "--root", dir}, where...)...)
			wantContains(t, "get-roots-list", out, "Current MCP Roots (1 total)", "URI: "+uri)
		}
	})
	t.Run("server-filesystem started without a directory", func(t *testing.T) {
		t.Parallel()
		argv := thirdparty.FilesystemNoRoot(t)
		out, _ := wantRun(t, 0, withServer(argv, "call", "list_allowed_directories", "--root", dir)...)
		wantContains(t, "list_allowed_directories", out, dir)
		out, _ = wantRun(t, 0, withServer(argv, "call", "read_text_file", "path="+filepath.Join(dir, "notes.txt"), "--root", dir)...)
		wantContains(t, "read_text_file", out, "from a root")
	})
	t.Run("go-sdk everything roots over the initialize handshake", func(t *testing.T) {
		t.Parallel()
		argv := thirdparty.GoSDKServer(t, "everything")
		out, _ := wantRun(t, 0, withServer(argv, "call", "roots", "--protocol", "2025-11-25", "--root", dir)...)
		wantContains(t, "roots (stdio)", out, filepath.Base(dir)+":"+uri)
		url := thirdparty.GoSDKServerHTTP(t, "everything")
		out, _ = wantRun(t, 0, "call", "roots", "--root", dir, "--url", url)
		wantContains(t, "roots (HTTP)", out, filepath.Base(dir)+":"+uri)
		// Undeclared: the server gets an error, not an empty list, and
		// the person is told how to give it roots.
		out, errs := wantRun(t, 2, "call", "roots", "--url", url)
		wantContains(t, "roots without --root", out, "method not found")
		wantContains(t, "stderr", errs, `sent a roots/list request, although mcpcli did not declare roots`, "pass --root DIR")
	})
}

func TestSamplingThirdParty(t *testing.T) {
	reply := writeFile(t, "reply.json", `{"sampling": {"role": "assistant", "content": {"type": "text", "text": "Paris is the capital."}, "model": "atlas-7"}}`)
	decline := writeFile(t, "decline.json", `{"*": {"action": "decline"}}`)
	t.Run("server-everything trigger-sampling-request over stdio and HTTP", func(t *testing.T) {
		t.Parallel()
		for _, where := range [][]string{withServer(thirdparty.Everything(t)), {"--url", thirdparty.EverythingHTTP(t)}} {
			args := append([]string{"call", "trigger-sampling-request", "prompt=What is the capital of France?", "--sampling", "--answers", reply}, where...)
			out, errs := wantRun(t, 0, args...)
			wantContains(t, "trigger-sampling-request", out, "LLM sampling result:", `"model": "atlas-7"`, `"text": "Paris is the capital."`)
			wantContains(t, "stderr", errs, `→ sampling: reply from model atlas-7 (answers file, key "sampling")`)
			args = append([]string{"call", "trigger-sampling-request", "prompt=x", "--sampling", "--answers", decline}, where...)
			out, _ = wantRun(t, 2, args...)
			wantContains(t, "declined", out, "User rejected sampling request")
		}
		// Lines: the request as the server wrote it, then the reply.
		code, out, errs := run(t, "w\nA reply from a person.\n.\ny\n", withServer(thirdparty.Everything(t), "call", "trigger-sampling-request", "prompt=Say hi", "maxTokens=42", "--sampling", "--accessible")...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		wantContains(t, "stderr", errs, "System prompt:", "You are a helpful test server.", "[user] Resource trigger-sampling-request context: Say hi", "max tokens 42 · temperature 0.7")
		wantContains(t, "stdout", out, `"model": "mcpcli-human"`, "A reply from a person.")
	})
	t.Run("go-sdk everything sample, initialize handshake", func(t *testing.T) {
		t.Parallel()
		argv := thirdparty.GoSDKServer(t, "everything")
		out, _ := wantRun(t, 0, withServer(argv, "call", "sample", "--protocol", "2025-11-25", "--sampling", "--answers", reply)...)
		wantContains(t, "sample (stdio)", out, "Paris is the capital.")
		out, _ = wantRun(t, 0, "call", "sample", "--sampling", "--answers", reply, "--url", thirdparty.GoSDKServerHTTP(t, "everything"))
		wantContains(t, "sample (HTTP)", out, "Paris is the capital.")
		_, errs := wantRun(t, 1, withServer(argv, "call", "sample", "--protocol", "2025-11-25")...)
		wantContains(t, "without --sampling", errs, `sent a sampling/createMessage request, although mcpcli did not declare sampling`, "pass --sampling")
	})
}

func TestSaveThirdParty(t *testing.T) {
	t.Parallel()
	argv := thirdparty.Everything(t)
	dir := filepath.Join(t.TempDir(), "saved")
	out, errs := wantRun(t, 0, withServer(argv, "call", "get-tiny-image", "--save", dir)...)
	wantContains(t, "stdout", out, "[image image/png")
	wantContains(t, "stderr", errs, "saved image image/png", "to "+filepath.Join(dir, "content-1.png"))
	if b := readFile(t, filepath.Join(dir, "content-1.png")); !strings.HasPrefix(b, "\x89PNG") {
		t.Errorf("content-1.png starts with %q, want a PNG", b[:min(len(b), 8)])
	}
	// A gzip blob, named after its resource; the data: URI keeps the
	// server off the network.
	_, errs = wantRun(t, 0, withServer(argv, "call", "gzip-file-as-resource", "data=data:text/plain,hello%20world", "name=hello.gz", "outputType=resource", "--save", dir)...)
	wantContains(t, "stderr", errs, "saved blob application/gzip", filepath.Join(dir, "hello.gz"))
	if b := readFile(t, filepath.Join(dir, "hello.gz")); !strings.HasPrefix(b, "\x1f\x8b") {
		t.Errorf("hello.gz starts with %q, want gzip", b[:min(len(b), 2)])
	}
	// read --save: a resource blob, decoded for display too; again, without
	// overwriting.
	for _, want := range []string{"2.txt", "2-2.txt"} {
		out, errs = wantRun(t, 0, withServer(argv, "read", "demo://resource/dynamic/blob/2", "--save", dir)...)
		wantMatch(t, "read --save", out, `\[blob text/plain 5[56] B, decoded\]`)
		wantMatch(t, "stderr", errs, `saved blob text/plain 5[56] B to `+regexp.QuoteMeta(filepath.Join(dir, want))+`\n`)
	}
	_, errs = wantRun(t, 0, withServer(argv, "call", "echo", "message=hi", "--save", dir)...)
	wantContains(t, "stderr", errs, "--save: the result has no image, audio or blob content to save")
}

func TestWatchThirdParty(t *testing.T) {
	t.Parallel()
	// server-everything sends list changes unasked, and logs each
	// subscription; over HTTP, on its GET stream.
	for _, where := range [][]string{withServer(thirdparty.Everything(t)), {"--url", thirdparty.EverythingHTTP(t)}} {
		args := append([]string{"--resource", "demo://resource/static/document/features.md"}, where...)
		code, out, errs := watchUntil(t, "Received Subscribe Resource request", 1, args...)
		if code != 0 {
			t.Errorf("exit %d; stderr:\n%s", code, errs)
		}
		wantContains(t, "watch", out, "notifications/tools/list_changed\n", "notifications/message [info] Received Subscribe Resource request for URI: demo://resource/static/document/features.md")
		code, out, _ = watchUntil(t, "Received Subscribe Resource request", 1, append([]string{"-o", "json"}, args...)...)
		if code != 0 || !strings.HasPrefix(out, `{"method":"notifications/tools/list_changed","jsonrpc":"2.0"}`+"\n") {
			t.Errorf("watch -o json exited %d with:\n%s", code, out)
		}
		wantContains(t, "watch -o json", out, `{"method":"notifications/message","params":{"level":"info","data":"Received Subscribe Resource request for URI: demo://resource/static/document/features.md`)
	}
}

func TestTasksThirdParty(t *testing.T) {
	answers := writeFile(t, "answers.json", `{"elicitation": {"action": "accept", "content": {"interpretation": "historical"}}}`)
	interactive := writeFile(t, "interactive.json", `{
		"sampling": {"role": "assistant", "content": {"type": "text", "text": "Frogs leap\nin the still pond\nsplash"}, "model": "haiku-1"},
		"*": {"action": "accept", "content": {"confirm": true}}
	}`)
	t.Run("server-everything simulate-research-query over stdio and HTTP", func(t *testing.T) {
		t.Parallel()
		for _, where := range [][]string{withServer(thirdparty.Everything(t)), {"--url", thirdparty.EverythingHTTP(t)}} {
			out, _ := wantRun(t, 0, append([]string{"tools"}, where...)...)
			wantContains(t, "tools", out, "simulate-research-query topic=string [ambiguous=boolean] (task: required)")
			out, _ = wantRun(t, 0, append([]string{"discover"}, where...)...)
			wantContains(t, "discover", out, "tasks (tools/call, list, cancel)")
			// The task's elicitation comes through tasks/result, answered
			// from the file; the status from tasks/get.
			out, errs := wantRun(t, 0, append([]string{"call", "simulate-research-query", "topic=mcp", "ambiguous=true", "--answers", answers}, where...)...)
			wantContains(t, "result", out, "# Research Report: mcp (historical)", "- Stage 4: Generating report ✓")
			wantContains(t, "stderr", errs, "…: working — Gathering sources...", `→ elicitation: accept (answers file, key "elicitation")`, "…: completed")
		}
	})
	t.Run("Ctrl+C cancels the task", func(t *testing.T) {
		t.Parallel()
		argv := thirdparty.Everything(t)
		trace := filepath.Join(t.TempDir(), "trace.jsonl")
		code, _, errs := interruptWhen(t, "stderr", "…: working — ", withServer(argv, "call", "simulate-research-query", "topic=mcp", "--trace", trace)...)
		if code != 130 {
			t.Fatalf("exit %d after Ctrl+C, want 130; stderr:\n%s", code, errs)
		}
		wantContains(t, "stderr", errs, `of tool "simulate-research-query" was abandoned; tasks/cancel was sent`)
		wantContains(t, "the trace", readFile(t, trace), `"method":"tasks/cancel"`)
		// The tasks/result it stopped waiting on is cancelled in words.
		if tr := readFile(t, trace); strings.Contains(tr, `"reason":"context canceled"`) {
			t.Errorf("a notifications/cancelled says only \"context canceled\":\n%s", tr)
		}
	})
	t.Run("TypeScript SDK simpleTaskInteractive", func(t *testing.T) {
		t.Parallel()
		url := thirdparty.SDKExampleHTTP(t, "simpleTaskInteractive")
		out, _ := wantRun(t, 0, "call", "confirm_delete", "filename=notes.txt", "--answers", interactive, "--url", url)
		wantContains(t, "confirm_delete", out, "Deleted 'notes.txt'")
		out, errs := wantRun(t, 0, "call", "write_haiku", "topic=frogs", "--sampling", "--answers", interactive, "--url", url)
		wantContains(t, "write_haiku", out, "Frogs leap")
		wantContains(t, "stderr", errs, `→ sampling: reply from model haiku-1 (answers file, key "sampling")`, "…: input_required")
		_, errs = wantRun(t, 1, "call", "write_haiku", "topic=frogs", "--answers", interactive, "--url", url)
		wantContains(t, "write_haiku without --sampling", errs, "pass --sampling")
	})
	t.Run("TypeScript SDK simpleStreamableHttp", func(t *testing.T) {
		t.Parallel()
		url := thirdparty.SDKExampleHTTP(t, "simpleStreamableHttp")
		out, _ := wantRun(t, 0, "tools", "--url", url)
		wantContains(t, "tools", out, "delay [duration=number] (task: required)")
		out, _ = wantRun(t, 0, "call", "delay", "duration=300", "--url", url)
		wantContains(t, "delay", out, "Completed 300ms delay")
	})
}

func TestVerboseShowsServerStderrThirdParty(t *testing.T) {
	t.Parallel()
	argv, _ := thirdparty.Filesystem(t)
	_, errs := wantRun(t, 0, withServer(argv, "tools", "-v")...)
	wantContains(t, "stderr with -v", errs, "[server stderr] Secure MCP Filesystem Server running on stdio\n")
	_, errs = wantRun(t, 0, withServer(argv, "tools")...)
	if strings.Contains(errs, "Secure MCP Filesystem Server") {
		t.Errorf("without -v the server's stderr is shown:\n%s", errs)
	}
	// Without a root the server explains, on stderr, why every path is
	// refused: with -v the person sees it.
	_, errs = wantRun(t, 0, withServer(thirdparty.FilesystemNoRoot(t), "call", "list_allowed_directories", "-v")...)
	wantContains(t, "stderr with -v", errs, "[server stderr] Started without allowed directories - waiting for client to provide roots via MCP protocol")
}

func TestOverStreamableHTTPThirdParty(t *testing.T) {
	t.Parallel()
	url := thirdparty.EverythingHTTP(t)
	out, _ := wantRun(t, 0, "read", "demo://resource/dynamic/text/{resourceId}", "--var", "resourceId=4", "--url", url)
	wantContains(t, "read template", out, "Resource 4: This is a plaintext resource")
	dir := t.TempDir()
	_, errs := wantRun(t, 0, "call", "get-tiny-image", "--save", dir, "--url", url)
	wantContains(t, "--save", errs, "saved image image/png", filepath.Join(dir, "content-1.png"))
}

// server-everything's trigger-url-elicitation with errorPath=true answers
// -32042 with its URL asks: they are asked (here from an answers file),
// then the call goes again.
func TestEverythingURLElicitationRequired(t *testing.T) {
	ev := stdioArgs(thirdparty.Everything(t))
	accept := writeAnswers(t, `{"elicitation": {"action": "accept"}}`)
	code, out, errs := run(t, "", append([]string{"call", "trigger-url-elicitation", "url=https://example.com/signin", "errorPath=true", "--answers", accept, "-v"}, ev...)...)
	if code != 0 || !strings.Contains(out, "completed the URL elicitation") {
		t.Fatalf("exit %d, stdout %q, stderr:\n%s", code, out, errs)
	}
	for _, want := range []string{"← error -32042, URL elicitation required (round 1): asks elicitation", "URL:  https://modelcontextprotocol.io", "again, new id"} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr does not say %q:\n%s", want, errs)
		}
	}
	decline := writeAnswers(t, `{"elicitation": {"action": "decline"}}`)
	code, _, errs = run(t, "", append([]string{"call", "trigger-url-elicitation", "url=https://example.com/signin", "errorPath=true", "--answers", decline}, ev...)...)
	if code != 1 || !strings.Contains(errs, "(-32042); you answered decline, so the request was not sent again") {
		t.Errorf("declined: exit %d, stderr:\n%s", code, errs)
	}
}

// server-filesystem and server-memory return structuredContent that only
// restates their text: each result is printed once.
func TestThirdPartyResultsArePrintedOnce(t *testing.T) {
	fs, root := thirdparty.Filesystem(t)
	code, out, errs := run(t, "", append([]string{"call", "read_text_file", "path=" + root + "/hello.txt"}, stdioArgs(fs)...)...)
	if code != 0 || strings.Count(out, "hello from mcpcli's tests") != 1 || strings.Contains(out, "structuredContent") {
		t.Errorf("server-filesystem read_text_file: exit %d, stdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	mem, _ := thirdparty.Memory(t)
	code, out, errs = run(t, "", append([]string{"call", "create_entities", `entities=[{"name":"Ada","entityType":"person","observations":["wrote the first program"]}]`}, stdioArgs(mem)...)...)
	if code != 0 || strings.Count(out, "wrote the first program") != 1 || strings.Contains(out, "structuredContent") {
		t.Errorf("server-memory create_entities: exit %d, stdout:\n%s\nstderr:\n%s", code, out, errs)
	}
}

// The TypeScript SDK's toolWithSampleServer prints a banner on stdout
// before it speaks: skipped, with one warning.
func TestThirdPartyBannerIsSkipped(t *testing.T) {
	argv := thirdparty.SDKExample(t, "toolWithSampleServer")
	code, out, errs := run(t, "", append([]string{"tools"}, stdioArgs(argv)...)...)
	if code != 0 || !strings.Contains(out, "summarize") {
		t.Fatalf("tools against toolWithSampleServer: exit %d, stdout %q, stderr:\n%s", code, out, errs)
	}
	if strings.Count(errs, "not a JSON-RPC message") != 1 || !strings.Contains(errs, `("MCP server is running...")`) {
		t.Errorf("stderr should warn once, quoting the banner:\n%s", errs)
	}
}
