package oauth

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"golang.org/x/oauth2"
)

// ignoreTokenInternals skips oauth2.Token's unexported fields (the raw
// response, the expiry margin), which are not kept.
var ignoreTokenInternals = cmpopts.IgnoreUnexported(oauth2.Token{})

func sampleEntry(server string, issuers ...string) *Entry {
	e := &Entry{Server: server, Records: map[string]*Record{}}
	for i, iss := range issuers {
		e.Records[iss] = &Record{
			Issuer: iss, Resource: server, TokenURL: iss + "/token", Registration: RegistrationDynamic,
			ClientID: "client-" + iss, Scopes: []string{"mcp:basic"},
			Token: &oauth2.Token{AccessToken: "access-" + iss, RefreshToken: "refresh-" + iss, Expiry: time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)},
		}
		if i == 0 {
			e.Current = iss
		}
	}
	return e
}

// TestFileStore: entries keyed by server, records by issuer, 0600 in a
// 0700 directory, a notice once when the file is made.
func TestFileStore(t *testing.T) {
	dir := t.TempDir()
	var notices []string
	s := &FileStore{Path: filepath.Join(dir, "state", "mcpcli", "oauth.json"), Notice: func(m string) { notices = append(notices, m) }, Why: "no keyring here"}
	if e, err := s.Load("http://a/mcp"); e != nil || err != nil {
		t.Fatalf("Load before any save = %v, %v; want nil, nil", e, err)
	}
	a := sampleEntry("http://a/mcp", "https://as1", "https://as2")
	b := sampleEntry("http://b/mcp", "https://as1")
	if err := s.Save("http://a/mcp", a); err != nil {
		t.Fatal(err)
	}
	if err := s.Save("http://b/mcp", b); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(s.Path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("file mode %v, want 0600", st.Mode().Perm())
	}
	if dst, _ := os.Stat(filepath.Dir(s.Path)); dst.Mode().Perm() != 0o700 {
		t.Errorf("directory mode %v, want 0700", dst.Mode().Perm())
	}
	if len(notices) != 1 || !strings.Contains(notices[0], s.Path) || !strings.Contains(notices[0], "no keyring here") {
		t.Errorf("notices %q, want one naming the file and why", notices)
	}
	got, err := s.Load("http://a/mcp")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(a, got, ignoreTokenInternals); diff != "" {
		t.Errorf("Load(a) (-want +got):\n%s", diff)
	}
	if got.Records["https://as2"].Token.AccessToken != "access-https://as2" {
		t.Errorf("records of two issuers mixed up")
	}
	if err := s.Delete("http://a/mcp"); err != nil {
		t.Fatal(err)
	}
	if e, _ := s.Load("http://a/mcp"); e != nil {
		t.Errorf("Load after Delete = %+v, want nil", e)
	}
	if e, _ := s.Load("http://b/mcp"); e == nil {
		t.Errorf("Delete(a) removed b too")
	}

	// Others able to read the file: refused, with the fix.
	os.Chmod(s.Path, 0o644)
	if _, err := s.Load("http://b/mcp"); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Errorf("Load of a world-readable file = %v, want an error saying chmod 600", err)
	}
}

// fakeKeyring is a Keyring in memory that can be made to fail or hang.
type fakeKeyring struct {
	mu    sync.Mutex
	items map[string]string
	err   error         // returned by every call when set
	hang  chan struct{} // Get blocks until closed when set
}

