package transport

import (
	"os"
	"syscall"
	"unsafe"
)

// sysProcAttr puts the server in its own process group (so the terminal's
// Ctrl+C reaches mcpcli, which then shuts the server down in order) and
// asks the kernel to kill it if mcpcli itself dies.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// unread is how many bytes written to the pipe w are still waiting to be
// read at the other end.
func unread(w *os.File) (int, bool) {
	var n int32
	rc, err := w.SyscallConn()
	if err != nil {
		return 0, false
	}
	var errno syscall.Errno
	if err := rc.Control(func(fd uintptr) {
		_, _, errno = syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCINQ, uintptr(unsafe.Pointer(&n)))
	}); err != nil || errno != 0 {
		return 0, false
	}
	return int(n), true
}
