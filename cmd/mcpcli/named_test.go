package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/cobra"

	"github.com/mcpcli/mcpcli/config"
	"github.com/mcpcli/mcpcli/transport"
)

// namedDeps are the deps of a run in dir, whose stdin (a "terminal" when
// tty) holds in.
func namedDeps(t *testing.T, dir, in string, tty bool) (*Deps, *bytes.Buffer) {
	var errb bytes.Buffer
	home := t.TempDir()
	env := map[string]string{"REGION_DEFAULT": "eu-west"}
	return &Deps{
		Streams: Streams{In: strings.NewReader(in), Out: &bytes.Buffer{}, Err: &errb, InTTY: tty, ErrTTY: tty},
		Getenv:  func(k string) string { return env[k] },
		ConfigOptions: func() (config.Options, error) {
			return config.Options{OS: runtime.GOOS, Home: home, Dir: dir, LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }}, nil
		},
	}, &errb
}

const vscodeFile = `{
  "inputs": [
    {"type": "promptString", "id": "region", "description": "Which \u001b[31mregion\u001b[0m?", "default": "us-east"},
    {"type": "promptString", "id": "key", "description": "The API key", "password": true}
  ],
  "servers": {
    "api": {"type": "stdio", "command": "api-server", "env": {"REGION": "${input:region}", "KEY": "${input:key}", "HOME": null}},
    "plain": {"type": "stdio", "command": "plain-server", "args": ["--region", "${REGION_DEFAULT}"]}
  }
}`

func writeVSCode(t *testing.T) string {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".vscode"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".vscode", "mcp.json"), []byte(vscodeFile), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func resolve(t *testing.T, f *Factory, name string) (transport.Transport, error) {
	t.Helper()
	f.Flags.Server = name
	cmd := &cobra.Command{Use: "tools"}
	cmd.SetContext(context.Background())
	return f.Transport(cmd)
}

// On a terminal a VS Code input is asked once: its description sanitized,
// its default taken on an empty line, a password read without echo.
func TestInputsAreAskedOnATerminal(t *testing.T) {
	deps, errb := namedDeps(t, writeVSCode(t), "\n", true)
	f := &Factory{Deps: deps}
	p := f.prompter()
	p.ReadSecret = func() (string, error) { return "s3cret-key", nil }
	tr, err := resolve(t, f, "api")
	if err != nil {
		t.Fatalf("resolving -s api: %v", err)
	}
	cmd := tr.(*transport.Stdio).Cmd
	if want := []string{"KEY=s3cret-key", "REGION=us-east"}; !slices.Equal(cmd.Env, want) {
		t.Errorf("server env = %q, want %q", cmd.Env, want)
	}
	if want := []string{"HOME"}; !slices.Equal(cmd.Unset, want) {
		t.Errorf("unset = %q, want %q", cmd.Unset, want)
	}
	out := errb.String()
	for _, want := range []string{`Server "api" (`, "needs a value: Which region?", "region [default: us-east]: ", "key (input hidden): "} {
		if !strings.Contains(out, want) {
			t.Errorf("stderr does not show %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "s3cret-key") || strings.Contains(out, "\x1b") {
		t.Errorf("stderr shows the secret or an escape:\n%q", out)
	}
}

// Without a terminal nobody can be asked: a clear error, and servers that
// ask nothing still work.
func TestInputsWithoutATerminal(t *testing.T) {
	deps, _ := namedDeps(t, writeVSCode(t), "", false)
	_, err := resolve(t, &Factory{Deps: deps}, "api")
	if err == nil || !strings.Contains(err.Error(), "${input:") || !strings.Contains(err.Error(), "mcpcli cannot ask here") {
		t.Errorf("resolving -s api without a terminal = %v, want the input named as not askable", err)
	}
	deps, _ = namedDeps(t, writeVSCode(t), "", false)
	tr, err := resolve(t, &Factory{Deps: deps}, "plain")
	if err != nil {
		t.Fatalf("resolving -s plain: %v", err)
	}
	if got, want := tr.(*transport.Stdio).Cmd.Argv, []string{"plain-server", "--region", "eu-west"}; !slices.Equal(got, want) {
		t.Errorf("argv = %q, want %q", got, want)
	}
}

// servers add turns its flags into the entry written to the file.
func TestServersAddEntryFromFlags(t *testing.T) {
	tests := []struct {
		name  string
		flags GlobalFlags
		want  config.Entry
		err   string
	}{
		{"command after --", GlobalFlags{ServerArgv: []string{"./w", "-v"}, Env: []string{"A=1"}, Cwd: "/srv"},
			config.Entry{Type: config.Stdio, Command: "./w", Args: []string{"-v"}, Env: map[string]string{"A": "1"}, Cwd: "/srv"}, ""},
		{"--stdio", GlobalFlags{Stdio: `npx -y "@scope/pkg"`},
			config.Entry{Type: config.Stdio, Command: "npx", Args: []string{"-y", "@scope/pkg"}}, ""},
		{"--url with headers and a client", GlobalFlags{URL: "https://x.example/mcp", Headers: []string{"x-api-key: ${KEY}"}, ClientID: "c1"},
			config.Entry{Type: config.HTTP, URL: "https://x.example/mcp", Headers: map[string]string{"X-Api-Key": "${KEY}"}, OAuth: &config.OAuth{ClientID: "c1"}}, ""},
		{"--url with a variable", GlobalFlags{URL: "${BASE}/mcp"}, config.Entry{Type: config.HTTP, URL: "${BASE}/mcp"}, ""},
		{"neither", GlobalFlags{}, config.Entry{}, "give the server's command after --"},
		{"both", GlobalFlags{URL: "https://x/mcp", ServerArgv: []string{"./w"}}, config.Entry{}, "not both"},
		{"--header on stdio", GlobalFlags{ServerArgv: []string{"./w"}, Headers: []string{"A: b"}}, config.Entry{}, "apply to --url servers"},
		{"--env on http", GlobalFlags{URL: "https://x/mcp", Env: []string{"A=1"}}, config.Entry{}, "apply to stdio servers"},
		{"a bad url", GlobalFlags{URL: "ftp://x"}, config.Entry{}, "must start with http:// or https://"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &Factory{Deps: &Deps{}, Flags: tt.flags}
			got, err := f.entryFromFlags(&cobra.Command{Use: "add"})
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Errorf("entryFromFlags(%+v) error = %v, want one saying %q", tt.flags, err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("entryFromFlags(%+v): %v", tt.flags, err)
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("entryFromFlags(%+v) (-want +got):\n%s", tt.flags, d)
			}
		})
	}
}