func (k *fakeKeyring) Get(service, user string) (string, error) {
	if k.hang != nil {
		<-k.hang
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.err != nil {
		return "", k.err
	}
	v, ok := k.items[service+"/"+user]
	if !ok {
		return "", ErrKeyNotFound
	}
	return v, nil
}

func (k *fakeKeyring) Set(service, user, secret string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.err != nil {
		return k.err
	}
	if k.items == nil {
		k.items = map[string]string{}
	}
	k.items[service+"/"+user] = secret
	return nil
}

func (k *fakeKeyring) Delete(service, user string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if _, ok := k.items[service+"/"+user]; !ok {
		return ErrKeyNotFound
	}
	delete(k.items, service+"/"+user)
	return nil
}

// TestKeyringStore: one item per server, under service mcpcli.
func TestKeyringStore(t *testing.T) {
	kr := &fakeKeyring{}
	s := &KeyringStore{Keyring: kr}
	a := sampleEntry("http://a/mcp", "https://as1")
	if err := s.Save("http://a/mcp", a); err != nil {
		t.Fatal(err)
	}
	if _, ok := kr.items["mcpcli/oauth:http://a/mcp"]; !ok {
		t.Errorf("keyring items %v, want mcpcli/oauth:http://a/mcp", kr.items)
	}
	got, err := s.Load("http://a/mcp")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(a, got, ignoreTokenInternals); diff != "" {
		t.Errorf("Load (-want +got):\n%s", diff)
	}
	if err := s.Delete("http://a/mcp"); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete("http://a/mcp"); err != nil {
		t.Errorf("Delete of nothing = %v, want nil", err)
	}
	kr.items["mcpcli/oauth:http://c/mcp"] = "{not json"
	if _, err := s.Load("http://c/mcp"); err == nil || !strings.Contains(err.Error(), "auth logout") {
		t.Errorf("Load of a damaged item = %v, want an error naming auth logout", err)
	}
}

// TestOpenStore: the keyring when it answers, else the file under the
// state directory, with the reason.
func TestOpenStore(t *testing.T) {
	home := t.TempDir()
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	homeFn := func() (string, error) { return home, nil }
	hang := make(chan struct{})
	t.Cleanup(func() { close(hang) })
	tests := []struct {
		name     string
		opts     StoreOptions
		want     string // Where()
		wantErr  string
		wantWhy  string
		wantFile bool
	}{
		{"keyring answers", StoreOptions{Keyring: &fakeKeyring{}}, "the system keyring", "", "", false},
		{"no keyring: XDG_STATE_HOME", StoreOptions{Getenv: env(map[string]string{"XDG_STATE_HOME": "/xdg"})}, "/xdg/mcpcli/oauth.json", "", "no system keyring", true},
		{"no keyring: ~/.local/state", StoreOptions{Getenv: env(nil), Home: homeFn}, filepath.Join(home, ".local/state/mcpcli/oauth.json"), "", "", true},
		{"keyring fails", StoreOptions{Keyring: &fakeKeyring{err: errors.New("dbus: no such name")}, Getenv: env(nil), Home: homeFn},
			filepath.Join(home, ".local/state/mcpcli/oauth.json"), "", "dbus: no such name", true},
		{"keyring hangs", StoreOptions{Keyring: &fakeKeyring{hang: hang}, Getenv: env(nil), Home: homeFn, ProbeWait: 20 * time.Millisecond},
			filepath.Join(home, ".local/state/mcpcli/oauth.json"), "", "no answer", true},
		{"file asked", StoreOptions{Backend: "file", Keyring: &fakeKeyring{}, Getenv: env(nil), Home: homeFn}, filepath.Join(home, ".local/state/mcpcli/oauth.json"), "", "", true},
		{"keyring asked, none", StoreOptions{Backend: "keyring"}, "", "no system keyring", "", false},
		{"unknown backend", StoreOptions{Backend: "vault"}, "", `"vault"`, "", false},
		{"relative XDG_STATE_HOME is ignored", StoreOptions{Getenv: env(map[string]string{"XDG_STATE_HOME": "rel"}), Home: homeFn}, filepath.Join(home, ".local/state/mcpcli/oauth.json"), "", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := OpenStore(tt.opts)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("OpenStore = %v, want an error with %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("OpenStore: %v", err)
			}
			if s.Where() != tt.want {
				t.Errorf("Where() = %q, want %q", s.Where(), tt.want)
			}
			fs, isFile := s.(*FileStore)
			if isFile != tt.wantFile {
				t.Fatalf("store %T, want file %v", s, tt.wantFile)
			}
			if isFile && !strings.Contains(fs.Why, tt.wantWhy) {
				t.Errorf("Why = %q, want it to say %q", fs.Why, tt.wantWhy)
			}
		})
	}
}

