//go:build unix

package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpcli/mcpcli/internal/thirdparty"
)

// The interactive session (mcpcli session), driven in tmux at 80×24
// against the demo server and server-everything.

// waitMatch polls the screen until it matches re.
func (tm *term) waitMatch(re string) string {
	tm.t.Helper()
	rx := regexp.MustCompile(re)
	deadline := time.Now().Add(wait)
	for {
		s := tm.screen()
		if rx.MatchString(s) {
			return s
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("the screen never matched %q; it shows:\n%s", re, s)
		}
		time.Sleep(30 * time.Millisecond)
	}
}

// now is the pane as it is, without the lines scrolled off.
func (tm *term) now() string { return tm.tmux("capture-pane", "-p", "-t", "main") }

// demoSession starts a session with the demo server, tracing to a file.
func demoSession(t *testing.T, env ...string) (*term, string) {
	bin := mcpcli(t)
	trace := filepath.Join(t.TempDir(), "trace.jsonl")
	tm := start(t, env, "", bin, "session", "--trace", trace, "--", bin, "demo-server")
	tm.waitFor("mcpcli demo server 1.0.0", "Tools 10", "Prompts 2", "Resources 2+1")
	return tm, trace
}

// pick filters the current list to name and opens it.
func (tm *term) pick(name string) {
	tm.keys("/")
	tm.text(name)
	tm.waitFor("/" + name)
	tm.keys("Enter", "Enter")
}

// call picks a tool that takes no arguments and says y to calling it,
// once the question has been read (its key guard may be on).
func (tm *term) call(name string) {
	tm.pick(name)
	tm.waitFor("Call " + name + "? It takes no arguments.")
	tm.read()
	tm.keys("y")
}

func TestSessionBrowseAndFilter(t *testing.T) {
	tm, _ := demoSession(t)
	s := tm.now()
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) != 24 {
		t.Errorf("the first screen has %d lines, want 24:\n%s", len(lines), s)
	}
	for _, want := range []string{"2026-07-28 (discover) · stdio", "▸ build_release", "delete_project", "Arguments, in the server's order:", "/ filter"} {
		if !strings.Contains(s, want) {
			t.Errorf("the first screen lacks %q:\n%s", want, s)
		}
	}
	tm.keys("/")
	tm.text("repo")
	// create_repo by its name, first; build_release by its description
	// ("it reports its stages"), after it.
	s = tm.waitFor("/repo", "2/10", "▸ create_repo", "A two-round wizard")
	if strings.Contains(s, "delete_project") {
		t.Errorf("the filter repo shows delete_project:\n%s", s)
	}
	tm.keys("Escape")
	tm.waitFor("delete_project", "switch_account")
	tm.keys("Tab")
	tm.waitFor("release_notes")
	tm.keys("Tab")
	tm.waitFor("demo://reports/q3")
}

// A call through its arguments form, answering two rounds: both are in
// the timeline beside the result, and requestState went back as sent.
func TestSessionTwoRoundsInTheTimeline(t *testing.T) {
	tm, trace := demoSession(t)
	tm.pick("create_repo")
	tm.waitFor("Arguments for tool create_repo", "owner *")
	tm.text("octo")
	tm.keys("Enter")
	tm.waitFor("Review: these arguments go to", "[ Send ]")
	tm.keys("Enter")
	tm.waitFor("step 1 of 2", "Repository name *")
	tm.keys("C-s")
	tm.waitFor("Review")
	tm.keys("Enter")
	tm.waitFor("round 2", "Invite collaborators")
	tm.keys("Space", "C-s")
	tm.waitFor("Review", "Grace Hopper")
	tm.keys("Enter")
	s := tm.waitFor("Created private repository octo/hello-mcp", "✓ complete · 2 rounds")
	for _, want := range []string{"#1 create_repo", "owner=octo", "round 1 · basics", "name=hello-mcp", "round 2 · details", `collaborators=["grace"] (Gr`, "visibility=private (Priv", "History 1"} {
		if !strings.Contains(s, want) {
			t.Errorf("the call view lacks %q:\n%s", want, s)
		}
	}
	if !regexp.MustCompile(`state \d+ B · [\d.]+ (ms|s)`).MatchString(s) {
		t.Errorf("the timeline gives no requestState size and time:\n%s", s)
	}
	calls := retried(t, trace)
	if len(calls) != 2 || calls[0]["basics"] == nil || calls[1]["details"] == nil || calls[1]["details"].Action != "accept" {
		t.Errorf("retried calls: %+v", calls)
	}
}

