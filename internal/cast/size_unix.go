//go:build unix

package cast

import (
	"os"
	"os/signal"
	"syscall"
)

// WatchSize calls resize with the terminal fd's new size each time it
// changes (SIGWINCH), from cols×rows, until the returned stop is called.
func WatchSize(fd, cols, rows int, resize func(cols, rows int)) (stop func()) {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGWINCH)
	return watchSize(sigs, func() { signal.Stop(sigs) }, fd, cols, rows, resize)
}
