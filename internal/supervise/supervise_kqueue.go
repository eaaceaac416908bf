//go:build darwin || freebsd

package supervise

import (
	"os"
	"os/signal"
	"syscall"
)

// Run runs argv (mcpcli's pid, then the server's program and arguments) as
// a stdio server for mcpcli, and never returns: the supervisor's whole
// life, on macOS and FreeBSD.
//
// There is no parent-death signal here. The supervisor watches mcpcli's
// pid and the server's with kqueue (EVFILT_PROC, NOTE_EXIT), in one
// kevent(2) wait: when mcpcli dies, however it dies (even SIGKILL), it
// kills the server's process group and every process below itself; when
// the server exits, it kills what the server left running the same way,
// says on the status pipe how the server ended, and exits as the server
// did. The server runs in a process group of its own, which mcpcli
// signals to stop it in order.
//
// What "below itself" reaches differs: FreeBSD has reapers (procctl(2),
// PROC_REAP_ACQUIRE), so orphans of the server come to the supervisor as
// on Linux, and PROC_REAP_KILL takes them all. macOS has none: the
// supervisor kills the server's group, and what it finds below itself in
// the process table; a process that left the group (setsid) and whose
// parent has already exited belongs to launchd, and is not found.
func Run(argv []string) {
	mcpcli, argv := parseArgs(argv)
	status := openStatus()
	// SIGTERM, SIGINT and SIGHUP leave the supervisor be: they come to it
	// from whoever stops mcpcli by name (pkill mcpcli matches
	// mcpcli-supervise too), and mcpcli stops the server in order. Caught,
	// not ignored: an ignored signal would stay ignored in the server.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	becomeReaper()
	kq, err := syscall.Kqueue()
	if err != nil {
		os.Stderr.WriteString("mcpcli: the supervisor cannot watch mcpcli: " + err.Error() + "\n")
		os.Exit(2)
	}
	if watchExit(kq, mcpcli) != nil || os.Getppid() != mcpcli {
		os.Exit(137) // mcpcli died before anything was started
	}
	pid, err := syscall.ForkExec(argv[0], argv, &syscall.ProcAttr{
		Env:   serverEnv(),
		Files: []uintptr{0, 1, 2},
		Sys:   &syscall.SysProcAttr{Setpgid: true},
	})
	if err != nil {
		os.Stderr.WriteString("mcpcli: cannot start " + argv[0] + ": " + err.Error() + "\n")
		status.say(Status{Code: 127})
		os.Exit(127)
	}
	status.sayPid(pid)
	dropStdio()
	// ESRCH: the server has already exited, and is ours to reap.
	serverGone := watchExit(kq, pid) != nil
	events := make([]syscall.Kevent_t, 2)
	for !serverGone {
		n, err := syscall.Kevent(kq, nil, events, nil)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			break // cannot happen; wait for the server below
		}
		for _, ev := range events[:n] {
			switch int(ev.Ident) {
			case mcpcli:
				// mcpcli has died. What is below the supervisor goes
				// first, while the tree is whole (a process whose parent
				// dies is no longer found below it on macOS), then the
				// server's group, and the rest once the server has gone.
				killDescendants()
				syscall.Kill(-pid, syscall.SIGKILL)
			case pid:
				serverGone = true
			}
		}
	}
	// The server has exited, and is not reaped yet: its pid, which is
	// also its group's id, cannot be taken by another process while the
	// group is killed.
	syscall.Kill(-pid, syscall.SIGKILL)
	killDescendants()
	var ws syscall.WaitStatus
	for {
		_, err := syscall.Wait4(pid, &ws, 0, nil)
		if err != syscall.EINTR {
			break
		}
	}
	killDescendants()
	st := Status{Code: ws.ExitStatus()}
	if ws.Signaled() {
		st = Status{Signal: int(ws.Signal())}
	}
	status.say(st)
	if st.Signal != 0 {
		os.Exit(128 + st.Signal)
	}
	os.Exit(st.Code)
}

// watchExit asks kq to report pid's exit.
func watchExit(kq, pid int) error {
	ev := []syscall.Kevent_t{{}}
	syscall.SetKevent(&ev[0], pid, syscall.EVFILT_PROC, syscall.EV_ADD|syscall.EV_ONESHOT)
	ev[0].Fflags = syscall.NOTE_EXIT
	for {
		_, err := syscall.Kevent(kq, ev, nil, nil)
		if err != syscall.EINTR {
			return err
		}
	}
}

// dropStdio puts /dev/null in place of the supervisor's stdin, stdout and
// stderr: they are the server's alone, and were they held here too, a
// server that closes its stdout would not be seen to.
func dropStdio() {
	if null, err := syscall.Open(os.DevNull, syscall.O_RDWR|syscall.O_CLOEXEC, 0); err == nil {
		for fd := 0; fd <= 2; fd++ {
			syscall.Dup2(null, fd)
		}
		syscall.Close(null)
	}
}
