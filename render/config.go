package render

import (
	"context"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mcpcli/mcpcli/config"
	"github.com/mcpcli/mcpcli/internal/shellwords"
)

// The questions of the config files, and what a project file would run:
// config decides; these say it.

// Config draws what concerns the config files; Home is shown as ~.
type Config struct{ Home string }

// maxReviewServers and maxReviewText bound the review: a file cannot bury
// the question under its servers; past them the person is told to read
// the file.
const (
	maxReviewServers = 20
	maxReviewText    = 1000
)

// Review writes what a project file would run, as written, for the
// person to read before trusting it. Every string from the file is
// sanitized.
func (c Config) Review(w io.Writer, a config.TrustAsk) {
	for i, r := range a.Servers {
		if i == maxReviewServers {
			fmt.Fprintf(w, "  … and %d more servers: read the file\n", len(a.Servers)-i)
			break
		}
		if r.Err != nil {
			fmt.Fprintf(w, "  • %s: cannot be used: %s\n", Line(r.Name), Line(r.Err.Error()))
			continue
		}
		e := r.Entry
		fmt.Fprintf(w, "  • %s (%s): %s\n", Line(r.Name), e.Type, reviewText(e.Target()))
		detail := func(label, v string) { fmt.Fprintf(w, "      %s %s\n", label, reviewText(v)) }
		for _, k := range sortedKeys(e.Env) {
			detail("env", k+"="+e.Env[k])
		}
		if e.EnvFile != "" {
			detail("envFile", e.EnvFile)
		}
		if e.Cwd != "" {
			detail("cwd", e.Cwd)
		}
		for _, k := range sortedKeys(e.Headers) {
			detail("header", k+": "+e.Headers[k])
		}
	}
	if len(a.Variables) > 0 {
		fmt.Fprintf(w, "It reads your environment variables %s.\n", Line(strings.Join(a.Variables, ", ")))
	}
	for _, in := range a.Inputs {
		what := Line(in.Description)
		if what == "" {
			what = "(no description)"
		}
		hidden := ""
		if in.Password {
			hidden = ", typed hidden"
		}
		fmt.Fprintf(w, "It asks you for %s%s: %q\n  (the file wrote that question, not mcpcli)\n", Line(in.ID), hidden, what)
	}
	for _, r := range a.Servers {
		if r.Yours != nil {
			fmt.Fprintf(w, "Trusting it makes its %q run here instead of yours\n  in %s.\n", Line(r.Name), ShowPath(c.Home, r.Yours.Path))
		}
	}
}

// reviewText is a value from a file as the review shows it: sanitized,
// and cut past maxReviewText characters.
func reviewText(s string) string {
	s = Line(s)
	if r := []rune(s); len(r) > maxReviewText {
		return string(r[:maxReviewText]) + fmt.Sprintf("… (%d more characters: read the file)", len(r)-maxReviewText)
	}
	return s
}

func sortedKeys(m map[string]string) []string { return slices.Sorted(maps.Keys(m)) }

// ShowPath is a path for people: ~ for the home directory, sanitized.
func ShowPath(home, p string) string {
	if home != "" && strings.HasPrefix(p, home+string(filepath.Separator)) {
		p = "~" + p[len(home):]
	}
	return Line(p)
}

// AskTrust asks on the terminal whether to trust a project file,
// after showing what it would run.
func (c Config) AskTrust(ctx context.Context, p *Prompter, a config.TrustAsk) (bool, error) {
	if a.State == config.Changed {
		fmt.Fprintf(p, "mcpcli: server %q is defined in a project file that changed since you trusted it on %s:\n", Line(a.Server), a.TrustedAt.Local().Format(time.DateOnly))
	} else {
		fmt.Fprintf(p, "mcpcli: server %q is defined in a project file you have not trusted:\n", Line(a.Server))
	}
	fmt.Fprintf(p, "  %s (%s)\n", Line(a.Source.Path), a.Source.Kind.Title())
	fmt.Fprintln(p, "Its servers would run as you, with your files and environment. It defines:")
	c.Review(p, a)
	fmt.Fprintln(p, "mcpcli remembers a yes for this file as it is now; a change asks again.")
	return p.Confirm(ctx, fmt.Sprintf("Trust this file and start %q? [y/N] ", Line(a.Server)))
}

