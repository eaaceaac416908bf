package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func (m *machine) userFile() string { return m.path("~/.config/mcpcli/servers.json") }

func (m *machine) read(path string) string {
	m.t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		m.t.Fatal(err)
	}
	return string(b)
}

func mode(t *testing.T, path string) fs.FileMode {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return st.Mode().Perm()
}

func TestAddCreatesThePrivateFile(t *testing.T) {
	m := newMachine(t)
	c := m.load()
	err := c.Add("github", Entry{Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-github"}, Env: map[string]string{"TOKEN": "${GITHUB_TOKEN}", "A": "1"}}, false)
	if err != nil {
		t.Fatalf("Add: %v", err)
	}
	err = c.Add("notion", Entry{URL: "https://mcp.notion.com/mcp", Headers: map[string]string{"X-Team": "${TEAM:-core}"},
		OAuth: &OAuth{ClientID: "abc", ClientSecretEnv: "NOTION_SECRET", ClientSecret: "never written", Scopes: []string{"read"}, CallbackPort: 8765}}, false)
	if err != nil {
		t.Fatalf("Add: %v", err)
	}
	want := `{
  "mcpServers": {
    "github": {
      "type": "stdio",
      "command": "npx",
      "args": [
        "-y",
        "@modelcontextprotocol/server-github"
      ],
      "env": {
        "A": "1",
        "TOKEN": "${GITHUB_TOKEN}"
      }
    },
    "notion": {
      "type": "http",
      "url": "https://mcp.notion.com/mcp",
      "headers": {
        "X-Team": "${TEAM:-core}"
      },
      "oauth": {
        "clientId": "abc",
        "clientSecretEnv": "NOTION_SECRET",
        "scopes": [
          "read"
        ],
        "callbackPort": 8765
      }
    }
  }
}
`
	if diff := cmp.Diff(want, m.read(m.userFile())); diff != "" {
		t.Errorf("the file after two Adds (-want +got):\n%s", diff)
	}
	if runtime.GOOS != "windows" {
		if got := mode(t, m.userFile()); got != 0o600 {
			t.Errorf("the new file's mode = %v, want 0600", got)
		}
		if got := mode(t, filepath.Dir(m.userFile())); got != 0o700 {
			t.Errorf("the new directory's mode = %v, want 0700", got)
		}
	}
	// What was written reads back as it was given.
	srv, err := m.load().Server("github")
	m.env["GITHUB_TOKEN"] = "tok"
	if err == nil {
		t.Errorf("Server(github) without GITHUB_TOKEN: err = nil; want the variable to stay unexpanded in the file")
	}
	srv, err = m.load().Server("github")
	if err != nil || srv.Env["TOKEN"] != "tok" {
		t.Errorf("Server(github) = %+v, %v; want TOKEN=tok", srv, err)
	}
}

func TestAddKeepsWhatItDoesNotKnow(t *testing.T) {
	m := newMachine(t)
	f := m.write("~/.config/mcpcli/servers.json", `{
  "$schema": "https://example.com/schema.json",
  "mcpServers": {
    "b": {"command": "b", "disabled": true, "autoApprove": ["x"], "args": ["old"]},
    "a": {"url": "https://a/mcp", "timeout": 5e3}
  },
  "settings": {"z": 1, "y": [true, null]}
}`)
	c := m.load()
	if err := c.Add("b", Entry{Command: "b2"}, false); !errors.Is(err, ErrExists) || errString(err) != `server "b" is already defined in `+f+`; replace it, or remove it first` {
		t.Errorf("Add(existing, replace=false) error = %v; want an ExistsError naming the file", err)
	}
	if err := c.Add("b", Entry{Command: "b2"}, true); err != nil {
		t.Fatalf("Add(existing, replace=true): %v", err)
	}
	if err := c.Add("c", Entry{Type: SSE, URL: "https://c/sse"}, false); err != nil {
		t.Fatalf("Add(c): %v", err)
	}
	want := `{
  "$schema": "https://example.com/schema.json",
  "mcpServers": {
    "b": {
      "type": "stdio",
      "command": "b2",
      "disabled": true,
      "autoApprove": [
        "x"
      ]
    },
    "a": {
      "url": "https://a/mcp",
      "timeout": 5e3
    },
    "c": {
      "type": "sse",
      "url": "https://c/sse"
    }
  },
  "settings": {
    "z": 1,
    "y": [
      true,
      null
    ]
  }
}
`
	if diff := cmp.Diff(want, m.read(f)); diff != "" {
		t.Errorf("the file after Add (-want +got):\n%s", diff)
	}
	if err := c.Remove("a"); err != nil {
		t.Fatalf("Remove(a): %v", err)
	}
	if got := m.read(f); strings.Contains(got, `"a"`) || !strings.Contains(got, `"disabled": true`) || !strings.Contains(got, `"$schema"`) {
		t.Errorf("the file after Remove(a):\n%s\nwant a gone and the rest kept", got)
	}
	// Writing left no temporary file behind.
	entries, _ := os.ReadDir(filepath.Dir(f))
	if len(entries) != 1 {
		t.Errorf("the directory holds %d files after writing; want only servers.json", len(entries))
	}
}

// A file that was readable by others is private once mcpcli has written a
// server into it: what Add writes may be a secret.
func TestAddMakesAnOpenFilePrivate(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("file modes are ACLs on Windows")
	}
	m := newMachine(t)
	f := m.write("~/.config/mcpcli/servers.json", `{"mcpServers": {"old": {"command": "old"}}}`)
	if err := os.Chmod(f, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := m.load().Add("docs", Entry{URL: "https://docs.example.com/mcp", Headers: map[string]string{"X-Api-Key": "k-123"}}, false); err != nil {
		t.Fatalf("Add: %v", err)
	}
	if got := mode(t, f); got != 0o600 {
		t.Errorf("after Add into a 0644 file, its mode = %v; want 0600", got)
	}
	if err := m.load().Remove("old"); err != nil {
		t.Fatalf("Remove: %v", err)
	}
	if got := mode(t, f); got != 0o600 {
		t.Errorf("after Remove, the mode = %v; want 0600", got)
	}
}

func TestAddThroughASymlink(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges on Windows")
	}
	m := newMachine(t)
	real := m.write("dotfiles/servers.json", `{"mcpServers": {}}`)
	if err := os.MkdirAll(filepath.Dir(m.userFile()), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, m.userFile()); err != nil {
		t.Fatal(err)
	}
	if err := m.load().Add("x", Entry{Command: "x"}, false); err != nil {
		t.Fatalf("Add: %v", err)
	}
	if st, err := os.Lstat(m.userFile()); err != nil || st.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("after Add, %s is no longer a symlink (%v)", m.userFile(), err)
	}
	if got := m.read(real); !strings.Contains(got, `"command": "x"`) {
		t.Errorf("the symlink's target after Add:\n%s\nwant the new server in it", got)
	}
}

