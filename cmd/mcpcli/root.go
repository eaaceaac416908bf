package main

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/internal/cliflags"
	"github.com/mcpcli/mcpcli/internal/growstack"
	"github.com/mcpcli/mcpcli/transport"
)

// Run runs mcpcli with args and returns the exit code.
func Run(ctx context.Context, args []string, deps *Deps) int {
	if len(args) > 0 && args[0] == transport.SupervisorArg {
		transport.Supervise(args[1:]) // mcpcli's own binary, between itself and a stdio server
	}
	f := &Factory{Deps: deps, Args: args}
	root := NewCmdRoot(f)
	root.SetArgs(args)
	root.SetIn(deps.In)
	root.SetOut(deps.Out)
	root.SetErr(deps.Err)
	cmd, err := root.ExecuteContextC(ctx)
	var name string
	if err != nil && cmd == root {
		if _, serr := fmt.Sscanf(err.Error(), "unknown command %q", &name); serr == nil {
			err = unknownCommand(root, name)
		}
	}
	f.cleanup()
	f.lintReport()
	code := report(ctx, f.Console(), err, f.loginArgs())
	f.keepAnswers(err)
	f.endCast()
	return code
}

// unknownCommand words cobra's error for a mistyped command on one line,
// with its suggestion.
func unknownCommand(root *cobra.Command, name string) error {
	msg := fmt.Sprintf("unknown command %q", name)
	if sug := root.SuggestionsFor(name); len(sug) > 0 {
		msg += fmt.Sprintf("; did you mean %s?", strings.Join(sug, " or "))
	}
	return usageErrorf(root, "%s", msg)
}

