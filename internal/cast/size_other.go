//go:build !unix

package cast

import (
	"sync"
	"time"

	"golang.org/x/term"
)

// sizePoll is how often the terminal's size is read where no signal says
// it changed (Windows' console has no SIGWINCH).
const sizePoll = 250 * time.Millisecond

// WatchSize calls resize with the terminal fd's new size each time it
// changes, from cols×rows, until the returned stop is called: the size
// is read every sizePoll.
func WatchSize(fd, cols, rows int, resize func(cols, rows int)) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(sizePoll)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				w, h, err := term.GetSize(fd)
				if err != nil || w <= 0 || h <= 0 || w == cols && h == rows {
					continue
				}
				cols, rows = w, h
				resize(w, h)
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			close(done)
			wg.Wait()
		})
	}
}
