package main

import (
	"io"
	"os"

	"golang.org/x/term"
)

// Streams are mcpcli's standard streams and what is known about them.
type Streams struct {
	In  io.Reader
	Out io.Writer // results only
	Err io.Writer // everything else: prompts, forms, progress, warnings

	InTTY, OutTTY, ErrTTY bool
	// InFd is stdin's descriptor when InTTY (for hidden input).
	InFd int
}

// Deps are what commands need from the outside world. Tests build their
// own; main uses SystemDeps.
type Deps struct {
	Streams
	// Getenv reads the environment ($BROWSER, $NO_COLOR).
	Getenv func(string) string
	// Executable is mcpcli's own path, for `demo` to start `demo-server`.
	Executable func() (string, error)
}

// SystemDeps are the real streams and environment.
func SystemDeps() *Deps {
	return &Deps{
		Streams: Streams{
			In: os.Stdin, Out: os.Stdout, Err: os.Stderr,
			InTTY:  term.IsTerminal(int(os.Stdin.Fd())),
			OutTTY: term.IsTerminal(int(os.Stdout.Fd())),
			ErrTTY: term.IsTerminal(int(os.Stderr.Fd())),
			InFd:   int(os.Stdin.Fd()),
		},
		Getenv:     os.Getenv,
		Executable: os.Executable,
	}
}
