package client

import (
	"context"
	"sync"
	"time"
)

// pausableTimer cancels a context when its budget runs out, counting only
// the time it is not paused. A nil *pausableTimer is a timer that never
// fires, and all its methods are no-ops.
type pausableTimer struct {
	mu      sync.Mutex
	budget  time.Duration
	left    time.Duration
	started time.Time
	t       *time.Timer
	paused  int
	fired   bool
	cancel  context.CancelFunc
}

func withPausableTimeout(parent context.Context, d time.Duration) (context.Context, *pausableTimer, context.CancelFunc) {
	ctx, cancel := context.WithCancel(parent)
	if d <= 0 {
		return ctx, nil, cancel
	}
	pt := &pausableTimer{budget: d, left: d, cancel: cancel}
	pt.start()
	ctx = context.WithValue(ctx, timerKey{}, pt)
	return ctx, pt, func() {
		pt.mu.Lock()
		if pt.t != nil {
			pt.t.Stop()
		}
		pt.mu.Unlock()
		cancel()
	}
}

func (pt *pausableTimer) start() {
	pt.started = time.Now()
	pt.t = time.AfterFunc(pt.left, func() {
		pt.mu.Lock()
		pt.fired = true
		pt.mu.Unlock()
		pt.cancel()
	})
}

func (pt *pausableTimer) pause() {
	if pt == nil {
		return
	}
	pt.mu.Lock()
	defer pt.mu.Unlock()
	pt.paused++
	if pt.paused > 1 || pt.fired {
		return
	}
	if pt.t.Stop() {
		pt.left -= time.Since(pt.started)
		if pt.left <= 0 {
			pt.left = time.Millisecond
		}
	}
}

func (pt *pausableTimer) resume() {
	if pt == nil {
		return
	}
	pt.mu.Lock()
	defer pt.mu.Unlock()
	pt.paused--
	if pt.paused > 0 || pt.fired {
		return
	}
	pt.start()
}

// reset gives the request its whole budget again: the server said it is
// working on it (a progress notification).
func (pt *pausableTimer) reset() {
	if pt == nil {
		return
	}
	pt.mu.Lock()
	defer pt.mu.Unlock()
	if pt.fired || pt.paused > 0 {
		pt.left = pt.budget
		return
	}
	if pt.t.Stop() {
		pt.left = pt.budget
		pt.start()
	}
}

func (pt *pausableTimer) expired() bool {
	if pt == nil {
		return false
	}
	pt.mu.Lock()
	defer pt.mu.Unlock()
	return pt.fired
}

type timerKey struct{}

// PauseTimeout stops the clock of the timeout (Options.Timeout) that ctx
// runs under until resume is called: for the time a person spends on
// something a request waits for, such as signing in to the server. With no
// timeout it does nothing. Calling resume more than once is safe.
func PauseTimeout(ctx context.Context) (resume func()) {
	pt, _ := ctx.Value(timerKey{}).(*pausableTimer)
	if pt == nil {
		return func() {}
	}
	pt.pause()
	var once sync.Once
	return func() { once.Do(pt.resume) }
}
