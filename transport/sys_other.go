//go:build !linux

package transport

import (
	"os"
	"syscall"
)

func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

// unread is not known here.
func unread(*os.File) (int, bool) { return 0, false }
