package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/demoserver"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/transport"
)

func (a *app) newDemoServerCmd() *cobra.Command {
	var httpAddr string
	cmd := &cobra.Command{
		Use:   "demo-server",
		Short: "Serve the demo MCP server (stdio, or --http ADDR)",
		Long: `demo-server is an MCP 2026-07-28 server that shows every kind of
elicitation: a destructive-action confirmation, an account picker, a profile
form with every field kind, a URL-mode "connect an account" step served by a
page on a loopback port, a two-round wizard carried in an HMAC-protected
requestState, and asks raised from prompts/get and resources/read.

By default it speaks on stdin/stdout; with --http it serves Streamable HTTP
at http://ADDR/mcp.`,
		Example: `  mcpcli tools -- mcpcli demo-server
  mcpcli demo-server --http 127.0.0.1:8080 &
  mcpcli call edit_profile --url http://127.0.0.1:8080/mcp`,
		Args: cobra.NoArgs,
		// The demo server needs none of the client flags' checks.
		PersistentPreRunE: func(*cobra.Command, []string) error { return nil },
		RunE: func(cmd *cobra.Command, args []string) error {
			d, err := demoserver.New(demoserver.Options{})
			if err != nil {
				return err
			}
			defer d.Close()
			ctx := cmd.Context()
			if httpAddr == "" {
				t := &mcp.IOTransport{Reader: io.NopCloser(a.deps.In), Writer: nopWriteCloser{a.deps.Out}}
				err := d.Server().Run(ctx, t)
				if err != nil && (errors.Is(err, io.EOF) || errors.Is(err, mcp.ErrConnectionClosed) || ctx.Err() != nil) {
					return nil
				}
				return err
			}
			ln, err := net.Listen("tcp", httpAddr)
			if err != nil {
				return usageErrorf(cmd, "--http %q: %v", httpAddr, err)
			}
			// Stateless: 2026-07-28 requests carry everything they need, and a
			// stateful handler would push modern clients back to the
			// legacy handshake.
			handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return d.Server() }, &mcp.StreamableHTTPOptions{Stateless: true})
			mux := http.NewServeMux()
			mux.Handle("/mcp", handler)
			srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
			fmt.Fprintf(a.deps.Err, "mcpcli demo server listening on http://%s/mcp (Ctrl+C stops it)\n", ln.Addr())
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
		},
	}
	cmd.Flags().StringVar(&httpAddr, "http", "", "serve Streamable HTTP on `ADDR` (host:port; port 0 picks one) instead of stdio")
	return cmd
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

func (a *app) newDemoCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "demo [FLOW ...]",
		Short: "Tour every kind of elicitation against the built-in demo server",
		Long: `demo starts the demo server as a child process over stdio and walks through
its flows, showing each round trip as it happens: the first request, the
server's input_required answer, your answers, and the retry under a new id
with the server's requestState echoed unchanged.

Answer in the terminal, or script every answer with --answers FILE. Name
flows by number or by tool, prompt or resource name to run only those.

Flows:
` + flowList(),
		Example: `  mcpcli demo
  mcpcli demo 1 3
  mcpcli demo --answers answers.json
  mcpcli demo create_repo --trace -`,
		RunE: func(cmd *cobra.Command, args []string) error {
			flows, err := pickFlows(cmd, args)
			if err != nil {
				return err
			}
			exe, err := a.deps.Executable()
			if err != nil {
				return fmt.Errorf("cannot find mcpcli's own executable to start the demo server: %v", err)
			}
			if a.flags.stdio != "" || a.flags.url != "" || len(a.flags.serverArgv) > 0 {
				return usageErrorf(cmd, "demo uses its own server; to point mcpcli at another one use call, prompt or read")
			}
			a.flags.verbose = true
			t := &target{stdio: &transport.Stdio{Cmd: transport.Command{Argv: []string{exe, "demo-server"}}}, via: "stdio: mcpcli demo-server"}
			s, err := a.connectTarget(cmd, t)
			if err != nil {
				return err
			}
			defer s.Close()
			w := a.deps.Err
			fmt.Fprintf(w, "mcpcli demo: %d flow%s against %s, %s\n", len(flows), plural(len(flows)), render.Line(s.Server().Display()), s.Server().Protocol)
			var failed []string
			for i, f := range flows {
				fmt.Fprintf(w, "\n[%d/%d] %s\n      %s\n", i+1, len(flows), f.Title, f.Explain)
				err := a.runFlow(cmd.Context(), s, f)
				var te toolError
				if errors.As(err, &te) {
					// The tool answered, with an error result: the flow
					// reached its end, and the result says how.
					err = nil
				}
				if err != nil {
					err = s.explain(err)
					if errors.Is(err, client.ErrAbandoned) || cmd.Context().Err() != nil {
						return err
					}
					var exited *transport.ExitError
					if errors.Is(err, render.ErrNoInput) || errors.As(err, &exited) {
						// Every flow after this one would fail the same way.
						return err
					}
					fmt.Fprintf(w, "mcpcli: %s\n", render.Line(explain(err)))
					failed = append(failed, f.Target)
				}
			}
			if len(failed) > 0 {
				return fmt.Errorf("%d of %d demo flows did not complete: %s", len(failed), len(flows), strings.Join(failed, ", "))
			}
			fmt.Fprintf(w, "\nDone: %d flow%s completed.\n", len(flows), plural(len(flows)))
			return nil
		},
	}
}

func flowList() string {
	var b strings.Builder
	for i, f := range demoserver.Flows {
		fmt.Fprintf(&b, "  %d. %-30s %s %s\n", i+1, f.Title, f.Method, f.Target)
	}
	return b.String()
}

func pickFlows(cmd *cobra.Command, args []string) ([]demoserver.Flow, error) {
	if len(args) == 0 {
		return demoserver.Flows, nil
	}
	var out []demoserver.Flow
	for _, arg := range args {
		found := false
		if n, err := strconv.Atoi(arg); err == nil && n >= 1 && n <= len(demoserver.Flows) {
			out = append(out, demoserver.Flows[n-1])
			found = true
		}
		for _, f := range demoserver.Flows {
			if !found && f.Target == arg {
				out = append(out, f)
				found = true
			}
		}
		if !found {
			return nil, usageErrorf(cmd, "no demo flow %q; use 1-%d or one of the names in 'mcpcli demo --help'", arg, len(demoserver.Flows))
		}
	}
	return out, nil
}

func (a *app) runFlow(ctx context.Context, s *session, f demoserver.Flow) error {
	out := a.deps.Out
	switch f.Method {
	case "tools/call":
		res, err := s.CallTool(ctx, f.Target, f.Args)
		if err != nil {
			return err
		}
		if a.flags.output == "json" {
			return render.WriteJSON(out, res)
		}
		render.ToolResult(out, res)
		if res.IsError {
			return toolError{}
		}
	case "prompts/get":
		args := map[string]string{}
		for k, v := range f.Args {
			args[k] = fmt.Sprint(v)
		}
		res, err := s.GetPrompt(ctx, f.Target, args)
		if err != nil {
			return err
		}
		if a.flags.output == "json" {
			return render.WriteJSON(out, res)
		}
		render.PromptResult(out, res)
	case "resources/read":
		res, err := s.ReadResource(ctx, f.Target)
		if err != nil {
			return err
		}
		if a.flags.output == "json" {
			return render.WriteJSON(out, res)
		}
		render.ResourceResult(out, res)
	}
	return nil
}
