//go:build windows

package safefile

import (
	"errors"
	"os"
	"time"

	"golang.org/x/sys/windows"
)

// lock takes the lock file path (made when missing), and returns what
// lets it go. Where the file system cannot lock, it goes on without: each
// note is still one whole line.
func lock(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	h := windows.Handle(f.Fd())
	deadline := time.Now().Add(lockWait)
	for {
		ol := new(windows.Overlapped)
		err := windows.LockFileEx(h, windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, ol)
		switch {
		case err == nil:
			return func() { windows.UnlockFileEx(h, 0, 1, 0, new(windows.Overlapped)); f.Close() }, nil
		case !errors.Is(err, windows.ERROR_LOCK_VIOLATION):
			return func() { f.Close() }, nil
		case time.Now().After(deadline):
			f.Close()
			return nil, errLocked(path)
		}
		time.Sleep(lockPoll)
	}
}
