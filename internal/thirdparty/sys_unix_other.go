//go:build unix && !linux

package thirdparty

import "syscall"

// sysProcAttr puts a server in its own process group, so stopping it stops
// whatever it started too.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