// TestHandlerUsesStoreAcrossRuns: a second run uses the kept token, with
// no sign-in; Inspect tells what is kept, without secrets; Logout forgets.
func TestHandlerUsesStoreAcrossRuns(t *testing.T) {
	as := newFakeAS(t, func(as *fakeAS) { as.regMethod = "client_secret_post"; as.authMethods = []string{"client_secret_post"} })
	rs := newFakeRS(t, as, func(rs *fakeRS) { rs.required, rs.scopeInChal = []string{"mcp:basic"}, true })
	store := &FileStore{Path: filepath.Join(t.TempDir(), "oauth.json")}
	b := &browser{}
	if status, err := call(t, newHandler(t, rs, store, b, nil), rs.URL()); err != nil || status != 200 {
		t.Fatalf("first run: %d, %v", status, err)
	}
	if status, err := call(t, newHandler(t, rs, store, b, nil), rs.URL()); err != nil || status != 200 {
		t.Fatalf("second run: %d, %v", status, err)
	}
	if b.count() != 1 {
		t.Errorf("browser opened %d times over two runs, want 1", b.count())
	}
	st, err := Inspect(store, rs.URL())
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Records) != 1 {
		t.Fatalf("Inspect records %+v, want 1", st.Records)
	}
	r := st.Records[0]
	if r.Issuer != as.issuerID() || !r.Current || !r.Refreshable || r.Registration != RegistrationDynamic || r.Expiry.IsZero() ||
		!cmp.Equal(r.Scopes, []string{"mcp:basic"}) || st.Where != store.Path {
		t.Errorf("Inspect = %+v", st)
	}
	raw, _ := os.ReadFile(store.Path)
	if !strings.Contains(string(raw), "dyn-secret-dyn-client-1") {
		t.Errorf("the dynamically registered client's secret was not kept for refreshes")
	}
	existed, err := Logout(store, rs.URL())
	if err != nil || !existed {
		t.Fatalf("Logout = %v, %v; want true, nil", existed, err)
	}
	if st, _ := Inspect(store, rs.URL()); len(st.Records) != 0 {
		t.Errorf("Inspect after Logout = %+v", st)
	}
	if existed, err := Logout(store, rs.URL()); existed || err != nil {
		t.Errorf("second Logout = %v, %v; want false, nil", existed, err)
	}
}

// TestClientSecret: the environment first, then the keyring.
func TestClientSecret(t *testing.T) {
	kr := &fakeKeyring{}
	if err := SaveClientSecret(kr, "pre", "from-keyring"); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		env  string
		kr   Keyring
		id   string
		want string
	}{
		{"from-env", kr, "pre", "from-env"},
		{"", kr, "pre", "from-keyring"},
		{"", kr, "other", ""},
		{"", nil, "pre", ""},
	}
	for _, tt := range tests {
		got, err := ClientSecret(func(k string) string {
			if k == EnvClientSecret {
				return tt.env
			}
			return ""
		}, tt.kr, tt.id)
		if err != nil || got != tt.want {
			t.Errorf("ClientSecret(env %q, client %q) = %q, %v; want %q", tt.env, tt.id, got, err, tt.want)
		}
	}
	if err := SaveClientSecret(nil, "pre", "x"); err == nil || !strings.Contains(err.Error(), EnvClientSecret) {
		t.Errorf("SaveClientSecret without a keyring = %v, want an error naming $%s", err, EnvClientSecret)
	}
}
