package request

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/internal/safefile"
	"github.com/mcpcli/mcpcli/internal/textsafe"
)

// A hostile server's names reach the saved script inert, and each reaches
// mcpcli exactly when the script runs: a tool named -x is a tool, not a
// flag; bidi overrides, escapes and a trailing newline are neither shown
// raw nor lost.
func TestSavedScriptIsInertAndExact(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("runs the script with sh")
	}
	dir := t.TempDir()
	// A stand-in for mcpcli that records each run's words, NUL-separated,
	// and its stdin (the answers).
	fake := filepath.Join(dir, "fake mcpcli")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\nprintf '%s\\000' \"$@\" >> \"$OUT\"\nprintf '\\n' >> \"$OUT\"\ncat >> \"$OUT.stdin\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	bidi := "evil\u202etxt.exe"
	reqs := []Saved{
		{ID: 1, Request: &Request{Method: "tools/call", Target: "-x", Args: map[string]any{"text": "a\u202eb\u200bc"}}},
		{ID: 2, Request: &Request{Method: "tools/call", Target: bidi + "\x1b[31m\x9b2J\n"}},
		{ID: 3, Request: &Request{Method: "prompts/get", Target: "p'q", Args: map[string]any{"k": "v\u2066w"}}},
		{ID: 4, Request: &Request{Method: "resources/read", Target: "file:///a\u2067b%d"}},
		{ID: 5, Request: &Request{Method: "tools/call", Target: "ask"}, Rounds: []Round{{
			Keys: []string{"k"}, Asks: []client.Ask{{Key: "k"}},
			Answers: map[string]*mcp.ElicitResult{"k": {Action: "accept", Content: map[string]any{"name": "x\u202ey"}}},
		}}},
	}
	var b strings.Builder
	server := client.Server{Name: "Evil\u202e \x1b]0;PWNED\x07Server"}
	n, _ := WriteScript(&b, Replay{Program: fake, Dir: "/work/\u202eproj", Server: []string{"--", "./my server", "-v"}}, server, reqs, time.Date(2026, 7, 28, 9, 0, 0, 0, time.UTC))
	script := b.String()
	if n != 5 {
		t.Errorf("WriteScript wrote %d requests, want 5", n)
	}
	for i, r := range script {
		if r != '\n' && textsafe.Unsafe(r) {
			t.Errorf("the script holds %U raw at byte %d:\n%s", r, i, script)
		}
	}
	if !strings.Contains(script, `"$MCPCLI" call --args '{"text":"a\u202eb\u200bc"}' -- -x -- './my server' -v`) {
		t.Errorf("the call of -x is not written with -- before the tool, and JSON escapes:\n%s", script)
	}
	path := filepath.Join(dir, "s.sh")
	if err := os.WriteFile(path, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	cmd := exec.Command("sh", path)
	cmd.Env = append(os.Environ(), "OUT="+out, "MCPCLI=")
	if o, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("sh %s: %v\n%s\nthe script:\n%s", path, err, o, script)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var runs [][]string
	for _, line := range strings.SplitAfter(string(data), "\x00\n") {
		if line == "" {
			continue
		}
		runs = append(runs, strings.Split(strings.TrimSuffix(line, "\x00\n"), "\x00"))
	}
	srv := []string{"--", "./my server", "-v"}
	want := [][]string{
		append([]string{"call", "--args", `{"text":"a\u202eb\u200bc"}`, "--", "-x"}, srv...),
		append([]string{"call", "--", bidi + "\x1b[31m\x9b2J\n"}, srv...),
		append([]string{"prompt", "--", "p'q", "k=v\u2066w"}, srv...),
		append([]string{"read", "--", "file:///a\u2067b%d"}, srv...),
		append([]string{"call", "--answers", "-", "--", "ask"}, srv...),
	}
	if diff := cmp.Diff(want, runs); diff != "" {
		t.Errorf("the words mcpcli got when the script ran (-want +got):\n%s\nthe script:\n%s", diff, script)
	}
	// The JSON sent is what the session sent: the escapes mean the same.
	var args map[string]any
	if err := json.Unmarshal([]byte(runs[0][2]), &args); err != nil || args["text"] != "a\u202eb\u200bc" {
		t.Errorf("--args %s decodes to %v, %v; want the text as the server had it", runs[0][2], args, err)
	}
	stdin, _ := os.ReadFile(out + ".stdin")
	var answers map[string]map[string]any
	if err := json.Unmarshal(stdin, &answers); err != nil || answers["k"]["content"].(map[string]any)["name"] != "x\u202ey" {
		t.Errorf("the answers the script sent, %s, decode to %v, %v", stdin, answers, err)
	}
}

