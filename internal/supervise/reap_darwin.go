package supervise

import (
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// becomeReaper does nothing: macOS has no reapers.
func becomeReaper() {}

// maxRounds bounds killDescendants against a tree that forks as fast as
// it is killed.
const maxRounds = 1000

// killDescendants kills, until none is left, every process below the
// supervisor in the process table (kern.proc.all), and reaps its own
// children that ended. A process whose parent has exited is launchd's,
// not below the supervisor: it is not found.
func killDescendants() {
	self := syscall.Getpid()
	for range maxRounds {
		procs, err := unix.SysctlKinfoProcSlice("kern.proc.all")
		if err != nil {
			return
		}
		table := make([]proc, len(procs))
		for i, p := range procs {
			table[i] = proc{pid: int(p.Proc.P_pid), ppid: int(p.Eproc.Ppid)}
		}
		below := descendants(self, table)
		for _, pid := range below {
			syscall.Kill(pid, syscall.SIGKILL)
		}
		reapAll()
		if len(below) == 0 {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// reapAll reaps every child that has ended, without waiting.
func reapAll() {
	for {
		got, err := syscall.Wait4(-1, nil, syscall.WNOHANG, nil)
		if err == syscall.EINTR {
			continue
		}
		if err != nil || got <= 0 {
			return
		}
	}
}
