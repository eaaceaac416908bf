//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package safefile

import (
	"errors"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// lock takes the lock file path (made 0600 when missing), and returns
// what lets it go. Where the file system cannot lock (some network file
// systems), it goes on without: each note is still one whole line.
func lock(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|noFollow|nonBlock, 0o600)
	if err != nil {
		return nil, err
	}
	fd := int(f.Fd())
	deadline := time.Now().Add(lockWait)
	for {
		err := unix.Flock(fd, unix.LOCK_EX|unix.LOCK_NB)
		switch {
		case err == nil:
			return func() { unix.Flock(fd, unix.LOCK_UN); f.Close() }, nil
		case errors.Is(err, unix.EINTR):
			continue
		case !errors.Is(err, unix.EWOULDBLOCK):
			return func() { f.Close() }, nil
		case time.Now().After(deadline):
			f.Close()
			return nil, errLocked(path)
		}
		time.Sleep(lockPoll)
	}
}
