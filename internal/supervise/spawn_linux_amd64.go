package supervise

import (
	"errors"
	"os"
	"runtime"
	"sync"
	"syscall"
	"unsafe"
)

// The in-process supervisor.
//
// Run is a program of its own, and a Go program costs about a millisecond
// of CPU to start (its runtime's page faults, mostly), on the path of
// every stdio call. Spawn makes the same supervisor without exec: clone(2)
// with CLONE_VM makes a process of its own (its own pid, signals, file
// descriptors and working directory; a SIGKILL of mcpcli does not reach
// it) that shares mcpcli's memory, so nothing is copied and no program is
// loaded. It runs on stacks of its own, in memory Go's runtime does not
// manage, with a g of its own that is only those stacks' bounds
// (spawnArgs.tls), and only code that cannot touch the runtime: no
// allocation, no pointer writes (no write barriers), no bounds checks
// that could panic, no race detector (TestSpawnCodeCallsNothingButTheKernel
// looks), and system calls made by rawsys. A race build makes no spawn
// (spawn_race.go): its coverage counters are calls into the race runtime.
//
// It does what Run does: it is a subreaper (what the server orphans
// becomes its child), it starts the server (clone with CLONE_VFORK, then
// execve) in a process group of its own with its own death as the
// server's parent-death signal, it says "pid N" on the status pipe, and
// then it waits in one ppoll on two pidfds, mcpcli's and the server's. If
// mcpcli dies first it kills the server; either way it reaps the server,
// kills and reaps whatever is left below it, says how the server ended,
// and exits as the server did. A server that cannot be started is said as
// "error ERRNO" (or "chdir ERRNO"; "clone ERRNO" when the kernel refused
// the clone), before anything else.
//
// Where the kernel lacks what this needs (pidfds and close_range: Linux
// 5.9), or clone refuses, mcpcli runs Run as a program instead.

// spawnArgs is all the supervisor and the server's side read and write.
// It lives in the spawn's own mapping, as does everything it points to.
type spawnArgs struct {
	path, argv, envp, dir uintptr // C strings and arrays; dir 0: mcpcli's
	stack2                uintptr // the top of the server side's stack
	serverPC              uintptr
	// The spawn's thread pointer (CLONE_SETTLS) is &tls[1]: Go
	// code loads its g from the word below, tls[0], which is &g, a
	// stand-in whose stack bounds are the spawn's stacks. Its function
	// prologues check the stack against it (a stack that nears its end
	// faults, in the spawn alone); nothing else here reads a g, and
	// anything that did would find nil, not a g of mcpcli's.
	tls [2]uintptr
	// stack.lo, stack.hi, stackguard0, stackguard1, and zeros as far as
	// a runtime.g goes (g.m, g._panic, g.racectx: nil).
	g                [64]uintptr
	mcpcli           int64
	fds              [4]int64 // the server's stdin, stdout, stderr; the status pipe
	keep             [5]int64 // fds and mcpcli's pidfd, sorted
	self             int64
	execErr          int64 // the errno that stopped the server's start
	serverFd         int32 // the server's pidfd (CLONE_PIDFD)
	_                int32
	allmask, oldmask uint64
	act, old         sigaction
	pfds             [2]pollFd
	ts               [2]int64 // a millisecond, for nanosleep
	name             [16]byte // the supervisor's name, for ps
	children         [32]byte // "/proc/thread-self/children"
	line             [32]byte
	buf              [4096]byte
}

