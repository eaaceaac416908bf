package tui

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/render"
)

// bigServer's tool big returns "result N:" and 600 KB of text.
func bigServer() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "big", Version: "1"}, nil)
	srv.AddTool(&mcp.Tool{Name: "big", InputSchema: schemaOf(`{"type":"object","properties":{"n":{"type":"string"}}}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var a struct{ N string }
			_ = json.Unmarshal(req.Params.Arguments, &a)
			return textResult("result %s: %s", a.N, strings.Repeat("lorem ipsum dolor sit amet\n", 600<<10/27)), nil
		})
	return srv
}

// Results past the budget go to disk, least lately shown first, and come
// back when shown; past the room on disk they are dropped, the History
// says so, and r sends the request again. The directory goes with the
// session.
func TestResultsKeptWithinTheBudget(t *testing.T) {
	var n atomic.Int32
	h := newHarness(t, bigServer(), harnessOptions{
		forms: func(render.Arguments) (map[string]any, error) {
			return map[string]any{"n": string(rune('0' + n.Add(1)))}, nil
		},
		width: 160, height: 24,
	})
	h.m.kept.budget, h.m.kept.spillMax = 1<<20, 2<<20
	call := func(want string) {
		t.Helper()
		h.keys("esc", "1", "enter")
		h.waitShow(want, "✓ complete")
	}
	call("result 1:")
	call("result 2:")
	h.keys("esc")
	h.waitFor("#1 on disk", func(string) bool { k := h.m.kept.byID[1]; return k != nil && k.state == keptDisk })
	if k := h.m.kept.byID[1]; k.raw != nil || h.m.kept.inMemory > h.m.kept.budget {
		t.Errorf("after a spill %d bytes are kept in memory (budget %d), #1's bytes too: %v", h.m.kept.inMemory, h.m.kept.budget, k.raw != nil)
	}
	dir := h.m.kept.dir
	if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("the spill directory %s: %v, mode %v; want it private (0700)", dir, err, fi.Mode().Perm())
	}
	call("result 3:")
	call("result 4:")
	call("result 5:")
	h.keys("esc")
	h.waitFor("#1 dropped", func(string) bool { return h.m.kept.byID[1].state == keptDropped })
	if _, err := os.Stat(filepath.Join(dir, "1.json")); !os.IsNotExist(err) {
		t.Errorf("#1's file is still there after it was dropped: %v", err)
	}

	// The History says which result is gone; #2 comes back from disk.
	h.keys("5")
	s := h.waitShow("#1 big n=1", "result dropped ·")
	if strings.Count(s, "result dropped") != 1 {
		t.Errorf("the History shows more than #1 dropped:\n%s", s)
	}
	h.keys("end", "enter")
	h.waitShow("result dropped: over the session's 1MiB budget and 2MiB on disk; r re-runs")
	h.keys("esc", "up", "enter")
	h.waitShow("#2 big", "result 2:")

	// r runs #1 again.
	h.keys("esc", "end", "r")
	h.waitShow("#6 big", "result 1:")

	h.m.Close()
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the spill directory %s is still there after the session: %v", dir, err)
	}
}

// Only the result on screen is kept laid out: one left is kept as the
// bytes the server sent, and its decoded contents are let go.
func TestResultsKeptAsTheirBytes(t *testing.T) {
	var n atomic.Int32
	h := newHarness(t, bigServer(), harnessOptions{
		forms: func(render.Arguments) (map[string]any, error) {
			return map[string]any{"n": string(rune('0' + n.Add(1)))}, nil
		},
	})
	h.keys("enter")
	h.waitShow("result 1:", "✓ complete")
	c := h.m.byID[1]
	if c.view == nil || c.result.Tool == nil || len(c.result.Tool.Content) != 0 {
		t.Errorf("the call on screen: view %v, decoded contents kept: %v", c.view != nil, c.result.Tool != nil && len(c.result.Tool.Content) > 0)
	}
	h.keys("esc")
	h.settle()
	if c.view != nil {
		t.Errorf("the call left still keeps its laid-out view")
	}
	if k := h.m.kept.byID[1]; k == nil || len(k.raw) < 600<<10 {
		t.Errorf("the call left does not keep its bytes")
	}
}
