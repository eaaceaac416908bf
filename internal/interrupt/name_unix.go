//go:build unix

package interrupt

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// interruptKeys are the keys that send os.Interrupt.
const interruptKeys = "Ctrl+C"

// signalWords says what a signal that stopped mcpcli means, where it says
// more than its name (SIGHUP is handled apart).
func signalWords(syscall.Signal) string { return "" }

// signalName is SIGTERM for 15.
func signalName(s syscall.Signal) string { return unix.SignalName(s) }
