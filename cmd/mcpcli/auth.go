package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

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
		Use:   "auth",
		Short: "Sign in to an HTTP server (OAuth), see the sign-in, sign out",
		Long: `Some Streamable HTTP servers require you to sign in (OAuth 2.1, as MCP
authorization specifies). mcpcli signs in by itself the first time such a
server answers 401 on any command, when it can ask you (a terminal, or
--answers, which prints the link and waits; --open-urls opens it). These
commands do it on purpose, for the server --server NAME or --url URL names.

See 'mcpcli help sign-in' for what happens, and where tokens are kept.`,
		Example: `  mcpcli auth login --url https://mcp.example.com/mcp
  mcpcli auth status -s linear
  mcpcli auth logout -s linear`,
		Args: cobra.NoArgs,
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
		Store: func() (oauth.Store, error) { return f.tokenStore(f.keyring()) },
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
			handler, err := f.signInFor(h, true)
			if err != nil {
				return err
			}
			opts.Login = handler.Login
		}
		if runF != nil {
			return runF(cmd.Context(), opts)
		}
		return run(cmd.Context(), opts)
	}
	return c
}

// NewCmdAuthLogin is auth login.
func NewCmdAuthLogin(f *Factory, runF func(context.Context, *AuthOptions) error) *cobra.Command {
	return newAuthCmd(f, &cobra.Command{
		Use:   "login",
		Short: "Sign in to the server now, even if a token is kept",
		Long: `auth login signs in to the server: it asks the server how (its protected
resource metadata), registers mcpcli with the authorization server if it
must, shows you the authorization link and opens it in your browser when you
say so, and waits for the browser to come back to mcpcli on 127.0.0.1.
Without a terminal it prints the link and waits; --open-urls opens it.`,
		Annotations: map[string]string{annotOpenURLs: "yes"},
		Example: `  mcpcli auth login --url https://mcp.example.com/mcp
  mcpcli auth login -s linear
  mcpcli auth login --url https://mcp.example.com/mcp --client-id my-registered-client`,
	}, runF, authLoginRun, true)
}

func authLoginRun(ctx context.Context, opts *AuthOptions) error {
	if err := opts.Login(ctx); err != nil {
		return &signInFailed{login: opts.LoginArgs, err: err}
	}
	st, err := keptStatus(opts)
	if err != nil || opts.JSON {
		return err
	}
	if len(st.Records) == 0 {
		fmt.Fprintf(opts.Out, "Signed in to %s, for this run only: the token could not be kept in %s\n", render.Line(st.Server), render.Line(st.Where))
		return nil
	}
	r := st.Records[0]
	fmt.Fprintf(opts.Out, "Signed in to %s with %s%s; the token is kept in %s\n",
		render.Line(st.Server), render.Line(r.Issuer), scopesText(r.Scopes), render.Line(st.Where))
	return nil
}

func scopesText(scopes []string) string {
	if len(scopes) == 0 {
		return ""
	}
	return " (scopes: " + render.Line(strings.Join(scopes, " ")) + ")"
}

// NewCmdAuthStatus is auth status.
func NewCmdAuthStatus(f *Factory, runF func(context.Context, *AuthOptions) error) *cobra.Command {
	return newAuthCmd(f, &cobra.Command{
		Use:   "status",
		Short: "Show the sign-in kept for the server: authorization server, scopes, expiry, where",
		Long: `auth status shows what mcpcli keeps for the server: the authorization
server that issued the token, its scopes, when it expires (and whether it
can be refreshed), and where it is kept (the system keyring, or a file
readable only by you). It asks nothing of the server and sends no token;
-o json prints the same, with "signedIn".`,
		Example: `  mcpcli auth status --url https://mcp.example.com/mcp
  mcpcli auth status -s linear -o json`,
	}, runF, authStatusRun, false)
}

// authStatus is auth status -o json.
type authStatus struct {
	Server   string       `json:"server"`
	Where    string       `json:"where"`
	SignedIn bool         `json:"signedIn"`
	Records  []authRecord `json:"records"`
}

type authRecord struct {
	Issuer       string    `json:"issuer"`
	Resource     string    `json:"resource,omitempty"`
	Current      bool      `json:"current"`
	ClientID     string    `json:"clientId"`
	Registration string    `json:"registration"`
	Scopes       []string  `json:"scopes"`
	Expiry       time.Time `json:"expiry,omitzero"`
	Refreshable  bool      `json:"refreshable"`
	Saved        time.Time `json:"saved"`
}

