//go:build darwin || freebsd

package transport

import (
	"os"
	"syscall"

	"github.com/mcpcli/mcpcli/internal/supervise"
)

// supervised says this system can run a server under a supervisor: here
// one that watches mcpcli's pid with kqueue (see internal/supervise).
const supervised = true

// sysProcAttr puts the server in its own process group, so the terminal's
// Ctrl+C reaches mcpcli, which then shuts the server down in order.
func sysProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// supervisorProcAttr starts the supervisor in a process group of its own.
func supervisorProcAttr() *syscall.SysProcAttr { return sysProcAttr() }

// Supervise runs argv as a stdio server for mcpcli and never returns: the
// entry point of `mcpcli __mcpcli-supervise MCPCLI-PID CMD ARGS`.
func Supervise(argv []string) { supervise.Run(argv) }

// unread is not known here.
func unread(*os.File) (int, bool) { return 0, false }

// killMarked does nothing here: without /proc, what left the server's
// process group is not looked for when its supervisor is killed.
func killMarked(string) {}

// waitExited returns at once: Wait waits in a thread of its own here.
func waitExited(*os.Process) {}
