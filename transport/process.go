package transport

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/mcpcli/mcpcli/internal/supervise"
)

// StderrLines is how many of a server's last stderr lines are kept.
const StderrLines = 200

// Command describes a server to start and talk to over stdio.
type Command struct {
	Argv []string // program and arguments; Argv[0] is looked up in $PATH
	Env  []string // extra K=V pairs, added to mcpcli's own environment
	// Unset names variables of mcpcli's own environment the server does
	// not inherit (VS Code's "env": {"NAME": null}). Env is added after,
	// so a name in both is set to Env's value.
	Unset []string
	Dir   string // working directory; empty means mcpcli's
	// Stderr, when set, also receives the server's stderr as it is written
	// (mcpcli keeps the last StderrLines lines either way).
	Stderr io.Writer
	// Grace is how long to wait after closing stdin, and again after
	// SIGTERM, before escalating. Zero means 2s.
	Grace time.Duration
	// Supervisor, when set, is the path of a program that runs Supervise
	// when its first argument is SupervisorArg (mcpcli-supervise, or
	// mcpcli's own binary): on Linux, macOS and FreeBSD the server runs
	// under it, so that nothing it starts outlives mcpcli, even one killed
	// with SIGKILL. (Windows needs none: the server runs in a Job Object.)
	Supervisor string
	// ExecSupervisor runs Supervisor as a program even where mcpcli can
	// make the supervisor without one (supervise.Spawn: Linux 5.9 or
	// later on amd64), which costs a millisecond of CPU less. Set by
	// MCPCLI_SUPERVISOR=exec, should the other way fail somewhere.
	ExecSupervisor bool
	// Group, when set, is told of the process group while the server runs.
	Group *Group
}

// SupervisorArg is the first argument that makes mcpcli a supervisor
// (mcpcli-supervise takes it too).
const SupervisorArg = supervise.Arg

// String is the command line as the user would recognise it.
func (c Command) String() string { return strings.Join(c.Argv, " ") }

// StartError is a server command that could not be started.
type StartError struct {
	Program string
	Dir     string // the working directory asked for, if any
	// NotFound is set when the program is not there (not on $PATH, or the
	// directory does not exist).
	NotFound bool
	Err      error
}

func (e *StartError) Error() string {
	if e.Program == "" {
		return "no server command given"
	}
	if e.NotFound && e.Dir != "" {
		return fmt.Sprintf("cannot start server %q in %s: %v", e.Program, e.Dir, e.Err)
	}
	return fmt.Sprintf("cannot start server %q: %v", e.Program, e.Err)
}

func (e *StartError) Unwrap() error { return e.Err }

// Process is a running server. Writes go to its stdin; Close shuts it down:
// close stdin, wait, SIGTERM the process group, wait, SIGKILL the group
// (on Windows: close stdin, wait, end the Job Object).
type Process struct {
	cmd    *exec.Cmd
	stdin  *os.File
	stdout *os.File
	stderr *tail
	errR   *os.File // the read end of the server's stderr
	grace  time.Duration

	done    chan struct{}
	state   *os.ProcessState
	waitErr error
	// exit is how the server ended, as its supervisor said; supervisor
	// is set when there was one, and died when it ended without saying.
	exit       supervise.Status
	said       bool
	supervisor string
	died       bool

	sys sysProcess // the platform's hold on the server: process groups, a job

	closeOnce sync.Once
	signaled  atomic.Bool // mcpcli sent it SIGTERM or SIGKILL
	closing   atomic.Bool // mcpcli closed its stdin
	group     *Group
}

// Group keeps the servers a run started, so that they can be killed at
// once when the run must end now (a second signal, or one the run did not
// answer in time).
type Group struct {
	mu    sync.Mutex
	procs map[*Process]bool
}

