package main

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestQuantile(t *testing.T) {
	tests := []struct {
		xs   []float64
		q    float64
		want float64
	}{
		{[]float64{3, 1, 2}, 0.5, 2},
		{[]float64{4, 1, 3, 2}, 0.5, 2.5},
		{[]float64{1, 2, 3, 4, 5}, 0.25, 2},
		{[]float64{1, 2}, 0.25, 1.25},
		{[]float64{7}, 0.75, 7},
		{[]float64{5, 1}, 0, 1},
		{[]float64{5, 1}, 1, 5},
	}
	for _, tt := range tests {
		if got := quantile(tt.xs, tt.q); got != tt.want {
			t.Errorf("quantile(%v, %v) = %v, want %v", tt.xs, tt.q, got, tt.want)
		}
	}
	if got := quantile(nil, 0.5); !math.IsNaN(got) {
		t.Errorf("quantile(nil, 0.5) = %v, want NaN", got)
	}
}

func TestQuantileLeavesInputAlone(t *testing.T) {
	xs := []float64{3, 1, 2}
	quantile(xs, 0.5)
	if diff := cmp.Diff([]float64{3, 1, 2}, xs); diff != "" {
		t.Errorf("quantile reordered its input (-want +got):\n%s", diff)
	}
}

// The ratio is the median of the paired ratios: a slow moment that slows
// both runs of a pair leaves that pair's ratio alone, where a ratio of the
// medians would mix pairs run under different loads.
func TestSummarizePairsRatios(t *testing.T) {
	pairs := []pair{{mcpcliMs: 12, bareMs: 10, mcpcliCPUMs: 6, bareCPUMs: 4}, {mcpcliMs: 120, bareMs: 100, mcpcliCPUMs: 8, bareCPUMs: 5}, {mcpcliMs: 11, bareMs: 10, mcpcliCPUMs: 7, bareCPUMs: 3}}
	mcpcliKB, bareKB := []int64{2048, 3072, 2048}, []int64{1024, 2048}
	got := summarize(pairs, mcpcliKB, bareKB)
	want := summary{n: 3, mcpcliMs: 12, bareMs: 10, mcpcliCPU: 7, bareCPU: 4, ratio: 1.2, p25: 1.15, p75: 1.2,
		cpuRatio: 1.6, cpuP25: 1.55, cpuP75: 1.6 + (7.0/3-1.6)/2, mcpcliMiB: 2, bareMiB: 1.5, rssRatio: 2 / 1.5}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(summary{}), cmp.Comparer(func(a, b float64) bool { return math.Abs(a-b) < 1e-9 })); diff != "" {
		t.Errorf("summarize(%v, %v, %v) (-want +got):\n%s", pairs, mcpcliKB, bareKB, diff)
	}
}

func TestVerdict(t *testing.T) {
	tests := []struct {
		r    row
		want string
	}{
		{row{target: 1.15, sum: summary{ratio: 1.15, cpuRatio: 1.1, rssRatio: 1.3}}, "PASS"},
		{row{target: 1.15, sum: summary{ratio: 1.24, cpuRatio: 1.1, rssRatio: 1.0}}, "over: time 1.24× > 1.15×"},
		{row{target: 1.15, sum: summary{ratio: 1.1, cpuRatio: 1.2, rssRatio: 1.0}}, "over: CPU 1.20× > 1.15×"},
		{row{target: 1.3, sum: summary{ratio: 1.0, cpuRatio: math.NaN(), rssRatio: 1.5}}, "over: RSS 1.50× > 1.30×"},
		{row{target: 1.15, sum: summary{ratio: 2, cpuRatio: 2, rssRatio: 2}}, "over: time 2.00× > 1.15×; CPU 2.00× > 1.15×; RSS 2.00× > 1.30×"},
		{row{target: 1.15, sum: summary{ratio: math.NaN(), cpuRatio: 1, rssRatio: 1}}, "over: time NaN× > 1.15×"},
		{row{target: 1.3, na: "no session command yet"}, "n/a"},
		{row{sum: summary{ratio: 3, rssRatio: 3}}, "(no target)"},
	}
	for _, tt := range tests {
		if got := tt.r.verdict(); got != tt.want {
			t.Errorf("row{ratio %v, cpu %v, rss %v, na %q}.verdict() = %q, want %q", tt.r.sum.ratio, tt.r.sum.cpuRatio, tt.r.sum.rssRatio, tt.r.na, got, tt.want)
		}
	}
}

func TestWriteTable(t *testing.T) {
	var b bytes.Buffer
	writeTable(&b, []row{
		{name: "one call", target: 1.15, sum: summary{n: 15, mcpcliMs: 53.25, bareMs: 43, mcpcliCPU: 30, bareCPU: 20.5, ratio: 1.24, p25: 1.2, p75: 1.3, cpuRatio: 1.4, cpuP25: 1.3, cpuP75: 1.5, mcpcliMiB: 20, bareMiB: 16, rssRatio: 1.25}},
		{name: "first form", target: 1.3, sum: summary{n: 15, mcpcliMs: 40, bareMs: 40, cpuRatio: math.NaN(), ratio: 1, p25: 1, p75: 1, mcpcliMiB: 20, bareMiB: 16, rssRatio: 1.25}},
		{name: "1,000 calls", target: 1.3, na: "n/a (no session command yet)"},
	})
	want := strings.Join([]string{
		"| path | pairs | mcpcli ms | bare ms | time ratio (median of pairs) | p25–p75 | CPU ms mcpcli | CPU ms bare | CPU ratio (median of pairs) | p25–p75 | target | peak RSS mcpcli MiB | bare MiB | RSS ratio | verdict |",
		"|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|",
		"| one call | 15 | 53.2 | 43.0 | **1.24×** | 1.20–1.30× | 30.0 | 20.5 | **1.40×** | 1.30–1.50× | ≤ 1.15× | 20.0 | 16.0 | 1.25× | over: time 1.24× > 1.15×; CPU 1.40× > 1.15× |",
		"| first form | 15 | 40.0 | 40.0 | **1.00×** | 1.00–1.00× | — | — | — | — | ≤ 1.30× | 20.0 | 16.0 | 1.25× | PASS |",
		"| 1,000 calls | — | — | — | n/a (no session command yet) | — | — | — | — | — | ≤ 1.30× | — | — | — | n/a |",
		"",
	}, "\n")
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("writeTable (-want +got):\n%s", diff)
	}
}
