package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/connect"
	"github.com/mcpcli/mcpcli/demoserver"
	"github.com/mcpcli/mcpcli/internal/plural"
	"github.com/mcpcli/mcpcli/internal/shellwords"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/transport"
)

// NewCmdDemoServer is the demo-server command.
func NewCmdDemoServer(f *Factory) *cobra.Command {
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
at http://ADDR/mcp, and the older HTTP+SSE transport at http://ADDR/sse.`,
		Example: `  mcpcli tools -- mcpcli demo-server
  mcpcli demo-server --http 127.0.0.1:8080 &
  mcpcli call edit_profile --url http://127.0.0.1:8080/mcp`,
		Args: cobra.NoArgs,
		// The demo server is a server: the client flags mean nothing to it,
		// and one given by mistake (--answers meant for a client) is said
		// rather than ignored.
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			var given, example []string
			cmd.InheritedFlags().VisitAll(func(fl *pflag.Flag) {
				if !fl.Changed {
					return
				}
				given = append(given, "--"+fl.Name)
				switch {
				case fl.Name == "url":
					// A client of an HTTP server starts no server.
				case fl.Value.Type() == "bool":
					example = append(example, "--"+fl.Name)
				case isSlice(fl.Value):
					for _, v := range fl.Value.(pflag.SliceValue).GetSlice() {
						example = append(example, "--"+fl.Name+" "+shellwords.Quote(v))
					}
				default:
					example = append(example, "--"+fl.Name+" "+shellwords.Quote(fl.Value.String()))
				}
			})
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
	cmd.SetUsageTemplate(strings.Replace(cmd.UsageTemplate(), "{{if .HasAvailableInheritedFlags}}", "{{if false}}", 1))
	return cmd
}

// DemoOptions are what demo needs.
type DemoOptions struct {
	Out     io.Writer
	Console *render.Console
	Connect connector
	JSON    bool
	Flows   []demoserver.Flow
	// Banner heads the forms of each flow: where the tour is.
	Banner func(string)
	// Chapter marks the start of each flow in the recording (--cast).
	Chapter func(string)
}

// NewCmdDemo is the demo command.
func NewCmdDemo(f *Factory, runF func(context.Context, *DemoOptions) error) *cobra.Command {
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
  mcpcli demo create_repo --trace -
  mcpcli demo --cast tour.cast --cast-idle 2`,
		RunE: func(cmd *cobra.Command, args []string) error {
			flows, err := pickFlows(cmd, args)
			if err != nil {
				return err
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
			opts := &DemoOptions{
				Out: f.Deps.Out, Console: f.Console(), JSON: f.JSON(), Flows: flows, Banner: f.setBanner, Chapter: f.mark,
				Connect: func(ctx context.Context) (*client.Session, error) { return f.dial(ctx, cmd, t, dial{}) },
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return demoRun(cmd.Context(), opts)
		},
	}
}

func demoRun(ctx context.Context, opts *DemoOptions) error {
	s, err := opts.Connect(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	con := opts.Console
	flows := opts.Flows
	// The narration is wrapped by mcpcli, at spaces, to the terminal's
	// width: the terminal would cut it mid-word.
	width := con.Width()
	con.Printf("%s", render.Hang(fmt.Sprintf("mcpcli demo: %d flow%s against %s, %s", len(flows), plural.S(len(flows)), render.Line(s.Server().Display()), s.Server().Protocol), width, 2))
	var failed []string
	for i, fl := range flows {
		title := fmt.Sprintf("Tour %d/%d · %s", i+1, len(flows), fl.Title)
		if opts.Chapter != nil {
			opts.Chapter(title)
		}
		heading := fmt.Sprintf("[%d/%d] ", i+1, len(flows))
		con.Printf("\n%s\n%s", render.Hang(heading+fl.Title, width, len(heading)), render.Hang("      "+fl.Explain, width, 0))
		if opts.Banner != nil {
			opts.Banner(title)
		}
		err := runFlow(ctx, s, fl, opts)
		var te toolError
		if errors.As(err, &te) {
			// The tool answered, with an error result: the flow reached
			// its end, and the result says how.
			err = nil
		}
		if err != nil {
			err = s.Explain(err)
			if errors.Is(err, client.ErrAbandoned) || ctx.Err() != nil {
				return err
			}
			var exited *transport.ExitError
			if errors.Is(err, render.ErrNoInput) || errors.As(err, &exited) {
				// Every flow after this one would fail the same way.
				return err
			}
			con.Printf("mcpcli: %s", render.Line(explain(err)))
			failed = append(failed, fl.Target)
		}
	}
	if len(failed) > 0 {
		return &demoError{failed: failed, of: len(flows)}
	}
	con.Printf("\nDone: %d flow%s completed.", len(flows), plural.S(len(flows)))
	return nil
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

func runFlow(ctx context.Context, s *client.Session, fl demoserver.Flow, opts *DemoOptions) error {
	var (
		res *client.Result
		err error
	)
	switch fl.Method {
	case "tools/call":
		res, err = s.CallTool(ctx, fl.Target, fl.Args)
	case "prompts/get":
		args := map[string]string{}
		for k, v := range fl.Args {
			args[k] = fmt.Sprint(v)
		}
		res, err = s.GetPrompt(ctx, fl.Target, args)
	case "resources/read":
		res, err = s.ReadResource(ctx, fl.Target)
	default:
		return fmt.Errorf("demo flow %q has unknown method %q", fl.Target, fl.Method)
	}
	if err != nil {
		return err
	}
	return printResult(opts.Out, opts.Console, res, opts.JSON, "")
}

// isSlice says whether a flag is repeatable (--env, --header, --root).
func isSlice(v pflag.Value) bool {
	_, ok := v.(pflag.SliceValue)
	return ok
}
