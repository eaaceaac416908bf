//go:build !linux && !darwin && !freebsd

package supervise

import "os"

// Run is not used here: on Windows a server runs in a Job Object instead,
// and elsewhere in a process group of its own (see transport).
func Run(argv []string) {
	os.Stderr.WriteString("mcpcli: mcpcli-supervise is not used on this system\n")
	os.Exit(2)
}