func (g *Group) add(p *Process) {
	if g == nil {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.procs == nil {
		g.procs = map[*Process]bool{}
	}
	g.procs[p] = true
}

func (g *Group) remove(p *Process) {
	if g == nil {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	delete(g.procs, p)
}

// KillAll kills every server still running, and what it started.
func (g *Group) KillAll() {
	if g == nil {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	for p := range g.procs {
		p.kill()
	}
}

// Start starts c.
func Start(c Command) (*Process, error) {
	if len(c.Argv) == 0 || c.Argv[0] == "" {
		return nil, &StartError{Err: errors.New("the command is empty")}
	}
	cmd := exec.Command(c.Argv[0], c.Argv[1:]...)
	if cmd.Err != nil {
		var ee *exec.Error
		if errors.As(cmd.Err, &ee) {
			return nil, &StartError{Program: c.Argv[0], NotFound: true, Err: ee.Err}
		}
	}
	if c.Dir != "" {
		// Said as the directory, not as the program (or the supervisor)
		// that exec would name for it.
		if st, err := os.Stat(c.Dir); err != nil || !st.IsDir() {
			if err == nil {
				err = syscall.ENOTDIR
			}
			var pe *os.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			return nil, &StartError{Program: c.Argv[0], Dir: c.Dir, NotFound: errors.Is(err, os.ErrNotExist), Err: &os.PathError{Op: "chdir", Path: c.Dir, Err: err}}
		}
	}
	cmd.Dir = c.Dir
	cmd.Env = environ(os.Environ(), c.Unset, c.Env)
	cmd.SysProcAttr = sysProcAttr()
	var status *os.File  // the supervisor's status pipe, read end
	var statusW *os.File // its write end, for a spawned supervisor
	var mark string      // supervise.MarkEnv's value for this server
	var supervisor string
	spawn := false // the supervisor is made without exec (supervise.Spawn)
	if c.Supervisor != "" && supervised && cmd.Err == nil {
		supervisor = filepath.Base(c.Supervisor)
		// The supervisor would report a missing program as a server that
		// exited 127; look first, to say what is wrong.
		if strings.Contains(cmd.Path, "/") {
			p := cmd.Path
			if c.Dir != "" && !filepath.IsAbs(p) {
				p = filepath.Join(c.Dir, p)
			}
			if _, err := exec.LookPath(p); err != nil {
				var ee *exec.Error
				if errors.As(err, &ee) {
					err = ee.Err
				}
				return nil, &StartError{Program: c.Argv[0], Dir: c.Dir, NotFound: errors.Is(err, os.ErrNotExist), Err: err}
			}
		}
		// The mark first, where a search finds it soonest, which replaces
		// one this mcpcli inherited (run by another's server).
		mark = newMark()
		env := append([]string{supervise.MarkEnv + "=" + mark}, environ(os.Environ(), append(c.Unset, supervise.MarkEnv), c.Env)...)
		spawn = !c.ExecSupervisor && !spawnRefused.Load() && canSpawn()
		if spawn {
			// Made by clone, with the name the program has, which ps
			// shows (see supervise.Spawn).
			supervisor = "mcpcli-supervise"
			cmd.Env = env
		} else {
			cmd.Args = append([]string{c.Supervisor, SupervisorArg, strconv.Itoa(os.Getpid()), cmd.Path}, c.Argv[1:]...)
			cmd.Path = c.Supervisor
			cmd.SysProcAttr = supervisorProcAttr()
			// The supervisor's own variable first (os/exec drops it when
			// the server's environment sets GOMAXPROCS too).
			cmd.Env = append([]string{supervise.OwnEnv}, env...)
		}
		// The supervisor says on this pipe the server's pid, then how it
		// ended (it exits 128+N for a signal, which a server may do too).
		statusR, w, err := os.Pipe()
		switch {
		case err != nil && spawn:
			return nil, &StartError{Program: c.Argv[0], Err: err}
		case err != nil:
		case spawn:
			status, statusW = statusR, w
		default:
			cmd.ExtraFiles = []*os.File{w} // its descriptor 3: supervise.StatusFD
			status = statusR
		}
	}
	// The pipes are mcpcli's own, not exec's: the write end of stdin stays
	// pollable (a write to a server that stopped reading can be cut short
	// when the run ends), and it can tell whether the server has read what
	// was written (see Unread).
	stdinR, stdin, err := os.Pipe()
	if err != nil {
		closeFiles(append(cmd.ExtraFiles, status, statusW)...)
		return nil, &StartError{Program: c.Argv[0], Err: err}
	}
	stdout, stdoutW, err := os.Pipe()
	if err != nil {
		closeFiles(append(cmd.ExtraFiles, status, statusW)...)
		stdinR.Close()
		stdin.Close()
		return nil, &StartError{Program: c.Argv[0], Err: err}
	}
	// stderr too: were it exec's, Wait would wait for every process
	// holding it, and a server that exits leaving a child behind (sh -c
	// 'server & ...') would never be seen to exit.
	stderr, stderrW, err := os.Pipe()
	if err != nil {
		closeFiles(append(cmd.ExtraFiles, status, statusW)...)
		stdinR.Close()
		stdin.Close()
		stdout.Close()
		stdoutW.Close()
		return nil, &StartError{Program: c.Argv[0], Err: err}
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdinR, stdoutW, stderrW
	t := newTail(StderrLines, c.Stderr)
	var spawned *supervise.Spawned
	var serverPid int
	var statusRest io.Reader = status // what is left to read of it
	if spawn {
		spawned, serverPid, statusRest, err = spawnSupervisor(cmd, c.Argv, stdinR, stdoutW, stderrW, status, statusW)
	} else {
		err = startProcess(cmd)
	}
	stdinR.Close() // the server's ends
	stdoutW.Close()
	stderrW.Close()
	closeFiles(cmd.ExtraFiles...)
	if err != nil {
		closeFiles(status)
		stdin.Close()
		stdout.Close()
		stderr.Close()
		if errors.Is(err, errSpawnRefused) {
			c.ExecSupervisor = true
			return Start(c)
		}
		var ee *exec.Error
		if errors.As(err, &ee) {
			return nil, &StartError{Program: c.Argv[0], NotFound: true, Err: ee.Err}
		}
		return nil, &StartError{Program: c.Argv[0], Dir: c.Dir, NotFound: errors.Is(err, os.ErrNotExist), Err: err}
	}
	grace := c.Grace
	if grace <= 0 {
		grace = 2 * time.Second
	}
	p := &Process{cmd: cmd, stdin: stdin, stdout: stdout, stderr: t, errR: stderr, grace: grace, done: make(chan struct{}), group: c.Group}
	if serverPid > 0 {
		p.sys.serverGroup.Store(int64(serverPid)) // said before spawnSupervisor returned
	}
	if err := p.sys.started(cmd); err != nil {
		// The server could not be held (Windows: put in its job): it
		// must not run unheld.
		cmd.Process.Kill()
		cmd.Wait()
		closeFiles(status, stdin, stdout, stderr)
		return nil, &StartError{Program: c.Argv[0], Dir: c.Dir, Err: err}
	}
	c.Group.add(p)
	copied := make(chan struct{})
	go func() {
		io.Copy(t, stderr)
		stderr.Close()
		close(copied)
	}()
	said := make(chan []byte, 1)
	p.supervisor = supervisor
	if status != nil {
		go func() {
			said <- p.readStatus(statusRest)
			status.Close()
		}()
	}
	go func() {
		waitExited(cmd.Process)
		p.waitErr = cmd.Wait()
		p.state = cmd.ProcessState
		if p.state != nil {
			spawned.Release() // reaped: nothing runs in its memory now
		}
		if status != nil {
			var last []byte
			select {
			case last = <-said:
			case <-time.After(stderrSettle):
			}
			p.exit, p.said = supervise.ParseStatus(last)
			if !p.said && (exitSignal(p.state) != 0 || p.sys.serverGroup.Load() > 0) {
				// The supervisor ended without saying how the server
				// did: it was killed (or crashed after it had started
				// the server). The server died with it; what it started
				// goes now. (A supervisor that said nothing at all and
				// exited is one of an older mcpcli's, whose exit status
				// is the server's.)
				p.died = true
				p.sys.supervisorDied(mark)
			}
		}
		// What the server wrote to stderr before it exited is its last
		// words: wait for them, but not for a child still holding stderr.
		select {
		case <-copied:
		case <-time.After(stderrSettle):
		}
		close(p.done)
	}()
	return p, nil
}

// canSpawn says whether the supervisor can be made without exec here (a
// variable: tests take it away, to run the supervisor program).
var canSpawn = supervise.CanSpawn

// spawnRefused is set once clone was refused (a seccomp filter, say):
// from then on the supervisor is a program, as where canSpawn is false.
var spawnRefused atomic.Bool

// errSpawnRefused is spawnSupervisor's error when the supervisor could
// not be made at all: Start then runs the supervisor program instead.
var errSpawnRefused = errors.New("the supervisor could not be made in-process")

// spawnSupervisor starts cmd's program under a supervisor made by
// supervise.Spawn, and waits until it says the server runs (as cmd.Start
// waits for the exec): then cmd.Process is the supervisor, serverPid the
// server's pid (and process group), and rest what is left of the status
// pipe. The server's errno is the error when it could not be started, and
// errSpawnRefused when the supervisor could not be made.
func spawnSupervisor(cmd *exec.Cmd, argv []string, stdin, stdout, stderr, status, statusW *os.File) (sp *supervise.Spawned, serverPid int, rest io.Reader, err error) {
	sp, err = supervise.Spawn(supervise.SpawnAttr{Path: cmd.Path, Argv: argv, Env: cmd.Env, Dir: cmd.Dir, Stdin: stdin, Stdout: stdout, Stderr: stderr, Status: statusW})
	statusW.Close() // the supervisor's alone now: its end is the pipe's EOF
	if err != nil {
		return nil, 0, nil, refused(err)
	}
	proc, err := os.FindProcess(sp.Pid)
	if err != nil {
		// Not on Unix, where it is a child of ours. Its memory is left
		// to it: it may still run there.
		return nil, 0, nil, err
	}
	br := bufio.NewReaderSize(status, 64)
	line, _ := br.ReadString('\n')
	line = strings.TrimSuffix(line, "\n")
	if n, ok := pidLine([]byte(line)); ok {
		cmd.Process = proc
		return sp, n, br, nil
	}
	// The server did not start: the supervisor has exited, or is about
	// to.
	proc.Wait()
	word, num, _ := strings.Cut(line, " ")
	errno, err := strconv.Atoi(num)
	if err != nil || errno <= 0 {
		// Killed before it said a word: the server's side of its clone
		// may still run in its memory (it had not exec'd), which is
		// left to it, 100 KB, rather than given back under it.
		return nil, 0, nil, fmt.Errorf("its supervisor ended before it started the server (it said %q)", line)
	}
	// A word said: the server's side has exec'd or exited, and the
	// memory is no one's now.
	sp.Release()
	switch word {
	case "clone":
		return nil, 0, nil, refused(os.NewSyscallError("clone", syscall.Errno(errno)))
	case "chdir":
		return nil, 0, nil, &os.PathError{Op: "chdir", Path: cmd.Dir, Err: syscall.Errno(errno)}
	}
	// What cmd.Start would have said.
	return nil, 0, nil, &os.PathError{Op: "fork/exec", Path: cmd.Path, Err: syscall.Errno(errno)}
}

// refused is errSpawnRefused, for err, the reason a supervisor could not
// be made: Start then runs the program. A kernel or filter that refuses
// the clone itself (EPERM, ENOSYS, EINVAL) refuses it every time, and
// none is tried again in this run.
func refused(err error) error {
	if errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.ENOSYS) || errors.Is(err, syscall.EINVAL) {
		spawnRefused.Store(true)
	}
	return fmt.Errorf("%w: %v", errSpawnRefused, err)
}

// readStatus reads the supervisor's status pipe to its end: a first line
// with the server's pid (and process group), then one that says how the
// server ended, which it returns.
func (p *Process) readStatus(r io.Reader) []byte {
	b, _ := io.ReadAll(io.LimitReader(r, 128))
	first, rest, ok := bytes.Cut(b, []byte("\n"))
	if _, found := bytes.CutPrefix(first, []byte("pid ")); found && ok {
		if n, ok := pidLine(first); ok {
			p.sys.serverGroup.Store(int64(n))
		}
		return rest
	}
	return b
}

// pidLine reads the supervisor's first line, "pid N" (without its
// newline): the server's pid, which is its process group too.
func pidLine(line []byte) (int, bool) {
	pid, found := bytes.CutPrefix(line, []byte("pid "))
	if !found {
		return 0, false
	}
	n, err := strconv.Atoi(string(pid))
	return n, err == nil && n > 0
}

// newMark is a value for supervise.MarkEnv no other server has.
func newMark() string {
	var b [12]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// stderrSettle is how long, after a server exits, its stderr has to be
// read to the end, when something it started still holds it open.
const stderrSettle = 100 * time.Millisecond

// environ is base without the variables named in unset, then env.
func environ(base, unset, env []string) []string {
	out := make([]string, 0, len(base)+len(env))
	for _, kv := range base {
		k, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(unset, k) {
			out = append(out, kv)
		}
	}
	return append(out, env...)
}

// Unread is how many bytes written to the server's stdin it has not read
// yet; ok is false where that cannot be known.
func (p *Process) Unread() (n int, ok bool) { return unread(p.stdin) }

// Write writes to the server's stdin.
func (p *Process) Write(b []byte) (int, error) { return p.stdin.Write(b) }

// errCutShort is a write that ctx ended part way: the server has half a
// message, and the stream is no longer whole.
var errCutShort = errors.New("a message to the server was cut short")

// write writes b to the server's stdin, unless ctx ends first: a server
// that stops reading must not hold mcpcli (or its Ctrl+C) for ever.
func (p *Process) write(ctx context.Context, b []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	set := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		_ = p.stdin.SetWriteDeadline(time.Unix(1, 0))
		close(set)
	})
	n, err := p.stdin.Write(b)
	if !stop() {
		<-set
		_ = p.stdin.SetWriteDeadline(time.Time{})
	}
	if err != nil && errors.Is(err, os.ErrDeadlineExceeded) && ctx.Err() != nil {
		if n > 0 {
			return fmt.Errorf("%w: %w", errCutShort, ctx.Err())
		}
		return ctx.Err()
	}
	return err
}

// Done is closed when the process has exited.
func (p *Process) Done() <-chan struct{} { return p.done }

// Pid is the started process's id: the server's, or its supervisor's.
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// StderrTail returns the last lines the server wrote to stderr.
func (p *Process) StderrTail() []string { return p.stderr.Lines() }

// Close shuts the server down and waits for it. It never leaves the process
// group behind.
func (p *Process) Close() error { return p.close(p.grace) }

// abortGrace is how long a server has to go after its stdin closes, and
// after SIGTERM, when mcpcli is ending a run that did not finish (a
// timeout, Ctrl+C): it may be busy with the request mcpcli gave up on.
const abortGrace = 250 * time.Millisecond

// Abort is Close for a run that did not finish: the same steps, with less
// waiting between them.
func (p *Process) Abort() error { return p.close(min(p.grace, abortGrace)) }

func (p *Process) close(grace time.Duration) error {
	p.closeOnce.Do(func() {
		p.closing.Store(true)
		p.stdin.Close()
		if !p.wait(grace) {
			p.signaled.Store(true)
			// SIGTERM where there is such a thing, and a grace to act on it.
			if !p.sys.terminate(p) || !p.wait(grace) {
				p.kill()
				p.wait(5 * time.Second)
			}
		}
		// Whatever the server left running goes too.
		p.sys.reap(p)
		p.group.remove(p)
		p.stdout.Close()
		p.errR.Close() // in case something that left the group holds it
	})
	return nil
}

// kill ends the server and everything it started, now.
func (p *Process) kill() { p.sys.kill(p) }

func (p *Process) wait(d time.Duration) bool {
	select {
	case <-p.done:
		return true
	case <-time.After(d):
		return false
	}
}

// closeFiles closes what is not nil.
func closeFiles(fs ...*os.File) {
	for _, f := range fs {
		if f != nil {
			f.Close()
		}
	}
}

// describeExit says how the server ended; sig, when set, is the signal
// its supervisor said killed it (the supervisor itself exits 128+N).
func describeExit(st *os.ProcessState, waitErr error, sig int) string {
	if sig == 0 {
		sig = exitSignal(st)
	}
	switch {
	case sig != 0:
		return "was killed by " + signalName(sig) // SIGKILL, not "signal killed"
	case st == nil && waitErr != nil:
		return "could not be waited for (" + waitErr.Error() + ")"
	case st == nil:
		return "exited"
	}
	return exitWords(st.ExitCode())
}