const (
	sysRead          = 0
	sysWrite         = 1
	sysClose         = 3
	sysRtSigaction   = 13
	sysRtSigprocmask = 14
	sysNanosleep     = 35
	sysGetpid        = 39
	sysExecve        = 59
	sysExit          = 231
	sysWait4         = 61
	sysKill          = 62
	sysChdir         = 80
	sysSetpgid       = 109
	sysGetppid       = 110
	sysPrctl         = 157
	sysPpoll         = 271
	sysDup3          = 292
	sysOpenat        = 257
	sysCloseRange    = 436

	cloneVM    = 0x100
	cloneVfork = 0x4000
	clonePidfd = 0x1000
	sigchld    = 17

	prSetPdeathsig = 1
	prSetName      = 15

	atFdcwd    = ^uintptr(99) // AT_FDCWD, -100
	oRdonly    = 0
	oCloexec   = 0x80000
	sigSetmask = 2
	wNohang    = 1
	eintr      = 4
	echild     = 10
)

func rawsys(trap, a1, a2, a3, a4, a5, a6 uintptr) (r, errno uintptr)
func cloneInto(flags, stack, ptid, arg, fn, fs uintptr) (pid, errno uintptr)

// The code addresses cloneInto starts supervisorMain and serverMain at.
var supervisorPC, serverPC = funcPC(supervisorMain), funcPC(serverMain)

// funcPC is f's entry, as a Go call of the func value f enters it.
func funcPC(f func(*spawnArgs)) uintptr {
	return **(**uintptr)(unsafe.Pointer(&f))
}

// The sizes of the spawn's mapping.
const (
	pageSize   = 4096
	stackSize  = 64 << 10
	serverSize = 32 << 10
	// stackGuard is how far above the lowest stack's end a function's
	// prologue calls morestack, which faults here: well before the guard
	// page, for any frame.
	stackGuard = 2 << 10
)

var (
	canSpawn     bool
	canSpawnOnce sync.Once
)

// CanSpawn says whether Spawn can work here: Linux 5.9 or later (pidfds,
// CLONE_PIDFD, close_range), no filter that refuses them, and not a race
// build.
func CanSpawn() bool {
	canSpawnOnce.Do(func() {
		if raceBuild {
			return
		}
		fd, _, errno := syscall.RawSyscall(sysPidfdOpen, uintptr(os.Getpid()), 0, 0)
		if errno != 0 {
			return
		}
		syscall.Close(int(fd))
		// Closing a range that holds nothing: 0 from a kernel that has
		// close_range, ENOSYS (or a filter's EPERM) otherwise.
		_, _, errno = syscall.RawSyscall(sysCloseRange, 1<<31-2, 1<<31-2, 0)
		canSpawn = errno == 0
	})
	return canSpawn
}

// ErrNoSpawn is Spawn's error where CanSpawn is false.
var ErrNoSpawn = errors.New("the in-process supervisor needs Linux 5.9 or later")

// SpawnAttr is a server for Spawn to start.
type SpawnAttr struct {
	Path string   // the program, a path (as exec.LookPath found it)
	Argv []string // its arguments, Argv[0] first
	Env  []string
	Dir  string // its working directory; empty: mcpcli's
	// The server's ends of its stdin, stdout and stderr, and the write
	// end of the status pipe: descriptors 3 or above, which Spawn puts
	// in blocking mode (Fd does).
	Stdin, Stdout, Stderr, Status *os.File
}

// Spawned is a supervisor Spawn started: mcpcli's child, to be reaped
// (os.FindProcess(Pid).Wait), and then Released.
type Spawned struct {
	Pid int
	mem []byte
}

// Release gives back the memory the supervisor ran in, once it has been
// reaped.
func (s *Spawned) Release() {
	if s != nil && s.mem != nil {
		syscall.Munmap(s.mem)
		s.mem = nil
	}
}

