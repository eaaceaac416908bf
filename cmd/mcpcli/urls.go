package main

import (
	"context"
	"errors"

	"github.com/mcpcli/mcpcli/urlmode"
)

// urlConsent answers the URL-mode asks of one session: it remembers the
// URLs already accepted, so that a server asking for the same step again
// is told apart from a new URL.
func (a *app) urlConsent() *urlmode.Consent {
	open := a.deps.Open
	if open == nil {
		open = func(context.Context, string) error {
			return errors.New("this run has no way to open a browser")
		}
	}
	return &urlmode.Consent{Open: open, In: a.deps.In, Out: a.deps.Err}
}
