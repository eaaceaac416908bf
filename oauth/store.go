package oauth

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

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
// "mcpcli", user "oauth:" + the server URL), or, when it is larger than one
// item holds everywhere (keyringItemMax), as parts: the item then says
// "mcpcli-parts:N", and the parts are users "oauth:URL#1" to "#N".
type KeyringStore struct {
	Keyring Keyring
}

// keyringItemMax is the most one keyring item is given, which every
// system's keyring holds: Windows' Credential Manager takes 2,560 bytes
// (CRED_MAX_CREDENTIAL_BLOB_SIZE), and go-keyring passes a macOS secret,
// in base64, on a security(1) command line of at most 4,096 bytes. An
// entry with a large access token and a refresh token is over both.
const keyringItemMax = 2000

// partsPrefix starts an item that says in how many parts its entry is
// kept. An entry is JSON, which starts with {.
const partsPrefix = "mcpcli-parts:"

func keyringUser(server string) string { return "oauth:" + server }

func partUser(server string, i int) string { return keyringUser(server) + "#" + strconv.Itoa(i) }

// partsOf says in how many parts the item v says its entry is kept, or 0
// for an entry kept whole.
func partsOf(v string) int {
	n, err := strconv.Atoi(strings.TrimPrefix(v, partsPrefix))
	if !strings.HasPrefix(v, partsPrefix) || err != nil || n < 0 || n > 1000 {
		return 0
	}
	return n
}

func (s *KeyringStore) Load(server string) (*Entry, error) {
	v, err := s.Keyring.Get(keyringService, keyringUser(server))
	if errors.Is(err, ErrKeyNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the sign-in for %s from the system keyring: %w", server, err)
	}
	if n := partsOf(v); n > 0 {
		var b strings.Builder
		for i := 1; i <= n; i++ {
			part, err := s.Keyring.Get(keyringService, partUser(server, i))
			if errors.Is(err, ErrKeyNotFound) {
				return nil, fmt.Errorf("the sign-in kept for %s in the system keyring is damaged (part %d of %d is missing); run mcpcli auth logout --url %s and sign in again", server, i, n, server)
			}
			if err != nil {
				return nil, fmt.Errorf("reading the sign-in for %s from the system keyring: %w", server, err)
			}
			b.WriteString(part)
		}
		v = b.String()
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
	old := 0
	if v, err := s.Keyring.Get(keyringService, keyringUser(server)); err == nil {
		old = partsOf(v)
	}
	parts := splitItem(string(b), keyringItemMax)
	head := string(b)
	if len(parts) > 1 {
		// The parts first, then the item that names them: the entry
		// read before the last write is the old one, whole.
		for i, part := range parts {
			if err := s.Keyring.Set(keyringService, partUser(server, i+1), part); err != nil {
				return fmt.Errorf("keeping the sign-in for %s in the system keyring: %w", server, err)
			}
		}
		head = partsPrefix + strconv.Itoa(len(parts))
	} else {
		parts = nil
	}
	if err := s.Keyring.Set(keyringService, keyringUser(server), head); err != nil {
		return fmt.Errorf("keeping the sign-in for %s in the system keyring: %w", server, err)
	}
	for i := len(parts) + 1; i <= old; i++ {
		_ = s.Keyring.Delete(keyringService, partUser(server, i))
	}
	return nil
}

// splitItem cuts v into pieces of at most max bytes, between characters
// (a keyring item is a string, and D-Bus wants it in UTF-8).
func splitItem(v string, max int) []string {
	var out []string
	for len(v) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(v[cut]) {
			cut--
		}
		out = append(out, v[:cut])
		v = v[cut:]
	}
	return append(out, v)
}

func (s *KeyringStore) Delete(server string) error {
	n := 0
	if v, err := s.Keyring.Get(keyringService, keyringUser(server)); err == nil {
		n = partsOf(v)
	}
	err := s.Keyring.Delete(keyringService, keyringUser(server))
	if err != nil && !errors.Is(err, ErrKeyNotFound) {
		return fmt.Errorf("removing the sign-in for %s from the system keyring: %w", server, err)
	}
	for i := 1; i <= n; i++ {
		_ = s.Keyring.Delete(keyringService, partUser(server, i))
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
	// (Windows keeps who may read a file in ACLs, not in its mode: the
	// file is in %LOCALAPPDATA%, which is the user's alone.)
	if st, err := os.Stat(s.Path); err == nil && runtime.GOOS != "windows" && st.Mode().Perm()&0o077 != 0 {
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
// ~/.local/state/mcpcli, and on Windows %LOCALAPPDATA%\mcpcli (the
// machine's own, not roaming: tokens stay where they were given).
func StateDir(getenv func(string) string, home func() (string, error)) (string, error) {
	return stateDir(runtime.GOOS, getenv, home)
}

func stateDir(goos string, getenv func(string) string, home func() (string, error)) (string, error) {
	if d := getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "mcpcli"), nil
	}
	if goos == "windows" {
		if d := getenv("LOCALAPPDATA"); d != "" {
			return filepath.Join(d, "mcpcli"), nil
		}
	}
	h, err := home()
	if err != nil || h == "" {
		return "", fmt.Errorf("cannot find a directory for sign-in tokens: set $XDG_STATE_HOME or $HOME")
	}
	if goos == "windows" {
		return filepath.Join(h, "AppData", "Local", "mcpcli"), nil
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
