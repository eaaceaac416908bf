//go:build unix

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// serveBig is an MCP server on stdio whose tool big returns a text result
// of mb MiB: lines of words, as a log or a listing would be.
func serveBig() {
	s := mcp.NewServer(&mcp.Implementation{Name: "big", Version: "1.0.0"}, nil)
	line := strings.Repeat("lorem ipsum ", 8) + "dolor\n" // 102 bytes
	s.AddTool(&mcp.Tool{Name: "big", Description: "A text result of mb MiB", InputSchema: json.RawMessage(`{"type":"object","properties":{"mb":{"type":"number"}},"required":["mb"]}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var args struct {
				MB float64 `json:"mb"`
			}
			_ = json.Unmarshal(req.Params.Arguments, &args)
			n := int(args.MB * (1 << 20))
			var b strings.Builder
			b.Grow(n)
			for b.Len()+len(line) <= n {
				b.WriteString(line)
			}
			b.WriteString(strings.Repeat("z", n-b.Len()))
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: b.String()}}}, nil
		})
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		os.Exit(1)
	}
}

// bigSession starts a session with the big server, its temporary files
// in tmp.
func bigSession(t *testing.T, tmp string, flags ...string) *term {
	bin := mcpcli(t)
	self, err := os.Executable() // the test binary serves (TestMain)
	if err != nil {
		t.Fatal(err)
	}
	argv := append(append([]string{bin, "session"}, flags...), "--", self)
	tm := start(t, []string{serverEnv + "=big", "TMPDIR=" + shellQuote(tmp)}, "", argv...)
	tm.waitFor("big 1.0.0", "Tools 1")
	return tm
}

// bigCall calls big with mb MiB through its arguments form, then goes
// back to the History.
func (tm *term) bigCall(n int, mb string) {
	tm.keys("1", "Enter")
	tm.waitFor("Arguments for tool big")
	tm.text(mb)
	tm.keys("Enter")
	tm.waitFor("[ Send ]")
	tm.keys("Enter")
	tm.waitFor(fmt.Sprintf("#%d big", n), "✓ complete")
	tm.keys("Escape", "5")
	tm.waitFor("History")
}

// Past --result-budget the results go to a private directory in $TMPDIR,
// come back from it when shown, and the directory goes when the session
// ends, by q or by a signal.
func TestSessionSpillsResultsPastItsBudget(t *testing.T) {
	for _, end := range []string{"q", "SIGTERM"} {
		t.Run(end, func(t *testing.T) {
			tmp := t.TempDir()
			tm := bigSession(t, tmp, "--result-budget", "1MiB")
			for i := 1; i <= 3; i++ {
				tm.bigCall(i, "0.6")
			}
			var dir string
			deadline := time.Now().Add(wait)
			for dir == "" {
				if m, _ := filepath.Glob(filepath.Join(tmp, "mcpcli-results-*", "1.json")); len(m) == 1 {
					dir = filepath.Dir(m[0])
				} else if time.Now().After(deadline) {
					t.Fatalf("no result was spilled to %s", tmp)
				}
				time.Sleep(30 * time.Millisecond)
			}
			if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
				t.Errorf("%s: %v; want a directory only its owner can read", dir, err)
			}
			if fi, err := os.Stat(filepath.Join(dir, "1.json")); err != nil || fi.Mode().Perm() != 0o600 {
				t.Errorf("1.json: %v; want a file only its owner can read", err)
			}
			// The oldest, shown again, is read back from its file.
			tm.keys("End", "Enter")
			tm.waitFor("#1 big", "mb=0.6", "Result · 621 KB", "lorem ipsum dolor")
			if end == "q" {
				tm.keys("Escape", "q")
				tm.exited()
			} else {
				g := &guarded{term: tm}
				g.signal(syscall.SIGTERM)
				tm.waitFor("the session ended on SIGTERM")
			}
			if _, err := os.Stat(dir); !os.IsNotExist(err) {
				t.Errorf("%s is still there after the session ended: %v", dir, err)
			}
		})
	}
}

// peakRSS is the most memory a process has held (VmHWM), in bytes.
func peakRSS(t *testing.T, pid int) int64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Skipf("no /proc here to read mcpcli's memory: %v", err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) == 3 && f[0] == "VmHWM:" {
			var kb int64
			fmt.Sscan(f[1], &kb)
			return kb << 10
		}
	}
	t.Fatalf("/proc/%d/status has no VmHWM", pid)
	return 0
}

// The scenarios: 41 results of 1 MB, 9 of 19 MB, each left on
// screen and then for the History, as a person calling a tool again
// would. The session used to hold about 5× the results (236 MB, 712 MB);
// it keeps their bytes, within the budget (64 MiB), and lays out only
// the one on screen. What is asserted is the peak memory against a bound
// well above the budget and the one result laid out: GC's own headroom
// and the transport's buffers are not the results.
func TestSessionMemoryIsBoundedByTheResultBudget(t *testing.T) {
	for _, tc := range []struct {
		mb    string
		calls int
		limit int64
	}{
		{"1", 41, 170 << 20},
		{"19", 9, 500 << 20},
	} {
		t.Run(fmt.Sprintf("%dx%sMB", tc.calls, tc.mb), func(t *testing.T) {
			if tc.mb == "19" && testing.Short() {
				t.Skip("-short: 170 MB of results")
			}
			tm := bigSession(t, t.TempDir())
			pid := (&guarded{term: tm}).pid()
			tm.bigCall(1, tc.mb)
			for i := 2; i <= tc.calls; i++ {
				tm.keys("Home", "r")
				tm.waitFor(fmt.Sprintf("#%d big", i), "✓ complete")
				tm.keys("Escape", "5")
			}
			peak := peakRSS(t, pid)
			t.Logf("%d calls of %s MB: peak memory %d MB", tc.calls, tc.mb, peak>>20)
			if peak > tc.limit {
				t.Errorf("%d calls of %s MB took mcpcli to %d MB; want at most %d MB", tc.calls, tc.mb, peak>>20, tc.limit>>20)
			}
			tm.keys("q")
			tm.exited()
		})
	}
}