// Spawn starts a supervisor that starts a.Path (see above). The status
// pipe says "pid N" once the server runs, or "error ERRNO" if it could not
// be started; the caller reads it.
func Spawn(a SpawnAttr) (*Spawned, error) {
	if !CanSpawn() {
		return nil, ErrNoSpawn
	}
	if a.Path == "" || len(a.Argv) == 0 {
		return nil, errors.New("nothing to start")
	}
	var fds [4]int64
	for i, f := range []*os.File{a.Stdin, a.Stdout, a.Stderr, a.Status} {
		if f == nil {
			return nil, errors.New("the server's stdio and the status pipe are all needed")
		}
		fds[i] = int64(f.Fd())
		if fds[i] < 3 {
			return nil, errors.New("a descriptor below 3 would be overwritten")
		}
	}
	strs := len(a.Path) + 1 + len(a.Dir) + 1
	for _, s := range a.Argv {
		strs += len(s) + 1
	}
	for _, s := range a.Env {
		strs += len(s) + 1
	}
	for _, s := range append([]string{a.Path, a.Dir}, append(a.Argv, a.Env...)...) {
		for i := 0; i < len(s); i++ {
			if s[i] == 0 {
				return nil, errors.New("an argument or variable holds a NUL byte")
			}
		}
	}
	argsSize := (int(unsafe.Sizeof(spawnArgs{})) + 7) &^ 7
	ptrs := (len(a.Argv) + 1 + len(a.Env) + 1) * 8
	// [guard][supervisor's stack][guard][server side's stack][args][pointers][strings]
	size := pageSize + stackSize + pageSize + serverSize + argsSize + ptrs + strs
	size = (size + pageSize - 1) &^ (pageSize - 1)
	mem, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANONYMOUS)
	if err != nil {
		return nil, err
	}
	s := &Spawned{mem: mem}
	// Guard pages: a stack that overflows faults, and takes only its own
	// process, rather than writing over the other's.
	syscall.Mprotect(mem[:pageSize], syscall.PROT_NONE)
	syscall.Mprotect(mem[pageSize+stackSize:2*pageSize+stackSize], syscall.PROT_NONE)
	base := uintptr(unsafe.Pointer(&mem[0]))
	stack1 := base + pageSize + stackSize
	stack2 := base + 2*pageSize + stackSize + serverSize
	off := 2*pageSize + stackSize + serverSize
	args := (*spawnArgs)(unsafe.Pointer(&mem[off]))
	off += argsSize
	ptrOff := off
	off += ptrs
	cstr := func(str string) uintptr {
		p := base + uintptr(off)
		off += copy(mem[off:], str) + 1 // the mapping is zeroed: the NUL is there
		return p
	}
	cptr := func(v uintptr) {
		*(*uintptr)(unsafe.Pointer(&mem[ptrOff])) = v
		ptrOff += 8
	}
	args.path = cstr(a.Path)
	if a.Dir != "" {
		args.dir = cstr(a.Dir)
	}
	args.argv = base + uintptr(ptrOff)
	for _, s := range a.Argv {
		cptr(cstr(s))
	}
	cptr(0)
	args.envp = base + uintptr(ptrOff)
	for _, s := range a.Env {
		cptr(cstr(s))
	}
	cptr(0)
	args.stack2 = stack2
	args.serverPC = serverPC
	args.g[0], args.g[1], args.g[2], args.g[3] = base+pageSize, stack2, base+pageSize+stackGuard, base+pageSize+stackGuard
	args.tls[0] = uintptr(unsafe.Pointer(&args.g))
	args.mcpcli = int64(os.Getpid())
	args.fds = fds
	args.allmask = ^uint64(0)
	args.ts[1] = 1e6
	copy(args.name[:], "mcpcli-supervise") // cut to 15 bytes by the kernel, as exec would
	copy(args.children[:], "/proc/thread-self/children")
	// The new process starts with the mask of the thread that made it:
	// all blocked, so that no signal reaches it before it has put Go's
	// handlers aside. The server gets this thread's own mask back.
	runtime.LockOSThread()
	rawsys(sysRtSigprocmask, sigSetmask, uintptr(unsafe.Pointer(&args.allmask)), uintptr(unsafe.Pointer(&args.oldmask)), 8, 0, 0)
	pid, errno := cloneInto(cloneVM|sigchld, stack1, 0, uintptr(unsafe.Pointer(args)), supervisorPC, uintptr(unsafe.Pointer(&args.tls[1])))
	rawsys(sysRtSigprocmask, sigSetmask, uintptr(unsafe.Pointer(&args.oldmask)), 0, 8, 0, 0)
	runtime.UnlockOSThread()
	runtime.KeepAlive(a)
	if errno != 0 {
		s.Release()
		return nil, os.NewSyscallError("clone", syscall.Errno(errno))
	}
	s.Pid = int(pid)
	return s, nil
}

