package tea

import (
	"testing"
	"time"
)

func TestFrameSchedule(t *testing.T) {
	const frame = 8 * time.Millisecond
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(ms float64) time.Time { return t0.Add(time.Duration(ms * float64(time.Millisecond))) }
	type wake struct {
		ms    float64
		input bool
		now   bool    // drawn at once
		by    float64 // else drawn by then
	}
	for _, c := range []struct {
		name  string
		wakes []wake
	}{
		{"the first frame a frame after the start, even for a key", []wake{
			{ms: 1, by: 8}, {ms: 2, input: true, by: 8},
		}},
		{"a key after a quiet frame is drawn at once", []wake{
			{ms: 1, by: 8}, {ms: 50, input: true, now: true}, {ms: 100, input: true, now: true},
		}},
		{"a key right after another frame is drawn at once", []wake{
			{ms: 1, by: 8}, {ms: 20, now: true}, {ms: 21, input: true, now: true},
		}},
		{"keys within a frame of a key's frame wait for the frame", []wake{
			{ms: 1, by: 8}, {ms: 20, input: true, now: true}, {ms: 22, input: true, by: 28}, {ms: 26, input: true, by: 28},
		}},
		{"other views: at most one frame a frame", []wake{
			{ms: 1, by: 8}, {ms: 20, now: true}, {ms: 21, by: 28}, {ms: 29, by: 36}, {ms: 45, now: true},
		}},
	} {
		s := &frameSchedule{frame: frame, start: t0}
		for i, w := range c.wakes {
			if w.ms > 8 && s.lastFlush.IsZero() {
				s.flushed(at(8), false) // the first frame's timer fired
			}
			now, by := s.woken(at(w.ms), w.input)
			if now != w.now || !w.now && !by.Equal(at(w.by)) {
				t.Errorf("%s: wake %d at %vms (input %v) = now %v, by %v; want now %v, by %vms", c.name, i, w.ms, w.input, now, by.Sub(t0), w.now, w.by)
			}
			if !now && by.Before(at(w.ms)) {
				t.Errorf("%s: wake %d: draw by %v, before the wake", c.name, i, by.Sub(t0))
			}
			// The frame waited for is drawn when its timer fires.
			if !now && i+1 < len(c.wakes) && c.wakes[i+1].ms >= w.by && w.by > 8 {
				s.flushed(at(w.by), false)
			}
		}
	}
}
