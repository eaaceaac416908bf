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
// would measure the server. Instead the process runs traced with
// PTRACE_O_TRACEEXIT only: it stops once as it exits, before its memory is
// released, and VmHWM is read from /proc then. Its other threads are not
// traced and no system call stops, but each signal its main thread gets
// (the Go runtime's preemption SIGURGs, SIGCHLD) stops it until the tracer
// passes it on, which is why timed runs are not traced.
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
		Sys:   &syscall.SysProcAttr{Ptrace: true},
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
	if err := wait(pid, &ws, nil); err != nil {
		return run{}, err
	}
	if !ws.Stopped() {
		return run{}, fmt.Errorf("%s did not stop after exec under ptrace (status %v)", argv[0], ws)
	}
	if err := syscall.PtraceSetOptions(pid, syscall.PTRACE_O_TRACEEXIT|ptraceExitKill); err != nil {
		syscall.Kill(pid, syscall.SIGKILL)
		return run{}, fmt.Errorf("ptrace options: %w", err)
	}
	if err := syscall.PtraceCont(pid, 0); err != nil {
		return run{}, fmt.Errorf("ptrace cont: %w", err)
	}
	var r run
	for {
		if err := wait(pid, &ws, nil); err != nil {
			return run{}, err
		}
		switch {
		case ws.Exited(), ws.Signaled():
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
			r.rssKB, err = peakRSS(pid)
			if err != nil {
				return run{}, err
			}
			if err := syscall.PtraceCont(pid, 0); err != nil {
				return run{}, fmt.Errorf("ptrace cont: %w", err)
			}
		case ws.Stopped():
			// A signal for the process: deliver it as if we were not here.
			if err := syscall.PtraceCont(pid, int(ws.StopSignal())); err != nil && !errors.Is(err, syscall.ESRCH) {
				return run{}, fmt.Errorf("ptrace cont: %w", err)
			}
		}
	}
}

func wait(pid int, ws *syscall.WaitStatus, ru *syscall.Rusage) error {
	for {
		_, err := syscall.Wait4(pid, ws, syscall.WALL, ru)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return fmt.Errorf("wait4 %d: %w", pid, err)
		}
		return nil
	}
}

// peakRSS reads VmHWM, the process's peak resident set, in KiB.
func peakRSS(pid int) (int64, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
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
	return 0, fmt.Errorf("/proc/%d/status has no VmHWM line", pid)
}
