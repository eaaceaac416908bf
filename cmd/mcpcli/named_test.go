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

	"github.com/spf13/cobra"

	"github.com/mcpcli/mcpcli/config"
	"github.com/mcpcli/mcpcli/shell"
	"github.com/mcpcli/mcpcli/transport"
)

// namedDeps are the deps of a run in dir, whose stdin (a "terminal" when
// tty) holds in.
func namedDeps(t *testing.T, dir, in string, tty bool) (*Deps, *bytes.Buffer) {
	var errb bytes.Buffer
	home := t.TempDir()
	env := map[string]string{"REGION_DEFAULT": "eu-west", "XDG_STATE_HOME": filepath.Join(home, "state")}
	return &Deps{
		Streams: Streams{In: strings.NewReader(in), Out: &bytes.Buffer{}, Err: &errb, InTTY: tty, ErrTTY: tty},
		Getenv:  func(k string) string { return env[k] },
		Home:    func() (string, error) { return home, nil },
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
	deps, errb := namedDeps(t, writeVSCode(t), "y\n\n", true) // trust the file, then the region's default
	f := &Factory{Deps: deps}
	p := f.asking().Prompter()
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
	for _, want := range []string{`Trust this file and start "api"? [y/N] `, `Server "api" (`, "needs a value: Which region?", "region [default: us-east]: ", "key (input hidden): "} {
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
	trusting := &Factory{Deps: deps, Flags: GlobalFlags{TrustProject: true}}
	_, err := resolve(t, trusting, "api")
	if err == nil || !strings.Contains(err.Error(), "${input:") || !strings.Contains(err.Error(), "mcpcli cannot ask here") {
		t.Errorf("resolving -s api without a terminal = %v, want the input named as not askable", err)
	}
	deps, _ = namedDeps(t, writeVSCode(t), "", false)
	tr, err := resolve(t, &Factory{Deps: deps, Flags: GlobalFlags{TrustProject: true}}, "plain")
	if err != nil {
		t.Fatalf("resolving -s plain: %v", err)
	}
	if got, want := tr.(*transport.Stdio).Cmd.Argv, []string{"plain-server", "--region", "eu-west"}; !slices.Equal(got, want) {
		t.Errorf("argv = %q, want %q", got, want)
	}
}

// A project file is trusted on a terminal only after the review: the
// question shows the file, every server with its command or URL (server
// strings inert), and what it reads; no starts nothing, and says how to
// trust it later in one line.
func TestTrustIsAskedOnATerminal(t *testing.T) {
	dir := writeVSCode(t)
	file := filepath.Join(dir, ".vscode", "mcp.json")
	deps, errb := namedDeps(t, dir, "n\n", true)
	_, err := resolve(t, &Factory{Deps: deps}, "plain")
	want := `server "plain" was not started: you did not trust ` + file + `; once you have read it, 'mcpcli servers trust ` + file + `' trusts it`
	if err == nil || (shell.Words{}).Error(err) != want {
		t.Errorf("resolving -s plain, answering n = %v\nwant %s", err, want)
	}
	out := errb.String()
	for _, w := range []string{
		`mcpcli: server "plain" is defined in a project file you have not trusted:` + "\n  " + file + " (VS Code's workspace file)\n",
		"  • api (stdio): api-server\n      env KEY=${input:key}\n      env REGION=${input:region}\n",
		"  • plain (stdio): plain-server --region ${REGION_DEFAULT}\n",
		"It reads your environment variables REGION_DEFAULT.\n",
		`It asks you for key, typed hidden: "The API key"`,
		`It asks you for region: "Which region?"`,
		`Trust this file and start "plain"? [y/N] `,
	} {
		if !strings.Contains(out, w) {
			t.Errorf("the question lacks %q:\n%s", w, out)
		}
	}
	if strings.Contains(out, "\x1b") || strings.Contains(out, "eu-west") {
		t.Errorf("the question shows an escape or an expanded value:\n%q", out)
	}

	// Yes: resolved, remembered; the next run does not ask.
	deps, _ = namedDeps(t, dir, "yes\n", true)
	home, _ := deps.Home()
	tr, err := resolve(t, &Factory{Deps: deps}, "plain")
	if err != nil {
		t.Fatalf("resolving -s plain, answering yes: %v", err)
	}
	if got := tr.(*transport.Stdio).Cmd.Argv; !slices.Equal(got, []string{"plain-server", "--region", "eu-west"}) {
		t.Errorf("argv = %q", got)
	}
	if _, err := os.Stat(filepath.Join(home, "state", "mcpcli", "trusted-projects.json")); err != nil {
		t.Errorf("the yes was not remembered in the state directory: %v", err)
	}
	deps2, errb2 := namedDeps(t, dir, "", true)
	deps2.Home, deps2.Getenv = deps.Home, deps.Getenv
	if _, err := resolve(t, &Factory{Deps: deps2}, "plain"); err != nil || strings.Contains(errb2.String(), "Trust this file") {
		t.Errorf("the next run = %v, asked:\n%s\nwant it trusted without asking", err, errb2)
	}
}

// Without a terminal, a project file nobody trusted stops the run in one
// line that says how to trust it; --trust-project trusts it for the run.
func TestUntrustedWithoutATerminal(t *testing.T) {
	dir := writeVSCode(t)
	file := filepath.Join(dir, ".vscode", "mcp.json")
	deps, errb := namedDeps(t, dir, "", false)
	_, err := resolve(t, &Factory{Deps: deps}, "plain")
	want := `server "plain" is defined in ` + file + `, a project file you have not trusted; read it, then 'mcpcli servers trust ` + file + `' (or pass --trust-project to trust the project's files for this run)`
	if err == nil || (shell.Words{}).Error(err) != want {
		t.Errorf("resolving -s plain without a terminal = %v\nwant %s", err, want)
	}
	if errb.Len() > 0 {
		t.Errorf("without a terminal, stderr holds:\n%s", errb)
	}
}

// A project file and the person's own file both define a name: theirs runs
// until they trust the project's file, and they are told which one runs.
func TestTheOneThatRunsIsNamed(t *testing.T) {
	dir := writeVSCode(t)
	file := filepath.Join(dir, ".vscode", "mcp.json")
	deps, errb := namedDeps(t, dir, "", false)
	home, _ := deps.Home()
	mine := filepath.Join(home, ".config", "mcpcli", "servers.json")
	if err := os.MkdirAll(filepath.Dir(mine), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(mine, []byte(`{"mcpServers": {"plain": {"command": "my-plain"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	tr, err := resolve(t, &Factory{Deps: deps}, "plain")
	if err != nil || tr.(*transport.Stdio).Cmd.Argv[0] != "my-plain" {
		t.Fatalf("resolving -s plain = %v, %v; want the person's own", tr, err)
	}
	want := `mcpcli: server "plain" runs from yours in ~/.config/mcpcli/servers.json; ` + file + ` defines it too, but you have not trusted that file ('mcpcli servers' says more)` + "\n"
	if errb.String() != want {
		t.Errorf("stderr = %q\nwant %q", errb, want)
	}
	deps.ErrTTY, deps.InTTY = false, false
	errb.Reset()
	tr, err = resolve(t, &Factory{Deps: deps, Flags: GlobalFlags{TrustProject: true}}, "plain")
	if err != nil || tr.(*transport.Stdio).Cmd.Argv[0] != "plain-server" {
		t.Fatalf("resolving -s plain --trust-project = %v, %v; want the project's", tr, err)
	}
	want = `mcpcli: server "plain" runs from ` + file + ` (trusted for this run with --trust-project), not from yours in ~/.config/mcpcli/servers.json; without --trust-project, yours runs` + "\n"
	if errb.String() != want {
		t.Errorf("stderr = %q\nwant %q", errb, want)
	}
}
