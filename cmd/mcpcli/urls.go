package main

import (
	"github.com/mcpcli/mcpcli/urlmode"
)

// urlConsent answers the URL-mode asks of one session: it remembers the
// URLs already accepted, so that a server asking for the same step again
// is told apart from a new URL.
func (a *app) urlConsent() *urlmode.Consent {
	// A nil Open is Consent's own "no way to open a browser".
	return &urlmode.Consent{Open: a.deps.Open, In: a.deps.In, Out: a.deps.Err}
}
