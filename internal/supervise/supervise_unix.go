//go:build linux || darwin || freebsd

package supervise

import (
	"os"
	"strconv"
	"syscall"
)

// parseArgs splits argv into mcpcli's pid and the server's command, or
// exits.
func parseArgs(argv []string) (int, []string) {
	var pid int
	if len(argv) > 1 {
		pid, _ = strconv.Atoi(argv[0])
	}
	if pid <= 0 || argv[1] == "" {
		os.Stderr.WriteString("mcpcli: the supervisor needs mcpcli's pid and a command\n")
		os.Exit(2)
	}
	return pid, argv[1:]
}

// statusPipe is the status pipe's descriptor, or -1 without one.
type statusPipe int

// openStatus is the status pipe mcpcli gave, if it gave one; the server
// does not inherit it.
func openStatus() statusPipe {
	var st syscall.Stat_t
	if syscall.Fstat(StatusFD, &st) != nil {
		return -1
	}
	syscall.CloseOnExec(StatusFD)
	return StatusFD
}

// sayPid says the server's pid (and process group) on the status pipe.
func (p statusPipe) sayPid(pid int) {
	if p >= 0 {
		syscall.Write(int(p), append(strconv.AppendInt([]byte("pid "), int64(pid), 10), '\n'))
	}
}

// say writes s on the status pipe: the supervisor's last words.
func (p statusPipe) say(s Status) {
	if p >= 0 {
		syscall.Write(int(p), s.Format())
	}
}

// serverEnv is the supervisor's environment without OwnEnv: the server's.
func serverEnv() []string {
	env := syscall.Environ()
	if len(env) > 0 && env[0] == OwnEnv {
		env = env[1:]
	}
	return env
}
