//go:build unix

// Package e2e drives the real mcpcli binary in tmux, at 80×24, the way a
// person would: keys in, screen out, and the answer checked on the wire
// (--trace). It skips when tmux is missing; CI installs it.
package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestMain(m *testing.M) {
	// The test binary doubles as the hostile MCP server (see hostile.go).
	if os.Getenv(serverEnv) == "hostile" {
		serveHostile()
		return
	}
	if os.Getenv(serverEnv) == "big" {
		serveBig() // a tool with results of any size (budget_test.go)
		return
	}
	if os.Getenv(serverEnv) == "secret" {
		serveSecret() // a form with a password field (cast_test.go)
		return
	}
	if path := os.Getenv(playEnv); path != "" {
		playCast(path) // a small cast player (cast_test.go)
		return
	}
	os.Exit(m.Run())
}

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// mcpcli builds the binary once per test run, for a test that drives it
// in tmux.
func mcpcli(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (apt-get install tmux); the TUI tests drive mcpcli inside it")
	}
	return binary(t)
}

// binary builds the binary once per test run.
func binary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "mcpcli-e2e")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "mcpcli")
		// With its supervisor beside it, as make build puts them.
		cmd := exec.Command("go", "build", "-o", dir+string(filepath.Separator), "github.com/mcpcli/mcpcli/cmd/mcpcli", "github.com/mcpcli/mcpcli/cmd/mcpcli-supervise")
		cmd.Dir = ".."
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

// term is one tmux server with one 80×24 window running one command.
type term struct {
	t      *testing.T
	socket string
	dir    string
}

const wait = 10 * time.Second

// start runs argv (with env) in a fresh tmux at 80×24. Stdout goes to the
// file out unless out is empty (then to the terminal). Everything the
// program writes to the terminal is also kept raw (rawLog), escapes and
// all, from its first byte.
func start(t *testing.T, env []string, out string, argv ...string) *term {
	t.Helper()
	return startStyled(t, "", env, out, argv...)
}