// supervisorMain is the supervisor's whole life (see above).
//
//go:norace
//go:nocheckptr
func supervisorMain(a *spawnArgs) {
	// Signals first: mcpcli's handlers are Go's, which must not run here.
	// All are blocked, from the clone on (a SIGTERM meant for mcpcli, from pkill, is left
	// pending: mcpcli stops the server in order and the supervisor
	// follows), and every handler is set back to its default, which the
	// server inherits.
	// (SIGCHLD too, even were it ignored: the supervisor waits for the
	// server.)
	for sig := uintptr(1); sig <= 64; sig++ {
		if _, e := rawsys(sysRtSigaction, sig, 0, uintptr(unsafe.Pointer(&a.old)), 8, 0, 0); e == 0 && (a.old.handler > 1 || sig == sigchld) {
			rawsys(sysRtSigaction, sig, uintptr(unsafe.Pointer(&a.act)), 0, 8, 0, 0)
		}
	}
	rawsys(sysPrctl, prSetName, uintptr(unsafe.Pointer(&a.name[0])), 0, 0, 0, 0)
	rawsys(sysPrctl, prSetChildSubreaper, 1, 0, 0, 0, 0)
	rawsys(sysSetpgid, 0, 0, 0, 0, 0, 0)
	self, _ := rawsys(sysGetpid, 0, 0, 0, 0, 0, 0)
	a.self = int64(self)
	parent, e := rawsys(sysPidfdOpen, uintptr(a.mcpcli), 0, 0, 0, 0, 0)
	if ppid, _ := rawsys(sysGetppid, 0, 0, 0, 0, 0, 0); e != 0 || int64(ppid) != a.mcpcli {
		exit(137) // mcpcli died before anything was started
	}
	// Keep only the server's stdio, the status pipe and mcpcli's pidfd:
	// a copy of any other of mcpcli's descriptors held here would keep a
	// pipe of another server's open, or mcpcli's terminal.
	a.keep[0], a.keep[1], a.keep[2], a.keep[3], a.keep[4] = a.fds[0], a.fds[1], a.fds[2], a.fds[3], int64(parent)
	for i := 1; i < len(a.keep); i++ {
		for j := i; j > 0 && a.keep[j] < a.keep[j-1]; j-- {
			a.keep[j], a.keep[j-1] = a.keep[j-1], a.keep[j]
		}
	}
	lo := int64(0)
	for i := 0; i < len(a.keep); i++ {
		if a.keep[i] > lo {
			rawsys(sysCloseRange, uintptr(lo), uintptr(a.keep[i]-1), 0, 0, 0, 0)
		}
		lo = a.keep[i] + 1
	}
	rawsys(sysCloseRange, uintptr(lo), 1<<32-1, 0, 0, 0, 0)
	status := uintptr(a.fds[3])
	if a.dir != 0 {
		if _, e := rawsys(sysChdir, a.dir, 0, 0, 0, 0, 0); e != 0 {
			sayNumber(a, status, 'c', int64(e))
			exit(127)
		}
	}
	server, e := cloneInto(cloneVM|cloneVfork|clonePidfd|sigchld, a.stack2, uintptr(unsafe.Pointer(&a.serverFd)), uintptr(unsafe.Pointer(a)), a.serverPC, uintptr(unsafe.Pointer(&a.tls[1])))
	if e != 0 {
		// Not the server's fault: mcpcli runs the program instead.
		sayNumber(a, status, 'k', int64(e))
		exit(127)
	}
	if a.execErr != 0 {
		rawsys(sysWait4, server, 0, 0, 0, 0, 0)
		e = uintptr(a.execErr)
	}
	if e != 0 {
		sayNumber(a, status, 'e', int64(e))
		exit(127)
	}
	sayNumber(a, status, 'p', int64(server))
	// The server's ends of its pipes are its alone: held here too, a
	// server that closes its stdout would not be seen to.
	rawsys(sysClose, uintptr(a.fds[0]), 0, 0, 0, 0, 0)
	rawsys(sysClose, uintptr(a.fds[1]), 0, 0, 0, 0, 0)
	rawsys(sysClose, uintptr(a.fds[2]), 0, 0, 0, 0, 0)
	a.pfds[0] = pollFd{fd: int32(parent), events: pollIn}
	a.pfds[1] = pollFd{fd: a.serverFd, events: pollIn}
	for {
		_, e := rawsys(sysPpoll, uintptr(unsafe.Pointer(&a.pfds[0])), 2, 0, 0, 0, 0)
		if e != eintr {
			if e == 0 && a.pfds[1].revents == 0 {
				rawsys(sysKill, server, uintptr(syscall.SIGKILL), 0, 0, 0, 0) // mcpcli has died
			}
			break
		}
	}
	// Its process group, while the server is not yet reaped (its pid, the
	// group's id, cannot be another's): what /proc would list below goes
	// too, even where /proc cannot.
	rawsys(sysKill, -server, uintptr(syscall.SIGKILL), 0, 0, 0, 0)
	var ws syscall.WaitStatus
	for {
		_, e := rawsys(sysWait4, server, uintptr(unsafe.Pointer(&ws)), 0, 0, 0, 0)
		if e != eintr {
			break
		}
	}
	// The server is gone. What it started goes too (see Run).
	for round := 0; ; round++ {
		if reapAll() || round == maxRounds {
			break
		}
		n := killChildren(a)
		if n < 0 {
			break // no /proc to list them (the server's group went above)
		}
		if n == 0 {
			// A child is being handed over as we look: look again.
			rawsys(sysNanosleep, uintptr(unsafe.Pointer(&a.ts[0])), 0, 0, 0, 0, 0)
			continue
		}
		// Wait for one to end, so that each round makes progress.
		rawsys(sysWait4, ^uintptr(0), 0, 0, 0, 0, 0)
	}
	code := int64(ws>>8) & 0xff
	if ws&0x7f != 0 && ws&0x7f != 0x7f { // killed by a signal
		sig := int64(ws & 0x7f)
		sayNumber(a, status, 's', sig)
		exit(128 + uintptr(sig))
	}
	sayNumber(a, status, 'x', code)
	exit(uintptr(code))
}

