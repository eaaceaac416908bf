//go:build !unix

package cast

import (
	"time"
)

// sizePoll is how often the terminal's size is read where no signal says
// it changed (Windows' console has no SIGWINCH).
const sizePoll = 250 * time.Millisecond

// WatchSize calls resize with the terminal fd's new size each time it
// changes, from cols×rows, until the returned stop is called: the size
// is read every sizePoll.
func WatchSize(fd, cols, rows int, resize func(cols, rows int)) (stop func()) {
	t := time.NewTicker(sizePoll)
	return watchSize(t.C, t.Stop, fd, cols, rows, resize)
}
