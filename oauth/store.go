package oauth

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/oauth2"
)

// Record is what one sign-in left: a token for one resource from one
// authorization server, and the client that obtained it. Records are keyed
// by resource and issuer: a record is only ever used with the issuer that
// made it, and a client registered with one authorization server is never
// shown to another.
type Record struct {
	// Issuer is the authorization server's issuer identifier, from its
	// validated metadata.
	Issuer string `json:"issuer"`
	// Resource is the RFC 8707 resource the token was requested for (the
	// protected resource metadata's resource).
	Resource string `json:"resource"`
	// TokenURL and AuthStyle are what a refresh needs.
	TokenURL  string           `json:"token_url"`
	AuthStyle oauth2.AuthStyle `json:"auth_style"`
	// Registration says how the client was registered: "cimd",
	// "preregistered" or "dynamic".
	Registration string `json:"registration"`
	ClientID     string `json:"client_id"`
	// ClientSecret is kept only for a dynamically registered client (the
	// authorization server gave it to mcpcli); a pre-registered client's
	// secret always comes from the environment or the keyring.
	ClientSecret string `json:"client_secret,omitempty"`
	// RedirectURI is the loopback redirect URI the client was registered
	// with; a dynamically registered client is reused only when its port
	// can be had again.
	RedirectURI string `json:"redirect_uri,omitempty"`
	// Scopes are the scopes granted (the token response's scope, else the
	// scopes requested).
	Scopes []string      `json:"scopes,omitempty"`
	Token  *oauth2.Token `json:"token"`
	// Saved is when the record was last written.
	Saved time.Time `json:"saved"`
}

// Entry is everything kept for one MCP server: one record per
// authorization server it has used, and which one it uses now.
type Entry struct {
	// Server is the MCP server's URL, as given (--url).
	Server string `json:"server"`
	// Current is the issuer of the record in use.
	Current string             `json:"current,omitempty"`
	Records map[string]*Record `json:"records,omitempty"`
}

// current returns the record in use, or nil.
func (e *Entry) current() *Record {
	if e == nil || e.Records == nil {
		return nil
	}
	return e.Records[e.Current]
}

// Store keeps entries, one per MCP server URL.
type Store interface {
	// Load returns the entry for server, or nil when there is none.
	Load(server string) (*Entry, error)
	// Save replaces the entry for server.
	Save(server string, e *Entry) error
	// Delete removes the entry for server; deleting nothing is no error.
	Delete(server string) error
	// Where says where tokens are kept, for people: "the system keyring"
	// or a file path.
	Where() string
}

// ErrNoKeyring means the system keyring cannot be used here.
var ErrNoKeyring = errors.New("no system keyring")

// Keyring is the little a keyring must do. SystemKeyring is the real one;
// tests pass a fake.
type Keyring interface {
	Get(service, user string) (string, error) // ErrKeyNotFound when absent
	Set(service, user, secret string) error
	Delete(service, user string) error
}

// ErrKeyNotFound is what a Keyring's Get and Delete return for a missing key.
var ErrKeyNotFound = errors.New("not in the keyring")

// keyringService names mcpcli's items in the keyring.
const keyringService = "mcpcli"

// KeyringStore keeps each server's entry as one keyring item (service
// "mcpcli", user "oauth:" + the server URL).
type KeyringStore struct {
	Keyring Keyring
}

func keyringUser(server string) string { return "oauth:" + server }

func (s *KeyringStore) Load(server string) (*Entry, error) {
	v, err := s.Keyring.Get(keyringService, keyringUser(server))
	if errors.Is(err, ErrKeyNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the sign-in for %s from the system keyring: %w", server, err)
	}
	var e Entry
	if err := json.Unmarshal([]byte(v), &e); err != nil {
		return nil, fmt.Errorf("the sign-in kept for %s in the system keyring is damaged (%v); run mcpcli auth logout --url %s and sign in again", server, err, server)
	}
	return &e, nil
}

func (s *KeyringStore) Save(server string, e *Entry) error {
	b, err := json.Marshal(e)
	if err != nil {
		return err
	}
	if err := s.Keyring.Set(keyringService, keyringUser(server), string(b)); err != nil {
		return fmt.Errorf("keeping the sign-in for %s in the system keyring: %w", server, err)
	}
	return nil
}

func (s *KeyringStore) Delete(server string) error {
	err := s.Keyring.Delete(keyringService, keyringUser(server))
	if err != nil && !errors.Is(err, ErrKeyNotFound) {
		return fmt.Errorf("removing the sign-in for %s from the system keyring: %w", server, err)
	}
	return nil
}

func (s *KeyringStore) Where() string { return "the system keyring" }

// FileStore keeps every entry in one JSON file, readable by its owner only
// (0600, in a 0700 directory). It is the fallback where no keyring can be
// used.
type FileStore struct {
	// Path is the file, e.g. ~/.local/state/mcpcli/oauth.json.
	Path string
	// Notice, when set, is told once, the first time the file is created,
	// where the tokens are kept and why.
	Notice func(msg string)
	// Why says why the file is used rather than the keyring, for Notice.
	Why string

	mu sync.Mutex
}

// fileData is the file's content.
type fileData struct {
	Entries map[string]*Entry `json:"entries"`
}

