package transport

import "syscall"

// sysProcAttr puts the server in its own process group (so the terminal's
// Ctrl+C reaches mcpcli, which then shuts the server down in order) and
// asks the kernel to kill it if mcpcli itself dies.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
