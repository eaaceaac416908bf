package main

import (
	"fmt"
	"io"
	"math"
	"strings"
)

// rssTarget bounds mcpcli's peak RSS against the bare client's on every path.
const rssTarget = 1.3

// row is one path's line in the table: its numbers, or why it has none.
type row struct {
	name   string
	target float64 // the largest time and CPU ratio that passes; 0 for a floor's row
	sum    summary
	na     string // set when the path was not measured: why
}

// verdict is PASS, or says which target the path is over and by how
// much: the wall-time ratio, the CPU ratio (where CPU was measured) and
// the peak RSS ratio.
func (r row) verdict() string {
	if r.na != "" {
		return "n/a"
	}
	if r.target == 0 {
		return "(no target)"
	}
	var over []string
	if !(r.sum.ratio <= r.target) {
		over = append(over, fmt.Sprintf("time %.2f× > %.2f×", r.sum.ratio, r.target))
	}
	if !math.IsNaN(r.sum.cpuRatio) && !(r.sum.cpuRatio <= r.target) {
		over = append(over, fmt.Sprintf("CPU %.2f× > %.2f×", r.sum.cpuRatio, r.target))
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
	fmt.Fprintln(w, "| path | pairs | mcpcli ms | bare ms | time ratio (median of pairs) | p25–p75 | CPU ms mcpcli | CPU ms bare | CPU ratio (median of pairs) | p25–p75 | target | peak RSS mcpcli MiB | bare MiB | RSS ratio | verdict |")
	fmt.Fprintln(w, "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|")
	for _, r := range rows {
		target := "—"
		if r.target > 0 {
			target = fmt.Sprintf("≤ %.2f×", r.target)
		}
		if r.na != "" {
			fmt.Fprintf(w, "| %s | — | — | — | %s | — | — | — | — | — | %s | — | — | — | n/a |\n", r.name, r.na, target)
			continue
		}
		s := r.sum
		cpuRatio, cpuRange := "—", "—"
		if !math.IsNaN(s.cpuRatio) {
			cpuRatio, cpuRange = fmt.Sprintf("**%.2f×**", s.cpuRatio), fmt.Sprintf("%.2f–%.2f×", s.cpuP25, s.cpuP75)
		}
		fmt.Fprintf(w, "| %s | %d | %s | %s | **%.2f×** | %.2f–%.2f× | %s | %s | %s | %s | %s | %.1f | %.1f | %.2f× | %s |\n",
			r.name, s.n, ms(s.mcpcliMs), ms(s.bareMs), s.ratio, s.p25, s.p75, cpu(s.mcpcliCPU), cpu(s.bareCPU), cpuRatio, cpuRange, target, s.mcpcliMiB, s.bareMiB, s.rssRatio, r.verdict())
	}
}

// cpu is a CPU time column: none where it was not measured.
func cpu(v float64) string {
	if v == 0 || math.IsNaN(v) {
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
