//go:build unix

package e2e

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// thousand is the line session's input: 1,000 calls, one a line.
func thousand() string {
	var b strings.Builder
	for i := 0; i < 1000; i++ {
		fmt.Fprintf(&b, "call echo text=hello-%d\n", i)
	}
	return b.String()
}

// BenchmarkThousandCalls compares the scripted loop a person would use,
// `mcpcli session --accessible` with 1,000 call lines piped in, with a bare
// go-sdk client calling the same tool 1,000 times in its own loop, both
// against the demo server over stdio (each run starts it). The two run in
// turn, so that a busy machine slows both alike; the metric x-bare is the
// median of the pairs' ratios (the target: at most 1.3).
func BenchmarkThousandCalls(b *testing.B) {
	bin := buildMcpcli(b)
	input := thousand()
	var session, bare time.Duration
	var ratios []float64
	for b.Loop() {
		start := time.Now()
		cmd := exec.Command(bin, "session", "--accessible", "--", bin, "demo-server")
		cmd.Stdin = strings.NewReader(input)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			b.Fatalf("session: %v\n%s", err, errb.String())
		}
		if n := strings.Count(out.String(), "\n"); n != 1000 {
			b.Fatalf("session printed %d lines, want 1000", n)
		}
		took := time.Since(start)
		session += took

		start = time.Now()
		ctx := context.Background()
		c := mcp.NewClient(&mcp.Implementation{Name: "bare", Version: "1"}, nil)
		cs, err := c.Connect(ctx, &mcp.CommandTransport{Command: exec.Command(bin, "demo-server")}, nil)
		if err != nil {
			b.Fatal(err)
		}
		var printed bytes.Buffer
		for i := 0; i < 1000; i++ {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": fmt.Sprintf("hello-%d", i)}})
			if err != nil {
				b.Fatal(err)
			}
			fmt.Fprintln(&printed, res.Content[0].(*mcp.TextContent).Text)
		}
		cs.Close()
		bareTook := time.Since(start)
		bare += bareTook
		ratios = append(ratios, float64(took)/float64(bareTook))
	}
	slices.Sort(ratios)
	b.ReportMetric(float64(session.Milliseconds())/float64(b.N), "ms-session/op")
	b.ReportMetric(float64(bare.Milliseconds())/float64(b.N), "ms-bare/op")
	b.ReportMetric(ratios[len(ratios)/2], "x-bare")
	b.ReportMetric(0, "ns/op")
}

// buildMcpcli builds the binary once per run, as mcpcli does for tests.
func buildMcpcli(tb testing.TB) string {
	tb.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "mcpcli-e2e")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "mcpcli")
		cmd := exec.Command("go", "build", "-o", binPath, "github.com/mcpcli/mcpcli/cmd/mcpcli")
		cmd.Dir = ".."
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		tb.Fatal(buildErr)
	}
	return binPath
}
