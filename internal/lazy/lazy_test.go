package lazy

import (
	"runtime"
	"strings"
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

// The first Get's panic comes from within New: its trace names it.
func TestGetPanicsFromWithinNew(t *testing.T) {
	v := Value[int]{New: newThatPanics}
	defer func() {
		if recover() == nil {
			t.Fatal("Get did not panic")
		}
		buf := make([]byte, 64<<10)
		if trace := string(buf[:runtime.Stack(buf, false)]); !strings.Contains(trace, "newThatPanics") {
			t.Errorf("the panic's trace does not name New (newThatPanics):\n%s", trace)
		}
	}()
	v.Get()
}

func newThatPanics() int { panic("bad pattern") }

// A New that ends its goroutine leaves no value: Get panics rather than
// return the zero value, as sync.OnceValue does.
func TestGetAfterGoexitPanics(t *testing.T) {
	v := Value[int]{New: func() int { runtime.Goexit(); return 1 }}
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() { recover() }() // the first Get panics too, as sync.OnceValue's would
		v.Get()
	}()
	<-done
	defer func() {
		if recover() == nil {
			t.Error("Get after a New that called Goexit returned, want a panic")
		}
	}()
	v.Get()
}
