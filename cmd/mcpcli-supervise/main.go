// Command mcpcli-supervise is the supervisor mcpcli runs each stdio server
// under on Linux, so that nothing the server starts outlives mcpcli, even
// one killed with SIGKILL. mcpcli uses it when it is installed beside
// mcpcli's own binary (make build and make install put it there), and runs
// itself as the supervisor otherwise: this small binary starts in about
// half the time, on the path of every stdio run. It is not run by hand.
package main

import (
	"fmt"
	"os"

	"github.com/mcpcli/mcpcli/internal/supervise"
)

func main() {
	if len(os.Args) < 2 || os.Args[1] != supervise.Arg {
		fmt.Fprintln(os.Stderr, "mcpcli-supervise is mcpcli's helper: mcpcli starts it for each stdio server; it is not run by hand")
		os.Exit(2)
	}
	supervise.Run(os.Args[2:])
}
