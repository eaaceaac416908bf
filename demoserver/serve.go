package demoserver

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
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
	mux.Handle("/mcp", checkOrigin(handler))
	mux.Handle("/sse", checkOrigin(mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return d.srv }, nil)))
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

// checkOrigin refuses a request a web page on another origin sent: the
// spec's answer to DNS rebinding (streamable-http.mdx, Security Warning:
// an invalid Origin gets 403 Forbidden). A request without Origin (not a
// browser's), from a loopback origin (a local tool's page, on any port)
// or from the server's own origin goes through. The go-sdk checks only the
// Host header, and only on a loopback listener.
func checkOrigin(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if o := r.Header.Values("Origin"); len(o) > 0 && !allowedOrigin(o[0], r.Host) || len(o) > 1 {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusForbidden)
			io.WriteString(w, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Forbidden: requests from another origin than this server's, or a loopback one, are refused (DNS rebinding protection)"}}`)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// allowedOrigin reports whether a request's Origin is a loopback one, or
// the server's own (host, the request's Host).
func allowedOrigin(origin, host string) bool {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Path != "" || u.User != nil {
		return false // "null", a file: page, garbage
	}
	if strings.EqualFold(u.Host, host) {
		return true
	}
	h := u.Hostname()
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}
