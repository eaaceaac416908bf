package lazy

import (
	"sync"
	"sync/atomic"
	"testing"
)

var counted atomic.Int32

var once = Value[int]{New: func() int { return int(counted.Add(1)) }}

func TestGetMakesOnce(t *testing.T) {
	var wg sync.WaitGroup
	got := make([]int, 8)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = once.Get()
		}()
	}
	wg.Wait()
	for i, v := range got {
		if v != 1 {
			t.Errorf("Get %d = %d, want 1 (the value of the one New)", i, v)
		}
	}
	if n := counted.Load(); n != 1 {
		t.Errorf("New ran %d times, want 1", n)
	}
}

func TestGetPanicsAsNewDid(t *testing.T) {
	calls := 0
	v := Value[string]{New: func() string { calls++; panic("bad pattern") }}
	for i := range 2 {
		func() {
			defer func() {
				if p := recover(); p != "bad pattern" {
					t.Errorf("Get %d recovered %v, want New's panic %q", i, p, "bad pattern")
				}
			}()
			v.Get()
		}()
	}
	if calls != 1 {
		t.Errorf("New ran %d times, want 1", calls)
	}
}
