package main

import (
	"context"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpcli/mcpcli/connect"
	"github.com/mcpcli/mcpcli/oauth"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/transport"
)

// AuthOptions are what auth login, status and logout need.
type AuthOptions struct {
	Out     io.Writer
	Console *render.Console
	// Server is the MCP server's URL; LoginArgs names it to mcpcli
	// ("-s NAME" or "--url URL").
	Server, LoginArgs string
	Store             func() (oauth.Store, error)
	// Login signs in (auth login only).
	Login func(ctx context.Context) error
	JSON  bool
	Now   func() time.Time
}

// NewCmdAuth is the auth command group.
func NewCmdAuth(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:         "auth",
		Short:       "Sign in to an HTTP server (OAuth), see the sign-in, sign out",
		Annotations: helpPage("auth"),
		Args:        cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return usageErrorf(cmd, "give a subcommand: login, status or logout")
		},
	}
	cmd.AddCommand(NewCmdAuthLogin(f, nil), NewCmdAuthStatus(f, nil), NewCmdAuthLogout(f, nil))
	return cmd
}

// authOptions resolves the server of an auth command: an HTTP server,
// from -s NAME or --url URL.
func (f *Factory) authOptions(cmd *cobra.Command) (*AuthOptions, *transport.HTTP, error) {
	if f.Flags.Server == "" && f.Flags.URL == "" {
		return nil, nil, usageErrorf(cmd, "name the server: --server NAME or --url URL")
	}
	t, err := f.Transport(cmd)
	if err != nil {
		return nil, nil, err
	}
	h, ok := t.(*transport.HTTP)
	if !ok {
		t.Close()
		return nil, nil, usageErrorf(cmd, "server %q is a stdio server; sign-in is for HTTP servers", f.Flags.Server)
	}
	opts := &AuthOptions{
		Out: f.Deps.Out, Console: f.Console(), Server: h.URL, LoginArgs: f.loginArgs(), JSON: f.JSON(), Now: time.Now,
		Store: f.signIn(false, nil).OpenStore,
	}
	return opts, h, nil
}

func newAuthCmd(f *Factory, c *cobra.Command, runF, run func(context.Context, *AuthOptions) error, login bool) *cobra.Command {
	c.Args = noArgs(f)
	c.RunE = func(cmd *cobra.Command, args []string) error {
		opts, h, err := f.authOptions(cmd)
		if err != nil {
			return err
		}
		if login {
			if opts.Login, err = f.signIn(true, nil).LoginTo(h); err != nil {
				return err
			}
		}
		return runOr(cmd, runF, run, opts)
	}
	return c
}

// NewCmdAuthLogin is auth login.
func NewCmdAuthLogin(f *Factory, runF func(context.Context, *AuthOptions) error) *cobra.Command {
	return newAuthCmd(f, &cobra.Command{
		Use:         "login",
		Short:       "Sign in to the server now, even if a token is kept",
		Annotations: map[string]string{annotHelp: "auth-login", annotOpenURLs: "yes"},
	}, runF, authLoginRun, true)
}

func authLoginRun(ctx context.Context, opts *AuthOptions) error {
	if err := opts.Login(ctx); err != nil {
		return &connect.SignInFailed{Login: opts.LoginArgs, Err: err}
	}
	st, err := keptStatus(opts)
	if err != nil {
		return err
	}
	return render.SignIns{Status: st, JSON: opts.JSON}.LoggedIn(opts.Out)
}

// NewCmdAuthStatus is auth status.
func NewCmdAuthStatus(f *Factory, runF func(context.Context, *AuthOptions) error) *cobra.Command {
	return newAuthCmd(f, &cobra.Command{
		Use:         "status",
		Short:       "Show the sign-in kept for the server: authorization server, scopes, expiry, where",
		Annotations: helpPage("auth-status"),
	}, runF, authStatusRun, false)
}

// keptStatus reads what is kept for the server.
func keptStatus(opts *AuthOptions) (*oauth.Status, error) {
	store, err := opts.Store()
	if err != nil {
		return nil, err
	}
	return oauth.Inspect(store, opts.Server)
}

func authStatusRun(ctx context.Context, opts *AuthOptions) error {
	st, err := keptStatus(opts)
	if err != nil {
		return err
	}
	return render.SignIns{Status: st, JSON: opts.JSON, Now: opts.Now(), Login: opts.LoginArgs}.Write(opts.Out)
}

// NewCmdAuthLogout is auth logout.
func NewCmdAuthLogout(f *Factory, runF func(context.Context, *AuthOptions) error) *cobra.Command {
	return newAuthCmd(f, &cobra.Command{
		Use:         "logout",
		Short:       "Forget the tokens and client registration kept for the server",
		Annotations: helpPage("auth-logout"),
	}, runF, authLogoutRun, false)
}

func authLogoutRun(ctx context.Context, opts *AuthOptions) error {
	store, err := opts.Store()
	if err != nil {
		return err
	}
	had, err := oauth.Logout(store, opts.Server)
	if err != nil {
		return err
	}
	render.LoggedOut(opts.Out, opts.Server, store.Where(), had)
	return nil
}
