//go:build linux

package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"sync/atomic"
	"syscall"

	"golang.org/x/sys/unix"
	"time"
)

// run is one measured process.
type run struct {
	wall   time.Duration
	rssKB  int64         // peak RSS of the process alone, when asked for
	cpu    time.Duration // user + system time of the process and all it reaped
	status syscall.WaitStatus
}

// ptraceExitKill kills the tracee if the benchmark dies (PTRACE_O_EXITKILL,
// missing from package syscall).
const ptraceExitKill = 0x100000

// rssMethod says in the table how peak RSS was taken.
const rssMethod = "the client process's own VmHWM, read at its exit (a ptrace PTRACE_EVENT_EXIT stop) in the warm-up runs, which are traced for it and not timed; the server it started is not counted"

// measure runs argv with the given files as stdin, stdout and stderr and
// returns its wall time, from start to reaped. With peak it also returns
// the peak RSS of that process alone, and the run is not timed as it
// would be untraced: those are the warm-up runs.
//
// wait4's rusage is no use for the peak: its ru_maxrss is the largest of
// the process and every descendant it reaped, and both clients reap the
// stdio server (mcpcli through its supervisor), so on the big paths it
// would measure the server. Instead the process runs traced, every thread
// of it (PTRACE_O_TRACECLONE; the processes it starts are not traced), for
// its exit only (PTRACE_O_TRACEEXIT): the thread that ends the process
// stops before the memory is released, and VmHWM is read from /proc then.
// It must be every thread: the one that calls exit_group is often not the
// main thread, and the others are killed without an exit stop. No system
// call stops, but each signal a thread gets (the Go runtime's preemption
// SIGURGs, SIGCHLD) stops it until the tracer passes it on, which is why
// timed runs are not traced.
//
// A process still running after limit is killed.
func measure(argv []string, files [3]*os.File, limit time.Duration, peak bool) (run, error) {
	if !peak {
		return timed(argv, files, limit)
	}
	return traced(argv, files, limit)
}

func timed(argv []string, files [3]*os.File, limit time.Duration) (run, error) {
	start := time.Now()
	p, err := os.StartProcess(argv[0], argv, &os.ProcAttr{Files: files[:]})
	if err != nil {
		return run{}, err
	}
	var killed atomic.Bool
	timer := time.AfterFunc(limit, func() { killed.Store(true); p.Kill() })
	st, err := p.Wait()
	wall := time.Since(start)
	timer.Stop()
	if err != nil {
		return run{}, err
	}
	if killed.Load() {
		return run{}, fmt.Errorf("killed after %v", limit)
	}
	ws, _ := st.Sys().(syscall.WaitStatus)
	return run{wall: wall, cpu: st.UserTime() + st.SystemTime(), status: ws}, nil
}

func traced(argv []string, files [3]*os.File, limit time.Duration) (run, error) {
	runtime.LockOSThread() // ptrace requests must come from the tracing thread
	defer runtime.UnlockOSThread()
	start := time.Now()
	p, err := os.StartProcess(argv[0], argv, &os.ProcAttr{
		Files: files[:],
		Sys:   &syscall.SysProcAttr{Ptrace: true, Setpgid: true},
	})
	if err != nil {
		return run{}, err
	}
	defer p.Release()
	pid := p.Pid
	var killed atomic.Bool
	timer := time.AfterFunc(limit, func() { killed.Store(true); syscall.Kill(pid, syscall.SIGKILL) })
	defer timer.Stop()
	var ws syscall.WaitStatus
	if _, err := wait(pid, &ws); err != nil {
		return run{}, err
	}
	if !ws.Stopped() {
		return run{}, fmt.Errorf("%s did not stop after exec under ptrace (status %v)", argv[0], ws)
	}
	if err := syscall.PtraceSetOptions(pid, syscall.PTRACE_O_TRACEEXIT|syscall.PTRACE_O_TRACECLONE|ptraceExitKill); err != nil {
		syscall.Kill(pid, syscall.SIGKILL)
		return run{}, fmt.Errorf("ptrace options: %w", err)
	}
	if err := syscall.PtraceCont(pid, 0); err != nil {
		return run{}, fmt.Errorf("ptrace cont: %w", err)
	}
	var r run
	for {
		// The process is in a group of its own (its pid), and so are
		// its threads: wait for any of them, and for no other child.
		tid, err := wait(-pid, &ws)
		if err != nil {
			return run{}, err
		}
		switch {
		case ws.Exited(), ws.Signaled():
			if tid != pid {
				continue // a thread; the leader is reaped last
			}
			r.wall = time.Since(start)
			r.status = ws
			if timer.Stop(); killed.Load() {
				return r, fmt.Errorf("killed after %v", limit)
			}
			if r.rssKB == 0 {
				return r, errors.New("the process exited without an exit stop: no peak RSS")
			}
			return r, nil
		case ws.Stopped() && ws.StopSignal() == syscall.SIGTRAP && ws.TrapCause() == syscall.PTRACE_EVENT_EXIT:
			// The thread that ends the process stops here with the
			// memory still mapped (the others are killed without a
			// stop). A thread that ends alone stops here too, earlier:
			// VmHWM only grows, so the last reading is the peak.
			kb, err := peakRSS(pid, tid)
			if err != nil {
				return run{}, err
			}
			r.rssKB = max(r.rssKB, kb)
			cont(tid, 0)
		case ws.Stopped() && ws.StopSignal() == syscall.SIGTRAP && ws.TrapCause() == syscall.PTRACE_EVENT_CLONE,
			ws.Stopped() && ws.StopSignal() == syscall.SIGSTOP:
			// A new thread, and the stop it starts traced with.
			cont(tid, 0)
		case ws.Stopped():
			// A signal for the process: deliver it as if we were not here.
			cont(tid, int(ws.StopSignal()))
		}
	}
}

