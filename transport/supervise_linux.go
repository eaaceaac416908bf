package transport

import (
	"syscall"

	"github.com/mcpcli/mcpcli/internal/supervise"
)

// supervised says this system can run a server under a supervisor.
const supervised = true

// supervisorProcAttr starts the supervisor in a process group of its own,
// which the server joins, with the kernel's parent-death signal set.
func supervisorProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: supervise.DeathSignal}
}

// Supervise runs argv as a stdio server for mcpcli and never returns: the
// entry point of `mcpcli __mcpcli-supervise MCPCLI-PID CMD ARGS` (see
// SupervisorArg), where the small mcpcli-supervise binary is not
// installed beside mcpcli (internal/supervise is its whole).
func Supervise(argv []string) { supervise.Run(argv) }