// AskInput asks for a VS Code ${input:ID} on the terminal, without echo
// when the file says "password": true.
func AskInput(ctx context.Context, p *Prompter, in config.Input) (string, error) {
	what := Line(in.Description)
	if what == "" {
		what = Line(in.ID)
	}
	fmt.Fprintf(p, "Server %q (%s) needs a value: %s\n", Line(in.Server), Line(in.File), what)
	prompt := fmt.Sprintf("%s: ", Line(in.ID))
	var s string
	var err error
	if in.Password {
		s, err = p.ReadSecretLine(ctx, fmt.Sprintf("%s (input hidden): ", Line(in.ID)))
	} else {
		if in.Default != "" {
			prompt = fmt.Sprintf("%s [default: %s]: ", Line(in.ID), Line(in.Default))
		}
		s, err = p.ReadLine(ctx, prompt)
	}
	if err != nil {
		return "", err
	}
	if s == "" {
		s = in.Default
	}
	return s, nil
}

// WhichRuns says which definition of srv's name runs, when a project file
// and the person's own files both define it; "" when there is nothing to
// say.
func (c Config) WhichRuns(srv *config.Server) string {
	if srv.Source.Kind == config.KindExplicit {
		return "" // --config: they named the file
	}
	for _, o := range srv.Others {
		switch {
		case srv.Source.Kind.Project() && !o.Source.Kind.Project() && o.Source.Kind != config.KindExplicit:
			how, back := "a project file you trusted", "'mcpcli servers untrust "+shellwords.Quote(srv.Source.Path)+"' gives you yours back"
			if srv.Trust == config.TrustedForRun {
				how, back = "trusted for this run with --trust-project", "without --trust-project, yours runs"
			}
			return fmt.Sprintf("server %q runs from %s (%s), not from yours in %s; %s",
				Line(srv.Name), ShowPath(c.Home, srv.Source.Path), how, ShowPath(c.Home, o.Source.Path), Line(back))
		case !srv.Source.Kind.Project() && o.Source.Kind.Project() && !o.Trust.Runs():
			return fmt.Sprintf("server %q runs from yours in %s; %s defines it too, but you have not trusted that file ('mcpcli servers' says more)",
				Line(srv.Name), ShowPath(c.Home, srv.Source.Path), ShowPath(c.Home, o.Source.Path))
		}
	}
	return ""
}

// Added says servers add added the server name, as entry, to file.
func (c Config) Added(w io.Writer, name string, e config.Entry, file string) {
	target := e.URL
	if e.Type == config.Stdio {
		target = strings.Join(append([]string{e.Command}, e.Args...), " ")
	}
	fmt.Fprintf(w, "Added %s (%s: %s) to %s; use it with -s %s\n", Line(name), e.Type, Line(target), Line(file), Line(name))
}

// Removed says servers remove removed the server name from file.
func (c Config) Removed(w io.Writer, name, file string) {
	fmt.Fprintf(w, "Removed %s from %s\n", Line(name), Line(file))
}

// Trusted says servers trust trusted the project file p as a asks, and
// reviews the servers it defines.
func (c Config) Trusted(w io.Writer, p string, a config.TrustAsk) {
	fmt.Fprintf(w, "Trusted %s (%s) as it is now (SHA-256 %s); it defines:\n", ShowPath(c.Home, p), a.Source.Kind.Title(), a.SHA256[:12])
	c.Review(w, a)
}

// Untrusted says servers untrust no longer trusts the project file p, or
// (had false) that it never did.
func (c Config) Untrusted(w io.Writer, p string, had bool) {
	if had {
		fmt.Fprintf(w, "%s is no longer trusted; its servers run only once you trust it again\n", ShowPath(c.Home, p))
	} else {
		fmt.Fprintf(w, "%s was not trusted; nothing to do\n", ShowPath(c.Home, p))
	}
}
