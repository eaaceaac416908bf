package supervise

import (
	"os"
	"os/signal"
	"syscall"
	"time"
	"unsafe"
)

// DeathSignal is the parent-death signal mcpcli starts the supervisor
// with: the kernel sends it when mcpcli dies, however it dies (even
// SIGKILL). Its default is to be ignored, so a supervisor that watches
// mcpcli another way (a pidfd) need not handle it.
const DeathSignal = syscall.SIGWINCH

// Run runs argv (mcpcli's pid, then the server's program and arguments) as
// a stdio server for mcpcli, and never returns: the supervisor's whole
// life.
//
// The kernel kills only a dying process's direct child (the parent-death
// signal), so a server's own children (an npx server's node, anything
// `sh -c` starts) would outlive a mcpcli killed with SIGKILL. The
// supervisor sits between: it is the server's parent and a subreaper
// (orphans of the server become its children), and when mcpcli dies it
// kills the server, then every process left below it. Otherwise it waits
// for the server, kills whatever the server left running, says on the
// status pipe how the server ended, and exits as the server did. The
// server runs in a process group of its own, which mcpcli signals to stop
// it in order; it has the supervisor's death as its parent-death signal,
// SIGKILL: should the supervisor be killed, the server goes with it, and
// mcpcli sees the supervisor end without a word on the status pipe.
//
// It does nothing it does not need, on the path of every stdio run: one
// thread that waits in one poll(2) on two pidfds (mcpcli's and the
// server's), no signal handling, and no /proc read unless something
// outlived the server. Where there are no pidfds (Linux before 5.3, or a
// seccomp filter that refuses them) it hears of mcpcli's death through
// DeathSignal instead.
func Run(argv []string) {
	mcpcli, argv := parseArgs(argv)
	status := openStatus()
	ignoreStops()
	_ = prctl(prSetChildSubreaper, 1)
	parent, perr := pidfdOpen(mcpcli)
	var died chan struct{} // closed at DeathSignal, without a pidfd
	if perr != nil {
		died = make(chan struct{})
		sigs := make(chan os.Signal, 1)
		signal.Notify(sigs, DeathSignal)
		go func() {
			for range sigs {
				// The kernel sends it when the thread that started us
				// ends, which is mcpcli's death unless one of its threads
				// ended alone: our parent is another process only in the
				// first case.
				if os.Getppid() != mcpcli {
					close(died)
					return
				}
			}
		}()
	}
	if os.Getppid() != mcpcli {
		os.Exit(137) // mcpcli died before anything was started
	}
	// The server's parent-death signal follows the thread that starts it,
	// which lives as long as the supervisor: the Go runtime ends a thread
	// only when a goroutine locked to it ends, and none is locked here.
	pid, err := syscall.ForkExec(argv[0], argv, &syscall.ProcAttr{
		Env:   serverEnv(),
		Files: []uintptr{0, 1, 2},
		Sys:   &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL},
	})
	if err != nil {
		os.Stderr.WriteString("mcpcli: cannot start " + argv[0] + ": " + err.Error() + "\n")
		status.say(Status{Code: 127})
		os.Exit(127)
	}
	status.sayPid(pid)
	dropStdio()
	if perr == nil {
		waitPidfds(parent, pid)
	} else {
		waitSignal(died, pid)
	}
	var ws syscall.WaitStatus
	for {
		_, err := syscall.Wait4(pid, &ws, 0, nil)
		if err != syscall.EINTR {
			break
		}
	}
	// The server is gone. What it started goes too, as mcpcli's shutdown
	// would take its process group: here even what left the group. (When
	// mcpcli was killed, the server's stdin closed with it and the server
	// may have ended before the supervisor saw mcpcli go: this is what
	// makes that race harmless.)
	killDescendants()
	st := Status{Code: ws.ExitStatus()}
	if ws.Signaled() {
		// Killed by a signal: said on the status pipe, and in the exit
		// status as a shell says it. (Raising the signal on ourselves
		// races os.Exit, and Go turns a SIGSEGV or SIGBUS sent that way
		// into a crash of its own.)
		st = Status{Signal: int(ws.Signal())}
	}
	status.say(st)
	if st.Signal != 0 {
		os.Exit(128 + st.Signal)
	}
	os.Exit(st.Code)
}

// waitPidfds waits until the server ends, or mcpcli does: then it kills
// the server.
func waitPidfds(parent, server int) {
	sfd, err := pidfdOpen(server)
	if err != nil {
		// Where mcpcli's pidfd could be opened, the server's can; should
		// it not, a thread waits for mcpcli's as another waits for the
		// server.
		died := make(chan struct{})
		go func() {
			poll([]pollFd{{fd: int32(parent), events: pollIn}})
			close(died)
		}()
		waitSignal(died, server)
		return
	}
	fds := []pollFd{{fd: int32(parent), events: pollIn}, {fd: int32(sfd), events: pollIn}}
	if poll(fds) != nil || fds[1].revents != 0 {
		return // the server has ended (or poll cannot tell: wait for it)
	}
	syscall.Kill(server, syscall.SIGKILL) // mcpcli has died
}

// poll waits until one of fds is ready.
func poll(fds []pollFd) error {
	for {
		_, _, errno := syscall.Syscall6(syscall.SYS_PPOLL, uintptr(unsafe.Pointer(&fds[0])), uintptr(len(fds)), 0, 0, 0, 0)
		if errno == syscall.EINTR {
			continue
		}
		if errno != 0 {
			return errno
		}
		return nil
	}
}

