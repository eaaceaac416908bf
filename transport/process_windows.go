package transport

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"

	"github.com/mcpcli/mcpcli/internal/supervise"
)

// supervised says this system runs a server under a supervisor: not
// Windows, where a Job Object gives the same guarantee from inside mcpcli.
const supervised = false

// sysProcAttr starts the server suspended, so that it is in its Job Object
// before it can start anything, with a hidden console of its own
// (CREATE_NO_WINDOW): Ctrl+C, Ctrl+Break and closing mcpcli's console
// reach mcpcli only, which then stops the server in order.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: windows.CREATE_SUSPENDED | windows.CREATE_NO_WINDOW}
}

func supervisorProcAttr() *syscall.SysProcAttr { return sysProcAttr() }

// Supervise is not used on Windows.
func Supervise(argv []string) { supervise.Run(argv) }

// sysProcess is the platform's hold on a server: on Windows, a Job Object
// with JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE. Everything the server starts is
// in it too (a process cannot leave a job that does not allow it), and
// the system ends them all when the job's last handle closes: when mcpcli
// closes it, or when mcpcli ends, however it ends.
type sysProcess struct {
	mu  sync.Mutex
	job windows.Handle

	serverGroup atomic.Int64 // a supervisor's word: none here
}

func startProcess(cmd *exec.Cmd) error { return cmd.Start() }

// started puts the suspended server in a new job, then lets it run.
func (s *sysProcess) started(cmd *exec.Cmd) error {
	job, err := newKillOnCloseJob()
	if err != nil {
		return fmt.Errorf("cannot create a Job Object to run it in: %w", err)
	}
	pid := uint32(cmd.Process.Pid)
	h, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, pid)
	if err == nil {
		err = windows.AssignProcessToJobObject(job, h)
		windows.CloseHandle(h)
	}
	if err != nil {
		windows.CloseHandle(job)
		return fmt.Errorf("cannot put it in a Job Object: %w", err)
	}
	s.job = job
	if err := resume(pid); err != nil {
		return fmt.Errorf("cannot resume it in its Job Object: %w", err)
	}
	return nil
}

// newKillOnCloseJob is a Job Object whose processes all end when its last
// handle closes. Its handle is not inherited.
func newKillOnCloseJob() (windows.Handle, error) {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return 0, err
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{
		BasicLimitInformation: windows.JOBOBJECT_BASIC_LIMIT_INFORMATION{LimitFlags: jobLimits},
	}
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation, uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(job)
		return 0, err
	}
	return job, nil
}

// resume resumes the threads of a process started suspended (its one
// thread): os/exec keeps no handle to it, so they are found in a snapshot.
func resume(pid uint32) error {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPTHREAD, 0)
	if err != nil {
		return err
	}
	defer windows.CloseHandle(snap)
	var threads []threadEntry
	te := windows.ThreadEntry32{Size: uint32(unsafe.Sizeof(windows.ThreadEntry32{}))}
	for err = windows.Thread32First(snap, &te); err == nil; err = windows.Thread32Next(snap, &te) {
		threads = append(threads, threadEntry{id: te.ThreadID, owner: te.OwnerProcessID})
	}
	ids := threadsOf(threads, pid)
	if len(ids) == 0 {
		return errors.New("its thread was not found")
	}
	for _, id := range ids {
		th, err := windows.OpenThread(windows.THREAD_SUSPEND_RESUME, false, id)
		if err != nil {
			return err
		}
		_, err = windows.ResumeThread(th)
		windows.CloseHandle(th)
		if err != nil {
			return err
		}
	}
	return nil
}

// terminate has nothing to send: there is no SIGTERM for a process with a
// console of its own. The server has had its stdin closed and a grace;
// then its job ends.
func (s *sysProcess) terminate(*Process) bool { return false }

// kill ends the job: the server and everything it started.
func (s *sysProcess) kill(*Process) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.job != 0 {
		_ = windows.TerminateJobObject(s.job, exitKilled)
	}
}

// reap ends what the server left running, and lets the job go.
func (s *sysProcess) reap(*Process) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.job != 0 {
		_ = windows.TerminateJobObject(s.job, exitKilled)
		windows.CloseHandle(s.job)
		s.job = 0
	}
}

func (s *sysProcess) supervisorDied(string) {}

func killMarked(string) {}

// exitKilled is the exit status mcpcli gives the processes of a job it
// ends.
const exitKilled = 1

// exitSignal is 0: Windows processes end with a status only.
func exitSignal(*os.ProcessState) int { return 0 }

func signalName(sig int) string { return fmt.Sprintf("signal %d", sig) }

// exitWords says an exit status, naming the NTSTATUS of a crash.
func exitWords(code int) string { return windowsExitWords(uint32(code)) }

var procPeekNamedPipe = windows.NewLazySystemDLL("kernel32.dll").NewProc("PeekNamedPipe")

// unread is how many bytes wait to be read from the pipe r (a read end:
// PeekNamedPipe needs read access, so the write end of stdin is not
// known).
func unread(f *os.File) (int, bool) {
	rc, err := f.SyscallConn()
	if err != nil {
		return 0, false
	}
	var avail uint32
	ok := false
	if err := rc.Control(func(fd uintptr) {
		r, _, _ := procPeekNamedPipe.Call(fd, 0, 0, 0, uintptr(unsafe.Pointer(&avail)), 0)
		ok = r != 0
	}); err != nil || !ok {
		return 0, false
	}
	return int(avail), true
}

// waitExited returns at once: Wait waits in a thread of its own here.
func waitExited(*os.Process) {}

// brokenPipe says err is a write to a pipe nothing reads any more.
func brokenPipe(err error) bool {
	return errors.Is(err, windows.ERROR_BROKEN_PIPE) || errors.Is(err, windows.ERROR_NO_DATA)
}
