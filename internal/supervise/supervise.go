// Package supervise is the supervisor a stdio server runs under on Linux,
// macOS and the BSDs, so that nothing it starts outlives mcpcli, even a
// mcpcli killed with SIGKILL. On Linux 5.9+ on amd64 mcpcli makes it
// without a program (Spawn, spawn_linux_amd64.go). Elsewhere it is Run, in
// a program of its own: this package imports little on purpose, since it
// is also the whole of the small mcpcli-supervise binary, on the path of
// every stdio run, where each package's start-up is paid once per server.
//
// mcpcli starts that program as
//
//	mcpcli-supervise __mcpcli-supervise MCPCLI-PID PROGRAM ARGS
//
// (or runs its own binary so, where mcpcli-supervise is not installed),
// with the server's stdin, stdout and stderr as its own, and the write end
// of a status pipe as descriptor StatusFD, and the server's environment
// after its own OwnEnv. The supervisor starts the
// server, and says on the status pipe how it ended (Status), last of all:
// a supervisor that ends without saying so was itself killed.
package supervise

import "strconv"

// Arg is the first argument a supervisor is started with.
const Arg = "__mcpcli-supervise"

// StatusFD is the descriptor on which mcpcli hears how the server ended.
const StatusFD = 3

// MarkEnv names the variable that marks every process of one server's
// tree (the supervisor sets it in the server's environment, and the
// server's children inherit it): should the supervisor itself be killed,
// mcpcli finds by it what the server started that left its process group.
const MarkEnv = "MCPCLI_SUPERVISED"

// OwnEnv is the first variable of the supervisor's environment that is
// its own, not the server's: one processor for the Go runtime, which then
// starts fewer threads (0.2 ms less of CPU per run). mcpcli puts it first
// unless the server's environment sets GOMAXPROCS itself.
const OwnEnv = "GOMAXPROCS=1"

// Status is how the server ended, as the supervisor says it on the status
// pipe: "exit N" or "signal N", one line.
type Status struct {
	Signal int // the signal that killed the server, or 0
	Code   int // its exit status, when Signal is 0
}

// Format is s as one line for the status pipe.
func (s Status) Format() []byte {
	if s.Signal != 0 {
		return strconv.AppendInt([]byte("signal "), int64(s.Signal), 10)
	}
	return strconv.AppendInt([]byte("exit "), int64(s.Code), 10)
}

// ParseStatus reads what a supervisor wrote on the status pipe; ok is
// false when it wrote nothing whole (it was killed before the server
// ended, or is not a supervisor this mcpcli knows).
func ParseStatus(b []byte) (s Status, ok bool) {
	if n := len(b); n > 0 && b[n-1] == '\n' {
		b = b[:n-1]
	}
	for _, kind := range []string{"exit ", "signal "} {
		if len(b) > len(kind) && string(b[:len(kind)]) == kind {
			n, err := strconv.Atoi(string(b[len(kind):]))
			if err != nil || n < 0 || n > 255 {
				return Status{}, false
			}
			if kind == "exit " {
				return Status{Code: n}, true
			}
			if n == 0 {
				return Status{}, false
			}
			return Status{Signal: n}, true
		}
	}
	return Status{}, false
}