// waitSignal waits until the server ends, or died is closed (mcpcli has
// died: its DeathSignal came, where there are no pidfds): then it kills
// the server.
func waitSignal(died chan struct{}, server int) {
	ended := make(chan struct{})
	go func() {
		var info [128]byte // a siginfo_t
		for {
			// WNOWAIT: the server is reaped by Run, once.
			_, _, errno := syscall.Syscall6(syscall.SYS_WAITID, pWaitPid, uintptr(server), uintptr(unsafe.Pointer(&info[0])), syscall.WEXITED|wNoWait, 0, 0)
			if errno != syscall.EINTR {
				break
			}
		}
		close(ended)
	}()
	select {
	case <-ended:
	case <-died:
		syscall.Kill(server, syscall.SIGKILL)
	}
}

const (
	sysPidfdOpen = 434 // pidfd_open(2), the same number on every architecture Go runs Linux on
	pollIn       = 0x1
	pWaitPid     = 1
	wNoWait      = 0x1000000
)

type pollFd struct {
	fd      int32
	events  int16
	revents int16
}

// pidfdOpen is a pidfd for pid, which is alive (or not yet reaped). (A
// variable: the tests take it away, to run the supervisor as it runs
// without pidfds.)
var pidfdOpen = func(pid int) (int, error) {
	fd, _, errno := syscall.RawSyscall(sysPidfdOpen, uintptr(pid), 0, 0)
	if errno != 0 {
		return -1, errno
	}
	return int(fd), nil
}

// maxRounds bounds killDescendants against a tree that forks as fast as
// it is killed.
const maxRounds = 10000

// killDescendants kills every process below the supervisor and reaps it.
// The supervisor is a subreaper: a process killed here hands its children
// to it, so killing its own children, round after round, reaches the
// whole tree, and it ends when it has no child left.
func killDescendants() {
	for round := 0; ; round++ {
		for {
			got, err := syscall.Wait4(-1, nil, syscall.WNOHANG, nil)
			if err == syscall.ECHILD {
				return // nothing left: the usual case, at the cost of one call
			}
			if err == syscall.EINTR {
				continue
			}
			if err != nil || got <= 0 {
				break // children left, none ended yet
			}
		}
		if round == maxRounds {
			return
		}
		kids := children()
		if len(kids) == 0 {
			// A child is being handed over as we look: look again.
			time.Sleep(time.Millisecond)
			continue
		}
		for _, pid := range kids {
			syscall.Kill(pid, syscall.SIGKILL)
		}
		// Wait for one to end, so that each round makes progress.
		syscall.Wait4(-1, nil, 0, nil)
	}
}

// children lists the supervisor's children, live or not yet reaped, from
// /proc/self/task/*/children (each thread has its own list).
func children() []int {
	var out []int
	buf := make([]byte, 4096)
	dir, err := syscall.Open("/proc/self/task", syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	var tasks []string
	for {
		n, err := syscall.ReadDirent(dir, buf)
		if err != nil || n <= 0 {
			break
		}
		_, _, tasks = syscall.ParseDirent(buf[:n], -1, tasks)
	}
	syscall.Close(dir)
	for _, t := range tasks {
		b := readFile("/proc/self/task/"+t+"/children", buf)
		out = appendPids(out, b)
	}
	return out
}

// readFile reads a small file into buf.
func readFile(path string, buf []byte) []byte {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	defer syscall.Close(fd)
	n := 0
	for n < len(buf) {
		m, err := syscall.Read(fd, buf[n:])
		if err == syscall.EINTR {
			continue
		}
		if err != nil || m <= 0 {
			break
		}
		n += m
	}
	return buf[:n]
}

// appendPids appends the numbers in a space-separated list of pids.
func appendPids(out []int, b []byte) []int {
	n, in := 0, false
	for _, c := range b {
		if c >= '0' && c <= '9' {
			n, in = n*10+int(c-'0'), true
			continue
		}
		if in {
			out = append(out, n)
		}
		n, in = 0, false
	}
	if in {
		out = append(out, n)
	}
	return out
}

// ignoreStops makes SIGTERM, SIGINT and SIGHUP leave the supervisor be:
// they come to it from whoever stops mcpcli by name (pkill mcpcli matches
// mcpcli-supervise too), and mcpcli, which has them as well, stops the
// server in order; the supervisor follows. Set with rt_sigaction itself,
// not os/signal, whose signal thread costs a tenth of a millisecond: the
// Go runtime still counts the signals as its own, so it resets them to
// their default in the server it forks, before exec.
func ignoreStops() {
	act := sigaction{handler: 1} // SIG_IGN
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP} {
		syscall.RawSyscall6(syscall.SYS_RT_SIGACTION, uintptr(sig), uintptr(unsafe.Pointer(&act)), 0, unsafe.Sizeof(act.mask), 0, 0)
	}
}

// sigaction is the kernel's struct sigaction (not MIPS's, where this
// ignores nothing).
type sigaction struct {
	handler, flags, restorer uintptr
	mask                     uint64
}

// dropStdio puts /dev/null in place of the supervisor's stdin, stdout and
// stderr: they are the server's alone, and were they held here too, a
// server that closes its stdout would not be seen to.
func dropStdio() {
	if null, err := syscall.Open(os.DevNull, syscall.O_RDWR|syscall.O_CLOEXEC, 0); err == nil {
		for fd := 0; fd <= 2; fd++ {
			syscall.Dup3(null, fd, 0)
		}
		syscall.Close(null)
	}
}

const prSetChildSubreaper = 36

func prctl(option, arg int) error {
	_, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, uintptr(option), uintptr(arg), 0)
	if errno != 0 {
		return errno
	}
	return nil
}