func TestAddRefuses(t *testing.T) {
	tests := []struct {
		name    string
		file    string // "" for none
		srv     string
		entry   Entry
		wantErr string // F is the file
	}{
		{"empty name", "", "", Entry{Command: "x"}, `a server name cannot be empty`},
		{"name with a space", "", "my server", Entry{Command: "x"}, `server name "my server" has whitespace in it; use - or _ instead, like "my-server"`},
		{"name with an escape", "", "a\x1b[2J", Entry{Command: "x"}, `server name "a\x1b[2J" has a control or invisible character in it (U+001B); use letters, digits, - or _`},
		{"name with a bidi override", "", "a\u202eb", Entry{Command: "x"}, `server name "a\u202eb" has a control or invisible character in it (U+202E); use letters, digits, - or _`},
		{"command and url", "", "x", Entry{Command: "x", URL: "https://h"}, `server "x": has both "command" and "url"; a server is either a command to start (stdio) or a URL (http, sse): remove one`},
		{"neither", "", "x", Entry{Args: []string{"a"}}, `server "x": has neither "command" nor "url"; give a command to start (stdio) or the URL of a remote server (http, sse)`},
		{"sse with a command", "", "x", Entry{Type: SSE, Command: "x"}, `server "x": "type" is "sse" but the entry has "command", not "url"; make it "stdio", or give a URL`},
		{"a file that is not JSON", "{\n  \"mcpServers\": {,}\n}", "x", Entry{Command: "x"}, `F:2:18: invalid JSON: ',' where a key in double quotes or } should be; mcpcli rewrites only a file it can read: fix it first`},
		{"a file with a duplicate key", `{"mcpServers": {}, "other": {"k": 1, "k": 2}}`, "x", Entry{Command: "x"}, `F:1:38: the key "k" appears twice in one object; mcpcli will not rewrite a file that means two things: keep one`},
		{"a file that is an array", `[]`, "x", Entry{Command: "x"}, `F:1:1: must hold a JSON object, like {"mcpServers": {...}}, not an array; fix it first`},
		{"mcpServers not an object", `{"mcpServers": "x"}`, "x", Entry{Command: "x"}, `F: "mcpServers" must be an object, not a string; fix it first`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newMachine(t)
			if tt.file != "" {
				m.write("~/.config/mcpcli/servers.json", tt.file)
			}
			err := m.load().Add(tt.srv, tt.entry, false)
			if want := strings.ReplaceAll(tt.wantErr, "F:", m.userFile()+":"); errString(err) != want {
				t.Errorf("Add(%q, %+v) error\n got: %v\nwant: %s", tt.srv, tt.entry, err, want)
			}
			if tt.file != "" {
				if got := m.read(m.userFile()); got != tt.file {
					t.Errorf("Add changed the file it refused to rewrite:\n%s", got)
				}
			} else if _, err := os.Stat(m.userFile()); err == nil {
				t.Errorf("Add created %s although it failed", m.userFile())
			}
		})
	}
}

