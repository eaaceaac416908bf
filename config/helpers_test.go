package config

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// machine is a fake home and project tree under a temporary directory.
type machine struct {
	t    *testing.T
	root string // the temporary directory
	home string // root/home
	dir  string // the working directory, root/work/proj/sub
	os   string
	env  map[string]string
	ask  func(Input) (string, error)
	file string
	// untrusted leaves project files untrusted, as they are until the
	// person trusts them; the other tests trust them (TrustProject).
	untrusted bool
}

func newMachine(t *testing.T) *machine {
	t.Helper()
	root := t.TempDir()
	m := &machine{t: t, root: root, home: filepath.Join(root, "home"), dir: filepath.Join(root, "work", "proj", "sub"), os: "linux", env: map[string]string{}}
	for _, d := range []string{m.home, m.dir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

// write writes a file at a path relative to the machine's root; a leading
// "~/" means the home directory.
func (m *machine) write(rel, content string) string {
	m.t.Helper()
	p := m.path(rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		m.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		m.t.Fatal(err)
	}
	return p
}

func (m *machine) path(rel string) string {
	if r, ok := strings.CutPrefix(rel, "~/"); ok {
		return filepath.Join(m.home, filepath.FromSlash(r))
	}
	return filepath.Join(m.root, filepath.FromSlash(rel))
}

func (m *machine) options() Options {
	return Options{
		OS:   m.os,
		Home: m.home,
		Dir:  m.dir,
		LookupEnv: func(k string) (string, bool) {
			v, ok := m.env[k]
			return v, ok
		},
		File:         m.file,
		Ask:          m.ask,
		TrustProject: !m.untrusted,
	}
}

func (m *machine) load() *Config {
	m.t.Helper()
	c, err := Load(m.options())
	if err != nil {
		m.t.Fatalf("Load: %v", err)
	}
	return c
}

// local keeps the sources under the machine's root, leaving out whatever
// the real filesystem has above it.
func (m *machine) local(ss []Source) []Source {
	var out []Source
	for _, s := range ss {
		if strings.HasPrefix(s.Path, m.root+string(filepath.Separator)) {
			out = append(out, s)
		}
	}
	return out
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// jsonString is s as a JSON string.
func jsonString(t *testing.T, s string) string {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
