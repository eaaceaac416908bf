// Command mcpcli is a terminal MCP client that renders elicitations.
package main

import (
	"os"

	"github.com/mcpcli/mcpcli/internal/nocolorprobe"
)

func main() {
	nocolorprobe.Restore() // lipgloss has been kept from probing the terminal
	deps := SystemDeps()
	ctx, stop := signalContext(deps.Servers)
	code := Run(ctx, os.Args[1:], deps)
	stop()
	os.Exit(code)
}