func TestAddToEmptyOrNullFile(t *testing.T) {
	for _, content := range []string{"", "\n", `{"mcpServers": null}`, `{"other": 1}`} {
		m := newMachine(t)
		m.write("~/.config/mcpcli/servers.json", content)
		if err := m.load().Add("x", Entry{Command: "x"}, false); err != nil {
			t.Errorf("Add to a file holding %q: %v", content, err)
			continue
		}
		if srv, err := m.load().Server("x"); err != nil || srv.Command != "x" {
			t.Errorf("after Add to a file holding %q: Server(x) = %+v, %v", content, srv, err)
		}
	}
}

func TestRemove(t *testing.T) {
	m := newMachine(t)
	proj := m.write("work/proj/.mcp.json", `{"mcpServers": {"team": {"command": "t"}, "both": {"command": "p"}}}`)
	desktop := m.write("~/.config/Claude/claude_desktop_config.json", `{"mcpServers": {"desk": {"command": "d"}}}`)
	f := m.write("~/.config/mcpcli/servers.json", `{"mcpServers": {"mine": {"command": "m"}, "both": {"command": "b"}}}`)
	c := m.load()

	err := c.Remove("team")
	if !errors.Is(err, ErrReadOnly) {
		t.Errorf("Remove(team) error = %v; want ErrReadOnly", err)
	}
	if want := `server "team" is defined in ` + proj + ` (Claude Code's project file), not in mcpcli's own file ` + f + `; mcpcli only edits its own file, so remove it there with Claude Code (claude mcp remove) or by editing that file`; errString(err) != want {
		t.Errorf("Remove(team) error\n got: %v\nwant: %s", err, want)
	}
	if err := c.Remove("desk"); errString(err) != `server "desk" is defined in `+desktop+` (Claude Desktop's config), not in mcpcli's own file `+f+`; mcpcli only edits its own file, so remove it there with Claude Desktop or by editing that file` {
		t.Errorf("Remove(desk) error = %v", err)
	}
	if err := c.Remove("nobody"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Remove(nobody) error = %v; want ErrNotFound", err)
	}
	// A name in mcpcli's file is removed from it, even when a project
	// file shadows it.
	if err := c.Remove("both"); err != nil {
		t.Errorf("Remove(both): %v", err)
	}
	if err := c.Remove("mine"); err != nil {
		t.Errorf("Remove(mine): %v", err)
	}
	if got, want := m.read(f), "{\n  \"mcpServers\": {}\n}\n"; got != want {
		t.Errorf("the file after removing everything = %q, want %q", got, want)
	}
	for _, p := range []string{proj, desktop} {
		if got := m.read(p); !strings.Contains(got, `"command"`) {
			t.Errorf("Remove changed %s: %s", p, got)
		}
	}
}

func TestRemoveWithoutAFile(t *testing.T) {
	m := newMachine(t)
	if err := m.load().Remove("x"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Remove(x) with no files error = %v; want ErrNotFound", err)
	}
	if _, err := os.Stat(m.userFile()); err == nil {
		t.Errorf("Remove created %s", m.userFile())
	}
}

func TestCheckName(t *testing.T) {
	for _, tt := range []struct{ name, want string }{
		{"github", ""},
		{"my_server-2.0", ""},
		{"サーバー", ""},
		{"", "a server name cannot be empty"},
		{"a\tb", `server name "a\tb" has whitespace in it; use - or _ instead, like "a-b"`},
		{"a\u00a0b", `server name "a\u00a0b" has whitespace in it; use - or _ instead, like "a-b"`},
		{"a\u200bb", `server name "a\u200bb" has a control or invisible character in it (U+200B); use letters, digits, - or _`},
		{"a\u009bb", `server name "a\u009bb" has a control or invisible character in it (U+009B); use letters, digits, - or _`},
	} {
		if got := errString(CheckName(tt.name)); got != tt.want {
			t.Errorf("CheckName(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}
