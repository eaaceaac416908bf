package connect

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/mcpcli/mcpcli/config"
	"github.com/mcpcli/mcpcli/internal/safefile"
	"github.com/mcpcli/mcpcli/oauth"
	"github.com/mcpcli/mcpcli/render"
)

// Configs are a run's config files, found once, and the server -s names
// in them, resolved once.
type Configs struct {
	// Options are what finding the files needs of the machine; nil means
	// named servers cannot be read in this run.
	Options func() (config.Options, error)
	// File is --config FILE, read before every other config file;
	// TrustProject is --trust-project.
	File         string
	TrustProject bool
	// Home and Getenv find mcpcli's state directory, where trusted
	// project files are remembered; Home is shown as ~ in paths.
	Home   func() (string, error)
	Getenv func(string) string
	// Person is asked on the terminal, when there is one, whether to
	// trust a project file, and for a VS Code ${input:ID}.
	Person   Person
	Prompter *render.Prompter

	cfg    *config.Config
	server *config.Server
}

// Load finds the config files, once: --config, the project's, mcpcli's
// own, other tools'. ctx is for the questions asked on a terminal only.
func (c *Configs) Load(ctx context.Context) (*config.Config, error) {
	if c.cfg != nil {
		return c.cfg, nil
	}
	if c.Options == nil {
		return nil, errors.New("named servers cannot be read in this run")
	}
	opts, err := c.Options()
	if err != nil {
		return nil, fmt.Errorf("finding the config files: %w", err)
	}
	opts.File = c.File
	opts.Trusted = c.trustStore()
	opts.TrustProject = c.TrustProject
	if con := c.Person.Console; c.Person.OnTerminal() {
		opts.Ask = func(in config.Input) (string, error) {
			con.EndProgress()
			return render.AskInput(ctx, c.Prompter, in)
		}
		opts.Approve = func(a config.TrustAsk) (bool, error) {
			con.EndProgress()
			return c.look().AskTrust(ctx, c.Prompter, a)
		}
	}
	cfg, err := config.Load(opts)
	if err != nil {
		return nil, err
	}
	c.cfg = cfg
	return cfg, nil
}

// Named is the server -s names, once resolved (nil before, or without
// -s).
func (c *Configs) Named() *config.Server { return c.server }

// Server resolves -s NAME: its entry, every value expanded. It warns of
// a trust record that cannot be read or kept, and says which definition
// runs when a project file and the person's own files both define name.
func (c *Configs) Server(ctx context.Context, name string) (*config.Server, error) {
	if c.server != nil {
		return c.server, nil
	}
	cfg, err := c.Load(ctx)
	if err != nil {
		return nil, err
	}
	con := c.Person.Console
	if err := cfg.TrustStoreErr(); err != nil {
		con.Warn(err.Error() + "; no project file counts as trusted")
	}
	srv, err := cfg.Server(name)
	var ue *config.UntrustedError
	if errors.As(err, &ue) && errors.Is(ue.Err, context.Canceled) {
		return nil, ue.Err // stopped while asking: the signal says why
	}
	if err != nil {
		return nil, err
	}
	if err := cfg.RememberErr(); err != nil {
		con.Warn(fmt.Sprintf("%s; %s is trusted for this run only", err, render.Line(srv.Source.Path)))
	}
	if msg := c.look().WhichRuns(srv); msg != "" {
		con.Printf("mcpcli: %s", msg)
	}
	c.server = srv
	return srv, nil
}

// Completion is a server name offered to a shell's completion, with
// what it runs.
type Completion struct{ Name, Desc string }

// Complete is the server names that start with prefix, for a shell's
// completion: every name, or (own) only those in mcpcli's own file. Names
// that a terminal would obey or hide are left out.
func (c *Configs) Complete(ctx context.Context, own bool, prefix string) ([]Completion, error) {
	cfg, err := c.Load(ctx)
	if err != nil {
		return nil, err
	}
	listed, _ := cfg.List()
	var out []Completion
	for _, l := range listed {
		if l.Shadowed || own && !l.Source.Writable() || !strings.HasPrefix(l.Name, prefix) || config.CheckName(l.Name) != nil {
			continue
		}
		desc := string(l.Transport)
		if l.Transport != "" {
			desc += ": "
		}
		out = append(out, Completion{l.Name, render.Line(render.Clip(desc+l.Target, 50))})
	}
	return out, nil
}

// HomeDir is the home directory, "" when unknown.
func (c *Configs) HomeDir() string {
	if c.Home == nil {
		return ""
	}
	h, err := c.Home()
	if err != nil {
		return ""
	}
	return h
}

func (c *Configs) look() render.Config { return render.Config{Home: c.HomeDir()} }

// trustStore is where this run remembers trusted project files, in
// mcpcli's state directory; nil when there is none.
func (c *Configs) trustStore() *config.TrustStore {
	if p := statePath(c.Getenv, c.Home, "trusted-projects.json"); p != "" {
		return &config.TrustStore{Path: p}
	}
	return nil
}

// Ledger is mcpcli's record of the files it wrote (safefile.Ledger), in
// its state directory, where a cloned repository cannot write: what lets
// a save write over its own file, unchanged since, and over no other. nil
// when there is no state directory (no $HOME): then no file is written
// over.
func Ledger(getenv func(string) string, home func() (string, error)) *safefile.Ledger {
	if p := statePath(getenv, home, LedgerFile); p != "" {
		return &safefile.Ledger{Path: p}
	}
	return nil
}

// LedgerFile is the ledger's name in mcpcli's state directory.
const LedgerFile = "written-files"

// statePath is name in mcpcli's state directory, or "" when there is none.
func statePath(getenv func(string) string, home func() (string, error), name string) string {
	if home == nil {
		home = func() (string, error) { return "", errors.New("no home directory") }
	}
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	dir, err := oauth.StateDir(getenv, home)
	if err != nil {
		return ""
	}
	return filepath.Join(dir, name)
}
