package interrupt

import "syscall"

// interruptKeys are the keys that send os.Interrupt: Go delivers both of
// the console's as one.
const interruptKeys = "Ctrl+C or Ctrl+Break"

// signalWords says what a signal that stopped mcpcli means: Go delivers
// the console's closing (and logoff, and shutdown) as SIGTERM.
func signalWords(s syscall.Signal) string {
	if s == syscall.SIGTERM {
		return "mcpcli's console was closed"
	}
	return ""
}

// signalName names the signals Go delivers on Windows.
func signalName(s syscall.Signal) string {
	if s == syscall.SIGTERM {
		return "the console's closing"
	}
	return ""
}
