package oauth

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Status is what is kept for one server, for mcpcli auth status. It holds
// no secret.
type Status struct {
	Server string
	// Where tokens are kept: "the system keyring" or a file.
	Where string
	// Records, the one in use first; none when signed out.
	Records []RecordStatus
}

// RecordStatus describes one kept sign-in.
type RecordStatus struct {
	Issuer, Resource string
	Current          bool // the one in use
	ClientID         string
	Registration     string // RegistrationCIMD, RegistrationPreregistered or RegistrationDynamic
	Scopes           []string
	// Expiry is the access token's; zero when the server gave none.
	Expiry time.Time
	// Refreshable: a refresh token is kept, so an expired access token is
	// renewed without a sign-in.
	Refreshable bool
	Saved       time.Time
}

// Inspect reports what store keeps for server.
func Inspect(store Store, server string) (*Status, error) {
	key := ServerKey(server)
	e, err := store.Load(key)
	if err != nil {
		return nil, err
	}
	st := &Status{Server: key, Where: store.Where()}
	if e == nil {
		return st, nil
	}
	for _, r := range e.Records {
		rs := RecordStatus{
			Issuer: r.Issuer, Resource: r.Resource, Current: r.Issuer == e.Current,
			ClientID: r.ClientID, Registration: r.Registration, Scopes: slices.Clone(r.Scopes), Saved: r.Saved,
		}
		if r.Token != nil {
			rs.Expiry = r.Token.Expiry
			rs.Refreshable = r.Token.RefreshToken != ""
		}
		st.Records = append(st.Records, rs)
	}
	slices.SortFunc(st.Records, func(a, b RecordStatus) int {
		if a.Current != b.Current {
			if a.Current {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Issuer, b.Issuer)
	})
	return st, nil
}

// Logout forgets everything kept for server; it reports whether there was
// anything. Tokens are not revoked at the authorization server.
func Logout(store Store, server string) (bool, error) {
	key := ServerKey(server)
	e, err := store.Load(key)
	if err != nil {
		// A damaged entry is still removed.
		if derr := store.Delete(key); derr != nil {
			return false, errors.Join(err, derr)
		}
		return true, nil
	}
	if e == nil {
		return false, nil
	}
	if err := store.Delete(key); err != nil {
		return false, err
	}
	return true, nil
}

// EnvClientSecret is the environment variable that holds a pre-registered
// client's secret.
const EnvClientSecret = "MCPCLI_CLIENT_SECRET"

func clientSecretUser(clientID string) string { return "client-secret:" + clientID }

// ClientSecret finds a pre-registered client's secret: $MCPCLI_CLIENT_SECRET,
// else the keyring item saved by SaveClientSecret; "" when there is none
// (a public client). kr may be nil.
func ClientSecret(getenv func(string) string, kr Keyring, clientID string) (string, error) {
	if v := getenv(EnvClientSecret); v != "" {
		return v, nil
	}
	if kr == nil || clientID == "" {
		return "", nil
	}
	v, err := kr.Get(keyringService, clientSecretUser(clientID))
	if errors.Is(err, ErrKeyNotFound) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("reading the secret of client %q from the system keyring: %w", clientID, err)
	}
	return v, nil
}

// SaveClientSecret keeps a pre-registered client's secret in the keyring,
// so that it need not be in the environment.
func SaveClientSecret(kr Keyring, clientID, secret string) error {
	if kr == nil {
		return fmt.Errorf("no system keyring here: put the secret in $%s instead", EnvClientSecret)
	}
	if err := kr.Set(keyringService, clientSecretUser(clientID), secret); err != nil {
		return fmt.Errorf("keeping the secret of client %q in the system keyring: %w", clientID, err)
	}
	return nil
}