// NewCmdRoot is mcpcli with its global flags bound to f, and the command
// f.Args run (or every command: see cliflags.CommandWord).
func NewCmdRoot(f *Factory) *cobra.Command {
	root := &cobra.Command{
		Use:         "mcpcli",
		Short:       "A terminal MCP client that renders elicitations",
		Annotations: helpPage("mcpcli"),
		// What --version prints is read only when it is asked for
		// (versionFlag): the go command's record of the build takes a
		// tenth of a millisecond to read, at every start.
		Version:       "dev",
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, args []string) error {
			// The stack the command runs on, made big while it is a
			// kilobyte deep, before the calls that would grow it twice,
			// 25 and 65 frames down (see growstack). --version and --help
			// never come here: they need no more than they have.
			growstack.Grow()
			if err := validateFlags(cmd, &f.Flags); err != nil {
				return err
			}
			return f.startCast(cmd)
		},
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if rest := splitDash(f, cmd, args); len(rest) > 0 {
				return unknownCommand(cmd, rest[0])
			}
			fl := f.Flags
			if fl.Stdio == "" && fl.URL == "" && fl.Server == "" && len(fl.ServerArgv) == 0 {
				return cmd.Help()
			}
			// A server and no command: the interactive session.
			opts, err := f.sessionOptions(cmd, "")
			if err != nil {
				return err
			}
			return sessionRun(cmd.Context(), opts)
		},
	}
	vf := root.Flags().VarPF(&versionFlag{cmd: root}, "version", "", "version for mcpcli")
	vf.NoOptDefVal = "true"
	// As cobra marks its own: completion offers nothing after it.
	vf.Annotations = map[string][]string{cobra.FlagSetByCobraAnnotation: {"true"}}
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageErrorf(c, "%v", err)
	})
	fl := &f.Flags
	p := root.PersistentFlags()
	p.StringVarP(&fl.Server, "server", "s", "", "talk to the server `NAME` from the config files ('mcpcli servers' lists them)")
	p.StringVar(&fl.Config, "config", "", "read servers from `FILE` before every other config file")
	p.BoolVar(&fl.TrustProject, "trust-project", false, "trust the project's config files (.mcp.json, .vscode/mcp.json, .cursor/mcp.json, from here upward) for this run, without asking or remembering; for scripts and CI")
	p.StringVar(&fl.Stdio, "stdio", "", "start the server `\"CMD ARGS\"` and talk to it over stdio (or put the command after --)")
	p.StringVar(&fl.URL, "url", "", "talk to a Streamable HTTP server at `URL` (or an HTTP+SSE one: see --transport)")
	p.StringVar(&fl.Transport, "transport", "auto", "with --url: `T` is auto (Streamable HTTP, falling back to HTTP+SSE when the server refuses the first POST with 400, 404 or 405), streamable, or sse (the 2024-11-05 HTTP+SSE transport)")
	p.StringArrayVar(&fl.Headers, "header", nil, "add an HTTP header `\"Name: value\"` to every request (repeatable)")
	p.StringArrayVar(&fl.Env, "env", nil, "set `K=V` in the stdio server's environment (repeatable)")
	p.StringVar(&fl.Cwd, "cwd", "", "start the stdio server in `DIR`")
	p.StringVar(&fl.Trace, "trace", "", "write every JSON-RPC message (and HTTP headers) as JSON Lines to `FILE` (- for stderr)")
	p.StringVar(&fl.Answers, "answers", "", "answer elicitations from `FILE` (- for stdin) instead of asking; see 'mcpcli help answers'")
	p.StringVar(&fl.SaveAnswers, "save-answers", "", "write the answers you give as an answers `FILE` that --answers can send again")
	p.BoolVar(&fl.OpenURLs, "open-urls", false, "with --answers: open each URL the answers accept, and a sign-in link, in the browser ($BROWSER, else the system's); without it they are printed (auth login takes it alone)")
	p.StringVar(&fl.Elicitation, "elicitation", "form,url", "elicitation `MODES` to declare: form,url | form | url | none")
	p.IntVar(&fl.MaxRounds, "max-rounds", client.DefaultMaxRounds, "give up after `N` rounds of input requests for one request")
	p.DurationVar(&fl.Timeout, "timeout", 0, "give up on a request the server has not answered within `DURATION` (time spent answering is not counted; 0, the default, waits as long as it takes; a sign-in's requests to the authorization server get 30s then)")
	p.StringVarP(&fl.Output, "output", "o", "text", "result `FORMAT`: text or json (json prints only the final result, as the server sent it); lint takes sarif too")
	p.BoolVar(&fl.Accessible, "accessible", false, "ask questions as plain lines instead of full-screen forms (also used when stdin is not a terminal)")
	p.StringVar(&fl.LogLevel, "log-level", "", "ask the server for log messages at `LEVEL` (debug, info, notice, warning, error, ...) and show them on stderr")
	p.BoolVar(&fl.Sampling, "sampling", false, "declare sampling: show each sampling request and let you write the model's reply (or decline); answers files answer it too, see 'mcpcli help answers'")
	p.StringArrayVar(&fl.Roots, "root", nil, "declare the roots capability and give the server `DIR` as a root (repeatable; absolute file:// URIs)")
	p.StringVar(&fl.Protocol, "protocol", "auto", "protocol `VERSION`: auto (2026-07-28 with server/discover, falling back to the 2025-11-25 initialize handshake), or pin 2026-07-28 or 2025-11-25")
	p.BoolVar(&fl.Lint, "lint", false, "check every ask the server makes against the MCP spec, and list the findings on stderr at the end ('mcpcli help lint')")
	p.BoolVarP(&fl.Verbose, "verbose", "v", false, "show each round trip, and what a stdio server writes to its stderr, on stderr")
	p.StringVar(&fl.ClientID, "client-id", "", "sign in (OAuth) as the client `ID` registered with the server's authorization server; its secret comes from $MCPCLI_CLIENT_SECRET or the keyring")
	p.StringVar(&fl.ClientMetadataURL, "client-metadata-url", "", "sign in (OAuth) with the client ID metadata document at `URL`, where the authorization server takes one")
	fl.MaxMessageSize = transport.MaxMessageSize
	p.Var((*transport.MessageSizeValue)(&fl.MaxMessageSize), "max-message-size", "refuse a message from the server larger than `SIZE` (an HTTP body after decompression, an SSE event, a stdio line)")
	p.StringVar(&fl.Cast, "cast", "", "record what mcpcli draws on the terminal as an asciinema cast (asciicast v2) in `FILE`, with a marker for each round; keys typed are not recorded")
	p.Float64Var(&fl.CastIdle, "cast-idle", 0, "with --cast: cap every pause of the recording at `N` seconds (as asciinema rec -i)")
	root.RegisterFlagCompletionFunc("server", f.completeServers(false))
	root.SetHelpFunc(withHelpPages(root.HelpFunc()))

	commands := []command{
		{"discover", func() *cobra.Command { return NewCmdDiscover(f, nil) }},
		{"tools", func() *cobra.Command { return NewCmdTools(f, nil) }},
		{"call", func() *cobra.Command { return NewCmdCall(f, nil) }},
		{"prompts", func() *cobra.Command { return NewCmdPrompts(f, nil) }},
		{"prompt", func() *cobra.Command { return NewCmdPrompt(f, nil) }},
		{"resources", func() *cobra.Command { return NewCmdResources(f, nil) }},
		{"read", func() *cobra.Command { return NewCmdRead(f, nil) }},
		{"session shell", func() *cobra.Command { return NewCmdSession(f, nil) }},
		{"watch", func() *cobra.Command { return NewCmdWatch(f, nil) }},
		{"demo", func() *cobra.Command { return NewCmdDemo(f, nil) }},
		{"demo-server", func() *cobra.Command { return NewCmdDemoServer(f) }},
		{"servers", func() *cobra.Command { return NewCmdServers(f, nil) }},
		{"test", func() *cobra.Command { return NewCmdTest(f, nil) }},
		{"explore", func() *cobra.Command { return NewCmdExplore(f, nil) }},
		{"lint", func() *cobra.Command { return NewCmdLint(f, nil) }},
		{"auth", func() *cobra.Command { return NewCmdAuth(f) }},
	}
	// A run makes the command it runs, and no other: making them all
	// (and cobra's completion commands) was most of a start-up's work.
	// Help, completion, a mistyped command, or no command and nothing to
	// go by, make them all.
	word, ok := cliflags.CommandWord(p, f.Args)
	switch {
	case ok && word == "" && slices.Contains(f.Args, "--version") && !slices.Contains(f.Args, "--help") && !slices.Contains(f.Args, "-h"):
		root.CompletionOptions.DisableDefaultCmd = true
		return root
	case ok && word != "":
		for _, c := range commands {
			if slices.Contains(strings.Fields(c.names), word) {
				root.CompletionOptions.DisableDefaultCmd = true
				sub := c.make()
				root.AddCommand(sub)
				root.SetHelpCommand(newHelpCmd())
				sortFlags(sub, false)
				return root
			}
		}
	}
	for _, c := range commands {
		root.AddCommand(c.make())
	}
	root.AddCommand(helpTopics()...)
	root.SetHelpCommand(newHelpCmd())
	return root
}

