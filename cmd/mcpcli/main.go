// Command mcpcli is a terminal MCP client that renders elicitations.
package main

import (
	"os"

	"github.com/mcpcli/mcpcli/internal/interrupt"
	"github.com/mcpcli/mcpcli/internal/nocolorprobe"
	"github.com/mcpcli/mcpcli/transport"
)

func main() {
	// lipgloss has been kept from probing the terminal; the environment is
	// the person's again before anything reads it or starts a server.
	nocolorprobe.Restore()
	if len(os.Args) > 1 && os.Args[1] == transport.SupervisorArg {
		// mcpcli's own binary as a server's supervisor (where
		// mcpcli-supervise is not installed beside it): before anything
		// of mcpcli's own, its signal handling first.
		transport.Supervise(os.Args[2:])
	}
	deps := SystemDeps()
	ctx, stop := interrupt.Context(deps.Servers)
	code := Run(ctx, os.Args[1:], deps)
	stop()
	os.Exit(code)
}
