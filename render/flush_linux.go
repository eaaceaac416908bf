package render

import (
	"os"

	"golang.org/x/sys/unix"
)

// flushInput drops what waits in a terminal's input queue (typed ahead),
// as tcflush(fd, TCIFLUSH) does. Not a terminal: nothing happens.
func flushInput(f *os.File) {
	_ = unix.IoctlSetInt(int(f.Fd()), unix.TCFLSH, unix.TCIFLUSH)
}
