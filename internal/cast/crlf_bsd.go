//go:build darwin || freebsd || netbsd || openbsd || dragonfly

package cast

import "golang.org/x/sys/unix"

// crlf reports whether the terminal fd draws "\n" as "\r\n": its output
// processing is on (OPOST, ONLCR), as it is unless a program put it in raw
// mode.
func crlf(fd int) bool {
	t, err := unix.IoctlGetTermios(fd, unix.TIOCGETA)
	return err != nil || t.Oflag&unix.OPOST != 0 && t.Oflag&unix.ONLCR != 0
}
