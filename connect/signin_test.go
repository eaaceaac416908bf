package connect

import (
	"bytes"
	"errors"
	"testing"

	"github.com/mcpcli/mcpcli/oauth"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/transport"
)

// auth login opens the token store before it signs in, and gives the
// server's transport its handler; a store that cannot open is the error.
func TestLoginTo(t *testing.T) {
	home := t.TempDir()
	sign := func(store string) *SignIn {
		env := map[string]string{oauth.EnvTokenStore: store, "XDG_STATE_HOME": home}
		return &SignIn{Console: render.NewConsole(&bytes.Buffer{}, render.ConsoleOptions{}), Getenv: func(k string) string { return env[k] },
			Home: func() (string, error) { return home, nil }, Purpose: true}
	}
	h := &transport.HTTP{URL: "https://mcp.example.com/mcp"}
	s := sign("file")
	login, err := s.LoginTo(h)
	if err != nil || login == nil || s.Store == nil || h.OAuth == nil {
		t.Errorf("LoginTo(file store) = %v (login %v, store %v, handler %v); want a login over the opened store, the handler on the transport", err, login != nil, s.Store, h.OAuth)
	}
	h = &transport.HTTP{URL: "https://mcp.example.com/mcp"}
	var sce *oauth.StoreChoiceError
	if login, err := sign("clay tablets").LoginTo(h); !errors.As(err, &sce) || login != nil || h.OAuth != nil {
		t.Errorf("LoginTo(unknown store) = %v, %v; want a *oauth.StoreChoiceError and no handler", login != nil, err)
	}
}
