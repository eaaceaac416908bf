// Command mcpcli-supervise is the supervisor mcpcli runs each stdio server
// under on macOS, FreeBSD, and Linux where it cannot make one by clone
// (before 5.9, on another architecture than amd64, with
// MCPCLI_SUPERVISOR=exec, or where a filter refuses the clone), so that
// nothing the server starts outlives mcpcli, even one killed with SIGKILL.
// mcpcli uses it when it is installed beside mcpcli's own binary (make
// build, make install, the release archives and `go install .../cmd/...`
// put it there), and runs itself as the supervisor otherwise: this small
// binary starts in a fraction of the time. It is not run by hand.
package main

import (
	"os"

	"github.com/mcpcli/mcpcli/internal/supervise"
)

func main() {
	if len(os.Args) < 2 || os.Args[1] != supervise.Arg {
		os.Stderr.WriteString("mcpcli-supervise is mcpcli's helper: mcpcli starts it for each stdio server; it is not run by hand\n")
		os.Exit(2)
	}
	supervise.Run(os.Args[2:])
}
