package main

import (
	"context"
	"fmt"
	"net"
	"strings"
	"unicode"

	"github.com/spf13/cobra"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/connect"
	"github.com/mcpcli/mcpcli/demoserver"
	"github.com/mcpcli/mcpcli/internal/cliflags"
	"github.com/mcpcli/mcpcli/internal/plural"
	"github.com/mcpcli/mcpcli/shell"
	"github.com/mcpcli/mcpcli/shell/tour"
	"github.com/mcpcli/mcpcli/transport"
)

// NewCmdDemoServer is the demo-server command.
func NewCmdDemoServer(f *Factory) *cobra.Command {
	var httpAddr string
	cmd := &cobra.Command{
		Use:         "demo-server",
		Short:       "Serve the demo MCP server (stdio, or --http ADDR)",
		Annotations: helpPage("demo-server"),
		Args:        cobra.NoArgs,
		// The demo server is a server: the client flags mean nothing to it,
		// and one given by mistake (--answers meant for a client) is said
		// rather than ignored.
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			// A client of an HTTP server starts no server: --url has no example.
			given, example := cliflags.Given(cmd.InheritedFlags(), "url")
			if len(given) > 0 {
				return usageErrorf(cmd, "%s %s for the client commands, not for demo-server (it takes only --http): give %s to the command that starts it, as in 'mcpcli tools %s-- mcpcli demo-server'",
					strings.Join(given, ", "), plural.Of(len(given), "is a flag", "are flags"), plural.Of(len(given), "it", "them"), strings.Join(append(example, ""), " "))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			d, err := demoserver.New(demoserver.Options{})
			if err != nil {
				return err
			}
			defer d.Close()
			if httpAddr == "" {
				return d.ServeStdio(cmd.Context(), f.Deps.In, f.Deps.Out)
			}
			ln, err := net.Listen("tcp", httpAddr)
			if err != nil {
				return usageErrorf(cmd, "--http %q: %v", httpAddr, err)
			}
			f.Console().Printf("mcpcli demo server listening on http://%[1]s/mcp (Streamable HTTP) and http://%[1]s/sse (HTTP+SSE); Ctrl+C stops it", ln.Addr())
			return d.ServeHTTP(cmd.Context(), ln)
		},
	}
	cmd.Flags().StringVar(&httpAddr, "http", "", "serve Streamable HTTP (/mcp) and HTTP+SSE (/sse) on `ADDR` (host:port; port 0 picks one) instead of stdio")
	// Its help shows its own flags only: the client's are not for it.
	cmd.SetUsageFunc(ownFlagsUsage)
	return cmd
}

// ownFlagsUsage is cobra's usage for a command without subcommands or
// aliases, less the inherited flags. It is a function, not a usage template:
// executing a template makes reflect.Value.MethodByName reachable, and then
// the linker keeps every exported method of every type in the binary, 4 MB
// of it (TestBinaryDropsUnusedMethods).
func ownFlagsUsage(c *cobra.Command) error {
	w := c.OutOrStderr()
	fmt.Fprintf(w, "Usage:\n  %s", c.UseLine())
	if c.HasExample() {
		fmt.Fprintf(w, "\n\nExamples:\n%s", c.Example)
	}
	if c.HasAvailableLocalFlags() {
		fmt.Fprintf(w, "\n\nFlags:\n%s", strings.TrimRightFunc(c.LocalFlags().FlagUsages(), unicode.IsSpace))
	}
	fmt.Fprintln(w)
	return nil
}

// NewCmdDemo is the demo command.
func NewCmdDemo(f *Factory, runF func(context.Context, *tour.Options) error) *cobra.Command {
	return &cobra.Command{
		Use:         "demo [FLOW ...]",
		Short:       "Tour every kind of elicitation against the built-in demo server",
		Annotations: helpPage("demo"),
		RunE: func(cmd *cobra.Command, args []string) error {
			flows, err := tour.Pick(args)
			if err != nil {
				return usageErrorf(cmd, "%v", err)
			}
			if f.Flags.Stdio != "" || f.Flags.URL != "" || len(f.Flags.ServerArgv) > 0 {
				return usageErrorf(cmd, "demo uses its own server; to point mcpcli at another one use call, prompt or read")
			}
			exe, err := f.Deps.Executable()
			if err != nil {
				return fmt.Errorf("cannot find mcpcli's own executable to start the demo server: %v", err)
			}
			f.Flags.Verbose = true
			t := connect.Stdio(f.flags(), f.machine(), transport.Command{Argv: []string{exe, "demo-server"}})
			opts := &tour.Options{
				Out: f.Deps.Out, Console: f.Console(), JSON: f.JSON(), Flows: flows, Banner: f.asking().SetBanner, Chapter: f.mark, Explain: shell.Words{}.Error,
				Connect: func(ctx context.Context) (*client.Session, error) { return f.dial(ctx, cmd, t, dial{}) },
			}
			return runOr(cmd, runF, tour.Run, opts)
		},
	}
}
