package render

import (
	"sync"
	"time"
)

// WaitAfter is how long a server may say nothing before mcpcli says it is
// waiting for it.
const WaitAfter = 1500 * time.Millisecond

// Waiter is the console's "waiting for …" line: shown only when a wait
// lasts WaitAfter, one wait at a time.
type Waiter struct {
	con *Console
	mu  sync.Mutex
	cur *waitLine
}

// waitLine is one wait: its line shows when its timer fires.
type waitLine struct {
	t     *time.Timer
	shown chan struct{} // closed once the line is on screen
}

// Waiter is c's waiting line: one for the console, so that whoever knows
// nobody waits for the server any more (a sign-in starting, a command
// done) can take it away.
func (c *Console) Waiter() *Waiter {
	c.waiterOnce.Do(func() { c.waiter = &Waiter{con: c} })
	return c.waiter
}

// Wait ends the wait of the moment, and starts one that says msg once it
// lasts.
func (w *Waiter) Wait(msg string) {
	l := &waitLine{shown: make(chan struct{})}
	l.t = time.AfterFunc(WaitAfter, func() {
		w.con.Waiting(msg)
		close(l.shown)
	})
	w.set(l)
}

// Stop ends the wait of the moment: nobody waits for the server.
func (w *Waiter) Stop() { w.set(nil) }

func (w *Waiter) set(l *waitLine) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if old := w.cur; old != nil && !old.t.Stop() {
		<-old.shown // it is being drawn: let it finish, then take it away
		w.con.Waited()
	}
	w.cur = l
}
