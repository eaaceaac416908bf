//go:build unix

package thirdparty

import "syscall"

// terminateGroup sends SIGTERM to the process group pid leads.
func terminateGroup(pid int) { _ = syscall.Kill(-pid, syscall.SIGTERM) }

// killGroup sends SIGKILL to the process group pid leads.
func killGroup(pid int) { _ = syscall.Kill(-pid, syscall.SIGKILL) }