func statusJSON(st *oauth.Status) authStatus {
	out := authStatus{Server: st.Server, Where: st.Where, SignedIn: len(st.Records) > 0, Records: []authRecord{}}
	for _, r := range st.Records {
		out.Records = append(out.Records, authRecord{Issuer: r.Issuer, Resource: r.Resource, Current: r.Current, ClientID: r.ClientID,
			Registration: r.Registration, Scopes: r.Scopes, Expiry: r.Expiry, Refreshable: r.Refreshable, Saved: r.Saved})
	}
	return out
}

// keptStatus reads what is kept for the server; with -o json it has
// printed it too (login and status print the same JSON).
func keptStatus(opts *AuthOptions) (*oauth.Status, error) {
	store, err := opts.Store()
	if err != nil {
		return nil, err
	}
	st, err := oauth.Inspect(store, opts.Server)
	if err != nil {
		return nil, err
	}
	if opts.JSON {
		return st, render.WriteJSON(opts.Out, statusJSON(st))
	}
	return st, nil
}

func authStatusRun(ctx context.Context, opts *AuthOptions) error {
	st, err := keptStatus(opts)
	if err != nil || opts.JSON {
		return err
	}
	if len(st.Records) == 0 {
		fmt.Fprintf(opts.Out, "Not signed in to %s (nothing is kept for it in %s); 'mcpcli auth login %s' signs in\n",
			render.Line(st.Server), render.Line(st.Where), render.Line(opts.LoginArgs))
		return nil
	}
	fmt.Fprintf(opts.Out, "%s\n  tokens kept in %s\n", render.Line(st.Server), render.Line(st.Where))
	for _, r := range st.Records {
		use := "signed in with"
		if !r.Current {
			use = "also kept, not in use:"
		}
		fmt.Fprintf(opts.Out, "  %s %s\n", use, render.Line(r.Issuer))
		fmt.Fprintf(opts.Out, "    client:  %s (%s)\n", render.Line(r.ClientID), registrationText(r.Registration))
		if len(r.Scopes) > 0 {
			fmt.Fprintf(opts.Out, "    scopes:  %s\n", render.Line(strings.Join(r.Scopes, " ")))
		}
		fmt.Fprintf(opts.Out, "    expires: %s\n", expiryText(r, opts.Now()))
		fmt.Fprintf(opts.Out, "    saved:   %s\n", r.Saved.Local().Format(time.DateTime))
	}
	return nil
}

func registrationText(kind string) string {
	switch kind {
	case oauth.RegistrationCIMD:
		return "client ID metadata document"
	case oauth.RegistrationPreregistered:
		return "registered beforehand"
	case oauth.RegistrationDynamic:
		return "registered by mcpcli"
	}
	return render.Line(kind)
}

// expiryText says when the access token expires, and what happens then.
func expiryText(r oauth.RecordStatus, now time.Time) string {
	then := "then mcpcli signs in again"
	if r.Refreshable {
		then = "then it is refreshed without asking"
	}
	switch {
	case r.Expiry.IsZero():
		return "not said by the server; " + then + " when the server refuses it"
	case r.Expiry.After(now):
		return fmt.Sprintf("%s (in %s); %s", r.Expiry.Local().Format(time.DateTime), r.Expiry.Sub(now).Round(time.Minute), then)
	}
	return fmt.Sprintf("%s (expired %s ago); %s", r.Expiry.Local().Format(time.DateTime), now.Sub(r.Expiry).Round(time.Minute), then)
}

// NewCmdAuthLogout is auth logout.
func NewCmdAuthLogout(f *Factory, runF func(context.Context, *AuthOptions) error) *cobra.Command {
	return newAuthCmd(f, &cobra.Command{
		Use:   "logout",
		Short: "Forget the tokens and client registration kept for the server",
		Long: `auth logout deletes what mcpcli keeps for the server: its tokens and the
client registration, for every authorization server it used. The tokens are
not revoked at the authorization server.`,
		Example: `  mcpcli auth logout --url https://mcp.example.com/mcp`,
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
	if !had {
		fmt.Fprintf(opts.Out, "Nothing was kept for %s in %s\n", render.Line(oauth.ServerKey(opts.Server)), render.Line(store.Where()))
		return nil
	}
	fmt.Fprintf(opts.Out, "Signed out of %s: its tokens and client registration are gone from %s (they are not revoked at the authorization server)\n",
		render.Line(oauth.ServerKey(opts.Server)), render.Line(store.Where()))
	return nil
}
