package main

import (
	"fmt"
	"io"
	"strings"
)

// rssTarget bounds mcpcli's peak RSS against the bare client's on every path.
const rssTarget = 1.3

// row is one path's line in the table: its numbers, or why it has none.
type row struct {
	name   string
	target float64 // the largest time ratio that passes
	sum    summary
	na     string // set when the path was not measured: why
}

// verdict is PASS, or says which target the path is over and by how much.
func (r row) verdict() string {
	if r.na != "" {
		return "n/a"
	}
	var over []string
	if !(r.sum.ratio <= r.target) {
		over = append(over, fmt.Sprintf("time %.2f× > %.2f×", r.sum.ratio, r.target))
	}
	if !(r.sum.rssRatio <= rssTarget) {
		over = append(over, fmt.Sprintf("RSS %.2f× > %.2f×", r.sum.rssRatio, rssTarget))
	}
	if len(over) == 0 {
		return "PASS"
	}
	return "over: " + strings.Join(over, "; ")
}

// writeTable writes rows as a Markdown table.
func writeTable(w io.Writer, rows []row) {
	fmt.Fprintln(w, "| path | pairs | mcpcli ms | bare ms | ratio (median of pairs) | ratio p25–p75 | target | CPU ms mcpcli | CPU ms bare | peak RSS mcpcli MiB | bare MiB | RSS ratio | verdict |")
	fmt.Fprintln(w, "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|")
	for _, r := range rows {
		if r.na != "" {
			fmt.Fprintf(w, "| %s | — | — | — | %s | — | ≤ %.2f× | — | — | — | — | — | n/a |\n", r.name, r.na, r.target)
			continue
		}
		s := r.sum
		fmt.Fprintf(w, "| %s | %d | %s | %s | **%.2f×** | %.2f–%.2f× | ≤ %.2f× | %s | %s | %.1f | %.1f | %.2f× | %s |\n",
			r.name, s.n, ms(s.mcpcliMs), ms(s.bareMs), s.ratio, s.p25, s.p75, r.target, cpu(s.mcpcliCPU), cpu(s.bareCPU), s.mcpcliMiB, s.bareMiB, s.rssRatio, r.verdict())
	}
}

// cpu is a CPU time column: none for the first form, whose clients are
// killed and never reaped.
func cpu(v float64) string {
	if v == 0 {
		return "—"
	}
	return ms(v)
}

func ms(v float64) string {
	if v >= 100 {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.1f", v)
}
