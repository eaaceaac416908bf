// Command server is the MCP server `make bench-cli` runs both clients
// against: a go-sdk v1.8.0 server on stdio, or on Streamable HTTP with
// -http. echo answers with its text; confirm asks one form question (a
// 2026-07-28 input_required round) before it answers; survey asks a form of
// 200 text fields; big answers with size bytes of text; -tools N lists N
// more. Its tools/list says it stays fresh for -tools-ttl (5 minutes), as a
// server whose tools never change may. Both clients talk to this one
// binary, so what the benchmark compares is the client alone.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	addr := flag.String("http", "", "serve Streamable HTTP at http://ADDR/mcp (ADDR may end in :0; the URL is printed on stdout) instead of stdio")
	flag.IntVar(&extraTools, "tools", 0, "list `N` more tools, tool00001 to tool0N, each an echo")
	flag.DurationVar(&toolsTTL, "tools-ttl", toolsTTL, "say in tools/list that the list stays fresh this long (ttlMs; 0: not at all)")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var err error
	if *addr != "" {
		err = serveHTTP(ctx, *addr, os.Stdout)
	} else {
		err = serveStdio(ctx)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench server:", err)
		os.Exit(1)
	}
}

func serveStdio(ctx context.Context) error {
	err := newServer().Run(ctx, &mcp.StdioTransport{})
	if err == nil || errors.Is(err, io.EOF) || errors.Is(err, mcp.ErrConnectionClosed) || ctx.Err() != nil {
		return nil
	}
	return err
}

// serveHTTP serves statelessly, as the demo server does: 2026-07-28
// requests carry all they need, and a stateful handler would push a modern
// client back to the initialize handshake.
func serveHTTP(ctx context.Context, addr string, announce io.Writer) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w (pick another -http address)", addr, err)
	}
	srv := newServer()
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{Stateless: true})
	mux := http.NewServeMux()
	mux.Handle("/mcp", handler)
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		hs.Close()
	}()
	fmt.Fprintf(announce, "http://%s/mcp\n", ln.Addr())
	if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
