package oauth

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"

	"github.com/zalando/go-keyring"
)

// SystemKeyring is the operating system's keyring (macOS Keychain, Windows
// Credential Manager, the Secret Service over D-Bus elsewhere), or nil
// where there is plainly none: on Linux and the BSDs, without a D-Bus
// session bus ($DBUS_SESSION_BUS_ADDRESS unset and no
// $XDG_RUNTIME_DIR/bus), which is how servers, containers and CI run.
func SystemKeyring(getenv func(string) string) Keyring {
	switch runtime.GOOS {
	case "darwin", "windows":
		return systemKeyring{}
	}
	if getenv("DBUS_SESSION_BUS_ADDRESS") != "" {
		return systemKeyring{}
	}
	if d := getenv("XDG_RUNTIME_DIR"); d != "" {
		if st, err := os.Stat(filepath.Join(d, "bus")); err == nil && st.Mode()&os.ModeSocket != 0 {
			return systemKeyring{}
		}
	}
	return nil
}

// systemKeyring adapts github.com/zalando/go-keyring.
type systemKeyring struct{}

func (systemKeyring) Get(service, user string) (string, error) {
	v, err := keyring.Get(service, user)
	return v, mapKeyringErr(err)
}

func (systemKeyring) Set(service, user, secret string) error {
	return mapKeyringErr(keyring.Set(service, user, secret))
}

func (systemKeyring) Delete(service, user string) error {
	return mapKeyringErr(keyring.Delete(service, user))
}

func mapKeyringErr(err error) error {
	if errors.Is(err, keyring.ErrNotFound) {
		return ErrKeyNotFound
	}
	return err
}
