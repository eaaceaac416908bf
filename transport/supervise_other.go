//go:build !linux

package transport

import (
	"syscall"

	"github.com/mcpcli/mcpcli/internal/supervise"
)

// supervised says this system can run a server under a supervisor: only
// Linux has the parent-death signal and subreapers it needs. Elsewhere a
// server runs in a process group of its own, which mcpcli stops when it
// ends in order; a mcpcli killed with SIGKILL leaves it behind.
const supervised = false

func supervisorProcAttr() *syscall.SysProcAttr { return sysProcAttr() }

// Supervise is Linux's only.
func Supervise(argv []string) { supervise.Run(argv) }
