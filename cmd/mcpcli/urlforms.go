package main

import (
	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/render"
)

// withURLScreens gives the full-screen forms urlmode's consent screens for
// URL asks, drawn where the forms draw and holding other output back the
// same way.
func (a *app) withURLScreens(fa *render.FormAnswerer) client.Answerer {
	c := a.urlConsent()
	c.In, c.Out, c.Hold = fa.In, fa.Out, fa.Hold
	fa.URL = c.TUI
	return fa
}