// serverMain is the server's side of the clone, on its own stack, while
// the supervisor waits (CLONE_VFORK) for it to exec or exit: its stdio in
// place, the signal mask mcpcli's thread had, and the program. Should it
// fail, the errno is left in execErr.
//
//go:norace
//go:nocheckptr
func serverMain(a *spawnArgs) {
	rawsys(sysSetpgid, 0, 0, 0, 0, 0, 0)
	rawsys(sysPrctl, prSetPdeathsig, uintptr(syscall.SIGKILL), 0, 0, 0, 0)
	if ppid, _ := rawsys(sysGetppid, 0, 0, 0, 0, 0, 0); int64(ppid) != a.self {
		a.execErr = int64(syscall.ESRCH) // the supervisor was killed
		exit(127)
	}
	for i := 0; i < 3; i++ {
		if _, e := rawsys(sysDup3, uintptr(a.fds[i]), uintptr(i), 0, 0, 0, 0); e != 0 {
			a.execErr = int64(e)
			exit(127)
		}
	}
	rawsys(sysRtSigprocmask, sigSetmask, uintptr(unsafe.Pointer(&a.oldmask)), 0, 8, 0, 0)
	_, e := rawsys(sysExecve, a.path, a.argv, a.envp, 0, 0, 0)
	a.execErr = int64(e)
	exit(127)
}

