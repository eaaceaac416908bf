//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package interrupt

import (
	"os"

	"github.com/charmbracelet/x/ansi"
	"golang.org/x/sys/unix"
)

// savedTerminal is the terminal's settings as mcpcli found them, for the
// way out that does not go through the programs that changed them: main
// exiting after a signal the run did not end in order for.
type savedTerminal struct {
	fd    int
	state unix.Termios
}

// saveTerminal notes stdin's terminal settings, or returns nil when stdin
// is not a terminal.
func saveTerminal() *savedTerminal {
	fd := int(os.Stdin.Fd())
	t, err := unix.IoctlGetTermios(fd, ioctlGetTermios)
	if err != nil {
		return nil
	}
	return &savedTerminal{fd: fd, state: *t}
}

// leaveScreen undoes what a full-screen program sets on the terminal: the
// alternate screen, a hidden cursor, mouse and focus reports, bracketed
// paste, the keyboard enhancements.
var leaveScreen = ansi.ResetModeMouseButtonEvent + ansi.ResetModeMouseAnyEvent + ansi.ResetModeMouseExtSgr +
	ansi.ResetModeFocusEvent + ansi.ResetModeBracketedPaste +
	ansi.ResetModifyOtherKeys + ansi.PopKittyKeyboard(1) +
	ansi.ResetModeAltScreenSaveCursor + ansi.SetModeTextCursorEnable

// restore gives the terminal back as it was found. Only a full-screen
// program puts it in raw mode (no ICANON; a hidden line prompt keeps it),
// and each of mcpcli's draws on the alternate screen: then, and only then,
// that screen is left (leaving it when not on it would move the cursor).
func (s *savedTerminal) restore() {
	if s == nil {
		return
	}
	cur, err := unix.IoctlGetTermios(s.fd, ioctlGetTermios)
	if err != nil || *cur == s.state {
		return
	}
	if cur.Lflag&unix.ICANON == 0 && s.state.Lflag&unix.ICANON != 0 {
		if fd := int(os.Stderr.Fd()); isTerminal(fd) {
			_, _ = os.Stderr.WriteString(leaveScreen)
		}
	}
	_ = unix.IoctlSetTermios(s.fd, ioctlSetTermios, &s.state)
}

func isTerminal(fd int) bool {
	_, err := unix.IoctlGetTermios(fd, ioctlGetTermios)
	return err == nil
}
