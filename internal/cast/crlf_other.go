//go:build !linux && !darwin && !freebsd && !netbsd && !openbsd && !dragonfly

package cast

// crlf reports whether the terminal fd draws "\n" as "\r\n": assumed, where
// mcpcli does not read the terminal's settings.
func crlf(fd int) bool { return true }
