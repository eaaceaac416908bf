package main

import (
	"context"
	"io"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/mcpcli/mcpcli/config"
	"github.com/mcpcli/mcpcli/connect"
	"github.com/mcpcli/mcpcli/render"
)

// ServersOptions are what servers (the list) needs.
type ServersOptions struct {
	Out     io.Writer
	Console *render.Console
	Config  func() (*config.Config, error)
	Home    string // shown as ~ in paths
	JSON    bool
}

// NewCmdServers is the servers command: the list, and add and remove.
func NewCmdServers(f *Factory, runF func(context.Context, *ServersOptions) error) *cobra.Command {
	cmd := &cobra.Command{
		Use:         "servers",
		Short:       "List the servers you can name with -s, and where each is defined",
		Annotations: helpPage("servers"),
		Args:        cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts := &ServersOptions{Out: f.Deps.Out, Console: f.Console(), JSON: f.JSON(), Home: f.configs().HomeDir(),
				Config: func() (*config.Config, error) { return f.configs().Load(cmd.Context()) }}
			return runOr(cmd, runF, serversRun, opts)
		},
	}
	cmd.AddCommand(NewCmdServersAdd(f, nil), NewCmdServersRemove(f, nil), NewCmdServersTrust(f, nil), NewCmdServersUntrust(f, nil))
	return cmd
}

func serversRun(ctx context.Context, opts *ServersOptions) error {
	cfg, err := opts.Config()
	if err != nil {
		return err
	}
	listed, problems := cfg.List()
	for _, p := range problems {
		opts.Console.Warn(p.Error())
	}
	if err := cfg.TrustStoreErr(); err != nil {
		opts.Console.Warn(err.Error() + "; no project file counts as trusted")
	}
	return render.ServerList{Home: opts.Home}.Write(opts.Out, listed, cfg.ProjectFiles(), opts.JSON)
}

// ServersAddOptions are what servers add needs.
type ServersAddOptions struct {
	Out    io.Writer
	Config func() (*config.Config, error)
	Name   string
	Entry  config.Entry
	Force  bool
}

// NewCmdServersAdd is servers add.
func NewCmdServersAdd(f *Factory, runF func(context.Context, *ServersAddOptions) error) *cobra.Command {
	var force bool
	cmd := &cobra.Command{
		Use:         "add NAME (-- CMD ARGS... | --stdio \"CMD ARGS\" | --url URL [--header \"Name: value\"]...)",
		Short:       "Add a server to mcpcli's own file",
		Annotations: helpPage("servers-add"),
		Args: func(cmd *cobra.Command, args []string) error {
			if len(splitDash(f, cmd, args)) != 1 {
				return usageErrorf(cmd, "give the server's name, then its command after -- or its --url")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			name := args[0]
			if err := config.CheckName(name); err != nil {
				return usageErrorf(cmd, "%v", err)
			}
			entry, err := connect.Entry(f.flags())
			if err != nil {
				return asUsage(cmd, err)
			}
			opts := &ServersAddOptions{Out: f.Deps.Out, Name: name, Entry: entry, Force: force,
				Config: func() (*config.Config, error) { return f.configs().Load(cmd.Context()) }}
			return runOr(cmd, runF, serversAddRun, opts)
		},
	}
	cmd.Flags().BoolVar(&force, "force", false, "replace a server of the same name in mcpcli's file")
	return cmd
}

func serversAddRun(ctx context.Context, opts *ServersAddOptions) error {
	cfg, err := opts.Config()
	if err != nil {
		return err
	}
	if err := cfg.Add(opts.Name, opts.Entry, opts.Force); err != nil {
		return err
	}
	render.Config{}.Added(opts.Out, opts.Name, opts.Entry, cfg.UserFile())
	return nil
}

// ServersRemoveOptions are what servers remove needs.
type ServersRemoveOptions struct {
	Out    io.Writer
	Config func() (*config.Config, error)
	Name   string
}

// NewCmdServersRemove is servers remove.
func NewCmdServersRemove(f *Factory, runF func(context.Context, *ServersRemoveOptions) error) *cobra.Command {
	return &cobra.Command{
		Use:         "remove NAME",
		Short:       "Remove a server from mcpcli's own file",
		Annotations: helpPage("servers-remove"),
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageErrorf(cmd, "give the name of the server to remove")
			}
			return nil
		},
		ValidArgsFunction: f.completeServers(true),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts := &ServersRemoveOptions{Out: f.Deps.Out, Name: args[0],
				Config: func() (*config.Config, error) { return f.configs().Load(cmd.Context()) }}
			return runOr(cmd, runF, serversRemoveRun, opts)
		},
	}
}

