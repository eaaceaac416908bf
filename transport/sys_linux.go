package transport

import (
	"bytes"
	"io"
	"os"
	"strconv"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/mcpcli/mcpcli/internal/supervise"
)

// supervised says this system can run a server under a supervisor.
const supervised = true

// sysProcAttr puts the server in its own process group (so the terminal's
// Ctrl+C reaches mcpcli, which then shuts the server down in order) and
// asks the kernel to kill it if mcpcli itself dies.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// supervisorProcAttr starts the supervisor in a process group of its own,
// with the kernel's parent-death signal set: one way it hears of mcpcli's
// death (see supervise.Run).
func supervisorProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: supervise.DeathSignal}
}

// Supervise runs argv as a stdio server for mcpcli and never returns: the
// entry point of `mcpcli __mcpcli-supervise MCPCLI-PID CMD ARGS` (see
// SupervisorArg), where the small mcpcli-supervise binary is not
// installed beside mcpcli (internal/supervise is its whole).
func Supervise(argv []string) { supervise.Run(argv) }

// unread is how many bytes written to the pipe w are still waiting to be
// read at the other end.
func unread(w *os.File) (int, bool) {
	var n int32
	rc, err := w.SyscallConn()
	if err != nil {
		return 0, false
	}
	var errno syscall.Errno
	if err := rc.Control(func(fd uintptr) {
		_, _, errno = syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCINQ, uintptr(unsafe.Pointer(&n)))
	}); err != nil || errno != 0 {
		return 0, false
	}
	return int(n), true
}

// killMarked kills, until none is left, every process of this user whose
// environment holds mark (supervise.MarkEnv=value): what a server started
// that left its process group, once the supervisor that would have taken
// it is gone. It reads all of /proc, which is why it is kept for that
// rare case.
func killMarked(mark string) {
	want := append([]byte(mark), 0)
	uid := os.Getuid()
	buf := make([]byte, 1<<20)
	for range 100 {
		found := 0
		for _, pid := range allPids() {
			if pid == os.Getpid() || !ownedBy(pid, uid) {
				continue
			}
			env := readProc(pid, "environ", buf)
			if bytes.HasPrefix(env, want) || bytes.Contains(env, append([]byte{0}, want...)) {
				found++
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
		if found == 0 {
			return
		}
	}
}

// allPids lists /proc.
func allPids() []int {
	d, err := os.Open("/proc")
	if err != nil {
		return nil
	}
	defer d.Close()
	names, _ := d.Readdirnames(-1)
	pids := make([]int, 0, len(names))
	for _, n := range names {
		if pid, err := strconv.Atoi(n); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}

func ownedBy(pid, uid int) bool {
	var st syscall.Stat_t
	return syscall.Stat("/proc/"+strconv.Itoa(pid), &st) == nil && int(st.Uid) == uid
}

// readProc reads /proc/PID/name into buf (as much as fits).
func readProc(pid int, name string, buf []byte) []byte {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/" + name)
	if err != nil {
		return nil
	}
	defer f.Close()
	n, _ := io.ReadFull(f, buf)
	return buf[:n]
}

// waitExited returns once p has exited, without reaping it, having waited
// in Go's poller (on a pidfd) rather than in a thread of its own: the
// Wait that follows reaps it at once. A Wait started at once, as the
// go-sdk's is, holds an OS thread in waitid(2) for the whole run, and the
// runtime starts another to go on. Without pidfds (Linux before 5.3) it
// returns at once, and Wait waits as before.
func waitExited(p *os.Process) {
	fd, err := unix.PidfdOpen(p.Pid, 0)
	if err != nil {
		return
	}
	// Non-blocking, so that os.NewFile hands it to the poller (Linux 5.3
	// to 5.9 refuse PIDFD_NONBLOCK at pidfd_open).
	if err := unix.SetNonblock(fd, true); err != nil {
		unix.Close(fd)
		return
	}
	f := os.NewFile(uintptr(fd), "pidfd")
	defer f.Close()
	rc, err := f.SyscallConn()
	if err != nil {
		return
	}
	rc.Read(func(fd uintptr) bool {
		// Readable once the process has exited.
		pfd := unix.PollFd{Fd: int32(fd), Events: unix.POLLIN}
		n, err := unix.Poll([]unix.PollFd{pfd}, 0)
		return err != nil && err != syscall.EINTR || n > 0
	})
}
