// Command mcpcli is a terminal MCP client that renders elicitations.
package main

import (
	"os"
	"runtime/debug"

	"github.com/mcpcli/mcpcli/internal/buildinfo"
	"github.com/mcpcli/mcpcli/internal/interrupt"
	"github.com/mcpcli/mcpcli/internal/nocolorprobe"
	"github.com/mcpcli/mcpcli/transport"
)

// version, commit and date are set at build time by a release (make
// release): -ldflags "-X main.version=v1.2.3 -X main.commit=SHA -X
// main.date=2026-12-01T06:04:00Z". Without them, --version reads what the
// go command recorded.
var (
	version = "dev"
	commit  = ""
	date    = ""
)

// buildVersion says which mcpcli this is, for --version: its version,
// the commit and date it was built from, and the Go that built it.
func buildVersion() string {
	info, _ := debug.ReadBuildInfo()
	return buildinfo.Describe(version, commit, date, info)
}

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