// sortFlags says whether cobra visits the flags of c and its parents in
// the order of their names (pflag's default) or in the order they were
// made. Only help and completion show them; a run that shows neither
// need not sort them, which it did several times over as cobra merged
// the persistent flags (about 1% of a call's instructions). The help
// function sorts them again (withHelpPages).
func sortFlags(c *cobra.Command, sorted bool) {
	for ; c != nil; c = c.Parent() {
		c.Flags().SortFlags = sorted
		c.PersistentFlags().SortFlags = sorted
	}
}

// command is a subcommand, by its names (name and aliases), made when it
// is needed.
type command struct {
	names string
	make  func() *cobra.Command
}

// newHelpCmd is cobra's help command, except that a topic nobody has is an
// error (cobra prints the general help and exits 0).
func newHelpCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "help [command or topic]",
		Short: "Help about any command, or a topic below",
		ValidArgsFunction: func(c *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
			cmd, _, err := c.Root().Find(args)
			if err != nil || cmd == nil {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			var out []cobra.Completion
			for _, sub := range cmd.Commands() {
				if (sub.IsAvailableCommand() || sub.IsAdditionalHelpTopicCommand()) && strings.HasPrefix(sub.Name(), toComplete) {
					out = append(out, cobra.CompletionWithDesc(sub.Name(), sub.Short))
				}
			}
			return out, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(c *cobra.Command, args []string) error {
			cmd, rest, err := c.Root().Find(args)
			if err != nil || cmd == nil || len(rest) > 0 {
				return usageErrorf(c.Root(), "there is no command or help topic %q; 'mcpcli help' lists them", strings.Join(args, " "))
			}
			return cmd.Help()
		},
	}
}

