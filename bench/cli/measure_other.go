//go:build !linux

package main

import (
	"fmt"
	"os"
)

// The benchmark reads each client's own peak RSS at its exit through a
// ptrace exit stop and /proc, which only Linux has.
func main() {
	fmt.Fprintln(os.Stderr, "make bench-cli runs on Linux only: it reads each client's peak RSS through ptrace and /proc")
	os.Exit(1)
}
