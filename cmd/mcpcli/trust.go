package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

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

// showPath is a path for people: ~ for the home directory, sanitized.
func (f *Factory) showPath(p string) string { return render.ShowPath(f.home(), p) }

// approveProject asks on the terminal whether to trust a project file,
// after showing what it would run.
func (f *Factory) approveProject(ctx context.Context) func(config.TrustAsk) (bool, error) {
	return func(a config.TrustAsk) (bool, error) {
		f.Console().EndProgress()
		return render.Config{Home: f.home()}.AskTrust(ctx, f.prompter(), a)
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
