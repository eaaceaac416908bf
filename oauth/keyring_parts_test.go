package oauth

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"golang.org/x/oauth2"
)

// smallKeyring is a keyring whose items hold at most max bytes, as
// Windows' Credential Manager holds 2,560.
type smallKeyring struct {
	fakeKeyring
	max int
}

func (k *smallKeyring) Set(service, user, secret string) error {
	if len(secret) > k.max {
		return fmt.Errorf("data passed to Set was too big (%d bytes)", len(secret))
	}
	return k.fakeKeyring.Set(service, user, secret)
}

// bigEntry is a sign-in whose JSON is about n bytes: a large JWT access
// token, a refresh token, and a client name in more than ASCII.
func bigEntry(n int) *Entry {
	const issuer = "https://auth.example.com"
	return &Entry{Server: "https://mcp.example.com/mcp", Current: issuer, Records: map[string]*Record{issuer: {
		Issuer:   issuer,
		ClientID: "client-é-" + strings.Repeat("é", 50),
		Token:    &oauth2.Token{AccessToken: strings.Repeat("a", n), RefreshToken: strings.Repeat("r", 600), Expiry: time.Unix(2e9, 0).UTC()},
	}}}
}

func TestKeyringStoreKeepsAnEntryLargerThanAnItem(t *testing.T) {
	kr := &smallKeyring{max: 2560}
	s := &KeyringStore{Keyring: kr}
	const server = "https://mcp.example.com/mcp"
	for _, size := range []int{100, 3000, 9000, 2500} { // whole, in parts, in more parts, then fewer
		want := bigEntry(size)
		if err := s.Save(server, want); err != nil {
			t.Fatalf("Save(an entry with a %d-byte token) = %v; want it kept in parts", size, err)
		}
		got, err := s.Load(server)
		if err != nil || got == nil || got.current() == nil || got.current().Token.AccessToken != want.current().Token.AccessToken || got.current().ClientID != want.current().ClientID {
			t.Fatalf("Load after Save(an entry with a %d-byte token) = %v, %v; want it back whole", size, got, err)
		}
		for key, v := range kr.items {
			if len(v) > keyringItemMax {
				t.Errorf("item %s holds %d bytes, more than keyringItemMax", key, len(v))
			}
			if !strings.HasPrefix(key, "mcpcli/") {
				t.Errorf("item %s is not under service mcpcli", key)
			}
		}
	}
	// 2500 bytes of token: two parts; none of the 9000's five left.
	if n := len(kr.items); n != 3 {
		t.Errorf("after the last Save the keyring holds %d items, want the entry's item and its 2 parts: %v", n, keys(kr.items))
	}
	if err := s.Delete(server); err != nil {
		t.Fatal(err)
	}
	if len(kr.items) != 0 {
		t.Errorf("after Delete the keyring still holds %v", keys(kr.items))
	}
}

func TestKeyringStoreSaysAMissingPartIsDamage(t *testing.T) {
	kr := &smallKeyring{max: 2560}
	s := &KeyringStore{Keyring: kr}
	const server = "https://mcp.example.com/mcp"
	if err := s.Save(server, bigEntry(5000)); err != nil {
		t.Fatal(err)
	}
	delete(kr.items, "mcpcli/"+partUser(server, 2))
	if _, err := s.Load(server); err == nil || !strings.Contains(err.Error(), "part 2 of 4 is missing") || !strings.Contains(err.Error(), "mcpcli auth logout --url "+server) {
		t.Errorf("Load with a part gone = %v; want it called damaged, with the logout to run", err)
	}
}

func TestSplitItemCutsBetweenCharacters(t *testing.T) {
	v := strings.Repeat("aé", 1000) // 3000 bytes, é is two
	parts := splitItem(v, 999)
	if strings.Join(parts, "") != v {
		t.Fatalf("splitItem lost or changed bytes")
	}
	for i, p := range parts {
		if len(p) > 999 || !utf8.ValidString(p) {
			t.Errorf("part %d is %d bytes, valid UTF-8 %v; want at most 999, valid", i, len(p), utf8.ValidString(p))
		}
	}
}

func TestStateDirPerSystem(t *testing.T) {
	home := func() (string, error) { return "/home/ada", nil }
	for _, tc := range []struct {
		goos string
		env  map[string]string
		want string
	}{
		{"linux", nil, filepath.Join("/home/ada", ".local", "state", "mcpcli")},
		{"linux", map[string]string{"XDG_STATE_HOME": "/state"}, filepath.Join("/state", "mcpcli")},
		{"darwin", nil, filepath.Join("/home/ada", ".local", "state", "mcpcli")},
		{"windows", map[string]string{"LOCALAPPDATA": `C:\Users\ada\AppData\Local`}, filepath.Join(`C:\Users\ada\AppData\Local`, "mcpcli")},
		{"windows", nil, filepath.Join("/home/ada", "AppData", "Local", "mcpcli")},
	} {
		got, err := stateDir(tc.goos, func(k string) string { return tc.env[k] }, home)
		if err != nil || got != tc.want {
			t.Errorf("stateDir(%s, %v) = %q, %v; want %q", tc.goos, tc.env, got, err, tc.want)
		}
	}
	if _, err := stateDir("windows", func(string) string { return "" }, func() (string, error) { return "", errors.New("no home") }); err == nil {
		t.Errorf("stateDir(windows) with neither %%LOCALAPPDATA%% nor a home = nil error; want one that says what to set")
	}
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
