package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mcpcli/mcpcli/config"
	"github.com/mcpcli/mcpcli/internal/shellwords"
	"github.com/mcpcli/mcpcli/oauth"
	"github.com/mcpcli/mcpcli/render"
)

// The words of project trust: the review shown before a project file is
// trusted, the question, and what is said when it is not, or when a name
// is defined twice. config decides; these say it.

// trustStore is where this run remembers trusted project files, in
// mcpcli's state directory; nil when there is none.
func (f *Factory) trustStore() *config.TrustStore {
	home := f.Deps.Home
	if home == nil {
		home = func() (string, error) { return "", errors.New("no home directory") }
	}
	dir, err := oauth.StateDir(f.getenv, home)
	if err != nil {
		return nil
	}
	return &config.TrustStore{Path: filepath.Join(dir, "trusted-projects.json")}
}

// maxReviewServers and maxReviewText bound the review: a file cannot bury
// the question under its servers; past them the person is told to read
// the file.
const (
	maxReviewServers = 20
	maxReviewText    = 1000
)

// writeReview writes what a project file would run, as written, for the
// person to read before trusting it. Every string from the file is
// sanitized.
func (f *Factory) writeReview(w io.Writer, a config.TrustAsk) {
	for i, r := range a.Servers {
		if i == maxReviewServers {
			fmt.Fprintf(w, "  … and %d more servers: read the file\n", len(a.Servers)-i)
			break
		}
		if r.Err != nil {
			fmt.Fprintf(w, "  • %s: cannot be used: %s\n", render.Line(r.Name), render.Line(r.Err.Error()))
			continue
		}
		e := r.Entry
		fmt.Fprintf(w, "  • %s (%s): %s\n", render.Line(r.Name), e.Type, reviewText(e.Target()))
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
		fmt.Fprintf(w, "It reads your environment variables %s.\n", render.Line(strings.Join(a.Variables, ", ")))
	}
	for _, in := range a.Inputs {
		what := render.Line(in.Description)
		if what == "" {
			what = "(no description)"
		}
		hidden := ""
		if in.Password {
			hidden = ", typed hidden"
		}
		fmt.Fprintf(w, "It asks you for %s%s: %q\n  (the file wrote that question, not mcpcli)\n", render.Line(in.ID), hidden, what)
	}
	for _, r := range a.Servers {
		if r.Yours != nil {
			fmt.Fprintf(w, "Trusting it makes its %q run here instead of yours\n  in %s.\n", render.Line(r.Name), f.showPath(r.Yours.Path))
		}
	}
}

// reviewText is a value from a file as the review shows it: sanitized,
// and cut past maxReviewText characters.
func reviewText(s string) string {
	s = render.Line(s)
	if r := []rune(s); len(r) > maxReviewText {
		return string(r[:maxReviewText]) + fmt.Sprintf("… (%d more characters: read the file)", len(r)-maxReviewText)
	}
	return s
}

func sortedKeys(m map[string]string) []string { return slices.Sorted(maps.Keys(m)) }

// showPath is a path for people: ~ for the home directory, sanitized.
func (f *Factory) showPath(p string) string {
	if h := f.home(); h != "" && strings.HasPrefix(p, h+string(filepath.Separator)) {
		p = "~" + p[len(h):]
	}
	return render.Line(p)
}

// approveProject asks on the terminal whether to trust a project file,
// after showing what it would run.
func (f *Factory) approveProject(ctx context.Context) func(config.TrustAsk) (bool, error) {
	return func(a config.TrustAsk) (bool, error) {
		p := f.prompter()
		f.Console().EndProgress()
		if a.State == config.Changed {
			fmt.Fprintf(p, "mcpcli: server %q is defined in a project file that changed since you trusted it on %s:\n", render.Line(a.Server), a.TrustedAt.Local().Format(time.DateOnly))
		} else {
			fmt.Fprintf(p, "mcpcli: server %q is defined in a project file you have not trusted:\n", render.Line(a.Server))
		}
		fmt.Fprintf(p, "  %s (%s)\n", render.Line(a.Source.Path), a.Source.Kind.Title())
		fmt.Fprintln(p, "Its servers would run as you, with your files and environment. It defines:")
		f.writeReview(p, a)
		fmt.Fprintln(p, "mcpcli remembers a yes for this file as it is now; a change asks again.")
		return p.Confirm(ctx, fmt.Sprintf("Trust this file and start %q? [y/N] ", render.Line(a.Server)))
	}
}

// untrustedError is config's, with what to do about it.
type untrustedError struct{ *config.UntrustedError }

func (e *untrustedError) Error() string {
	ue := e.UntrustedError
	trust := "'mcpcli servers trust " + shellwords.Quote(ue.Source.Path) + "'"
	switch {
	case ue.Declined:
		return fmt.Sprintf("%s; once you have read it, %s trusts it", render.Line(ue.Error()), trust)
	case ue.Err != nil:
		return fmt.Sprintf("%s, and asking failed (%s); read it, then %s (or pass --trust-project to trust the project's files for this run)", render.Line(ue.Error()), render.Line(ue.Err.Error()), trust)
	}
	return fmt.Sprintf("%s; read it, then %s (or pass --trust-project to trust the project's files for this run)", render.Line(ue.Error()), trust)
}

func (e *untrustedError) Unwrap() error { return e.UntrustedError }

// adviseTrust adds what to do to an UntrustedError.
func adviseTrust(err error) error {
	var ue *config.UntrustedError
	if errors.As(err, &ue) {
		if errors.Is(ue.Err, context.Canceled) {
			return ue.Err // stopped while asking: the signal says why
		}
		return &untrustedError{ue}
	}
	return err
}

// sayWhichRuns tells the person which definition of srv's name runs, when
// a project file and their own files both define it.
func (f *Factory) sayWhichRuns(srv *config.Server) {
	if srv.Source.Kind == config.KindExplicit {
		return // --config: they named the file
	}
	con := f.Console()
	for _, o := range srv.Others {
		switch {
		case srv.Source.Kind.Project() && !o.Source.Kind.Project() && o.Source.Kind != config.KindExplicit:
			how, back := "a project file you trusted", "'mcpcli servers untrust "+shellwords.Quote(srv.Source.Path)+"' gives you yours back"
			if srv.Trust == config.TrustedForRun {
				how, back = "trusted for this run with --trust-project", "without --trust-project, yours runs"
			}
			con.Printf("mcpcli: server %q runs from %s (%s), not from yours in %s; %s",
				render.Line(srv.Name), f.showPath(srv.Source.Path), how, f.showPath(o.Source.Path), render.Line(back))
			return
		case !srv.Source.Kind.Project() && o.Source.Kind.Project() && !o.Trust.Runs():
			con.Printf("mcpcli: server %q runs from yours in %s; %s defines it too, but you have not trusted that file ('mcpcli servers' says more)",
				render.Line(srv.Name), f.showPath(srv.Source.Path), f.showPath(o.Source.Path))
			return
		}
	}
}