// startStyled is start on a window of the given tmux style ("bg=#ffffff,
// fg=#000000" for a light terminal; "" for tmux's default): the program
// sees that background when it asks the terminal for it.
func startStyled(t *testing.T, style string, env []string, out string, argv ...string) *term {
	t.Helper()
	dir := t.TempDir()
	tm := &term{t: t, socket: filepath.Join(dir, "tmux.sock"), dir: dir}
	var quoted []string
	for _, a := range argv {
		quoted = append(quoted, shellQuote(a))
	}
	redirect := ""
	if out != "" {
		redirect = " > " + shellQuote(out)
	}
	// The program waits for pipe-pane to be in place, so that the raw log
	// has every byte it writes.
	// The forms' key guard is off (they take keys at machine speed) unless
	// a test turns it back on with MCPCLI_KEY_GUARD= (the default).
	env = append([]string{"MCPCLI_KEY_GUARD=0"}, env...)
	// mcpcli's state (its ledger of the files it wrote, trusted projects,
	// tokens) goes in the test's own directory unless the test gives a
	// HOME or a state directory of its own: never the person's.
	if !slices.ContainsFunc(env, func(e string) bool {
		return strings.HasPrefix(e, "HOME=") || strings.HasPrefix(e, "XDG_STATE_HOME=")
	}) {
		env = append(env, "XDG_STATE_HOME="+shellQuote(filepath.Join(dir, "state")))
	}
	script := fmt.Sprintf(`while [ ! -e %[1]s/go ]; do sleep 0.02; done
%[2]s %[3]s%[4]s
echo "[exit $?]"
`, shellQuote(dir), strings.Join(env, " "), strings.Join(quoted, " "), redirect)
	if err := os.WriteFile(filepath.Join(dir, "run.sh"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	tm.tmux("-f", "/dev/null", "new-session", "-d", "-s", "main", "-x", "80", "-y", "24", "sh "+shellQuote(filepath.Join(dir, "run.sh")))
	tm.tmux("set-option", "-t", "main", "remain-on-exit", "on")
	if style != "" {
		tm.tmux("set-option", "-t", "main", "window-style", style)
	}
	tm.tmux("pipe-pane", "-t", "main", "-o", "cat >> "+shellQuote(filepath.Join(dir, "raw.log")))
	if err := os.WriteFile(filepath.Join(dir, "go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		exec.Command("tmux", "-S", tm.socket, "kill-server").Run()
	})
	return tm
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func (tm *term) tmux(args ...string) string {
	tm.t.Helper()
	cmd := exec.Command("tmux", append([]string{"-S", tm.socket}, args...)...)
	cmd.Env = append(os.Environ(), "TERM=xterm-256color")
	out, err := cmd.CombinedOutput()
	if err != nil {
		tm.t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// screen is what the pane shows now, as text, with the lines scrolled
// off the top (the form's status lines can be there once it is gone).
func (tm *term) screen() string { return tm.tmux("capture-pane", "-p", "-S", "-50", "-t", "main") }

// styled is the pane with its attributes as escape sequences (-e).
func (tm *term) styled() string {
	return tm.tmux("capture-pane", "-p", "-e", "-S", "-50", "-t", "main")
}

// rawLog is every byte the program wrote to the terminal.
func (tm *term) rawLog() string {
	b, _ := os.ReadFile(filepath.Join(tm.dir, "raw.log"))
	return string(b)
}

// waitFor polls the screen until it shows every one of want.
func (tm *term) waitFor(want ...string) string {
	tm.t.Helper()
	deadline := time.Now().Add(wait)
	for {
		s := tm.screen()
		ok := true
		for _, w := range want {
			if !strings.Contains(s, w) {
				ok = false
			}
		}
		if ok {
			return s
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("the screen never showed %q; it shows:\n%s", want, s)
		}
		time.Sleep(30 * time.Millisecond)
	}
}

// keys sends tmux key names (Enter, Escape, C-x, Down, or text).
func (tm *term) keys(keys ...string) {
	tm.t.Helper()
	for _, k := range keys {
		tm.tmux("send-keys", "-t", "main", k)
		if k == "Escape" {
			// A lone Esc is told from the start of a sequence by a pause.
			time.Sleep(120 * time.Millisecond)
		}
	}
}

// text types literally.
func (tm *term) text(s string) { tm.tmux("send-keys", "-t", "main", "-l", s) }

// exited waits for the command to end and returns the screen.
func (tm *term) exited() string {
	tm.t.Helper()
	return tm.waitFor("[exit ")
}

// retried reads a --trace file and returns, for each tools/call sent
// with inputResponses, those responses.
func retried(t *testing.T, trace string) []map[string]*mcp.ElicitResult {
	t.Helper()
	f, err := os.Open(trace)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []map[string]*mcp.ElicitResult
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var line struct {
			Dir string `json:"dir"`
			Msg struct {
				Method string `json:"method"`
				Params struct {
					InputResponses map[string]*mcp.ElicitResult `json:"inputResponses"`
				} `json:"params"`
			} `json:"msg"`
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatalf("trace line %s: %v", sc.Bytes(), err)
		}
		if line.Dir == "send" && line.Msg.Method == "tools/call" && line.Msg.Params.InputResponses != nil {
			out = append(out, line.Msg.Params.InputResponses)
		}
	}
	return out
}

func TestTUIAcceptEveryKind(t *testing.T) {
	bin := mcpcli(t)
	dir := t.TempDir()
	trace, out := filepath.Join(dir, "trace.jsonl"), filepath.Join(dir, "out.json")
	tm := start(t, nil, out, bin, "call", "edit_profile", "-o", "json", "--trace", trace, "--", bin, "demo-server")

	s := tm.waitFor("mcpcli demo server asks", "Tell me about yourself to set up your profile.", "your answers go to mcpcli demo server", "Full name *", "field 1/14")
	for _, want := range []string{"As it should appear on your profile", "Email *", "ada@example.com"} {
		if !strings.Contains(s, want) {
			t.Errorf("first page lacks %q:\n%s", want, s)
		}
	}
	tm.text("A")
	tm.waitFor("✗ must be at least 2 characters (now 1)")
	tm.keys("Enter") // refused
	tm.text("da Lovelace")
	tm.keys("Enter", "Enter") // name, email (default)
	tm.text("ada.example.com")
	tm.waitFor("✗ must be a full URI")
	tm.keys("C-u")
	tm.text("https://ada.example.com")
	tm.keys("Enter")
	tm.text("1815-12-10")
	tm.keys("Enter", "Enter", "Enter") // birthday, call, bio
	tm.waitFor("Age", "whole number, 13–130")
	tm.text("36")
	tm.keys("Enter", "Enter") // age, height (default 1.7)
	tm.waitFor("Newsletter", "○ Yes", "● No")
	tm.keys("y")          // newsletter: yes
	tm.keys("k", "Enter") // theme: dark
	tm.keys("/")          // country: filter
	tm.text("fra")
	tm.waitFor("/fra█")
	tm.keys("Enter")         // France
	tm.keys("Down", "Enter") // plan: Pro
	tm.waitFor("Languages *", "[x] en")
	tm.keys("Down", "Space", "Enter") // + fr
	tm.keys("Space", "Enter")         // topics: Go
	s = tm.waitFor("Review: accept sends this to mcpcli demo server", "[ Accept: send ]")
	for _, want := range []string{"Ada Lovelace", "https://ada.example.com", "1815-12-10", "France", "Pro ($8/mo)", "en, fr", "(not set: left out)", "Topics       Go"} {
		if !strings.Contains(s, want) {
			t.Errorf("review lacks %q:\n%s", want, s)
		}
	}
	tm.keys("Enter")
	s = tm.exited()
	if !strings.Contains(s, "→ accept sent to mcpcli demo server with 12 values") || !strings.Contains(s, "[exit 0]") {
		t.Errorf("after the form, the screen shows:\n%s", s)
	}

	want := map[string]any{"name": "Ada Lovelace", "email": "ada@example.com", "website": "https://ada.example.com", "birthday": "1815-12-10",
		"age": 36.0, "height": 1.7, "newsletter": true, "theme": "dark", "country": "FR", "plan": "pro", "languages": []any{"en", "fr"}, "topics": []any{"go"}}
	calls := retried(t, trace)
	if len(calls) != 1 || calls[0]["profile"] == nil {
		t.Fatalf("retried calls: %v", calls)
	}
	if got := calls[0]["profile"]; got.Action != "accept" {
		t.Errorf("action on the wire = %q", got.Action)
	} else if diff := cmp.Diff(want, got.Content); diff != "" {
		t.Errorf("content on the wire (-want +got):\n%s", diff)
	}
	// stdout carried only the result, as JSON.
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		StructuredContent map[string]any `json:"structuredContent"`
	}
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatalf("stdout is not the JSON result: %v\n%s", err, b)
	}
	if diff := cmp.Diff(want, res.StructuredContent); diff != "" {
		t.Errorf("result (-want +got):\n%s", diff)
	}
}

func TestTUIDeclineAndCancel(t *testing.T) {
	bin := mcpcli(t)
	tests := []struct {
		name   string
		tool   string
		key    string
		ask    string
		screen string // what the form shows first
		result string // what the tool says after
	}{
		{"decline with ctrl+x", "delete_project", "C-x", "confirm_delete", "Delete it for good? *", "Declined: deleting project apollo."},
		{"cancel with esc", "switch_account", "Escape", "account", "Personal — ada@example.com", "Cancelled: you dismissed the request"},
		{"cancel with ctrl+c, then esc", "delete_project", "C-c", "confirm_delete", "This removes 3 environments", "Cancelled: you dismissed the request"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			trace := filepath.Join(t.TempDir(), "trace.jsonl")
			tm := start(t, nil, "", bin, "call", tt.tool, "--trace", trace, "--", bin, "demo-server")
			tm.waitFor(tt.screen, "ctrl+x decline", "esc cancel")
			tm.keys(tt.key)
			if tt.key == "C-c" {
				tm.waitFor("Quit? ctrl+c again leaves mcpcli")
				tm.keys("Escape")
			}
			s := tm.exited()
			action := map[string]string{"C-x": "decline", "Escape": "cancel", "C-c": "cancel"}[tt.key]
			if !strings.Contains(s, "→ "+action+" sent to mcpcli demo server") || !strings.Contains(s, tt.result) {
				t.Errorf("after the form, the screen shows:\n%s", s)
			}
			calls := retried(t, trace)
			if len(calls) != 1 {
				t.Fatalf("retried calls: %v", calls)
			}
			got := calls[0][tt.ask]
			if got == nil || got.Action != action || got.Content != nil {
				t.Errorf("on the wire: %+v, want %s without content", got, action)
			}
		})
	}
}

// The review's Decline button is a choice on screen, not only a key.
func TestTUIDeclineFromTheReview(t *testing.T) {
	bin := mcpcli(t)
	trace := filepath.Join(t.TempDir(), "trace.jsonl")
	tm := start(t, nil, "", bin, "call", "switch_account", "--trace", trace, "--", bin, "demo-server")
	tm.waitFor("Account *")
	tm.keys("Down", "Enter")
	tm.waitFor("Review", "Work — ada@analytical.engines", "[ Decline ]")
	tm.keys("Right", "Enter")
	tm.exited()
	if calls := retried(t, trace); len(calls) != 1 || calls[0]["account"].Action != "decline" {
		t.Errorf("retried calls: %+v", calls)
	}
}

// Two rounds: each is a form, and requestState goes back unchanged.
func TestTUITwoRounds(t *testing.T) {
	bin := mcpcli(t)
	trace := filepath.Join(t.TempDir(), "trace.jsonl")
	tm := start(t, nil, "", bin, "call", "create_repo", "owner=octo", "--trace", trace, "--", bin, "demo-server")
	tm.waitFor("step 1 of 2", "Repository name *", "hello-mcp")
	tm.keys("Enter", "Enter") // name (default), visibility (private)
	tm.waitFor("Review")
	tm.keys("C-s")
	tm.waitFor("round 2", "Step 2 of 2", "Invite collaborators")
	tm.keys("Space", "Enter", "Enter")
	tm.waitFor("Review", "Grace Hopper")
	tm.keys("C-s")
	s := tm.exited()
	if !strings.Contains(s, "Created private repository octo/hello-mcp (license: none, inviting grace)") {
		t.Errorf("after two rounds the screen shows:\n%s", s)
	}
	calls := retried(t, trace)
	if len(calls) != 2 || calls[1]["details"] == nil || calls[1]["details"].Action != "accept" {
		t.Errorf("retried calls: %+v", calls)
	}
}

// Hostile server text reaches the screen as plain text: no hyperlink, no
// window title, no clipboard write, no color, no bidi override. Checked
// three ways: the raw bytes mcpcli wrote, the pane with its attributes,
// and tmux's own state (title, buffers).
func TestTUIHostileServer(t *testing.T) {
	bin := mcpcli(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	trace := filepath.Join(t.TempDir(), "trace.jsonl")
	tm := start(t, []string{serverEnv + "=hostile"}, "", bin, "call", "hostile", "--trace", trace, "--", self)
	tm.waitFor("LINK", "RED", "field 1/5")
	checkPane(t, tm, "first page")
	for i := 0; i < 5; i++ {
		tm.keys("Tab")
	}
	tm.waitFor("Review")
	checkPane(t, tm, "review")
	tm.keys("C-o")
	tm.waitFor("in full")
	checkPane(t, tm, "the message in full")
	tm.keys("Escape")
	tm.waitFor("Review")
	tm.keys("C-s")
	s := tm.exited()
	checkPane(t, tm, "after")
	if !strings.Contains(s, "→ accept sent to") {
		t.Errorf("no accept status:\n%s", s)
	}
	raw := tm.rawLog()
	if raw == "" {
		t.Fatal("the raw log is empty")
	}
	for _, m := range markers {
		if i := strings.Index(raw, m); i >= 0 {
			t.Errorf("%q reached the terminal raw: …%q…", m, raw[max(0, i-40):min(len(raw), i+40)])
		}
	}
	calls := retried(t, trace)
	if len(calls) != 1 || calls[0]["form"] == nil || calls[0]["form"].Action != "accept" {
		t.Fatalf("retried calls: %+v", calls)
	}
	// The server's own default went back as the person saw it, cleaned.
	if got := calls[0]["form"].Content["choice"]; got != hostile {
		t.Errorf("choice on the wire = %q, want the server's own const", got)
	}
}

func checkPane(t *testing.T, tm *term, where string) {
	t.Helper()
	styled := tm.styled()
	for _, m := range append(markers, "\x1b]") {
		if strings.Contains(styled, m) {
			t.Errorf("%s: the pane holds %q:\n%s", where, m, styled)
		}
	}
	if title := tm.tmux("display-message", "-p", "-t", "main", "#{pane_title}"); strings.Contains(title, "PWNED") {
		t.Errorf("%s: the server set the window title: %q", where, title)
	}
	if bufs := tm.tmux("list-buffers"); strings.Contains(bufs, "PWNED") {
		t.Errorf("%s: the server wrote the clipboard: %q", where, bufs)
	}
}

// A call missing a required argument opens a form built from the tool's
// inputSchema; what is typed there is what the call sends.
func TestTUIArgumentsForm(t *testing.T) {
	bin := mcpcli(t)
	trace := filepath.Join(t.TempDir(), "trace.jsonl")
	tm := start(t, nil, "", bin, "call", "create_repo", "--trace", trace, "--", bin, "demo-server")
	tm.waitFor("Arguments for tool create_repo", "owner *", "Who will own the repository", "esc cancel")
	if s := tm.screen(); strings.Contains(s, "decline") {
		t.Errorf("the arguments form offers decline:\n%s", s)
	}
	tm.keys("o", "c", "t", "o", "Enter")
	tm.waitFor("Review: these arguments go to", "octo", "[ Send ]")
	tm.keys("Enter")
	tm.waitFor("New repository for octo", "step 1 of 2")
	tm.keys("Escape")
	tm.exited()
	b, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"name":"create_repo","arguments":{"owner":"octo"}`) {
		t.Errorf("no tools/call carried owner=octo:\n%s", b)
	}
}

// Two ctrl+c in a form leave mcpcli at once: exit 130, nothing sent after.
func TestTUICtrlCTwiceQuits(t *testing.T) {
	bin := mcpcli(t)
	trace := filepath.Join(t.TempDir(), "trace.jsonl")
	tm := start(t, nil, "", bin, "call", "delete_project", "--trace", trace, "--", bin, "demo-server")
	tm.waitFor("Delete it for good? *")
	tm.keys("C-c")
	tm.waitFor("Quit? ctrl+c again leaves mcpcli")
	tm.keys("C-c")
	s := tm.exited()
	if !strings.Contains(s, "mcpcli: cancelled; the request was abandoned") || !strings.Contains(s, "[exit 130]") {
		t.Errorf("after two ctrl+c the screen shows:\n%s", s)
	}
	if calls := retried(t, trace); len(calls) != 0 {
		t.Errorf("answers were sent after quitting: %v", calls)
	}
}

// The tour is left the same way, and a left tour is not reported done.
func TestTUITourCanBeLeft(t *testing.T) {
	bin := mcpcli(t)
	tm := start(t, nil, "", bin, "demo")
	tm.waitFor("Tour 1/7 · Confirm a destructive action", "Delete it for good? *")
	tm.keys("C-c")
	tm.waitFor("Quit? ctrl+c again leaves mcpcli")
	tm.keys("C-c")
	s := tm.exited()
	if !strings.Contains(s, "[exit 130]") || strings.Contains(s, "Done:") || strings.Contains(s, "[2/7]") {
		t.Errorf("after leaving the tour the screen shows:\n%s", s)
	}
}