func (s *FileStore) read() (*fileData, error) {
	b, err := os.ReadFile(s.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return &fileData{Entries: map[string]*Entry{}}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading sign-ins from %s: %w", s.Path, err)
	}
	if st, err := os.Stat(s.Path); err == nil && st.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("%s holds tokens but others can read it (mode %v); run chmod 600 %s", s.Path, st.Mode().Perm(), s.Path)
	}
	var d fileData
	if err := json.Unmarshal(b, &d); err != nil {
		return nil, fmt.Errorf("%s is damaged (%v); remove it and sign in again", s.Path, err)
	}
	if d.Entries == nil {
		d.Entries = map[string]*Entry{}
	}
	return &d, nil
}

func (s *FileStore) write(d *fileData) error {
	dir := filepath.Dir(s.Path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("creating %s for sign-ins: %w", dir, err)
	}
	_, statErr := os.Stat(s.Path)
	created := errors.Is(statErr, fs.ErrNotExist)
	b, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".oauth-*.json")
	if err != nil {
		return fmt.Errorf("keeping sign-ins in %s: %w", dir, err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return fmt.Errorf("keeping sign-ins in %s: %w", dir, err)
	}
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("keeping sign-ins in %s: %w", dir, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("keeping sign-ins in %s: %w", dir, err)
	}
	if err := os.Rename(tmp.Name(), s.Path); err != nil {
		return fmt.Errorf("keeping sign-ins in %s: %w", s.Path, err)
	}
	if created && s.Notice != nil {
		msg := "sign-in tokens are kept in " + s.Path + " (readable by you only)"
		if s.Why != "" {
			msg += ": " + s.Why
		}
		s.Notice(msg)
	}
	return nil
}

func (s *FileStore) Load(server string) (*Entry, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d, err := s.read()
	if err != nil {
		return nil, err
	}
	return d.Entries[server], nil
}

func (s *FileStore) Save(server string, e *Entry) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	d, err := s.read()
	if err != nil {
		return err
	}
	d.Entries[server] = e
	return s.write(d)
}

func (s *FileStore) Delete(server string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	d, err := s.read()
	if err != nil {
		return err
	}
	if _, ok := d.Entries[server]; !ok {
		return nil
	}
	delete(d.Entries, server)
	return s.write(d)
}

func (s *FileStore) Where() string { return s.Path }

// StateDir is mcpcli's state directory: $XDG_STATE_HOME/mcpcli, else
// ~/.local/state/mcpcli.
func StateDir(getenv func(string) string, home func() (string, error)) (string, error) {
	if d := getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "mcpcli"), nil
	}
	h, err := home()
	if err != nil || h == "" {
		return "", fmt.Errorf("cannot find a directory for sign-in tokens: set $XDG_STATE_HOME or $HOME")
	}
	return filepath.Join(h, ".local", "state", "mcpcli"), nil
}

// StoreOptions choose where tokens are kept.
type StoreOptions struct {
	// Backend is "auto" (or ""): the system keyring when one answers, else
	// the file; "keyring": the keyring or an error; "file": the file.
	Backend string
	// Keyring is the system keyring (SystemKeyring()); nil means none.
	Keyring Keyring
	// Getenv and Home find the state directory.
	Getenv func(string) string
	Home   func() (string, error)
	// Notice is told once where tokens are kept when they go to the file.
	Notice func(msg string)
	// ProbeWait bounds the keyring's answer to the probe; 0 means 3s.
	ProbeWait time.Duration
}

// OpenStore picks the token store as opts say.
func OpenStore(opts StoreOptions) (Store, error) {
	fileStore := func(why string) (Store, error) {
		dir, err := StateDir(opts.Getenv, opts.Home)
		if err != nil {
			return nil, err
		}
		return &FileStore{Path: filepath.Join(dir, "oauth.json"), Notice: opts.Notice, Why: why}, nil
	}
	switch strings.ToLower(opts.Backend) {
	case "file":
		return fileStore("the token store is set to file")
	case "keyring":
		if opts.Keyring == nil {
			return nil, errors.New("no system keyring can be used here; keep tokens in a file instead (token store \"file\")")
		}
		if err := probe(opts.Keyring, opts.ProbeWait); err != nil {
			return nil, fmt.Errorf("the system keyring does not answer (%v); keep tokens in a file instead (token store \"file\")", err)
		}
		return &KeyringStore{Keyring: opts.Keyring}, nil
	case "", "auto":
		if opts.Keyring != nil {
			err := probe(opts.Keyring, opts.ProbeWait)
			if err == nil {
				return &KeyringStore{Keyring: opts.Keyring}, nil
			}
			return fileStore(fmt.Sprintf("the system keyring does not answer (%v)", err))
		}
		return fileStore("no system keyring here")
	}
	return nil, fmt.Errorf("token store %q: use auto, keyring or file", opts.Backend)
}

// defaultProbeWait bounds how long a keyring may take to answer the probe:
// a Secret Service that must be started, or is stuck, must not hold up a
// command.
const defaultProbeWait = 3 * time.Second

// probe asks the keyring for an item that is not there: a keyring that
// works says "not found".
func probe(k Keyring, probeWait time.Duration) error {
	if probeWait <= 0 {
		probeWait = defaultProbeWait
	}
	done := make(chan error, 1)
	go func() {
		_, err := k.Get(keyringService, "probe")
		done <- err
	}()
	t := time.NewTimer(probeWait)
	defer t.Stop()
	select {
	case err := <-done:
		if err == nil || errors.Is(err, ErrKeyNotFound) {
			return nil
		}
		return err
	case <-t.C:
		return fmt.Errorf("no answer within %s", probeWait)
	}
}

// scopesUnion is a ∪ b, in order, without repeats.
func scopesUnion(a, b []string) []string {
	out := slices.Clone(a)
	for _, s := range b {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}
