package main

import (
	"io"
	"os"

	"golang.org/x/term"

	"github.com/mcpcli/mcpcli/config"
	"github.com/mcpcli/mcpcli/internal/toolcache"
	"github.com/mcpcli/mcpcli/oauth"
	"github.com/mcpcli/mcpcli/transport"
	"github.com/mcpcli/mcpcli/urlmode"
)

// Streams are mcpcli's standard streams and what is known about them.
type Streams struct {
	In  io.Reader
	Out io.Writer // results only
	Err io.Writer // everything else: prompts, forms, progress, warnings

	InTTY, ErrTTY bool
	// InFd is stdin's descriptor when InTTY (for hidden input).
	InFd int
	// OutWidth is stdout's width when it is a terminal, else 0: text
	// results are wrapped to it.
	OutWidth func() int
}

// Deps are what commands need from the outside world. Tests build their
// own; main uses SystemDeps.
type Deps struct {
	Streams
	// Getenv reads the environment ($BROWSER, $NO_COLOR).
	Getenv func(string) string
	// Executable is mcpcli's own path, for `demo` to start `demo-server`.
	Executable func() (string, error)
	// Open opens a URL in the person's browser, for URL-mode elicitations,
	// only ever after their explicit choice (or --answers with --open-urls).
	// nil means this run cannot open one; tests pass a recording stub.
	Open urlmode.OpenFunc
	// Servers keeps the process groups of the stdio servers the run
	// starts, for main to kill should the run not end when told to.
	Servers *transport.Group
	// ConfigOptions is what finding named servers (-s NAME) needs from
	// the machine: its OS, home and working directories, environment.
	ConfigOptions func() (config.Options, error)
	// Home is the home directory, where the token file goes when there
	// is no $XDG_STATE_HOME.
	Home func() (string, error)
	// Keyring is the system keyring, or nil where there plainly is none.
	Keyring func() oauth.Keyring
	// CacheDir is mcpcli's cache directory, where servers' tool lists are
	// kept between runs as long as each server allows (toolcache.SystemDir).
	// nil means nothing is kept.
	CacheDir func() (string, error)
}

// SystemDeps are the real streams and environment.
func SystemDeps() *Deps {
	d := &Deps{
		Streams: Streams{
			In: os.Stdin, Out: os.Stdout, Err: os.Stderr,
			InTTY:  term.IsTerminal(int(os.Stdin.Fd())),
			ErrTTY: term.IsTerminal(int(os.Stderr.Fd())),
			InFd:   int(os.Stdin.Fd()),
			OutWidth: func() int {
				if w, _, err := term.GetSize(int(os.Stdout.Fd())); err == nil {
					return w
				}
				return 0
			},
		},
		Getenv:        os.Getenv,
		Executable:    os.Executable,
		Servers:       &transport.Group{},
		ConfigOptions: config.SystemOptions,
		Home:          os.UserHomeDir,
		Keyring:       func() oauth.Keyring { return oauth.SystemKeyring(os.Getenv) },
		CacheDir:      toolcache.SystemDir,
	}
	var tty io.Reader // a terminal browser ($BROWSER=w3m) may use it; piped answers are never handed over
	if d.InTTY {
		tty = os.Stdin
	}
	d.Open = (&urlmode.Browser{Getenv: os.Getenv, Stdin: tty, Stderr: os.Stderr}).Open
	return d
}