// cont resumes a stopped thread; one killed meanwhile (the process is
// ending) is no error.
func cont(tid, sig int) { _ = syscall.PtraceCont(tid, sig) }

func wait(pid int, ws *syscall.WaitStatus) (int, error) {
	for {
		tid, err := syscall.Wait4(pid, ws, syscall.WALL, nil)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return 0, fmt.Errorf("wait4 %d: %w", pid, err)
		}
		return tid, nil
	}
}

// peakRSS reads VmHWM, the process's peak resident set, in KiB, through
// thread tid: a leader that has exited has no memory to show.
func peakRSS(pid, tid int) (int64, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/task/" + strconv.Itoa(tid) + "/status")
	if err != nil {
		return 0, err
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := sc.Bytes()
		if rest, ok := bytes.CutPrefix(line, []byte("VmHWM:")); ok {
			f := bytes.Fields(rest)
			if len(f) == 0 {
				break
			}
			return strconv.ParseInt(string(f[0]), 10, 64)
		}
	}
	return 0, fmt.Errorf("/proc/%d/task/%d/status has no VmHWM line", pid, tid)
}

// cpuMethod says in the table how a running client's CPU was taken.
const cpuMethod = "the summed on-CPU time of every thread of the client and of each process under it, from /proc/PID/task/TID/schedstat, read when the form is on screen"

// treeCPU is the CPU time so far of process pid, every thread of it, and
// of each process under it (found through /proc/PID/task/TID/children).
func treeCPU(pid int) (time.Duration, error) {
	var total time.Duration
	seen := map[int]bool{}
	var walk func(pid int) error
	walk = func(pid int) error {
		if seen[pid] {
			return nil
		}
		seen[pid] = true
		dir := "/proc/" + strconv.Itoa(pid) + "/task"
		des, err := os.ReadDir(dir)
		if err != nil {
			return err
		}
		for _, de := range des {
			b, err := os.ReadFile(dir + "/" + de.Name() + "/schedstat")
			if err == nil {
				if f := bytes.Fields(b); len(f) > 0 {
					ns, _ := strconv.ParseInt(string(f[0]), 10, 64)
					total += time.Duration(ns)
				}
			}
			kids, err := os.ReadFile(dir + "/" + de.Name() + "/children")
			if err != nil {
				continue
			}
			for _, k := range bytes.Fields(kids) {
				if kid, err := strconv.Atoi(string(k)); err == nil {
					walk(kid) // a child that is gone is not counted
				}
			}
		}
		return nil
	}
	if err := walk(pid); err != nil {
		return 0, err
	}
	return total, nil
}

// dropCache writes path's pages out and drops them from the page cache.
func dropCache(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := syscall.Fdatasync(int(f.Fd())); err != nil {
		return err
	}
	return unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED)
}
