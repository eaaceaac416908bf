//go:build !linux

// Package supervise is the supervisor a stdio server runs under on Linux;
// elsewhere there is none (see transport).
package supervise

import (
	"fmt"
	"os"
	"syscall"
)

// Arg is the first argument a supervisor is started with.
const Arg = "__mcpcli-supervise"

// StatusFD is the descriptor of the status pipe (Linux only).
const StatusFD = 3

// DeathSignal is Linux's only; here a placeholder.
const DeathSignal = syscall.SIGTERM

// Run is Linux's only.
func Run(argv []string) {
	fmt.Fprintln(os.Stderr, "mcpcli: the supervisor runs on Linux only")
	os.Exit(2)
}
