//go:build unix

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/transport"
)

// The test binary doubles as the processes of these tests, chosen by
// MCPCLI_TEST_HELPER: "mcpcli" runs main() itself (signal handling and
// all), "server" a go-sdk server over stdio.
func init() {
	if len(os.Args) > 1 && os.Args[1] == transport.SupervisorArg {
		transport.Supervise(os.Args[2:]) // between mcpcli and the server
	}
	switch os.Getenv("MCPCLI_TEST_HELPER") {
	case "mcpcli":
		os.Unsetenv("MCPCLI_TEST_HELPER")
		main()
	case "server":
		helperServer()
		os.Exit(0)
	case "deaf":
		deafServer()
	}
}

// helperServer is a stdio server with a tool that waits until it is
// cancelled. It copies what it reads to $MCPCLI_TEST_RECORD, starts a child
// of its own (sleep) and writes both pids to $MCPCLI_TEST_PIDS, so that a
// test can see the notifications/cancelled and check nothing is left.
// With MCPCLI_TEST_LEGACY set it speaks only 2025-11-25.
func helperServer() {
	opts := &mcp.ServerOptions{}
	if os.Getenv("MCPCLI_TEST_LEGACY") != "" {
		opts.SupportedProtocolVersions = []string{"2025-11-25"}
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "helper", Version: "1"}, opts)
	srv.AddTool(&mcp.Tool{Name: "wait", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	})
	srv.AddTool(&mcp.Tool{Name: "greet", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "Your name?",
			RequestedSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`)})
		if err != nil {
			return nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("Hello, %v (%s)", res.Content["name"], res.Action)}}}, nil
	})
	startChild()
	var in io.Reader = os.Stdin
	if p := os.Getenv("MCPCLI_TEST_RECORD"); p != "" {
		f, err := os.Create(p)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		in = io.TeeReader(os.Stdin, f)
	}
	if err := srv.Run(context.Background(), &mcp.IOTransport{Reader: io.NopCloser(in), Writer: os.Stdout}); err != nil {
		fmt.Fprintln(os.Stderr, "helper server:", err)
	}
}

// startChild starts a child of the server's own (sleep) and writes both
// pids to $MCPCLI_TEST_PIDS. With $MCPCLI_TEST_ESCAPE set the child leaves
// the server's process group and session, as a daemon would.
func startChild() {
	p := os.Getenv("MCPCLI_TEST_PIDS")
	if p == "" {
		return
	}
	sleep := exec.Command("sleep", "300")
	if os.Getenv("MCPCLI_TEST_ESCAPE") != "" {
		sleep.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	}
	if err := sleep.Start(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.WriteFile(p, fmt.Appendf(nil, "%d %d", os.Getpid(), sleep.Process.Pid), 0o600)
}

// deafServer answers server/discover and tools/list, then stops reading
// its stdin at the first message longer than 64 KiB (and says so in
// $MCPCLI_TEST_DEAF): mcpcli's write of it blocks on a full pipe.
func deafServer() {
	startChild()
	in := bufio.NewReaderSize(os.Stdin, 64<<10)
	for {
		line, err := in.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			os.WriteFile(os.Getenv("MCPCLI_TEST_DEAF"), []byte("deaf"), 0o600)
			select {} // never reads again
		}
		if err != nil {
			os.Exit(0)
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		json.Unmarshal(line, &m)
		var result string
		switch m.Method {
		case "server/discover":
			result = `{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"deaf","version":"1"}}}`
		case "tools/list":
			result = `{"resultType":"complete","tools":[{"name":"big","inputSchema":{"type":"object"}}]}`
		default:
			continue
		}
		fmt.Printf(`{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", m.ID, result)
	}
}

// mcpcliProcess starts the real mcpcli (this binary, through main) in its
// own process group, as a shell puts a foreground job, against the helper
// server. extraEnv goes to mcpcli; the server gets it too.
func mcpcliProcess(t *testing.T, extraEnv []string, args ...string) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	return startMcpcli(t, extraEnv, append(args, "--env", "MCPCLI_TEST_HELPER=server", "--", self(t))...)
}

// self is this test binary, which is also mcpcli and the servers.
func self(t *testing.T) string {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

// startMcpcli starts mcpcli with exactly args, in a process group of its
// own as a shell starts a job.
func startMcpcli(t *testing.T, extraEnv []string, args ...string) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(self(t), args...)
	cmd.Env = append(append(os.Environ(), "MCPCLI_TEST_HELPER=mcpcli"), extraEnv...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			cmd.Wait()
		}
	})
	return cmd, &out, &errb
}

// gone reports whether pid no longer runs (a zombie waiting for a parent
// that does not reap counts as gone).
func gone(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return true
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	// pid (comm) state ...: the state follows the last ')'.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && i+2 < len(s) && s[i+2] == 'Z'
}