// The script is written without following a link, and never over a file
// mcpcli did not save (even one that starts as its scripts do) or that
// changed since; over its own script it writes again.
func TestSaveScriptRefusesLinksAndOthersFiles(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges on Windows")
	}
	dir := t.TempDir()
	victim := filepath.Join(dir, "bashrc")
	if err := os.WriteFile(victim, []byte("keep me\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	server := client.Server{Name: "s"}
	ledger := &safefile.Ledger{Path: filepath.Join(dir, "state", "mcpcli", "written")}
	save := func(p string) error {
		_, err := SaveScript(p, ledger, Replay{Server: []string{"-s", "x"}}, server, nil, time.Now())
		return err
	}
	link := filepath.Join(dir, "mcpcli-session.sh")
	if err := os.Symlink(victim, link); err != nil {
		t.Fatal(err)
	}
	if err := save(link); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("SaveScript through a symlink = %v; want it refused", err)
	}
	dangling := filepath.Join(dir, "dangling.sh")
	if err := os.Symlink(filepath.Join(dir, "made-by-link"), dangling); err != nil {
		t.Fatal(err)
	}
	if err := save(dangling); err == nil {
		t.Errorf("SaveScript through a dangling symlink = nil; want it refused")
	}
	notes := filepath.Join(dir, "notes.sh")
	if err := os.WriteFile(notes, []byte("#!/bin/sh\necho mine\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := save(notes); err == nil || !strings.Contains(err.Error(), "mcpcli did not write it") {
		t.Errorf("SaveScript over another script = %v; want it refused", err)
	}
	planted := filepath.Join(dir, "planted.sh")
	if err := os.WriteFile(planted, []byte(scriptHead+"x, saved 2026-01-01 00:00.\necho keep me\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := save(planted); err == nil || !strings.Contains(err.Error(), "mcpcli did not write it") {
		t.Errorf("SaveScript over a script that starts as its own do, but that it did not write = %v; want it refused", err)
	}
	for _, p := range []string{victim, notes, planted} {
		if b, _ := os.ReadFile(p); !bytes.Contains(b, []byte("mine")) && !bytes.Contains(b, []byte("keep me")) {
			t.Errorf("%s was overwritten: %q", p, b)
		}
	}
	if _, err := os.Lstat(filepath.Join(dir, "made-by-link")); err == nil {
		t.Errorf("the dangling link's target was created")
	}
	// Its own script, twice; and the default place, made private.
	own := filepath.Join(dir, "own.sh")
	if err := save(own); err != nil {
		t.Fatalf("SaveScript(new) = %v", err)
	}
	if err := save(own); err != nil {
		t.Errorf("SaveScript over its own script = %v", err)
	}
	if err := os.WriteFile(own, []byte(scriptHead+"s\necho edited\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := save(own); err == nil || !strings.Contains(err.Error(), "changed since mcpcli wrote it") {
		t.Errorf("SaveScript over its own script, edited since = %v; want it refused", err)
	}
	def := filepath.Join(dir, "state", "mcpcli", "sessions", "session-1.sh")
	msg, err := SaveScript(def, ledger, Replay{Server: []string{"-s", "x"}, DefaultPath: def}, server, nil, time.Now())
	if err != nil || !strings.Contains(msg, def) {
		t.Fatalf("SaveScript(the default path) = %q, %v", msg, err)
	}
	if st, err := os.Stat(filepath.Dir(def)); err != nil || st.Mode().Perm() != 0o700 {
		t.Errorf("the default directory: %v, %v; want it made 0700", st, err)
	}
}

// The command printed to send kept answers again repeats the run, but not
// its credentials: --header values, and --env values named like secrets.
func TestResendCommandLeavesCredentialsOut(t *testing.T) {
	for _, tc := range []struct {
		args     []string
		want     string
		redacted bool
	}{
		{[]string{"call", "order", "--url", "http://h/mcp"}, "mcpcli call order --url http://h/mcp --answers /tmp/a.json", false},
		{[]string{"call", "order", "--header", "Authorization: Bearer s3cret", "--url", "http://h/mcp"},
			"mcpcli call order --header 'Authorization: [redacted]' --url http://h/mcp --answers /tmp/a.json", true},
		{[]string{"call", "order", "--header=X-Api-Key: abc", "--url", "http://h/mcp"},
			"mcpcli call order '--header=X-Api-Key: [redacted]' --url http://h/mcp --answers /tmp/a.json", true},
		{[]string{"call", "x", "--env", "GITHUB_TOKEN=ghp_1", "--env", "LANG=C", "--", "srv", "--header", "kept"},
			"mcpcli call x --env 'GITHUB_TOKEN=[redacted]' --env LANG=C --answers /tmp/a.json -- srv --header kept", true},
	} {
		got, redacted := ResendCommand(tc.args, "/tmp/a.json")
		if got != tc.want || redacted != tc.redacted {
			t.Errorf("ResendCommand(%q) = %q, %v; want %q, %v", tc.args, got, redacted, tc.want, tc.redacted)
		}
		if strings.Contains(got, "s3cret") || strings.Contains(got, "abc") || strings.Contains(got, "ghp_1") {
			t.Errorf("ResendCommand(%q) = %q shows a credential", tc.args, got)
		}
	}
}