// annotOpenURLs marks a command that takes --open-urls without --answers.
const annotOpenURLs = "open-urls-alone"

// validateFlags checks the global flags once, before any command runs.
func validateFlags(cmd *cobra.Command, fl *GlobalFlags) error {
	switch fl.Output {
	case "text", "json":
	case "sarif":
		if cmd.Annotations[annotSARIF] == "" {
			return usageErrorf(cmd, "--output sarif is lint's; use text or json")
		}
	default:
		return usageErrorf(cmd, "--output %q: use text or json", fl.Output)
	}
	if fl.OpenURLs && fl.Answers == "" && cmd.Annotations[annotOpenURLs] == "" {
		return usageErrorf(cmd, "--open-urls goes with --answers FILE; without an answers file you choose for each URL whether it opens")
	}
	return asUsage(cmd, fl.Flags.Check())
}

// splitDash separates a command's own arguments from the server command
// after "--", which it keeps in the flags.
func splitDash(f *Factory, cmd *cobra.Command, args []string) []string {
	if i := cmd.ArgsLenAtDash(); i >= 0 {
		f.Flags.ServerArgv = args[i:]
		return args[:i]
	}
	return args
}

// splitOwn separates the arguments of a command that takes its own (call
// TOOL, prompt NAME, read URI) from the server command. A "--" before any
// of them ends the flags, so that a name starting with - is not one:
// "call -- -x k=v -s NAME" calls the tool "-x", and a second "--" starts
// the server command ("call -- -x -- ./server"), as a saved script writes
// them. Otherwise the first "--" starts the server command, as everywhere.
func splitOwn(f *Factory, cmd *cobra.Command, args []string) []string {
	if cmd.ArgsLenAtDash() == 0 {
		if i := slices.Index(args, "--"); i >= 0 {
			f.Flags.ServerArgv = args[i+1:]
			return args[:i]
		}
		if fl := f.Flags; fl.Server != "" || fl.URL != "" || fl.Stdio != "" {
			return args // a flag names the server: these are the command's own
		}
	}
	return splitDash(f, cmd, args)
}

// noArgs accepts no arguments but the server command after --.
func noArgs(f *Factory) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if rest := splitDash(f, cmd, args); len(rest) > 0 {
			return usageErrorf(cmd, "%s takes no arguments (got %q); put a server command after --", cmd.Name(), rest[0])
		}
		return nil
	}
}

// runOr runs run with opts, or runF instead when a test gives one.
func runOr[O any](cmd *cobra.Command, runF, run func(context.Context, O) error, opts O) error {
	if runF != nil {
		run = runF
	}
	return run(cmd.Context(), opts)
}

// versionFlag is cobra's --version, which cobra adds when none is defined,
// except that the description of the build (buildVersion) is made when
// the flag is given, not whenever the command tree is.
type versionFlag struct {
	cmd *cobra.Command
	set bool
}

func (v *versionFlag) String() string   { return strconv.FormatBool(v.set) }
func (v *versionFlag) Type() string     { return "bool" }
func (v *versionFlag) IsBoolFlag() bool { return true }

func (v *versionFlag) Set(s string) error {
	b, err := strconv.ParseBool(s)
	if err != nil {
		return err
	}
	if v.set = b; b {
		v.cmd.Version = buildVersion()
	}
	return nil
}
