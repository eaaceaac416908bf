package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestUserSourcesByOS(t *testing.T) {
	tests := []struct {
		name string
		os   string
		env  map[string]string
		want []Source // "~/" and "R/" are the home and the machine root
	}{
		{"linux", "linux", nil, []Source{
			{Kind: KindMcpcli, Path: "~/.config/mcpcli/servers.json"},
			{Kind: KindClaudeDesktop, Path: "~/.config/Claude/claude_desktop_config.json"},
			{Kind: KindClaudeLocal, Path: "~/.claude.json", Project: "DIR"},
			{Kind: KindClaudeUser, Path: "~/.claude.json"},
			{Kind: KindCursorUser, Path: "~/.cursor/mcp.json"},
		}},
		{"linux with XDG_CONFIG_HOME and CLAUDE_CONFIG_DIR", "linux", map[string]string{"XDG_CONFIG_HOME": "R/xdg", "CLAUDE_CONFIG_DIR": "R/claude"}, []Source{
			{Kind: KindMcpcli, Path: "R/xdg/mcpcli/servers.json"},
			{Kind: KindClaudeDesktop, Path: "R/xdg/Claude/claude_desktop_config.json"},
			{Kind: KindClaudeLocal, Path: "R/claude/.claude.json", Project: "DIR"},
			{Kind: KindClaudeUser, Path: "R/claude/.claude.json"},
			{Kind: KindCursorUser, Path: "~/.cursor/mcp.json"},
		}},
		{"a relative XDG_CONFIG_HOME is ignored, as the spec says", "linux", map[string]string{"XDG_CONFIG_HOME": "xdg"}, []Source{
			{Kind: KindMcpcli, Path: "~/.config/mcpcli/servers.json"},
			{Kind: KindClaudeDesktop, Path: "~/.config/Claude/claude_desktop_config.json"},
			{Kind: KindClaudeLocal, Path: "~/.claude.json", Project: "DIR"},
			{Kind: KindClaudeUser, Path: "~/.claude.json"},
			{Kind: KindCursorUser, Path: "~/.cursor/mcp.json"},
		}},
		{"macOS", "darwin", nil, []Source{
			{Kind: KindMcpcli, Path: "~/.config/mcpcli/servers.json"},
			{Kind: KindClaudeDesktop, Path: "~/Library/Application Support/Claude/claude_desktop_config.json"},
			{Kind: KindClaudeLocal, Path: "~/.claude.json", Project: "DIR"},
			{Kind: KindClaudeUser, Path: "~/.claude.json"},
			{Kind: KindCursorUser, Path: "~/.cursor/mcp.json"},
		}},
		{"Windows with APPDATA", "windows", map[string]string{"APPDATA": "R/roaming"}, []Source{
			{Kind: KindMcpcli, Path: "R/roaming/mcpcli/servers.json"},
			{Kind: KindClaudeDesktop, Path: "R/roaming/Claude/claude_desktop_config.json"},
			{Kind: KindClaudeLocal, Path: "~/.claude.json", Project: "DIR"},
			{Kind: KindClaudeUser, Path: "~/.claude.json"},
			{Kind: KindCursorUser, Path: "~/.cursor/mcp.json"},
		}},
		{"Windows without APPDATA", "windows", nil, []Source{
			{Kind: KindMcpcli, Path: "~/AppData/Roaming/mcpcli/servers.json"},
			{Kind: KindClaudeDesktop, Path: "~/AppData/Roaming/Claude/claude_desktop_config.json"},
			{Kind: KindClaudeLocal, Path: "~/.claude.json", Project: "DIR"},
			{Kind: KindClaudeUser, Path: "~/.claude.json"},
			{Kind: KindCursorUser, Path: "~/.cursor/mcp.json"},
		}},
		{"Windows with XDG_CONFIG_HOME keeps mcpcli's file there", "windows", map[string]string{"XDG_CONFIG_HOME": "R/xdg", "APPDATA": "R/roaming"}, []Source{
			{Kind: KindMcpcli, Path: "R/xdg/mcpcli/servers.json"},
			{Kind: KindClaudeDesktop, Path: "R/roaming/Claude/claude_desktop_config.json"},
			{Kind: KindClaudeLocal, Path: "~/.claude.json", Project: "DIR"},
			{Kind: KindClaudeUser, Path: "~/.claude.json"},
			{Kind: KindCursorUser, Path: "~/.cursor/mcp.json"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newMachine(t)
			m.os = tt.os
			expand := func(p string) string {
				if r, ok := strings.CutPrefix(p, "R/"); ok {
					return m.path(r)
				}
				if p == "DIR" {
					return m.dir
				}
				return m.path(p)
			}
			for k, v := range tt.env {
				if strings.HasPrefix(v, "R/") {
					v = expand(v)
				}
				m.env[k] = v
			}
			var want []Source
			for _, s := range tt.want {
				s.Path = expand(s.Path)
				if s.Project != "" {
					s.Project = expand(s.Project)
				}
				want = append(want, s)
			}
			var got []Source
			for _, s := range m.load().Sources() {
				switch s.Kind {
				case KindClaudeProject, KindVSCode, KindCursorProject:
				default:
					got = append(got, s)
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Load(OS %s).Sources() user files (-want +got):\n%s", tt.os, diff)
			}
		})
	}
}

func TestProjectSearchGoesUpToTheRoot(t *testing.T) {
	m := newMachine(t)
	m.file = "../my.json"
	m.write("work/proj/my.json", `{}`)
	srcs := m.load().Sources()
	want := []Source{{Kind: KindExplicit, Path: m.path("work/proj/my.json")}}
	for _, d := range []string{"work/proj/sub", "work/proj", "work"} {
		want = append(want,
			Source{Kind: KindClaudeProject, Path: m.path(d + "/.mcp.json")},
			Source{Kind: KindVSCode, Path: m.path(d + "/.vscode/mcp.json")},
			Source{Kind: KindCursorProject, Path: m.path(d + "/.cursor/mcp.json")})
	}
	if diff := cmp.Diff(want, srcs[:len(want)]); diff != "" {
		t.Errorf("Sources() first entries (-want +got):\n%s", diff)
	}
	// The search goes on past the temporary directory to the filesystem's
	// root, and mcpcli's own file comes right after it.
	var last Source
	for _, s := range srcs {
		if s.Kind == KindMcpcli {
			break
		}
		last = s
	}
	if root := filepath.Dir(filepath.Dir(last.Path)); filepath.Dir(root) != root {
		t.Errorf("Sources(): the last project file is %s; want one in the filesystem's root", last.Path)
	}
}

func TestHomeCursorFileKeepsItsPlace(t *testing.T) {
	m := newMachine(t)
	m.dir = m.home
	m.write("~/.cursor/mcp.json", `{"mcpServers": {"c": {"command": "cursor-server"}}}`)
	m.write("~/.config/mcpcli/servers.json", `{"mcpServers": {"c": {"command": "mine"}}}`)
	c := m.load()
	n := 0
	for _, s := range c.Sources() {
		if s.Path == m.path("~/.cursor/mcp.json") {
			n++
			if s.Kind != KindCursorUser {
				t.Errorf("Sources(): %s is read as %s; want %s", s.Path, s.Kind, KindCursorUser)
			}
		}
	}
	if n != 1 {
		t.Errorf("Sources() lists ~/.cursor/mcp.json %d times; want once", n)
	}
	if srv, err := c.Server("c"); err != nil || srv.Command != "mine" {
		t.Errorf("Server(%q) = %+v, %v; want mcpcli's own file to win over Cursor's user file", "c", srv, err)
	}
}

// TestShapes reads one server from each tool's file, in that tool's shape.
func TestShapes(t *testing.T) {
	tests := []struct {
		name  string
		os    string
		env   map[string]string
		files map[string]string // relative to the machine root ("~/" for home)
		file  string            // --config
		want  Server            // Source.Path relative like files; "DIR" is the working directory
	}{
		{
			name: "Claude Desktop on Linux",
			files: map[string]string{"~/.config/Claude/claude_desktop_config.json": `{
				"globalShortcut": "Ctrl+Space",
				"mcpServers": {"fs": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"], "env": {"DEBUG": "1", "PORT": 8080}}}
			}`},
			want: Server{Name: "fs", Source: Source{Kind: KindClaudeDesktop, Path: "~/.config/Claude/claude_desktop_config.json"}, Transport: Stdio,
				Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-filesystem", "/tmp"}, Env: map[string]string{"DEBUG": "1", "PORT": "8080"}},
		},
		{
			name:  "Claude Desktop on macOS",
			os:    "darwin",
			files: map[string]string{"~/Library/Application Support/Claude/claude_desktop_config.json": `{"mcpServers": {"fs": {"command": "uvx", "args": ["mcp-server-git"]}}}`},
			want: Server{Name: "fs", Source: Source{Kind: KindClaudeDesktop, Path: "~/Library/Application Support/Claude/claude_desktop_config.json"}, Transport: Stdio,
				Command: "uvx", Args: []string{"mcp-server-git"}, Env: map[string]string{}},
		},
		{
			name:  "Claude Desktop on Windows",
			os:    "windows",
			env:   map[string]string{"APPDATA": "R/AppData/Roaming"},
			files: map[string]string{"AppData/Roaming/Claude/claude_desktop_config.json": `{"mcpServers": {"fs": {"command": "node.exe", "args": ["C:\\srv\\index.js"]}}}`},
			want: Server{Name: "fs", Source: Source{Kind: KindClaudeDesktop, Path: "AppData/Roaming/Claude/claude_desktop_config.json"}, Transport: Stdio,
				Command: "node.exe", Args: []string{`C:\srv\index.js`}, Env: map[string]string{}},
		},
		{
			name: "Claude Code user servers in ~/.claude.json",
			env:  map[string]string{"NOTION_TOKEN": "n-123"},
			files: map[string]string{"~/.claude.json": `{"numStartups": 12, "projects": {"/elsewhere": {"mcpServers": {"notion": {"command": "wrong"}}}},
				"mcpServers": {"notion": {"type": "http", "url": "https://mcp.notion.com/mcp", "headers": {"Authorization": "Bearer ${NOTION_TOKEN}"}}}}`},
			want: Server{Name: "notion", Source: Source{Kind: KindClaudeUser, Path: "~/.claude.json"}, Transport: HTTP,
				URL: "https://mcp.notion.com/mcp", Headers: map[string]string{"Authorization": "Bearer n-123"}},
		},
		{
			name: "Claude Code's servers for this directory win over its user servers",
			files: map[string]string{"~/.claude.json": `{"projects": {"DIR": {"allowedTools": [], "mcpServers": {"db": {"type": "stdio", "command": "pg-mcp", "args": [], "env": {}}}}},
				"mcpServers": {"db": {"command": "wrong"}}}`},
			want: Server{Name: "db", Source: Source{Kind: KindClaudeLocal, Path: "~/.claude.json", Project: "DIR"}, Transport: Stdio,
				Command: "pg-mcp", Args: nil, Env: map[string]string{}, Others: []Other{{Source: Source{Kind: KindClaudeUser, Path: "~/.claude.json"}}}},
		},
		{
			name:  "Claude Code project file .mcp.json, found from a subdirectory",
			files: map[string]string{"work/proj/.mcp.json": `{"mcpServers": {"events": {"type": "sse", "url": "https://api.example.com/sse", "headers": {"X-API-Key": "${API_KEY:-dev}"}}}}`},
			want: Server{Name: "events", Source: Source{Kind: KindClaudeProject, Path: "work/proj/.mcp.json"}, Transport: SSE,
				URL: "https://api.example.com/sse", Headers: map[string]string{"X-API-Key": "dev"}},
		},
		{
			name: "VS Code workspace file with comments, inputs and ${workspaceFolder}",
			files: map[string]string{"work/proj/.vscode/mcp.json": `{
				// VS Code's file is JSON with comments
				"inputs": [{"type": "promptString", "id": "token", "description": "GitHub token", "password": true}],
				"servers": {
					"gh": {"type": "stdio", "command": "${workspaceFolder}/bin/gh-mcp", "env": {"TOKEN": "${input:token}", "HOME_DIR": "${env:HOME_DIR:-none}"}, "dev": {"watch": "src/**"}},
				},
			}`},
			want: Server{Name: "gh", Source: Source{Kind: KindVSCode, Path: "work/proj/.vscode/mcp.json"}, Transport: Stdio,
				Command: "R/work/proj/bin/gh-mcp", Env: map[string]string{"TOKEN": "answer to token", "HOME_DIR": "none"}},
		},
		{
			name:  "Cursor project file with only a url",
			files: map[string]string{"work/.cursor/mcp.json": `{"mcpServers": {"docs": {"url": "https://docs.example.com/mcp"}}}`},
			want:  Server{Name: "docs", Source: Source{Kind: KindCursorProject, Path: "work/.cursor/mcp.json"}, Transport: HTTP, URL: "https://docs.example.com/mcp"},
		},
		{
			name:  "Cursor user file with serverUrl and streamable-http",
			files: map[string]string{"~/.cursor/mcp.json": `{"mcpServers": {"docs": {"type": "streamable-http", "serverUrl": "https://docs.example.com/mcp"}}}`},
			want:  Server{Name: "docs", Source: Source{Kind: KindCursorUser, Path: "~/.cursor/mcp.json"}, Transport: HTTP, URL: "https://docs.example.com/mcp"},
		},
		{
			name: "mcpcli's own file with OAuth",
			env:  map[string]string{"LINEAR_SECRET": "s3cret"},
			files: map[string]string{"~/.config/mcpcli/servers.json": `{"mcpServers": {"linear": {"type": "streamableHttp", "url": "https://mcp.linear.app/mcp",
				"oauth": {"clientId": "abc", "clientSecretEnv": "LINEAR_SECRET", "scopes": "read write", "callbackPort": 33418}}}}`},
			want: Server{Name: "linear", Source: Source{Kind: KindMcpcli, Path: "~/.config/mcpcli/servers.json"}, Transport: HTTP, URL: "https://mcp.linear.app/mcp",
				OAuth: &OAuth{ClientID: "abc", ClientSecretEnv: "LINEAR_SECRET", ClientSecret: "s3cret", Scopes: []string{"read", "write"}, CallbackPort: 33418}},
		},
		{
			name:  "a --config file in VS Code's shape",
			file:  "../../team.json",
			files: map[string]string{"work/team.json": `{"servers": {"t": {"command": "./t", "cwd": "tools", "envFile": ".env"}}}`, "work/.env": "A=1\n"},
			want: Server{Name: "t", Source: Source{Kind: KindExplicit, Path: "work/team.json"}, Transport: Stdio,
				Command: "./t", Cwd: "R/work/tools", Env: map[string]string{"A": "1"}},
		},
		{
			name:  "a UTF-8 byte-order mark is accepted",
			files: map[string]string{"work/proj/sub/.mcp.json": "\uFEFF" + `{"mcpServers": {"b": {"command": "bom"}}}`},
			want:  Server{Name: "b", Source: Source{Kind: KindClaudeProject, Path: "work/proj/sub/.mcp.json"}, Transport: Stdio, Command: "bom", Env: map[string]string{}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newMachine(t)
			if tt.os != "" {
				m.os = tt.os
			}
			m.file = tt.file
			m.ask = func(in Input) (string, error) { return "answer to " + in.ID, nil }
			fix := func(s string) string {
				s = strings.ReplaceAll(s, "DIR", m.dir)
				return strings.ReplaceAll(s, "R/", m.root+"/")
			}
			for k, v := range tt.env {
				m.env[k] = fix(v)
			}
			for rel, content := range tt.files {
				m.write(rel, strings.ReplaceAll(content, `"DIR"`, quote(m.dir)))
			}
			want := tt.want
			want.Source.Path = m.path(want.Source.Path)
			want.Source.Project = fix(want.Source.Project)
			want.Command = fix(want.Command)
			want.Cwd = fix(want.Cwd)
			for i := range want.Others {
				want.Others[i].Source.Path = m.path(want.Others[i].Source.Path)
			}
			if want.Source.Kind.Project() {
				want.Trust = TrustedForRun // the machine trusts project files
			}
			got, err := m.load().Server(tt.want.Name)
			if err != nil {
				t.Fatalf("Server(%q): %v", tt.want.Name, err)
			}
			if diff := cmp.Diff(&want, got); diff != "" {
				t.Errorf("Server(%q) (-want +got):\n%s", tt.want.Name, diff)
			}
		})
	}
}

func TestPrecedence(t *testing.T) {
	m := newMachine(t)
	m.file = "team.json"
	files := []struct {
		rel  string
		kind Kind
	}{
		{"work/proj/sub/team.json", KindExplicit},
		{"work/proj/sub/.mcp.json", KindClaudeProject},
		{"work/proj/sub/.vscode/mcp.json", KindVSCode},
		{"work/proj/sub/.cursor/mcp.json", KindCursorProject},
		{"work/proj/.mcp.json", KindClaudeProject},
		{"~/.config/mcpcli/servers.json", KindMcpcli},
		{"~/.config/Claude/claude_desktop_config.json", KindClaudeDesktop},
		{"~/.cursor/mcp.json", KindCursorUser},
	}
	// Each file defines "all" and one name of its own that only it and
	// the files after it define.
	for i, f := range files {
		key := "mcpServers"
		if f.kind == KindVSCode {
			key = "servers"
		}
		body := `"all": {"command": "` + f.rel + `"}`
		for _, g := range files[:i+1] {
			body += `, "from-` + g.rel + `": {"command": "` + f.rel + `"}`
		}
		m.write(f.rel, `{"`+key+`": {`+body+`}}`)
	}
	m.write("~/.claude.json", `{"projects": {`+quote(m.dir)+`: {"mcpServers": {"all": {"command": "claude-local"}}}}, "mcpServers": {"all": {"command": "claude-user"}, "only-claude": {"command": "claude-user"}}}`)
	c := m.load()
	for i, f := range files {
		name := "from-" + f.rel
		srv, err := c.Server(name)
		if err != nil {
			t.Errorf("Server(%q): %v", name, err)
			continue
		}
		if srv.Command != f.rel || srv.Source.Kind != f.kind {
			t.Errorf("Server(%q) comes from %s (%s); want %s, the first of %d files defining it", name, srv.Command, srv.Source.Kind, f.rel, len(files)-i)
		}
	}
	if srv, err := c.Server("only-claude"); err != nil || srv.Source.Kind != KindClaudeUser {
		t.Errorf("Server(%q) = %+v, %v; want Claude Code's user server", "only-claude", srv, err)
	}

	list, problems := c.List()
	if len(problems) > 0 {
		t.Errorf("List() problems: %v", problems)
	}
	var got []string
	for _, l := range list {
		if l.Name == "all" {
			got = append(got, string(l.Source.Kind)+" shadowed="+map[bool]string{true: "yes", false: "no"}[l.Shadowed])
		}
	}
	want := []string{
		"config shadowed=no", "claude-code-project shadowed=yes", "vscode shadowed=yes", "cursor-project shadowed=yes",
		"claude-code-project shadowed=yes", "mcpcli shadowed=yes", "claude-desktop shadowed=yes",
		"claude-code-local shadowed=yes", "claude-code-user shadowed=yes", "cursor-user shadowed=yes",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("List() definitions of %q, in order (-want +got):\n%s", "all", diff)
	}
}

func TestList(t *testing.T) {
	m := newMachine(t)
	m.write("work/proj/.mcp.json", `{"mcpServers": {
		"zeta": {"command": "z", "args": ["a b", "c"]},
		"broken": {"command": "x", "url": "http://x"},
		"alpha": {"url": "https://a.example/mcp"}
	}}`)
	m.write("~/.config/mcpcli/servers.json", `{"mcpServers": {"alpha": {"command": "mine"}}}`)
	m.write("~/.config/Claude/claude_desktop_config.json", `{"mcpServers": {"x": }`)
	list, problems := m.load().List()
	type row struct {
		Name, Kind, Transport, Target string
		Shadowed                      bool
		Err                           string
	}
	var got []row
	for _, l := range list {
		if strings.HasPrefix(l.Source.Path, m.root) {
			got = append(got, row{l.Name, string(l.Source.Kind), string(l.Transport), l.Target, l.Shadowed, errString(l.Err)})
		}
	}
	proj := m.path("work/proj/.mcp.json")
	want := []row{
		{"alpha", "claude-code-project", "http", "https://a.example/mcp", false, ""},
		{"alpha", "mcpcli", "stdio", "mine", true, ""},
		{"broken", "claude-code-project", "", "", false, `server "broken" in ` + proj + `:3:37: has both "command" and "url"; a server is either a command to start (stdio) or a URL (http, sse): remove one`},
		{"zeta", "claude-code-project", "stdio", `z "a b" c`, false, ""},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("List() (-want +got):\n%s", diff)
	}
	var ps []string
	for _, p := range problems {
		ps = append(ps, p.Error())
	}
	wantP := []string{m.path("~/.config/Claude/claude_desktop_config.json") + `:1:22: invalid JSON: '}' where a value should be`}
	if diff := cmp.Diff(wantP, ps); diff != "" {
		t.Errorf("List() problems (-want +got):\n%s", diff)
	}
}

func TestLookupIsLazy(t *testing.T) {
	m := newMachine(t)
	m.write("work/proj/.mcp.json", `{"mcpServers": {"good": {"command": "ok"}, "bad": {"command": "${NOPE}"}, "shape": {"args": 1}}}`)
	m.write("~/.config/Claude/claude_desktop_config.json", `not json`)
	m.write("~/.config/mcpcli/servers.json", `{"mcpServers": {"mine": {"command": "mine"}}}`)
	c := m.load()
	if _, err := c.Server("good"); err != nil {
		t.Errorf("Server(%q): %v; want a broken neighbour and a broken later file not to matter", "good", err)
	}
	if _, err := c.Server("mine"); err != nil {
		t.Errorf("Server(%q): %v; want a broken later file not to matter", "mine", err)
	}
	// A name found nowhere before the broken file cannot be resolved: the
	// broken file might define it.
	_, err := c.Server("unknown")
	if want := m.path("~/.config/Claude/claude_desktop_config.json") + `:1:1: invalid JSON: 'n' where a value should be`; errString(err) != want {
		t.Errorf("Server(%q) error = %v; want %s", "unknown", err, want)
	}
}

func TestNotFound(t *testing.T) {
	m := newMachine(t)
	c := m.load()
	_, err := c.Server("nope")
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("Server(%q) error = %v; want ErrNotFound", "nope", err)
	}
	var nf *NotFoundError
	if !errors.As(err, &nf) || len(nf.Searched) != len(c.Sources()) {
		t.Errorf("Server(%q) error = %#v; want a NotFoundError listing the %d files searched", "nope", err, len(c.Sources()))
	}
}

func TestLoadNeedsTheExplicitFile(t *testing.T) {
	m := newMachine(t)
	m.file = "missing.json"
	if _, err := Load(m.options()); err == nil || !strings.Contains(err.Error(), "missing.json") {
		t.Errorf("Load(File: missing.json) error = %v; want it to name the missing file", err)
	}
	m.file = m.write("bad.json", `{"mcpServers": [}`)
	if _, err := Load(m.options()); errString(err) != m.file+`:1:17: invalid JSON: '}' where a value should be` {
		t.Errorf("Load(File: bad.json) error = %v", err)
	}
	if _, err := Load(Options{OS: "linux", Home: "/h", Dir: "relative"}); err == nil {
		t.Errorf("Load(Dir: relative) error = nil; want one")
	}
}

// TestFileErrors checks what a bad file or a bad entry says.
func TestFileErrors(t *testing.T) {
	tests := []struct {
		name    string
		content string
		want    string // F: stands for the file and its colon
	}{
		{"invalid JSON", "{\n  \"mcpServers\": {\n    \"x\": {\"command\": \"a\",}\n  }\n}", `F:3:26: invalid JSON: '}' where a key in double quotes should be (is there a comma too many?)`},
		{"unclosed object", `{"mcpServers": {"x": {"command": "a"}}`, `F:1:39: invalid JSON: the end of the file where , or } should be, after the value of "mcpServers"`},
		{"comments are VS Code's only", `{"mcpServers": {} // none yet` + "\n}", `F:1:19: invalid JSON: '/' where , or } should be, after the value of "mcpServers"`},
		{"invalid UTF-8", "{\"mcpServers\": {\"x\": {\"command\": \"a\xff\"}}}", `F:1:36: invalid UTF-8 (byte 0xff); save the file as UTF-8`},
		{"control character in a string", "{\"mcpServers\": {\"x\": {\"command\": \"a\tb\"}}}", `F:1:36: invalid JSON: control character '\t' inside a string; write it as an escape like \n or \u0009`},
		{"not an object", `["x"]`, `F:1:1: must hold a JSON object, like {"mcpServers": {...}}, not an array`},
		{"mcpServers is an array", `{"mcpServers": []}`, `F:1:16: "mcpServers" must be an object, not an array`},
		{"mcpServers twice", `{"mcpServers": {}, "mcpServers": {"x": {"command": "a"}}}`, `F:1:20: the key "mcpServers" appears 2 times (lines 1, 1); keep one, so the file means one thing`},
		{"a server twice", "{\"mcpServers\": {\n\"x\": {\"command\": \"a\"},\n\"x\": {\"command\": \"b\"}}}", `server "x" in F:3:1: is defined 2 times (lines 2, 3); keep one, so the file means one thing`},
		{"a field twice", `{"mcpServers": {"x": {"command": "a", "command": "b"}}}`, `server "x" in F:1:39: the key "command" appears twice; keep one, so the file means one thing`},
		{"an env name twice", `{"mcpServers": {"x": {"command": "a", "env": {"A": "1", "A": "2"}}}}`, `server "x" in F:1:57: the key "A" appears twice in "env"; keep one, so the file means one thing`},
		{"entry not an object", `{"mcpServers": {"x": "npx server"}}`, `server "x" in F:1:22: must be an object like {"command": ...} or {"url": ...}, not a string`},
		{"args a string", `{"mcpServers": {"x": {"command": "a", "args": "-y pkg"}}}`, `server "x" in F:1:47: "args" must be an array of strings, not a string`},
		{"args with a number", `{"mcpServers": {"x": {"command": "a", "args": ["--port", 80]}}}`, `server "x" in F:1:58: "args" must be an array of strings; "args"[1] is a number`},
		{"command a number", `{"mcpServers": {"x": {"command": 1}}}`, `server "x" in F:1:34: "command" must be a string, not a number`},
		{"env a boolean", `{"mcpServers": {"x": {"command": "a", "env": {"DEBUG": true}}}}`, `server "x" in F:1:56: "env" value for "DEBUG" must be a string, not a boolean`},
		{"env an array", `{"mcpServers": {"x": {"command": "a", "env": ["A=1"]}}}`, `server "x" in F:1:46: "env" must be an object of strings, like {"NAME": "value"}, not an array`},
		{"env name with =", `{"mcpServers": {"x": {"command": "a", "env": {"A=B": "1"}}}}`, `server "x" in F:1:47: "env" has the variable name "A=B"; a name cannot be empty or hold = or NUL`},
		{"headers with a number", `{"mcpServers": {"x": {"url": "https://h", "headers": {"X-N": 1}}}}`, `server "x" in F:1:62: "headers" value for "X-N" must be a string, not a number`},
		{"bad header name", `{"mcpServers": {"x": {"url": "https://h", "headers": {"Bad Name": "v"}}}}`, `server "x" in F:1:55: "headers" has "Bad Name", which is not a valid header name`},
		{"both command and url", `{"mcpServers": {"x": {"command": "a", "url": "https://h"}}}`, `server "x" in F:1:46: has both "command" and "url"; a server is either a command to start (stdio) or a URL (http, sse): remove one`},
		{"both url and serverUrl", `{"mcpServers": {"x": {"url": "https://h", "serverUrl": "https://i"}}}`, `server "x" in F:1:56: has both "url" and "serverUrl"; keep one`},
		{"neither", `{"mcpServers": {"x": {"disabled": false}}}`, `server "x" in F:1:22: has neither "command" nor "url"; give a command to start (stdio) or the URL of a remote server (http, sse)`},
		{"empty command", `{"mcpServers": {"x": {"command": ""}}}`, `server "x" in F:1:34: "command" is empty; give the program to start`},
		{"unknown type", `{"mcpServers": {"x": {"type": "ws", "url": "wss://h"}}}`, `server "x" in F:1:31: "type" "ws" is not one mcpcli speaks: use "stdio", "http" (Streamable HTTP) or "sse"`},
		{"stdio with a url", `{"mcpServers": {"x": {"type": "stdio", "url": "https://h"}}}`, `server "x" in F:1:31: "type" is "stdio" but the entry has "url", not "command"; make it "http" or "sse", or give a command`},
		{"http with a command", `{"mcpServers": {"x": {"type": "http", "command": "a"}}}`, `server "x" in F:1:31: "type" is "http" but the entry has "command", not "url"; make it "stdio", or give a URL`},
		{"headers on stdio", `{"mcpServers": {"x": {"command": "a", "headers": {"A": "b"}}}}`, `server "x" in F:1:50: "headers" apply to http and sse servers; this one is a command (stdio): use "env"`},
		{"env on a url", `{"mcpServers": {"x": {"url": "https://h", "env": {"A": "b"}}}}`, `server "x" in F:1:50: "env" applies to servers started from a command (stdio); this one is a URL (http)`},
		{"oauth on stdio", `{"mcpServers": {"x": {"command": "a", "oauth": {}}}}`, `server "x" in F:1:48: "oauth" applies to http and sse servers; this one is a command (stdio)`},
		{"oauth unknown key", `{"mcpServers": {"x": {"url": "https://h", "oauth": {"clientID": "a"}}}}`, `server "x" in F:1:53: "oauth" has the unknown key "clientID"; mcpcli knows clientId, clientSecretEnv, clientMetadataUrl, scopes, callbackPort, authServerMetadataUrl`},
		{"oauth secret in the file", `{"mcpServers": {"x": {"url": "https://h", "oauth": {"clientId": "a", "clientSecret": "s"}}}}`, `server "x" in F:1:70: "oauth"."clientSecret" is not read from a file: put the secret in an environment variable and name it with "clientSecretEnv"`},
		{"oauth secret without a client", `{"mcpServers": {"x": {"url": "https://h", "oauth": {"clientSecretEnv": "S"}}}}`, `server "x" in F:1:52: "oauth" has "clientSecretEnv" but no "clientId"; a secret belongs to a client ID`},
		{"oauth bad port", `{"mcpServers": {"x": {"url": "https://h", "oauth": {"callbackPort": 70000}}}}`, `server "x" in F:1:69: "oauth"."callbackPort" must be a port number from 1 to 65535`},
		{"oauth scopes of numbers", `{"mcpServers": {"x": {"url": "https://h", "oauth": {"scopes": [1]}}}}`, `server "x" in F:1:64: "oauth"."scopes"[0] must be a string, not a number`},
		{"a name with an escape sequence", `{"mcpServers": {"x\u001b[31m": {"command": "a"}}}`, `server "x\x1b[31m" in F:1:17: the name has a control or invisible character in it (U+001B); rename it`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newMachine(t)
			f := m.write("work/proj/sub/.mcp.json", tt.content)
			name := "x"
			if strings.Contains(tt.content, `x\u001b`) {
				name = "x\x1b[31m"
			}
			_, err := m.load().Server(name)
			want := strings.ReplaceAll(tt.want, "F:", f+":")
			if got := errString(err); got != want {
				t.Errorf("Server(%q) error\n got: %s\nwant: %s", name, got, want)
			}
			if strings.ContainsAny(errString(err), "\n\x1b") {
				t.Errorf("Server(%q) error %q is not one inert line", name, errString(err))
			}
		})
	}
}

func TestEmptyFileDefinesNothing(t *testing.T) {
	m := newMachine(t)
	m.write("work/proj/.mcp.json", " \n")
	m.write("~/.config/mcpcli/servers.json", `{"mcpServers": {"x": {"command": "a"}}}`)
	if srv, err := m.load().Server("x"); err != nil || srv.Command != "a" {
		t.Errorf("Server(%q) = %+v, %v; want an empty .mcp.json to define nothing", "x", srv, err)
	}
}

func TestClaudeCodeProjectKeyOnWindows(t *testing.T) {
	m := newMachine(t)
	m.os = "windows"
	m.dir = `C:\Users\ada\proj`
	if filepath.Separator == '/' {
		// filepath.IsAbs is the host's: give the fake Windows directory an
		// absolute form here, keeping its backslashes.
		m.dir = "/" + m.dir
	}
	slashed := strings.ReplaceAll(m.dir, `\`, "/")
	m.write("~/.claude.json", `{"projects": {`+quote(slashed)+`: {"mcpServers": {"w": {"command": "win"}}}}}`)
	srv, err := m.load().Server("w")
	if err != nil || srv.Command != "win" || srv.Source.Project != slashed {
		t.Errorf("Server(%q) = %+v, %v; want the project filed under %q", "w", srv, err, slashed)
	}
}

func TestTrustSkipsProjectFiles(t *testing.T) {
	m := newMachine(t)
	planted := m.write("work/.mcp.json", `{"mcpServers": {"github": {"command": "evil"}}}`)
	m.write("~/.config/mcpcli/servers.json", `{"mcpServers": {"github": {"command": "mine"}}}`)
	m.write("~/.cursor/mcp.json", `{"mcpServers": {"c": {"command": "c"}}}`)
	var asked []string
	opts := m.options()
	opts.Owner = func(path string, _ fs.FileInfo) error {
		asked = append(asked, path)
		if path == planted {
			return errors.New("it belongs to another user (uid 1001), not to you (uid 1000)")
		}
		return nil
	}
	c, err := Load(opts)
	if err != nil {
		t.Fatal(err)
	}
	if srv, err := c.Server("github"); err != nil || srv.Command != "mine" {
		t.Errorf("Server(github) = %+v, %v; want the distrusted project file skipped", srv, err)
	}
	_, problems := c.List()
	var got []string
	for _, p := range problems {
		got = append(got, p.Error())
	}
	want := []string{planted + ": skipped: it belongs to another user (uid 1001), not to you (uid 1000); a project file can start commands, so if you trust it, pass it with --config"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("List() problems (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{planted}, asked); diff != "" {
		t.Errorf("Owner was asked about (-want +got):\n%s\nwant only project files that exist", diff)
	}

	// Named with --config, the same file is the user's choice.
	opts.File = planted
	asked = nil
	c, err = Load(opts)
	if err != nil {
		t.Fatal(err)
	}
	if srv, err := c.Server("github"); err != nil || srv.Command != "evil" {
		t.Errorf("Server(github) with --config %s = %+v, %v; want the file given", planted, srv, err)
	}
}

func TestOwnedBy(t *testing.T) {
	trust := ownedBy(os.Getuid())
	if trust == nil {
		t.Skip("no file owners to check on this system")
	}
	m := newMachine(t)
	f := m.write("mine.json", `{}`)
	info, err := os.Stat(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := trust(f, info); err != nil {
		t.Errorf("ownedBy(my uid)(my file) = %v; want nil", err)
	}
	// A file of another user: as root, give it away; otherwise ask as
	// someone else.
	owner, me := os.Getuid(), os.Getuid()+1
	if os.Getuid() == 0 {
		owner, me = 4242, 0
		if err := os.Chown(f, owner, -1); err != nil {
			t.Fatal(err)
		}
		if info, err = os.Stat(f); err != nil {
			t.Fatal(err)
		}
	}
	want := fmt.Sprintf("it belongs to another user (uid %d), not to you (uid %d)", owner, me)
	if err := ownedBy(me)(f, info); errString(err) != want {
		t.Errorf("ownedBy(%d)(a file of uid %d) = %v; want %q", me, owner, err, want)
	}
	if root, err := os.Stat("/"); err == nil {
		if err := ownedBy(me)("/", root); err != nil {
			t.Errorf("ownedBy(%d)(/) = %v; want root's files trusted", me, err)
		}
	}
}

func TestAVSCodeFileIsNotADirectory(t *testing.T) {
	m := newMachine(t)
	m.write("work/proj/.vscode", "a file, not a directory")
	m.write("~/.config/mcpcli/servers.json", `{"mcpServers": {"x": {"command": "x"}}}`)
	if srv, err := m.load().Server("x"); err != nil || srv.Command != "x" {
		t.Errorf("Server(x) = %+v, %v; want a .vscode file to mean no .vscode/mcp.json", srv, err)
	}
}