func TestSessionDeclineAndCancel(t *testing.T) {
	tm, trace := demoSession(t)
	tm.call("switch_account")
	tm.waitFor("Which one should I use?", "ctrl+x decline")
	tm.keys("C-x")
	tm.waitFor("Declined: switching accounts", "round 1 · account", "decline")

	tm.keys("Escape")
	tm.pick("delete_project")
	tm.waitFor("Arguments for tool delete_project")
	tm.keys("Enter")
	tm.waitFor("[ Send ]")
	tm.keys("Enter")
	tm.waitFor("delete_project is marked destructive", "y yes, call it")
	tm.keys("y")
	tm.waitFor("Delete it for good?", "esc cancel")
	tm.keys("Escape")
	s := tm.waitFor("Cancelled: you dismissed the request", "#2 delete_project", "round 1 · confirm_delete")
	if !strings.Contains(s, "  cancel") {
		t.Errorf("the timeline does not show the cancel:\n%s", s)
	}
	calls := retried(t, trace)
	if len(calls) != 2 || calls[0]["account"].Action != "decline" || calls[1]["confirm_delete"].Action != "cancel" {
		t.Errorf("retried calls: %+v", calls)
	}
}

// A list change arrives (toggle_beta adds a tool), and the list reads
// itself again.
func TestSessionToolListChanges(t *testing.T) {
	tm, _ := demoSession(t)
	tm.call("toggle_beta")
	tm.waitFor("Added beta_forecast", "Tools 11")
	tm.keys("4")
	tm.waitFor("the server says its tools list changed")
	tm.keys("1")
	tm.waitFor("beta_forecast")
}

// Re-run from the history, and edit-and-re-run: the form starts from the
// arguments of the request it re-runs.
func TestSessionRerunFromHistory(t *testing.T) {
	tm, trace := demoSession(t)
	tm.pick("echo")
	tm.waitFor("Arguments for tool echo", "text *")
	tm.text("first")
	tm.keys("Enter", "Enter")
	tm.waitFor("#1 echo", "text=first", "✓ complete")
	tm.keys("5")
	tm.waitFor("#1 echo text=first")
	tm.keys("r")
	tm.waitFor("#2 echo", "re-run of #1", "✓ complete")
	tm.keys("5", "e")
	tm.waitFor("Arguments for tool echo", "first")
	tm.keys("C-u")
	tm.text("second")
	tm.keys("Enter", "Enter")
	tm.waitFor("#3 echo", "text=second")
	b, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), `"arguments":{"text":"first"}`); n != 2 {
		t.Errorf("echo text=first went out %d times, want 2", n)
	}
}

// q quits, and the server goes with it.
func TestSessionQuitLeavesNoServer(t *testing.T) {
	mark := fmt.Sprintf("MCPCLI_E2E_MARK=%d", time.Now().UnixNano())
	bin := mcpcli(t)
	for _, tc := range []struct {
		name string
		argv func() []string
	}{
		{"demo server", func() []string { return []string{bin, "demo-server"} }},
		{"server-everything", func() []string { return thirdparty.Everything(t) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			argv := append([]string{bin, "session", "--env", mark, "--"}, tc.argv()...)
			tm := start(t, nil, "", argv...)
			tm.waitFor("Tools ", "Activity")
			pids := marked(mark)
			if len(pids) == 0 {
				t.Fatalf("no process has %s: the test cannot see the server", mark)
			}
			tm.keys("q")
			s := tm.exited()
			if !strings.Contains(s, "[exit 0]") {
				t.Errorf("after q:\n%s", s)
			}
			deadline := time.Now().Add(5 * time.Second)
			for len(alive(pids)) > 0 && time.Now().Before(deadline) {
				time.Sleep(50 * time.Millisecond)
			}
			if left := alive(pids); len(left) > 0 {
				t.Errorf("server processes %v outlived the session", left)
			}
		})
	}
}

