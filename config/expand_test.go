package config

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestExpand(t *testing.T) {
	env := map[string]string{"TOKEN": "t-1", "EMPTY": "", "A": "a", "WIN": "x"}
	tests := []struct {
		in, want string
		wantErr  string // F stands for the file
	}{
		{in: "plain", want: "plain"},
		{in: "${TOKEN}", want: "t-1"},
		{in: "Bearer ${TOKEN}!", want: "Bearer t-1!"},
		{in: "${EMPTY}", want: ""},
		{in: "${EMPTY:-fallback}", want: "fallback"},
		{in: "${UNSET:-fallback}", want: "fallback"},
		{in: "${UNSET:-}", want: ""},
		{in: "${UNSET:-a:-b}", want: "a:-b"},
		{in: "${TOKEN:-unused ${UNSET}}", want: "t-1"},
		{in: "${UNSET:-${A}-${TOKEN}}", want: "a-t-1"},
		{in: "${UNSET:-${ALSO_UNSET:-deep}}", want: "deep"},
		{in: "${env:TOKEN}", want: "t-1"},
		{in: "${env:UNSET:-d}", want: "d"},
		{in: "$${TOKEN}", want: "${TOKEN}"},
		{in: "${UNSET:-$${literal}}", want: "${literal}"},
		{in: "$HOME and $$ and $", want: "$HOME and $$ and $"},
		{in: "$$$${A}", want: "$$${A}"},
		{in: "${workspaceFolder}/x", want: "<W>/x"},
		{in: "${workspaceFolderBasename}", want: "proj"},
		{in: "${userHome}${/}${pathSeparator}", want: "<H>//"},
		{in: strings.Repeat("${U:-", 16) + "deep" + strings.Repeat("}", 16), want: "deep"},
		{in: strings.Repeat("${U:-", 17) + "deep" + strings.Repeat("}", 17), wantErr: `server "s" in F: "args"[0]: defaults are nested more than 16 deep`},
		{in: "${UNSET}", wantErr: `server "s" in F: ${UNSET} is not set; export it or give a default with ${UNSET:-value}`},
		{in: "${env:UNSET}", wantErr: `server "s" in F: ${env:UNSET} is not set; export it or give a default with ${env:UNSET:-value}`},
		{in: "${UNSET:-${ALSO}}", wantErr: `server "s" in F: ${ALSO} is not set; export it or give a default with ${ALSO:-value}`},
		{in: "x ${TOKEN", wantErr: `server "s" in F: "args"[0]: "x ${TOKEN" opens ${ and never closes it with }; write $${ for a literal ${`},
		{in: "${}", wantErr: `server "s" in F: "args"[0]: "${}" is not a variable name; write ${NAME} or ${NAME:-default}, and $${ for a literal ${`},
		{in: "${A B}", wantErr: `server "s" in F: "args"[0]: "${A B}" is not a variable name; write ${NAME} or ${NAME:-default}, and $${ for a literal ${`},
		{in: "${A\x1b}", wantErr: `server "s" in F: "args"[0]: "${A\x1b}" is not a variable name; write ${NAME} or ${NAME:-default}, and $${ for a literal ${`},
		{in: "${config:editor.tabSize}", wantErr: `server "s" in F: "args"[0]: ${config:...} is not something mcpcli expands; it knows ${VAR}, ${VAR:-default}, ${env:VAR}, ${input:ID}, ${workspaceFolder} and ${userHome}`},
		{in: "${input:key}", wantErr: `server "s" in F: ${input:key} is a VS Code input, and only .vscode/mcp.json or a --config file can define inputs; use ${NAME} with an environment variable instead`},
	}
	for _, tt := range tests {
		m := newMachine(t)
		m.env = env
		f := m.write("work/proj/.mcp.json", `{"mcpServers": {"s": {"command": "c", "args": [`+jsonString(t, tt.in)+`]}}}`)
		srv, err := m.load().Server("s")
		if tt.wantErr != "" {
			if want := strings.ReplaceAll(tt.wantErr, " F:", " "+f+":"); errString(err) != want {
				t.Errorf("expanding %q: error\n got: %v\nwant: %s", tt.in, err, want)
			}
			continue
		}
		if err != nil {
			t.Errorf("expanding %q: %v", tt.in, err)
			continue
		}
		want := strings.NewReplacer("<W>", m.path("work/proj"), "<H>", m.home).Replace(tt.want)
		if got := srv.Args[0]; got != want {
			t.Errorf("expanding %q = %q, want %q", tt.in, got, want)
		}
	}
}

