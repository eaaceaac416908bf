//go:build unix

package render

import (
	"os"

	"golang.org/x/sys/unix"
)

// withLoneEsc wraps a terminal's input so that Esc acts at once (escFile).
func withLoneEsc(f *os.File) *escFile {
	fd := int32(f.Fd())
	return &escFile{File: f, pending: func() bool {
		fds := []unix.PollFd{{Fd: fd, Events: unix.POLLIN}}
		n, err := unix.Poll(fds, 0)
		return err != nil || n > 0 && fds[0].Revents&unix.POLLIN != 0
	}}
}
