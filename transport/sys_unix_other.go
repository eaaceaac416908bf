//go:build unix && !linux && !darwin && !freebsd

package transport

import (
	"os"
	"syscall"

	"github.com/mcpcli/mcpcli/internal/supervise"
)

// supervised says this system can run a server under a supervisor: not
// here. A server runs in a process group of its own, which mcpcli stops
// when it ends in order; a mcpcli killed with SIGKILL leaves it behind.
const supervised = false

func sysProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

func supervisorProcAttr() *syscall.SysProcAttr { return sysProcAttr() }

// Supervise is not used here.
func Supervise(argv []string) { supervise.Run(argv) }

// unread is not known here.
func unread(*os.File) (int, bool) { return 0, false }

func killMarked(string) {}

// waitExited returns at once: Wait waits in a thread of its own here.
func waitExited(*os.Process) {}
