package supervise

import (
	"syscall"
	"unsafe"
)

// procctl(2) on FreeBSD: the supervisor is a reaper, and kills what it
// reaps for.
const (
	sysProcctl      = 544 // the same on every architecture
	pPID            = 0   // idtype_t P_PID
	procReapAcquire = 2
	procReapKill    = 6
)

// reaperKill is struct procctl_reaper_kill.
type reaperKill struct {
	sig     int32
	flags   uint32
	subtree int32
	killed  uint32
	fpid    int32
	pad     [15]uint32
}

// becomeReaper makes the supervisor the reaper of everything below it:
// orphans of the server become its children, as under Linux's subreaper.
func becomeReaper() {
	syscall.Syscall6(sysProcctl, pPID, uintptr(syscall.Getpid()), procReapAcquire, 0, 0, 0)
}

// killDescendants kills every process the supervisor is the reaper of,
// until none is left, and reaps what ended.
func killDescendants() {
	for range maxRounds {
		rk := reaperKill{sig: int32(syscall.SIGKILL)}
		_, _, errno := syscall.Syscall6(sysProcctl, pPID, uintptr(syscall.Getpid()), procReapKill, uintptr(unsafe.Pointer(&rk)), 0, 0)
		reapAll()
		if errno != 0 || rk.killed == 0 {
			return
		}
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

// maxRounds bounds killDescendants against a tree that forks as fast as
// it is killed.
const maxRounds = 1000