func TestExpandEveryField(t *testing.T) {
	m := newMachine(t)
	m.env = map[string]string{"V": "v"}
	m.write("work/proj/.mcp.json", `{"mcpServers": {
		"cmd": {"command": "${V}/bin", "args": ["${V}"], "env": {"E": "${V}", "N": null}, "cwd": "${V}dir", "envFile": "${V}.env"},
		"web": {"url": "https://${V}.example/mcp", "headers": {"H": "x ${V}"}, "oauth": {"clientId": "${V}"}}
	}}`)
	m.write("work/proj/v.env", "F=from file\nE=overridden\nN=removed\n")
	c := m.load()
	cmd, err := c.Server("cmd")
	if err != nil {
		t.Fatalf("Server(%q): %v", "cmd", err)
	}
	want := &Server{Name: "cmd", Source: Source{Kind: KindClaudeProject, Path: m.path("work/proj/.mcp.json")}, Transport: Stdio,
		Command: "v/bin", Args: []string{"v"}, Env: map[string]string{"E": "v", "F": "from file"}, UnsetEnv: []string{"N"}, Cwd: m.path("work/proj/vdir"), Trust: TrustedForRun}
	if diff := cmp.Diff(want, cmd); diff != "" {
		t.Errorf("Server(%q) (-want +got):\n%s", "cmd", diff)
	}
	if got, want := cmd.Environ(), []string{"E=v", "F=from file"}; !cmp.Equal(got, want) {
		t.Errorf("Environ() = %q, want %q", got, want)
	}
	if got, want := cmd.Argv(), []string{"v/bin", "v"}; !cmp.Equal(got, want) {
		t.Errorf("Argv() = %q, want %q", got, want)
	}
	web, err := c.Server("web")
	if err != nil {
		t.Fatalf("Server(%q): %v", "web", err)
	}
	wantWeb := &Server{Name: "web", Source: want.Source, Transport: HTTP, URL: "https://v.example/mcp", Headers: map[string]string{"H": "x v"},
		OAuth: &OAuth{ClientID: "${V}"}, Trust: TrustedForRun} // oauth is not expanded
	if diff := cmp.Diff(wantWeb, web); diff != "" {
		t.Errorf("Server(%q) (-want +got):\n%s", "web", diff)
	}
}

func TestResolveErrors(t *testing.T) {
	tests := []struct {
		name, entry, want string
	}{
		{"command empty once expanded", `{"command": "${E:-}"}`, `server "s" in F: "command" "${E:-}" is empty once expanded; give the program to start`},
		{"url not http", `{"url": "${E:-ftp://h}"}`, `server "s" in F: "url" "ftp://h" must be a URL that starts with http:// or https:// and names a host`},
		{"url without a host", `{"url": "https:///mcp"}`, `server "s" in F: "url" "https:///mcp" must be a URL that starts with http:// or https:// and names a host`},
		{"header with a line break", `{"url": "https://h", "headers": {"A": "${NL}"}}`, `server "s" in F: "headers" value for "A" holds a line break or NUL once expanded; a header value must be one line`},
		{"secret env not set", `{"url": "https://h", "oauth": {"clientId": "c", "clientSecretEnv": "SECRET"}}`, `server "s" in F: "oauth"."clientSecretEnv" names "SECRET", which is not set; export it with the client secret`},
		{"envFile missing", `{"command": "c", "envFile": "nope.env"}`, `server "s" in F: "envFile": P/nope.env cannot be read: open P/nope.env: no such file or directory`},
		{"envFile broken", `{"command": "c", "envFile": "bad.env"}`, `server "s" in F: "envFile": P/bad.env:2: "oops" has no =; write NAME=value`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newMachine(t)
			m.env = map[string]string{"NL": "a\r\nb"}
			f := m.write("work/proj/.mcp.json", `{"mcpServers": {"s": `+tt.entry+`}}`)
			m.write("work/proj/bad.env", "A=1\noops\n")
			_, err := m.load().Server("s")
			want := strings.NewReplacer(" F:", " "+f+":", "P/", m.path("work/proj")+"/").Replace(tt.want)
			if errString(err) != want {
				t.Errorf("Server(%q) error\n got: %v\nwant: %s", "s", err, want)
			}
		})
	}
}

