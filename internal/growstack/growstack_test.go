package growstack

import (
	"runtime/debug"
	"testing"
	"unsafe"
)

// inNewGoroutine runs f in a new goroutine, whose stack starts small, with
// the garbage collector off so that it cannot shrink the stack meanwhile.
func inNewGoroutine(f func()) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	<-done
}

// addr is where p points. Given the address of a local variable, it tells
// whether the runtime moved the goroutine's stack: a move changes it.
func addr(p *byte) uintptr { return uintptr(unsafe.Pointer(p)) }

// TestGrowMovesTheStackOnce: Grow in a new goroutine moves its stack to a
// bigger one, and calls 48 KiB deep after it fit there without moving it
// again.
func TestGrowMovesTheStackOnce(t *testing.T) {
	inNewGoroutine(func() {
		var local byte
		start := addr(&local)
		Grow()
		grown := addr(&local)
		descend(48)
		deep := addr(&local)
		if grown == start {
			t.Errorf("Grow() in a new goroutine: its stack did not move (a local stayed at %#x), want it moved to a bigger one", start)
		}
		if deep != grown {
			t.Errorf("descend(48) after Grow(): the stack moved again (a local went from %#x to %#x), want the 48 KiB to fit in the stack Grow made", grown, deep)
		}
	})
}

// TestDeepCallsWithoutGrowMoveTheStack is the control for the test above:
// without Grow, the same calls do move the stack, so the test above sees
// what Grow did and not a stack that was big to begin with.
func TestDeepCallsWithoutGrowMoveTheStack(t *testing.T) {
	inNewGoroutine(func() {
		var local byte
		start := addr(&local)
		descend(48)
		if moved := addr(&local); moved == start {
			t.Errorf("descend(48) in a new goroutine: its stack did not move (a local stayed at %#x), want it grown on the way down", start)
		}
	})
}

// descend makes n nested calls with a 1 KiB frame each.
//
//go:noinline
func descend(n int) byte {
	var frame [1 << 10]byte
	frame[n%len(frame)] = byte(n)
	if n > 0 {
		frame[0] += descend(n - 1)
	}
	return frame[0]
}

// BenchmarkDeepCallsInANewGoroutine is what Grow saves: a goroutine that
// goes 24 KiB deep grows its stack several times on the way down, and each
// time the runtime copies the stack and walks every frame on it; after
// Grow it does not.
func BenchmarkDeepCallsInANewGoroutine(b *testing.B) {
	for _, grow := range []bool{false, true} {
		name := "as it comes"
		if grow {
			name = "after Grow"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				done := make(chan struct{})
				go func() {
					defer close(done)
					if grow {
						Grow()
					}
					descend(24)
				}()
				<-done
			}
		})
	}
}
