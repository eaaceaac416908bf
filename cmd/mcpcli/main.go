// Command mcpcli is a terminal MCP client that renders elicitations.
package main

import "os"

func main() {
	ctx, stop := signalContext()
	code := Run(ctx, os.Args[1:], SystemDeps())
	stop()
	os.Exit(code)
}
