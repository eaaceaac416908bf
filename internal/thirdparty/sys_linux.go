package thirdparty

import "syscall"

// sysProcAttr puts a server in its own process group, so stopping it stops
// whatever it started too, and has the kernel kill it if the test binary
// dies before its cleanup runs.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
