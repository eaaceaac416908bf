// Package supervise is the supervisor a stdio server runs under on Linux,
// so that nothing it starts outlives mcpcli, even one killed with SIGKILL.
// It imports little on purpose: it is also the whole of the small
// mcpcli-supervise binary, which starts in half the time mcpcli's own
// binary takes, on the path of every stdio run.
package supervise

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Arg is the first argument a supervisor is started with.
const Arg = "__mcpcli-supervise"

// DeathSignal is what the kernel sends the supervisor when mcpcli dies,
// however it dies (even SIGKILL).
const DeathSignal = syscall.SIGUSR2

// Run runs argv (mcpcli's pid, then the server's command) as a stdio
// server for mcpcli, and never returns: the supervisor's whole life, as
// `mcpcli-supervise __mcpcli-supervise MCPCLI-PID CMD ARGS` or, where that
// binary is not installed, `mcpcli __mcpcli-supervise MCPCLI-PID CMD ARGS`.
//
// The kernel kills only a dying process's direct child (the parent-death
// signal), so a server's own children (an npx server's node, anything
// `sh -c` starts) would outlive a mcpcli killed with SIGKILL. The
// supervisor sits between: it is the server's parent and a subreaper
// (orphans of the server become its children), and when mcpcli dies the
// kernel sends it SIGUSR2, on which it kills the server's process group and
// every descendant left. Otherwise it waits for the server, kills whatever
// the server left running, and exits as the server did, so mcpcli sees the
// server's own status.
func Run(argv []string) {
	// argv is mcpcli's pid, then the server's command.
	var mcpcli int
	if len(argv) > 1 {
		mcpcli, _ = strconv.Atoi(argv[0])
	}
	if mcpcli <= 0 {
		fmt.Fprintln(os.Stderr, "mcpcli: the supervisor needs mcpcli's pid and a command")
		os.Exit(2)
	}
	argv = argv[1:]
	status := statusFile()
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, DeathSignal, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	_ = prctl(pr_SET_CHILD_SUBREAPER, 1)
	if os.Getppid() != mcpcli {
		killTree() // mcpcli died before we got here
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(os.Stderr, "%v\n", err)
		os.Exit(127)
	}
	// The server's stdin, stdout and stderr are its alone: were they held
	// here too, a server that closes its stdout would not be seen to.
	if null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0); err == nil {
		for fd := 0; fd <= 2; fd++ {
			syscall.Dup2(int(null.Fd()), fd)
		}
		null.Close()
	}
	done := make(chan struct{})
	go func() {
		cmd.Wait()
		close(done)
	}()
	for {
		select {
		case s := <-sigs:
			// The kernel sends it when the thread that started us ends,
			// which is mcpcli's death unless one of its threads ended
			// alone: our parent is another process only in the first case.
			if s == DeathSignal && os.Getppid() != mcpcli {
				killTree()
			}
			// SIGTERM, SIGINT, SIGHUP came to the whole group (mcpcli's
			// orderly shutdown): the server has them too; wait for it.
		case <-done:
			// The server is gone. What it started goes too, as mcpcli's
			// shutdown would take its process group: here even what left
			// the group. (When mcpcli was killed, the server's stdin closed
			// with it and the server may have ended before our SIGUSR2
			// came: this is what makes that race harmless.)
			killDescendants()
			st := cmd.ProcessState
			if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
				// Killed by a signal: said to mcpcli on the status pipe,
				// and in the exit status as a shell says it. (Raising the
				// signal on ourselves races os.Exit, and Go turns a
				// SIGSEGV or SIGBUS sent that way into a crash of its own.)
				if status != nil {
					fmt.Fprintf(status, "signal %d\n", int(ws.Signal()))
				}
				os.Exit(128 + int(ws.Signal()))
			}
			os.Exit(st.ExitCode())
		}
	}
}

// StatusFD is the descriptor on which mcpcli hears how the server ended,
// when that was a signal: the supervisor cannot end the same way.
const StatusFD = 3

// statusFile is the status pipe mcpcli gave, or nil; the server does not
// inherit it.
func statusFile() *os.File {
	if _, err := fcntl(StatusFD, syscall.F_GETFD); err != nil {
		return nil
	}
	syscall.CloseOnExec(StatusFD)
	return os.NewFile(StatusFD, "status")
}

func fcntl(fd, cmd int) (int, error) {
	r, _, errno := syscall.RawSyscall(syscall.SYS_FCNTL, uintptr(fd), uintptr(cmd), 0)
	if errno != 0 {
		return 0, errno
	}
	return int(r), nil
}

// killTree kills the supervisor's process group and every descendant
// that left it, then the supervisor.
func killTree() {
	killDescendants()
	syscall.Kill(-os.Getpid(), syscall.SIGKILL)
	os.Exit(137)
}

// killDescendants kills every process below the supervisor, in rounds:
// a process that exits hands its children to the supervisor (a subreaper)
// while the tree is being walked, and the next round finds them there.
// It ends when a round finds nothing alive.
func killDescendants() {
	for range 200 {
		live := 0
		for _, pid := range descendants(os.Getpid()) {
			if !zombie(pid) {
				live++
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
		if live == 0 {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// zombie reports whether pid has exited and waits to be reaped (or is
// gone altogether).
func zombie(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	i := bytes.LastIndexByte(b, ')')
	return i < 0 || i+2 >= len(b) || b[i+2] == 'Z' || b[i+2] == 'X'
}

// descendants lists pid's children, their children and so on, from /proc.
func descendants(pid int) []int {
	var out []int
	tasks, _ := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	for _, t := range tasks {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/children", pid, t.Name()))
		if err != nil {
			continue
		}
		for _, f := range strings.Fields(string(b)) {
			if c, err := strconv.Atoi(f); err == nil {
				out = append(out, c)
				out = append(out, descendants(c)...)
			}
		}
	}
	return out
}

const pr_SET_CHILD_SUBREAPER = 36

func prctl(option, arg int) error {
	_, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, uintptr(option), uintptr(arg), 0)
	if errno != 0 {
		return errno
	}
	return nil
}
