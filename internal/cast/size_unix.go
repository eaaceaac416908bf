//go:build unix

package cast

import (
	"os"
	"os/signal"
	"sync"
	"syscall"

	"golang.org/x/term"
)

// WatchSize calls resize with the terminal fd's new size each time it
// changes (SIGWINCH), from cols×rows, until the returned stop is called.
func WatchSize(fd, cols, rows int, resize func(cols, rows int)) (stop func()) {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGWINCH)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-done:
				return
			case <-sigs:
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
			signal.Stop(sigs)
			close(done)
			wg.Wait()
		})
	}
}
