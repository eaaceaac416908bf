package render

import "golang.org/x/sys/unix"

// DropTerminalInput discards what was typed on the terminal fd and not
// read yet (tcflush TCIFLUSH), for a question that typed-ahead keys must
// not answer.
func DropTerminalInput(fd int) { unix.IoctlSetInt(fd, unix.TCFLSH, unix.TCIFLUSH) }