// marked lists the processes whose environment holds mark.
func marked(mark string) []int {
	var out []int
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", d.Name(), "environ"))
		if err == nil && strings.Contains(string(env), mark) {
			out = append(out, pid)
		}
	}
	return out
}

func alive(pids []int) []int {
	var out []int
	for _, p := range pids {
		if syscall.Kill(p, 0) == nil {
			if st, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p)); err == nil && strings.Contains(string(st), ") Z ") {
				continue // a zombie: gone, waiting to be reaped
			}
			out = append(out, p)
		}
	}
	return out
}

// Against server-everything: a log line arrives after
// toggle-simulated-logging; gzip-file-as-resource makes a resource for this
// session only (the Resources list changes), and its link reads on the
// same connection.
func TestSessionEverything(t *testing.T) {
	bin := mcpcli(t)
	argv := append([]string{bin, "session", "--"}, thirdparty.Everything(t)...)
	tm := start(t, nil, "", argv...)
	// 16 tools: get-roots-list is listed to a client that declares roots,
	// as the session does (roots can be added while connected).
	tm.waitFor("2025-11-25 (initialize, fallback) · stdio", "Tools 16", "Resources 7+2")

	tm.keys("L")
	tm.waitFor("Server log level", "(sent now as logging/setLevel)")
	tm.keys("Enter") // debug: everything
	tm.waitFor("log level set to debug")
	tm.call("toggle-simulated-logging")
	tm.waitFor("Started simulated")
	tm.keys("4", "l")
	tm.waitMatch(`\d\d:\d\d:\d\d (debug|info|notice|warning|error|critical|alert|emergency)\s+\S+.level.message`)

	tm.keys("1")
	tm.pick("gzip-file-as-resource")
	tm.waitFor("Arguments for tool gzip-file-as-resource", "name")
	tm.keys("Enter", "C-u") // name: the default; data: a data URI, no network
	tm.text("data:text/plain;base64,aGVsbG8gZnJvbSB0aGUgc2Vzc2lvbgo=")
	tm.keys("Enter", "C-s")
	tm.waitFor("Review: these arguments go to", "resourceLink")
	tm.keys("Enter")
	tm.waitFor("[link README.md.gz]", "demo://resource/session/README.md.gz", "▸ enter reads it", "Resources 8+2")
	tm.keys("Enter")
	tm.waitFor("#3 read demo://resource/session", "[blob application/gzip")
	tm.keys("4", "i")
	tm.waitFor("the server says its resources list changed")
}

// The session with the wire view: a message expands, pretty.
func TestSessionWire(t *testing.T) {
	tm, _ := demoSession(t)
	tm.keys("4", "w")
	tm.waitFor("→ #1 server/discover", "← #1 result of server/discover")
	tm.keys("g", "Enter")
	tm.waitFor(`"method": "server/discover"`, "esc back")
	tm.keys("Escape")
	tm.waitFor("Showing the wire")
}

// NO_COLOR: attributes (bold, reverse) but no colour at all.
func TestSessionNoColor(t *testing.T) {
	tm, _ := demoSession(t, "NO_COLOR=1")
	tm.call("switch_account")
	tm.waitFor("Which one should I use?")
	tm.keys("C-x")
	tm.waitFor("✓ complete")
	styled := tm.styled()
	if m := regexp.MustCompile(`\x1b\[(?:[0-9;]*;)?(3[0-7]|4[0-7]|9[0-7]|10[0-7]|38;[25];[0-9;]+|48;[25];[0-9;]+)m`).FindString(styled); m != "" {
		t.Errorf("with NO_COLOR the pane holds the colour %q:\n%s", m, styled)
	}
	if !strings.Contains(styled, "\x1b[1m") && !strings.Contains(styled, ";1m") && !strings.Contains(styled, "[1;") {
		t.Errorf("with NO_COLOR the pane lost bold too:\n%q", styled)
	}
}

