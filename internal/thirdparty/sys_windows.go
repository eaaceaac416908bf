package thirdparty

import (
	"os"
	"syscall"
)

// sysProcAttr: Windows has no process groups to start a server in; the
// tests that use these servers run on Linux.
func sysProcAttr() *syscall.SysProcAttr { return nil }

// terminateGroup ends the process pid: Windows has no SIGTERM.
func terminateGroup(pid int) { killGroup(pid) }

// killGroup ends the process pid.
func killGroup(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		p.Kill()
	}
}
