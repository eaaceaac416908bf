//go:build darwin || freebsd || netbsd || openbsd || dragonfly

package render

import (
	"os"

	"golang.org/x/sys/unix"
)

// flushInput drops what waits in a terminal's input queue (typed ahead),
// as tcflush(fd, TCIFLUSH) does. Not a terminal: nothing happens.
func flushInput(f *os.File) {
	const fread = 1 // <sys/fcntl.h> FREAD: the input queue
	_ = unix.IoctlSetPointerInt(int(f.Fd()), unix.TIOCFLUSH, fread)
}
