package main

import (
	"github.com/mcpcli/mcpcli/render"
)

// formAnswerer is the full-screen answerer, or nil when this run cannot
// show one: it needs stdin and stderr to be a terminal, no --accessible,
// and a terminal that is not "dumb".
//
// The forms draw on stderr; stdout keeps carrying only results, so
// `mcpcli call … -o json | jq` works with a form on screen. Everything
// else mcpcli writes to stderr (server logs, progress, warnings) goes
// through a gate from here on, held while a form is up and let out after.
func (a *app) formAnswerer() *render.FormAnswerer {
	if a.flags.accessible || !a.deps.InTTY || !a.deps.ErrTTY {
		return nil
	}
	if a.deps.Getenv != nil && a.deps.Getenv("TERM") == "dumb" {
		return nil
	}
	screen := a.deps.Err
	gate := render.NewGate(screen)
	a.deps.Err = gate
	return &render.FormAnswerer{In: a.deps.In, Out: screen, Hold: gate.Hold}
}