func poll(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Ctrl+C during a request on stdio: the server is told with
// notifications/cancelled for that request, it and everything it started
// are gone, and mcpcli exits 130.
func TestCtrlCCancelsTheRequestAndStopsTheStdioServer(t *testing.T) {
	for _, tc := range []struct {
		name   string
		legacy bool
	}{{"modern", false}, {"legacy", true}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			record, pids := filepath.Join(dir, "wire.jsonl"), filepath.Join(dir, "pids")
			env := []string{"MCPCLI_TEST_RECORD=" + record, "MCPCLI_TEST_PIDS=" + pids}
			if tc.legacy {
				env = append(env, "MCPCLI_TEST_LEGACY=1")
			}
			answers := filepath.Join(dir, "answers.json")
			os.WriteFile(answers, []byte(`{"*": {"action": "decline"}}`), 0o600)
			cmd, out, errb := mcpcliProcess(t, env, "call", "wait", "--answers", answers)

			var callID json.RawMessage
			poll(t, "the server to receive tools/call", func() bool {
				callID = requestID(t, record, "tools/call")
				return callID != nil
			})
			var serverPid, childPid int
			poll(t, "the server's pids", func() bool {
				b, _ := os.ReadFile(pids)
				n, _ := fmt.Sscanf(string(b), "%d %d", &serverPid, &childPid)
				return n == 2
			})
			// Ctrl+C: the terminal signals the foreground process group,
			// which is mcpcli's; the server has a group of its own.
			if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGINT); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case <-done:
			case <-time.After(20 * time.Second):
				t.Fatalf("mcpcli did not exit after Ctrl+C; stderr:\n%s", errb)
			}
			if code := cmd.ProcessState.ExitCode(); code != exitAbandoned {
				t.Errorf("exit status %d, want %d; stderr:\n%s", code, exitAbandoned, errb)
			}
			if !strings.Contains(errb.String(), "cancelled") || out.Len() != 0 {
				t.Errorf("stdout %q, stderr:\n%s", out, errb)
			}
			cancelled := notification(t, record, "notifications/cancelled")
			if cancelled == nil {
				b, _ := os.ReadFile(record)
				t.Fatalf("the server never saw notifications/cancelled; it read:\n%s", b)
			}
			if got := string(cancelled["requestId"]); got != string(callID) {
				t.Errorf("notifications/cancelled names request %s, want the tools/call %s", got, callID)
			}
			if got := string(cancelled["reason"]); got != `"the user interrupted mcpcli (Ctrl+C)"` {
				t.Errorf("notifications/cancelled gives the reason %s, want the Ctrl+C", got)
			}
			poll(t, "the server and its child to be gone", func() bool { return gone(serverPid) && gone(childPid) })
		})
	}
}

// A 2025-11-25 server over stdio: the initialize handshake, and its own
// elicitation/create answered from the answers file.
func TestLegacyStdioServer(t *testing.T) {
	dir := t.TempDir()
	answers := filepath.Join(dir, "answers.json")
	os.WriteFile(answers, []byte(`{"elicitation": {"action": "accept", "content": {"name": "Ada"}}}`), 0o600)
	cmd, out, errb := mcpcliProcess(t, []string{"MCPCLI_TEST_LEGACY=1", "MCPCLI_TEST_RECORD=" + filepath.Join(dir, "wire.jsonl")},
		"call", "greet", "--answers", answers)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatalf("mcpcli did not finish; stderr:\n%s", errb)
	}
	if code := cmd.ProcessState.ExitCode(); code != 0 || strings.TrimSpace(out.String()) != "Hello, Ada (accept)" {
		t.Errorf("exit %d, stdout %q, stderr:\n%s", code, out, errb)
	}
	if requestID(t, filepath.Join(dir, "wire.jsonl"), "initialize") == nil {
		t.Errorf("no initialize handshake")
	}
}

// requestID is the id of the first request for method in a record, or nil.
func requestID(t *testing.T, record, method string) json.RawMessage {
	for _, m := range messages(record) {
		if m.Method == method && len(m.ID) > 0 {
			return m.ID
		}
	}
	return nil
}

// notification returns the params of the first notification for method.
func notification(t *testing.T, record, method string) map[string]json.RawMessage {
	for _, m := range messages(record) {
		if m.Method == method && len(m.ID) == 0 {
			var p map[string]json.RawMessage
			json.Unmarshal(m.Params, &p)
			return p
		}
	}
	return nil
}

type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

func messages(record string) []message {
	b, _ := os.ReadFile(record)
	var out []message
	for _, line := range strings.Split(string(b), "\n") {
		var m message
		if json.Unmarshal([]byte(line), &m) == nil {
			out = append(out, m)
		}
	}
	return out
}
