// Package toolcache keeps servers' tool lists on disk between runs, each for
// as long as its server allows: a 2026-07-28 tools/list result says how long
// it stays fresh (ttlMs) and who may share it (cacheScope). A call that
// needs a tool's definition (to type KEY=VALUE, mirror x-mcp-header
// arguments, check the tool and its required arguments) then needs no
// tools/list of its own.
//
// The store is private and bounded: one file per list, 0600 in a 0700
// directory, named by a digest of its key (nothing of the key is written
// in clear); at most MaxEntries files of at most MaxEntryBytes each, and
// MaxBytes in all, the ones that expire first removed first. Expiry is
// kept as each file's modification time, so that bounding the store reads
// no file.
package toolcache

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mcpcli/mcpcli/internal/jsonpeek"
)

// Bounds of a Store whose fields are zero.
const (
	DefaultMaxEntries    = 64
	DefaultMaxEntryBytes = 8 << 20
	DefaultMaxBytes      = 64 << 20
)

// Store is a directory of tool lists. Its methods never fail the caller:
// a list that cannot be read or written is simply not cached.
type Store struct {
	Dir           string
	MaxEntries    int
	MaxEntryBytes int64
	MaxBytes      int64
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Key identifies one server's tool list as one client sees it.
type Key struct {
	// Server is who the server is: for stdio its command, the
	// environment it adds and its working directory; for HTTP its URL.
	Server string
	// Protocol is the protocol version negotiated.
	Protocol string
	// Client is what the server was told of the client: its name and
	// version, and the capabilities it declared (a server may list some
	// tools only to clients that declare sampling or roots).
	Client string
	// Auth is the authorization context: who asks (the credentials an
	// HTTP request carried; a stdio server's whole environment). A list
	// the server marks private is kept for it alone; a public one is
	// shared by every Auth.
	Auth string
}

// Entry is one kept list.
type Entry struct {
	Received time.Time     // when the list arrived (its first page)
	TTL      time.Duration // how long after Received it stays fresh
	Private  bool          // cacheScope "private"
	// Tools are the tools kept, each exactly as the server sent it.
	Tools []json.RawMessage
	// Dropped are the listed tools left out, and why.
	Dropped []Dropped
}

// Dropped is a listed tool that was left out.
type Dropped struct {
	Name   string `json:"name"`
	Reason string `json:"reason"`
}

// file is an Entry on disk.
type file struct {
	Version  int               `json:"v"`
	Received int64             `json:"receivedMs"` // Unix milliseconds
	TTL      int64             `json:"ttlMs"`
	Private  bool              `json:"private,omitempty"`
	Dropped  []Dropped         `json:"dropped,omitempty"`
	Tools    []json.RawMessage `json:"tools"`
}

const version = 1

// decodeFile reads an entry as json.Unmarshal reads it into a file, without
// encoding/json's reflection over the type (a tenth of a millisecond, at
// every call whose tool list is kept): each member by its exact name, each
// value decoded by encoding/json as the basic type it is. Anything else (a
// name in another case, a key given twice, another key) is read by
// json.Unmarshal. TestDecodeFileIsJSONUnmarshal holds the two alike.
func decodeFile(b []byte) (file, bool) {
	var f file
	if readMembers(b, &f) {
		return f, true
	}
	f = file{}
	return f, json.Unmarshal(b, &f) == nil
}

// readMembers is decodeFile without json.Unmarshal, for a file as Put writes
// it; false for anything else.
func readMembers(b []byte, f *file) bool {
	return json.Valid(b) && jsonpeek.EachOnce(b, func(k string, v []byte) bool {
		switch k {
		case "v":
			return json.Unmarshal(v, &f.Version) == nil
		case "receivedMs":
			return json.Unmarshal(v, &f.Received) == nil
		case "ttlMs":
			return json.Unmarshal(v, &f.TTL) == nil
		case "private":
			return json.Unmarshal(v, &f.Private) == nil
		case "tools":
			if string(v) == "null" {
				f.Tools = nil
				return true
			}
			f.Tools = []json.RawMessage{}
			err := jsonpeek.Array(v, func(t []byte) bool {
				f.Tools = append(f.Tools, json.RawMessage(bytes.Clone(t)))
				return true
			})
			return err == nil
		}
		return false // "dropped" (rare), or a key the file never has
	})
}

// suffix ends every entry's file name; anything else in Dir is left alone.
const suffix = ".tools.json"

func (s *Store) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

func (s *Store) maxEntries() int {
	if s.MaxEntries > 0 {
		return s.MaxEntries
	}
	return DefaultMaxEntries
}

func (s *Store) maxEntryBytes() int64 {
	if s.MaxEntryBytes > 0 {
		return s.MaxEntryBytes
	}
	return DefaultMaxEntryBytes
}

func (s *Store) maxBytes() int64 {
	if s.MaxBytes > 0 {
		return s.MaxBytes
	}
	return DefaultMaxBytes
}

// name is the file of k's public list, or (private) of k.Auth's own.
func (s *Store) name(k Key, private bool) string {
	h := sha256.New()
	part := func(v string) {
		// Each part is length-prefixed: no two keys write the same bytes.
		var n [8]byte
		for i, l := 0, uint64(len(v)); i < 8; i, l = i+1, l>>8 {
			n[i] = byte(l)
		}
		h.Write(n[:])
		h.Write([]byte(v))
	}
	part("mcpcli tool list v1")
	part(k.Server)
	part(k.Protocol)
	part(k.Client)
	if private {
		part("private")
		part(k.Auth)
	} else {
		part("public")
	}
	return filepath.Join(s.Dir, hex.EncodeToString(h.Sum(nil)[:20])+suffix)
}

// Get returns k's list while it is fresh: the public one, or the one kept
// privately for k.Auth, whichever arrived last. A stale entry is removed.
func (s *Store) Get(k Key) (*Entry, bool) {
	if s == nil || s.Dir == "" {
		return nil, false
	}
	var best *Entry
	for _, private := range []bool{false, true} {
		e, ok := s.read(s.name(k, private))
		if ok && (best == nil || e.Received.After(best.Received)) {
			best = e
		}
	}
	return best, best != nil
}

// read reads one entry, removing it when it is stale or unreadable.
func (s *Store) read(path string) (*Entry, bool) {
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() {
		return nil, false
	}
	if st.Size() > s.maxEntryBytes() {
		os.Remove(path)
		return nil, false
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, false
	}
	f, ok := decodeFile(b)
	if !ok || f.Version != version || f.TTL <= 0 {
		os.Remove(path)
		return nil, false
	}
	e := &Entry{
		Received: time.UnixMilli(f.Received),
		TTL:      time.Duration(f.TTL) * time.Millisecond,
		Private:  f.Private,
		Tools:    f.Tools,
		Dropped:  f.Dropped,
	}
	if !e.fresh(s.now()) {
		os.Remove(path)
		return nil, false
	}
	return e, true
}

// fresh reports now < Received + TTL (the spec's freshness), and that
// Received is not in the future (a clock set back: the age is unknown).
func (e *Entry) fresh(now time.Time) bool {
	return e.TTL > 0 && !now.Before(e.Received) && now.Before(e.Received.Add(e.TTL))
}

// Put keeps e as k's list: under k.Auth alone when it is private, for
// every Auth when it is public. Whatever k had under the other scope is
// dropped: the newer answer says which applies. An entry that is already
// stale (ttlMs 0: the server says not to keep it) or too large is not
// kept, and what k had is dropped.
func (s *Store) Put(k Key, e *Entry) error {
	if s == nil || s.Dir == "" {
		return nil
	}
	other := s.name(k, !e.Private)
	path := s.name(k, e.Private)
	os.Remove(other)
	if !e.fresh(s.now()) {
		os.Remove(path)
		return nil
	}
	b, err := json.Marshal(file{
		Version:  version,
		Received: e.Received.UnixMilli(),
		TTL:      e.TTL.Milliseconds(),
		Private:  e.Private,
		Dropped:  e.Dropped,
		Tools:    e.Tools,
	})
	if err != nil {
		return err
	}
	if int64(len(b)) > s.maxEntryBytes() {
		os.Remove(path)
		return nil
	}
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(s.Dir, ".put-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after the rename, there is nothing there
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	// The modification time is the expiry: bounding the store reads no file.
	expires := e.Received.Add(e.TTL)
	if err := os.Chtimes(tmp.Name(), expires, expires); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	s.bound(path)
	return nil
}

// Forget drops k's list, public and private: the server said it changed,
// or a call it refused says it may have.
func (s *Store) Forget(k Key) {
	if s == nil || s.Dir == "" {
		return
	}
	os.Remove(s.name(k, false))
	os.Remove(s.name(k, true))
}

// bound removes expired entries, then the ones that expire first until
// the store is within MaxEntries and MaxBytes. keep, just written, goes
// last.
func (s *Store) bound(keep string) {
	des, err := os.ReadDir(s.Dir)
	if err != nil {
		return
	}
	type kept struct {
		path    string
		size    int64
		expires time.Time
	}
	now := s.now()
	var all []kept
	var total int64
	for _, de := range des {
		if !strings.HasSuffix(de.Name(), suffix) || !de.Type().IsRegular() {
			continue
		}
		fi, err := de.Info()
		if err != nil {
			continue
		}
		p := filepath.Join(s.Dir, de.Name())
		if !fi.ModTime().After(now) && p != keep {
			os.Remove(p)
			continue
		}
		all = append(all, kept{p, fi.Size(), fi.ModTime()})
		total += fi.Size()
	}
	slices.SortFunc(all, func(a, b kept) int {
		switch {
		case a.path == keep:
			return 1
		case b.path == keep:
			return -1
		}
		return a.expires.Compare(b.expires)
	})
	for len(all) > 0 && (len(all) > s.maxEntries() || total > s.maxBytes()) && all[0].path != keep {
		if err := os.Remove(all[0].path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return
		}
		total -= all[0].size
		all = all[1:]
	}
}

// DirEnv names the directory of mcpcli's cache, in place of the
// system's (os.UserCacheDir()/mcpcli).
const DirEnv = "MCPCLI_CACHE_DIR"

// SystemDir is mcpcli's cache directory: $MCPCLI_CACHE_DIR, else
// mcpcli under the user's cache directory ($XDG_CACHE_HOME or ~/.cache on
// Linux).
func SystemDir() (string, error) {
	if d := os.Getenv(DirEnv); d != "" {
		return d, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "mcpcli"), nil
}