func serversRemoveRun(ctx context.Context, opts *ServersRemoveOptions) error {
	cfg, err := opts.Config()
	if err != nil {
		return err
	}
	if err := cfg.Remove(opts.Name); err != nil {
		return err
	}
	render.Config{}.Removed(opts.Out, opts.Name, cfg.UserFile())
	return nil
}

// completeServers completes server names for the shell (connect.Configs.Complete).
func (f *Factory) completeServers(own bool) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if own && len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		names, err := f.configs().Complete(cmd.Context(), own, toComplete)
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveError
		}
		var out []cobra.Completion
		for _, n := range names {
			out = append(out, cobra.CompletionWithDesc(n.Name, n.Desc))
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// ServersTrustOptions are what servers trust and servers untrust need.
type ServersTrustOptions struct {
	Out    io.Writer
	Config func() (*config.Config, error)
	Files  []string      // absolute
	Look   render.Config // how the files are shown
}

// NewCmdServersTrust is servers trust.
func NewCmdServersTrust(f *Factory, runF func(context.Context, *ServersTrustOptions) error) *cobra.Command {
	return newTrustCmd(f, &cobra.Command{
		Use:         "trust FILE...",
		Short:       "Trust a project's config file, as it is now, so that its servers run",
		Annotations: helpPage("servers-trust"),
	}, "name the project file to trust, like mcpcli servers trust .mcp.json; 'mcpcli servers' lists them", runF, serversTrustRun)
}

// NewCmdServersUntrust is servers untrust.
func NewCmdServersUntrust(f *Factory, runF func(context.Context, *ServersTrustOptions) error) *cobra.Command {
	return newTrustCmd(f, &cobra.Command{
		Use:         "untrust FILE...",
		Short:       "Stop trusting a project's config file",
		Annotations: helpPage("servers-untrust"),
	}, "name the project file to stop trusting, like mcpcli servers untrust .mcp.json", runF, serversUntrustRun)
}

// newTrustCmd wires servers trust or untrust: FILE... (none is the usage
// error noFiles), run on the files' absolute paths.
func newTrustCmd(f *Factory, c *cobra.Command, noFiles string, runF, run func(context.Context, *ServersTrustOptions) error) *cobra.Command {
	c.Args = func(cmd *cobra.Command, args []string) error {
		if len(args) == 0 {
			return usageErrorf(cmd, "%s", noFiles)
		}
		return nil
	}
	c.RunE = func(cmd *cobra.Command, args []string) error {
		opts, err := f.trustOptions(cmd, args)
		if err != nil {
			return err
		}
		return runOr(cmd, runF, run, opts)
	}
	return c
}

func (f *Factory) trustOptions(cmd *cobra.Command, args []string) (*ServersTrustOptions, error) {
	opts := &ServersTrustOptions{Out: f.Deps.Out, Look: render.Config{Home: f.configs().HomeDir()},
		Config: func() (*config.Config, error) { return f.configs().Load(cmd.Context()) }}
	for _, a := range args {
		p, err := filepath.Abs(a)
		if err != nil {
			return nil, usageErrorf(cmd, "%s: %v", render.Line(a), err)
		}
		if _, ok := config.ProjectKind(p); !ok {
			return nil, usageErrorf(cmd, "%s is not a project file (.mcp.json, .vscode/mcp.json or .cursor/mcp.json); another file is read only when you name it with --config FILE", render.Line(a))
		}
		opts.Files = append(opts.Files, p)
	}
	return opts, nil
}

func serversTrustRun(ctx context.Context, opts *ServersTrustOptions) error {
	cfg, err := opts.Config()
	if err != nil {
		return err
	}
	for _, p := range opts.Files {
		ask, err := cfg.TrustFile(p)
		if err != nil {
			return err
		}
		opts.Look.Trusted(opts.Out, p, ask)
	}
	return nil
}

func serversUntrustRun(ctx context.Context, opts *ServersTrustOptions) error {
	cfg, err := opts.Config()
	if err != nil {
		return err
	}
	for _, p := range opts.Files {
		had, err := cfg.UntrustFile(p)
		if err != nil {
			return err
		}
		opts.Look.Untrusted(opts.Out, p, had)
	}
	return nil
}
