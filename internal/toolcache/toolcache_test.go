package toolcache

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// clock is a settable Now.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func newStore(t *testing.T) (*Store, *clock) {
	t.Helper()
	c := &clock{t: time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC)}
	return &Store{Dir: filepath.Join(t.TempDir(), "tools"), Now: c.now}, c
}

var key = Key{Server: "stdio\x00./weather\x00--env\x00API_KEY=s3cret", Protocol: "2026-07-28", Client: `{"elicitation":{}}`, Auth: "token-A"}

func entry(c *clock, ttl time.Duration, private bool, names ...string) *Entry {
	e := &Entry{Received: c.t, TTL: ttl, Private: private}
	for _, n := range names {
		e.Tools = append(e.Tools, json.RawMessage(`{"name":"`+n+`","inputSchema":{"type":"object"}}`))
	}
	return e
}

func names(e *Entry) []string {
	var out []string
	for _, raw := range e.Tools {
		var t struct{ Name string }
		json.Unmarshal(raw, &t)
		out = append(out, t.Name)
	}
	return out
}

func files(t *testing.T, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var out []string
	for _, de := range des {
		out = append(out, de.Name())
	}
	return out
}

func TestHitAndMiss(t *testing.T) {
	s, c := newStore(t)
	if _, ok := s.Get(key); ok {
		t.Fatal("Get on an empty store = hit, want a miss")
	}
	want := entry(c, time.Minute, false, "echo", "confirm")
	want.Dropped = []Dropped{{Name: "bad", Reason: "x-mcp-header on an array"}}
	if err := s.Put(key, want); err != nil {
		t.Fatalf("Put: %v", err)
	}
	c.t = c.t.Add(59 * time.Second)
	got, ok := s.Get(key)
	if !ok {
		t.Fatal("Get 59s into a 60s ttl = miss, want a hit")
	}
	if diff := cmp.Diff(names(want), names(got)); diff != "" {
		t.Errorf("Get tools (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want.Dropped, got.Dropped); diff != "" {
		t.Errorf("Get dropped (-want +got):\n%s", diff)
	}
	if !got.Received.Equal(want.Received.Truncate(time.Millisecond)) || got.TTL != time.Minute {
		t.Errorf("Get = received %v ttl %v, want %v %v", got.Received, got.TTL, want.Received, time.Minute)
	}
	for _, other := range []Key{
		{Server: key.Server + " ", Protocol: key.Protocol, Client: key.Client, Auth: key.Auth},
		{Server: key.Server, Protocol: "2025-11-25", Client: key.Client, Auth: key.Auth},
		{Server: key.Server, Protocol: key.Protocol, Client: `{"elicitation":{},"sampling":{}}`, Auth: key.Auth},
	} {
		if _, ok := s.Get(other); ok {
			t.Errorf("Get(%q) = hit on another key's list, want a miss", other)
		}
	}
}

func TestExpiry(t *testing.T) {
	s, c := newStore(t)
	s.Put(key, entry(c, time.Minute, false, "echo"))
	c.t = c.t.Add(time.Minute) // now == received + ttl: stale
	if _, ok := s.Get(key); ok {
		t.Fatal("Get at received+ttl = hit, want a miss (fresh while now < received + ttl)")
	}
	if got := files(t, s.Dir); len(got) != 0 {
		t.Errorf("a stale entry stays after Get: %q", got)
	}
}

func TestClockSetBack(t *testing.T) {
	s, c := newStore(t)
	s.Put(key, entry(c, time.Hour, false, "echo"))
	c.t = c.t.Add(-time.Minute)
	if _, ok := s.Get(key); ok {
		t.Error("Get before the entry was received = hit, want a miss (its age is unknown)")
	}
}

func TestNotCacheable(t *testing.T) {
	s, c := newStore(t)
	s.Put(key, entry(c, time.Hour, false, "old"))
	// ttlMs 0 (or absent, or negative): immediately stale, and it says
	// the list changed: what was kept goes.
	for _, ttl := range []time.Duration{0, -time.Second} {
		if err := s.Put(key, entry(c, ttl, false, "new")); err != nil {
			t.Fatalf("Put(ttl %v): %v", ttl, err)
		}
		if got, ok := s.Get(key); ok {
			t.Errorf("Get after Put(ttl %v) = hit %q, want a miss", ttl, names(got))
		}
	}
}

func TestPrivateIsKeptForOneAuth(t *testing.T) {
	s, c := newStore(t)
	s.Put(key, entry(c, time.Hour, true, "mine"))
	otherToken := key
	otherToken.Auth = "token-B"
	if got, ok := s.Get(otherToken); ok {
		t.Errorf("Get with another token = hit %q on a private list, want a miss", names(got))
	}
	none := key
	none.Auth = ""
	if _, ok := s.Get(none); ok {
		t.Error("Get with no credentials = hit on a private list, want a miss")
	}
	if got, ok := s.Get(key); !ok || names(got)[0] != "mine" {
		t.Errorf("Get with the same token = %v %v, want the private list", got, ok)
	}

	// A public list is shared by every token.
	s.Put(key, entry(c, time.Hour, false, "everyone"))
	if got, ok := s.Get(otherToken); !ok || names(got)[0] != "everyone" {
		t.Errorf("Get with another token = %v %v, want the public list", got, ok)
	}
	// And it replaced the private one: the newer answer says which applies.
	if got := files(t, s.Dir); len(got) != 1 {
		t.Errorf("after a public Put the store has %q, want the public entry alone", got)
	}
	s.Put(key, entry(c, time.Hour, true, "mine again"))
	if _, ok := s.Get(otherToken); ok {
		t.Error("Get with another token after the list turned private = hit, want a miss")
	}
}

func TestForget(t *testing.T) {
	s, c := newStore(t)
	other := key
	other.Server = "https://example.com/mcp"
	s.Put(key, entry(c, time.Hour, true, "a"))
	s.Put(other, entry(c, time.Hour, false, "b"))
	s.Forget(key)
	if _, ok := s.Get(key); ok {
		t.Error("Get after Forget = hit, want a miss")
	}
	if _, ok := s.Get(other); !ok {
		t.Error("Forget of one key dropped another's list")
	}
}

func TestBoundedInEntries(t *testing.T) {
	s, c := newStore(t)
	s.MaxEntries = 3
	keys := make([]Key, 5)
	for i := range keys {
		keys[i] = key
		keys[i].Server = strings.Repeat("s", i+1)
		// Each expires later than the one before, the last soonest of all.
		ttl := time.Duration(i+1) * time.Hour
		if i == 4 {
			ttl = time.Minute
		}
		if err := s.Put(keys[i], entry(c, ttl, false, "t")); err != nil {
			t.Fatal(err)
		}
	}
	if got := files(t, s.Dir); len(got) != 3 {
		t.Fatalf("the store has %d entries, want MaxEntries = 3: %q", len(got), got)
	}
	// The ones that expire first go, except the one just written.
	for i, want := range []bool{false, false, true, true, true} {
		if _, ok := s.Get(keys[i]); ok != want {
			t.Errorf("Get(key %d) = %v, want %v", i, ok, want)
		}
	}
}

func TestBoundedInSize(t *testing.T) {
	s, c := newStore(t)
	s.MaxEntryBytes = 4000
	big := entry(c, time.Hour, false, strings.Repeat("x", 5000))
	if err := s.Put(key, big); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Get(key); ok {
		t.Error("an entry over MaxEntryBytes was kept")
	}

	s.MaxBytes = 2500
	for i := range 3 {
		k := key
		k.Server = strings.Repeat("s", i+1)
		s.Put(k, entry(c, time.Duration(i+1)*time.Hour, false, strings.Repeat("y", 1000)))
	}
	var total int64
	for _, n := range files(t, s.Dir) {
		fi, _ := os.Stat(filepath.Join(s.Dir, n))
		total += fi.Size()
	}
	if total > s.MaxBytes {
		t.Errorf("the store holds %d bytes, want at most MaxBytes = %d", total, s.MaxBytes)
	}
}

func TestPrivateOnDisk(t *testing.T) {
	s, c := newStore(t)
	if err := s.Put(key, entry(c, time.Hour, true, "echo")); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(s.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if perm := st.Mode().Perm(); perm != 0o700 {
		t.Errorf("the directory's mode is %v, want 0700", perm)
	}
	for _, n := range files(t, s.Dir) {
		p := filepath.Join(s.Dir, n)
		fi, _ := os.Stat(p)
		if perm := fi.Mode().Perm(); perm != 0o600 {
			t.Errorf("%s has mode %v, want 0600", n, perm)
		}
		b, _ := os.ReadFile(p)
		for _, secret := range []string{"s3cret", "token-A", "weather"} {
			if strings.Contains(n, secret) || strings.Contains(string(b), secret) {
				t.Errorf("%s holds %q of the key in clear", n, secret)
			}
		}
	}
}

func TestUnreadable(t *testing.T) {
	s, c := newStore(t)
	s.Put(key, entry(c, time.Hour, false, "echo"))
	for _, n := range files(t, s.Dir) {
		os.WriteFile(filepath.Join(s.Dir, n), []byte(`{"v":1,"tools":`), 0o600)
	}
	if _, ok := s.Get(key); ok {
		t.Error("Get of a truncated entry = hit, want a miss")
	}
	if got := files(t, s.Dir); len(got) != 0 {
		t.Errorf("an unreadable entry stays: %q", got)
	}
	var nilStore *Store
	if _, ok := nilStore.Get(key); ok {
		t.Error("a nil Store hit")
	}
	if err := nilStore.Put(key, entry(c, time.Hour, false, "x")); err != nil {
		t.Errorf("Put on a nil Store: %v", err)
	}
	unwritable := &Store{Dir: "/proc/no/such/dir", Now: c.now}
	if err := unwritable.Put(key, entry(c, time.Hour, false, "x")); err == nil {
		t.Error("Put where nothing can be written = nil error, want one (the caller ignores it)")
	}
}
