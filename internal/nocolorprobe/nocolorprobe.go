// Package nocolorprobe keeps lipgloss from probing the terminal while
// mcpcli starts.
//
// lipgloss sets its package-level Writer at package initialization with
// colorprofile.Detect on stdout: when stdout is a terminal, that loads the
// terminfo entry (after a user lookup) and, inside tmux, runs `tmux info`,
// a process, 6 ms on every run, whether or not anything is ever drawn in
// colour. mcpcli never writes through lipgloss.Writer; it finds the colour
// profile itself, once, when it first draws (render.Terminal).
//
// This package sets NO_COLOR while packages initialize, which makes
// Detect stop at the environment, and main calls Restore first thing to
// put the environment back as mcpcli was started with it. It runs before
// lipgloss: the spec initializes packages in the order of their import
// paths, each as soon as its imports are, and this one imports only os,
// while colorprofile (which lipgloss imports) imports os/exec, whose path
// sorts after this one's: when both are ready this one goes first.
package nocolorprobe

import "os"

const name = "NO_COLOR"

var prev, had = os.LookupEnv(name)

// quiet is set while packages initialize.
var quiet = os.Setenv(name, "1") == nil

// Restore puts NO_COLOR back as the process was started with it. Call it
// before anything else reads the environment.
func Restore() {
	if !quiet {
		return
	}
	quiet = false
	if had {
		os.Setenv(name, prev)
	} else {
		os.Unsetenv(name)
	}
}
