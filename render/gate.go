package render

import (
	"sync"
	"time"
)

// The terminal gate. Whatever puts the terminal into a program's mode (a
// program starting, the session taking the terminal back after a form)
// holds the gate until it has; mcpcli's last way out (main, after a second
// signal) takes it and keeps it. So nothing can put the terminal back in
// raw mode between main giving it back and the process ending: a program
// that would has to wait for the gate, and never gets it.
var gate = make(chan struct{}, 1)

// TakeTerminal waits for the gate and returns what gives it back, once:
// call it before setting the terminal up for a program, and release when
// that is done. After FreezeTerminal it never returns.
func TakeTerminal() (release func()) {
	gate <- struct{}{}
	var once sync.Once
	return func() { once.Do(func() { <-gate }) }
}

// FreezeTerminal takes the gate for good, waiting at most wait for whoever
// holds it (setting the terminal up takes a few writes; a terminal that
// does not take them must not keep mcpcli from exiting).
func FreezeTerminal(wait time.Duration) {
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case gate <- struct{}{}:
	case <-t.C:
	}
}
