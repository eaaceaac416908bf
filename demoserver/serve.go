package demoserver

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ServeStdio serves the demo on in and out until in ends or ctx is done.
func (d *Demo) ServeStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	t := &mcp.IOTransport{Reader: io.NopCloser(in), Writer: nopWriteCloser{out}}
	err := d.srv.Run(ctx, t)
	if err != nil && (errors.Is(err, io.EOF) || errors.Is(err, mcp.ErrConnectionClosed) || ctx.Err() != nil) {
		return nil
	}
	return err
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// ServeHTTP serves the demo as Streamable HTTP at /mcp on ln until ctx is
// done, and over the older HTTP+SSE transport (2024-11-05) at /sse, as
// servers that keep old clients working do. /mcp is stateless: 2026-07-28
// requests carry everything they need, and a stateful handler would push
// modern clients back to the legacy handshake.
func (d *Demo) ServeHTTP(ctx context.Context, ln net.Listener) error {
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return d.srv }, &mcp.StreamableHTTPOptions{Stateless: true})
	mux := http.NewServeMux()
	mux.Handle("/mcp", handler)
	mux.Handle("/sse", mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return d.srv }, nil))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
