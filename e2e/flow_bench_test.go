//go:build unix

package e2e

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// flowCalls is how many create_repo wizards (two rounds each, both
// accepted) a run makes.
const flowCalls = 100

// BenchmarkFlowVsAccessible compares a flow run (`mcpcli test` of a file
// of flowCalls create_repo steps, each round answered and checked) with
// the same calls made with `session --accessible` (flowCalls call lines
// piped in, the rounds answered by an answers file), both against the
// demo server over stdio (each run starts it). The two run in turn, so a
// busy machine slows both alike; x-wall and x-cpu are the medians of the
// pairs' ratios, flow over session (mcpcli's own CPU, user and system; the
// issue's target: at most 1.3).
func BenchmarkFlowVsAccessible(b *testing.B) {
	bin := buildMcpcli(b)
	dir := b.TempDir()
	answers := filepath.Join(dir, "answers.json")
	if err := os.WriteFile(answers, []byte(`{"basics": {"action": "accept", "content": {"name": "hello", "visibility": "private"}}, "details": {"action": "accept", "content": {"license": "MIT"}}}`), 0o644); err != nil {
		b.Fatal(err)
	}
	var flow, lines strings.Builder
	fmt.Fprintf(&flow, "server command %s demo-server\n", bin)
	for range flowCalls {
		fmt.Fprint(&flow, `
call create_repo {"owner": "octo"}
  round 1
    ask basics form
      fields == ["name", "visibility"]
      required == ["name", "visibility"]
    answer basics accept {"name": "hello", "visibility": "private"}
  round 2
    ask details form
      required == ["license"]
    answer details accept {"license": "MIT"}
  result
    rounds == 2
    text == "Created private repository octo/hello (license: MIT)."
`)
		fmt.Fprintln(&lines, "call create_repo owner=octo")
	}
	flowFile := filepath.Join(dir, "wizard.flow")
	if err := os.WriteFile(flowFile, []byte(flow.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	run := func(stdin string, args ...string) (wall, cpu time.Duration, out string) {
		cmd := exec.Command(bin, args...)
		cmd.Stdin = strings.NewReader(stdin)
		var o, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &e
		start := time.Now()
		if err := cmd.Run(); err != nil {
			b.Fatalf("mcpcli %s: %v\n%s\n%s", strings.Join(args, " "), err, o.String(), e.String())
		}
		wall = time.Since(start)
		return wall, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), o.String()
	}
	var walls, cpus []float64
	var flowWall, sessionWall time.Duration
	for b.Loop() {
		fw, fc, out := run("", "test", flowFile)
		if !strings.Contains(out, "1 flow, 1 passed") {
			b.Fatalf("mcpcli test did not pass:\n%s", out)
		}
		sw, sc, out := run(lines.String(), "session", "--accessible", "--answers", answers, "--", bin, "demo-server")
		if n := strings.Count(out, "Created private repository octo/hello"); n != flowCalls {
			b.Fatalf("the session created %d repositories, want %d:\n%s", n, flowCalls, out)
		}
		flowWall += fw
		sessionWall += sw
		walls = append(walls, float64(fw)/float64(sw))
		cpus = append(cpus, float64(fc)/float64(sc))
	}
	slices.Sort(walls)
	slices.Sort(cpus)
	b.ReportMetric(float64(flowWall.Milliseconds())/float64(b.N), "ms-flow/op")
	b.ReportMetric(float64(sessionWall.Milliseconds())/float64(b.N), "ms-session/op")
	b.ReportMetric(walls[len(walls)/2], "x-wall")
	b.ReportMetric(cpus[len(cpus)/2], "x-cpu")
	b.ReportMetric(0, "ns/op")
}
