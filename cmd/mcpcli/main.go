// Command mcpcli is a terminal MCP client that renders elicitations.
package main

import "os"

func main() {
	deps := SystemDeps()
	ctx, stop := signalContext(deps.Servers)
	code := Run(ctx, os.Args[1:], deps)
	stop()
	os.Exit(code)
}