// Dark and light: every text reads at 4.5:1 or better, nothing faint.
func TestSessionContrast(t *testing.T) {
	bin := mcpcli(t)
	for _, bg := range []struct{ name, style, fg, bg string }{
		{"dark", "bg=#000000,fg=#d0d0d0", "#d0d0d0", "#000000"},
		{"light", "bg=#ffffff,fg=#000000", "#000000", "#ffffff"},
	} {
		t.Run(bg.name, func(t *testing.T) {
			tm := startStyled(t, bg.style, nil, "", bin, "session", "--", bin, "demo-server")
			check := func(where string) {
				t.Helper()
				for _, p := range lowContrast(tm.tmux("capture-pane", "-e", "-p", "-t", "main"), bg.fg, bg.bg) {
					t.Errorf("%s background, %s: %s", bg.name, where, p)
				}
			}
			tm.waitFor("Tools 10", "Arguments, in the server's order")
			// The first frames are in the terminal's own colours; the
			// palette comes once the terminal has said its background.
			deadline := time.Now().Add(wait)
			for !strings.Contains(tm.styled(), "38;") {
				if time.Now().After(deadline) {
					t.Fatalf("the session never coloured anything:\n%s", tm.styled())
				}
				time.Sleep(30 * time.Millisecond)
			}
			check("the tools")
			tm.call("switch_account")
			tm.waitFor("Which one should I use?")
			tm.keys("C-x")
			tm.waitFor("✓ complete")
			check("a call")
			tm.keys("4")
			tm.waitFor("Showing everything")
			check("activity")
			tm.keys("q")
			tm.exited()
		})
	}
}

// A URL ask in the session: the consent screen, the URL to copy printed on
// the terminal itself (no browser here), then decline, in the timeline.
func TestSessionURLConsent(t *testing.T) {
	tm, trace := demoSession(t, "BROWSER=", "DISPLAY=", "WAYLAND_DISPLAY=")
	tm.pick("connect_account")
	tm.waitFor("Arguments for tool connect_account")
	tm.keys("Enter", "Enter")
	tm.waitFor("The server asks you to open this link in your browser", "o open in browser")
	tm.keys("o")
	tm.waitFor("Copy this URL into your browser:", "http://127.0.0.1:", "Finish in your browser")
	tm.keys("d")
	s := tm.waitFor("Declined: connecting calendar", "round 1 · connect", "decline · URL")
	if strings.Contains(s, "Copy this URL") {
		t.Errorf("the URL printed for the consent shows inside the session:\n%s", s)
	}
	if calls := retried(t, trace); len(calls) != 1 || calls[0]["connect"] == nil || calls[0]["connect"].Action != "decline" {
		t.Errorf("retried calls: %+v", calls)
	}
}

// With servers configured and none named, the session opens on a picker.
func TestSessionServerPicker(t *testing.T) {
	bin := mcpcli(t)
	home, cfg := t.TempDir(), t.TempDir()
	env := []string{"HOME=" + home, "XDG_CONFIG_HOME=" + cfg}
	for _, add := range [][]string{{"servers", "add", "alpha", "--", bin, "demo-server"}, {"servers", "add", "beta", "--", bin, "demo-server"}} {
		cmd := exec.Command(bin, add...)
		cmd.Env = append(os.Environ(), env...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("mcpcli %s: %v\n%s", strings.Join(add, " "), err, out)
		}
	}
	tm := start(t, env, "", bin, "session")
	tm.waitFor("which server?", "2 configured", "▸ alpha", "beta", "mcpcli/servers.json")
	tm.keys("Down", "Enter")
	tm.waitFor("mcpcli demo server 1.0.0", "Tools 10")
	tm.keys("q")
	if s := tm.exited(); !strings.Contains(s, "[exit 0]") {
		t.Errorf("after q:\n%s", s)
	}
}

// In the accessible session a request that fails at once leaves no
// "waiting for the server" line to land on the next prompt later.
func TestAccessibleSessionFailedRequestLeavesNoWaitingLine(t *testing.T) {
	bin := mcpcli(t)
	tm := start(t, nil, "", bin, "session", "--accessible", "--", bin, "demo-server")
	tm.waitFor("mcpcli session with")
	tm.text("read nope://x")
	tm.keys("Enter")
	tm.waitFor("nope://x")
	// The line would come 1.5 s after the request went.
	time.Sleep(2 * time.Second)
	if s := tm.now(); strings.Contains(s, "waiting for the server") {
		t.Errorf("a failed request left a waiting line:\n%s", s)
	}
	tm.text("quit")
	tm.keys("Enter")
}
