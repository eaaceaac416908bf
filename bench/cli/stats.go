package main

import (
	"math"
	"slices"
)

// quantile returns the q-quantile of xs (0 ≤ q ≤ 1), interpolating
// linearly between the two nearest ranks; NaN for no values.
func quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	pos := q * float64(len(s)-1)
	lo := int(math.Floor(pos))
	hi := int(math.Ceil(pos))
	return s[lo] + (s[hi]-s[lo])*(pos-float64(lo))
}

func median(xs []float64) float64 { return quantile(xs, 0.5) }

// pair is one interleaved measurement of both clients' times: wall clock,
// and CPU (user + system, with the processes each reaped).
type pair struct{ mcpcliMs, bareMs, mcpcliCPUMs, bareCPUMs float64 }

// summary is what a table row shows for one path.
type summary struct {
	n                int
	mcpcliMs, bareMs float64 // medians
	mcpcliCPU        float64 // median CPU ms
	bareCPU          float64
	ratio            float64 // median of the paired ratios mcpcli/bare
	p25, p75         float64 // of the paired ratios
	cpuRatio         float64 // median of the paired CPU ratios; NaN without CPU
	cpuP25, cpuP75   float64
	mcpcliMiB        float64 // median peak RSS
	bareMiB          float64
	rssRatio         float64 // of the median peaks
}

// summarize takes the median of the paired ratios, not the ratio of the
// medians: each pair ran back to back, so the load the machine was under
// when it ran cancels out of its ratio. The peaks (KiB) are each client's,
// from the runs that measured them.
func summarize(pairs []pair, mcpcliKB, bareKB []int64) summary {
	var m, b, r, mc, bc, cr, mr, br []float64
	for _, p := range pairs {
		m = append(m, p.mcpcliMs)
		b = append(b, p.bareMs)
		r = append(r, p.mcpcliMs/p.bareMs)
		mc = append(mc, p.mcpcliCPUMs)
		bc = append(bc, p.bareCPUMs)
		if p.bareCPUMs > 0 {
			cr = append(cr, p.mcpcliCPUMs/p.bareCPUMs)
		}
	}
	for _, kb := range mcpcliKB {
		mr = append(mr, float64(kb)/1024)
	}
	for _, kb := range bareKB {
		br = append(br, float64(kb)/1024)
	}
	s := summary{
		n:         len(pairs),
		mcpcliMs:  median(m),
		bareMs:    median(b),
		ratio:     median(r),
		mcpcliCPU: median(mc),
		bareCPU:   median(bc),
		p25:       quantile(r, 0.25),
		p75:       quantile(r, 0.75),
		cpuRatio:  median(cr),
		cpuP25:    quantile(cr, 0.25),
		cpuP75:    quantile(cr, 0.75),
		mcpcliMiB: median(mr),
		bareMiB:   median(br),
	}
	s.rssRatio = s.mcpcliMiB / s.bareMiB
	return s
}