func TestInputs(t *testing.T) {
	m := newMachine(t)
	var asked []Input
	m.ask = func(in Input) (string, error) {
		asked = append(asked, in)
		if in.ID == "cancel" {
			return "", errCancelled
		}
		return "typed-" + in.ID, nil
	}
	f := m.write("work/proj/.vscode/mcp.json", `{
		"inputs": [
			{"type": "promptString", "id": "token", "description": "API token", "password": true},
			{"type": "promptString", "id": "region", "description": "Region", "default": "eu"},
			{"type": "pickString", "id": "pick", "options": ["a", "b"]},
			{"type": "promptString", "id": "twice"},
			{"type": "promptString", "id": "twice"},
			{"type": "promptString", "id": "cancel"},
			{"type": "promptString", "id": "badpw", "password": "yes"}
		],
		"servers": {
			"a": {"command": "a", "env": {"T": "${input:token}", "R": "${input:region}"}},
			"b": {"url": "https://h/${input:region}", "headers": {"Authorization": "Bearer ${input:token}"}},
			"pick": {"command": "${input:pick}"},
			"twice": {"command": "${input:twice}"},
			"cancel": {"command": "${input:cancel}"},
			"undefined": {"command": "${input:nope}"},
			"badpw": {"command": "${input:badpw}"}
		}
	}`)
	c := m.load()
	a, err := c.Server("a")
	if err != nil {
		t.Fatalf("Server(%q): %v", "a", err)
	}
	b, err := c.Server("b")
	if err != nil {
		t.Fatalf("Server(%q): %v", "b", err)
	}
	if a.Env["T"] != "typed-token" || b.Headers["Authorization"] != "Bearer typed-token" || b.URL != "https://h/typed-region" {
		t.Errorf("Server(a).Env = %v, Server(b) = %s %v; want the typed answers", a.Env, b.URL, b.Headers)
	}
	wantAsked := []Input{
		{ID: "region", Description: "Region", Default: "eu", Server: "a", File: f},
		{ID: "token", Description: "API token", Password: true, Server: "a", File: f},
	}
	if diff := cmp.Diff(wantAsked, asked); diff != "" {
		t.Errorf("Ask calls, each input once per run (-want +got):\n%s", diff)
	}

	for _, tt := range []struct{ server, want string }{
		{"pick", `server "pick" in F:5:13: input "pick" has "type" "pickString"; mcpcli only asks "promptString" inputs`},
		{"twice", `server "twice" in F:7:4: "inputs" defines "twice" twice; keep one`},
		{"undefined", `server "undefined" in F: ${input:nope} is not defined in the file's "inputs"; add {"id": "nope", "type": "promptString", "description": ...}`},
		{"badpw", `server "badpw" in F:9:56: input "badpw": "password" must be true or false, not a string`},
		{"cancel", `server "cancel" in F: asking for ${input:cancel}: cancelled`},
	} {
		_, err := c.Server(tt.server)
		if want := strings.ReplaceAll(tt.want, " F", " "+f); errString(err) != want {
			t.Errorf("Server(%q) error\n got: %v\nwant: %s", tt.server, err, want)
		}
	}
	if _, err := c.Server("cancel"); !errors.Is(err, errCancelled) {
		t.Errorf("Server(%q) error = %v; want it to wrap the Ask error", "cancel", err)
	}

	m.ask = nil
	_, err = m.load().Server("a")
	if want := `server "a" in ` + f + `: ${input:region} must be asked for, and mcpcli cannot ask here; set the value in the file, or use ${env:NAME} instead`; errString(err) != want {
		t.Errorf("Server(%q) without Ask: error\n got: %v\nwant: %s", "a", err, want)
	}
}

var errCancelled = errors.New("cancelled")

func TestInputsWithoutInputsArray(t *testing.T) {
	m := newMachine(t)
	m.ask = func(Input) (string, error) { return "x", nil }
	f := m.write("work/proj/.vscode/mcp.json", `{"servers": {"s": {"command": "${input:k}"}}}`)
	_, err := m.load().Server("s")
	if want := `server "s" in ` + f + `: ${input:k} is used, but the file has no "inputs" to define it; add {"id": "k", "type": "promptString", "description": ...} to "inputs"`; errString(err) != want {
		t.Errorf("Server(%q) error\n got: %v\nwant: %s", "s", err, want)
	}
}