// reapAll reaps every child that has ended, and says whether none is
// left.
//
//go:norace
func reapAll() bool {
	for {
		got, e := rawsys(sysWait4, ^uintptr(0), 0, wNohang, 0, 0, 0)
		switch {
		case e == echild:
			return true // nothing left: the usual case, at the cost of one call
		case e == eintr:
		case e != 0 || got == 0:
			return false // children left, none ended yet
		}
	}
}

// killChildren sends SIGKILL to each of the supervisor's children, as
// /proc lists them, and says how many (-1: /proc cannot say).
//
//go:norace
//go:nocheckptr
func killChildren(a *spawnArgs) int {
	fd, e := rawsys(sysOpenat, atFdcwd, uintptr(unsafe.Pointer(&a.children[0])), oRdonly|oCloexec, 0, 0, 0)
	if e != 0 {
		return -1
	}
	killed, pid, in := 0, uintptr(0), false
	for {
		n, e := rawsys(sysRead, fd, uintptr(unsafe.Pointer(&a.buf[0])), uintptr(len(a.buf)), 0, 0, 0)
		if e == eintr {
			continue
		}
		if e != 0 || n == 0 || n > uintptr(len(a.buf)) {
			break
		}
		for i := uintptr(0); i < n; i++ {
			c := a.buf[i&(uintptr(len(a.buf))-1)]
			if c >= '0' && c <= '9' {
				pid, in = pid*10+uintptr(c-'0'), true
				continue
			}
			if in && pid > 1 {
				rawsys(sysKill, pid, uintptr(syscall.SIGKILL), 0, 0, 0, 0)
				killed++
			}
			pid, in = 0, false
		}
	}
	if in && pid > 1 {
		rawsys(sysKill, pid, uintptr(syscall.SIGKILL), 0, 0, 0, 0)
		killed++
	}
	rawsys(sysClose, fd, 0, 0, 0, 0, 0)
	return killed
}

// sayNumber writes one status line: "pid N\n" (kind 'p'), "error N\n"
// ('e': the exec's errno), "chdir N\n" ('c': the working directory's),
// "clone N\n" ('k': the server's clone was refused), or the last words "exit N" ('x') and "signal N" ('s'), as
// Status.Format says them.
//
//go:norace
//go:nocheckptr
func sayNumber(a *spawnArgs, fd uintptr, kind byte, n int64) {
	l := &a.line
	i := 0
	word, nl := "pid ", true
	switch kind {
	case 'e':
		word = "error "
	case 'c':
		word = "chdir "
	case 'k':
		word = "clone "
	case 'x':
		word, nl = "exit ", false
	case 's':
		word, nl = "signal ", false
	}
	for j := 0; j < len(word) && j < 8; j++ {
		l[j] = word[j]
		i++
	}
	// The digits, backwards from the end of the line, then moved up.
	if n < 0 {
		n = 0
	}
	end := len(l) - 1
	k := end
	for {
		l[k&31] = byte('0' + n%10)
		n /= 10
		k--
		if n == 0 || k <= 16 {
			break
		}
	}
	for k++; k <= end; k++ {
		l[i&31] = l[k&31]
		i++
	}
	if nl {
		l[i&31] = '\n'
		i++
	}
	rawsys(sysWrite, fd, uintptr(unsafe.Pointer(&l[0])), uintptr(i), 0, 0, 0)
}

// exit ends the process it is called in (the supervisor, or the server's
// side before its exec), not mcpcli: each is a thread group of its own.
//
//go:norace
func exit(code uintptr) {
	for {
		rawsys(sysExit, code, 0, 0, 0, 0, 0)
	}
}
