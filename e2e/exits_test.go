//go:build unix

package e2e

import (
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/mcpcli/mcpcli/internal/authtest"
)

// The terminal is given back as it was found on every way out: a signal
// (SIGINT, SIGTERM, SIGHUP) sent to mcpcli while any of its screens is
// up leaves no alternate screen, no hidden cursor, no mouse or keypad
// mode, and the tty's settings (stty -a) as they were; and the exit code
// is the shell's for the signal.

// modes are the pane's modes tmux keeps: the alternate screen, the
// cursor's visibility, mouse and keypad modes.
const modes = "alt=#{alternate_on} cursor=#{cursor_flag} mouse=#{mouse_any_flag}#{mouse_button_flag}#{mouse_all_flag}#{mouse_sgr_flag}#{mouse_standard_flag} keypad=#{keypad_flag}#{keypad_cursor_flag} origin=#{origin_flag} insert=#{insert_flag} wrap=#{wrap_flag}"

// guarded is a tmux window running argv, with the pane's modes and the
// tty's settings noted before mcpcli starts and after it ends.
type guarded struct {
	*term
	before string // the pane's modes before
}

// startGuarded is start for a test of what mcpcli leaves behind: the
// script notes stty -a before and after the command, and then says
// [after] and waits (a dead pane's cursor is hidden).
func startGuarded(t *testing.T, env []string, argv ...string) *guarded {
	t.Helper()
	dir := t.TempDir()
	tm := &term{t: t, socket: filepath.Join(dir, "tmux.sock"), dir: dir}
	var quoted []string
	for _, a := range argv {
		quoted = append(quoted, shellQuote(a))
	}
	d := shellQuote(dir)
	script := fmt.Sprintf(`while [ ! -e %[1]s/go ]; do sleep 0.02; done
stty -a > %[1]s/stty.before
MCPCLI_KEY_GUARD=0 %[2]s %[3]s
echo "[exit $?]"
stty -a > %[1]s/stty.after
echo "[after]"
exec sleep 3600
`, d, strings.Join(env, " "), strings.Join(quoted, " "))
	if err := os.WriteFile(filepath.Join(dir, "run.sh"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	tm.tmux("-f", "/dev/null", "new-session", "-d", "-s", "main", "-x", "80", "-y", "24", "sh "+shellQuote(filepath.Join(dir, "run.sh")))
	tm.tmux("set-option", "-t", "main", "remain-on-exit", "on")
	t.Cleanup(func() { exec.Command("tmux", "-S", tm.socket, "kill-server").Run() })
	g := &guarded{term: tm, before: tm.tmux("display-message", "-p", "-t", "main", modes)}
	if err := os.WriteFile(filepath.Join(dir, "go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	return g
}

// pid is mcpcli's: the window's shell's child.
func (g *guarded) pid() int {
	g.t.Helper()
	shell := strings.TrimSpace(g.tmux("display-message", "-p", "-t", "main", "#{pane_pid}"))
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, st := range stats {
		b, err := os.ReadFile(st)
		if err != nil {
			continue
		}
		rest := string(b[strings.LastIndexByte(string(b), ')')+1:])
		if f := strings.Fields(rest); len(f) > 1 && f[1] == shell {
			pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(st)))
			return pid
		}
	}
	g.t.Fatalf("mcpcli (a child of the window's shell %s) is not running", shell)
	return 0
}

// signal sends sig to mcpcli.
func (g *guarded) signal(sig syscall.Signal) {
	g.t.Helper()
	if err := syscall.Kill(g.pid(), sig); err != nil {
		g.t.Fatal(err)
	}
}

// restored waits for mcpcli to end and checks what it left: the exit
// code, the pane's modes and the tty's settings as before. It returns the
// screen.
func (g *guarded) restored(code int) string {
	g.t.Helper()
	s := g.waitFor("[after]")
	if !strings.Contains(s, fmt.Sprintf("[exit %d]", code)) {
		g.t.Errorf("mcpcli did not exit %d:\n%s", code, s)
	}
	if after := g.tmux("display-message", "-p", "-t", "main", modes); after != g.before {
		g.t.Errorf("the pane's modes are\n%s\nwant, as before mcpcli ran,\n%s\nthe screen:\n%s", after, g.before, s)
	}
	before, _ := os.ReadFile(filepath.Join(g.dir, "stty.before"))
	after, _ := os.ReadFile(filepath.Join(g.dir, "stty.after"))
	if len(before) == 0 || string(before) != string(after) {
		g.t.Errorf("stty -a after mcpcli:\n%s\nbefore:\n%s", after, before)
	}
	return s
}

// A screen is a way to bring one of mcpcli's screens up.
type screen struct {
	name string
	// open starts mcpcli and waits until the screen shows.
	open func(t *testing.T) *guarded
	// says is what mcpcli says when a signal ends it there (%s: the
	// signal's name).
	says string
}

func exitScreens(t *testing.T) []screen {
	bin := mcpcli(t)
	demo := func(env []string, args ...string) func(t *testing.T) *guarded {
		return func(t *testing.T) *guarded {
			return startGuarded(t, env, append(append([]string{bin}, args...), "--", bin, "demo-server")...)
		}
	}
	// session opens pick (a tool taking no arguments is called with y:
	// its name ends in "()").
	session := func(pick, wait string, then ...func(g *guarded)) func(t *testing.T) *guarded {
		return func(t *testing.T) *guarded {
			g := demo([]string{"BROWSER=", "DISPLAY=", "WAYLAND_DISPLAY="}, "session", "--sampling")(t)
			g.waitFor("mcpcli demo server 1.0.0", "Tools 10")
			switch {
			case strings.HasSuffix(pick, "()"):
				g.call(strings.TrimSuffix(pick, "()"))
			case pick != "":
				g.pick(pick)
			}
			for _, f := range then {
				f(g)
			}
			g.waitFor(wait)
			return g
		}
	}
	keys := func(wait string, keys ...string) func(g *guarded) {
		return func(g *guarded) {
			g.waitFor(wait)
			g.keys(keys...)
		}
	}
	typed := func(wait, text string) func(g *guarded) {
		return func(g *guarded) {
			g.waitFor(wait)
			g.text(text)
		}
	}
	oneShot := func(wait string, args ...string) func(t *testing.T) *guarded {
		return func(t *testing.T) *guarded {
			g := demo([]string{"BROWSER=", "DISPLAY=", "WAYLAND_DISPLAY="}, args...)(t)
			g.waitFor(wait)
			return g
		}
	}
	const (
		ended     = "mcpcli: the session ended on %s[exit"
		cut       = "mcpcli: the session ended on %s; the request still running was cancelled, and its server told[exit"
		abandoned = "mcpcli: cancelled on %s; the request was abandoned[exit"
	)
	return []screen{
		{"session at rest", session("", "Tools 10"), ended},
		{"session elicitation form", session("switch_account()", "Which one should I use?"), cut},
		{"session arguments form", session("create_repo", "Arguments for tool create_repo"), ended},
		{"session review", session("create_repo", "Review: these arguments go to",
			typed("owner *", "octo"), keys("octo", "Enter")), ended},
		{"session URL consent", session("connect_account", "o open in browser",
			keys("Arguments for tool connect_account", "Enter", "Enter")), cut},
		{"session sampling reply", session("draft_announcement", "asks for a model reply",
			keys("Arguments for tool draft_announcement", "Enter", "Enter")), cut},
		{"session capabilities", session("", "+ add a directory", keys("Tools 10", "C")), ended},
		{"session save", session("switch_account()", "Save the session's 1 request as",
			keys("Which one should I use?", "C-x"), keys("✓ complete", "Escape", "S")), ended},
		{"session value question", session("", "needs topic", func(g *guarded) {
			g.keys("3")
			g.waitFor("Notes on a topic")
			g.pick("Notes on")
		}), ended},
		{"one-shot value question", oneShot("needs topic", "read", "demo://notes/{topic}"), "mcpcli: stopped on %s before anything was sent[exit"},
		{"session sign-in at the start", func(t *testing.T) *guarded {
			srv := httptest.NewServer(authtest.New(authtest.Options{Scopes: []string{"mcp:tools"}}).Handler())
			t.Cleanup(srv.Close)
			dir := t.TempDir()
			g := startGuarded(t, []string{"HOME=" + shellQuote(dir), "XDG_STATE_HOME=" + shellQuote(dir), "MCPCLI_TOKEN_STORE=file", "BROWSER=", "DISPLAY=", "WAYLAND_DISPLAY="},
				bin, "session", "--url", srv.URL+"/mcp")
			g.waitFor("Sign in? [o]pen in browser")
			return g
		}, "mcpcli: the session ended on %s while it connected to the server[exit"},
		{"session sign-in in place", func(t *testing.T) *guarded {
			srv := httptest.NewServer(authtest.New(authtest.Options{Scopes: []string{"mcp:tools"}, StepUp: "mcp:admin"}).Handler())
			t.Cleanup(srv.Close)
			dir := t.TempDir()
			g := startGuarded(t, []string{"HOME=" + shellQuote(dir), "XDG_STATE_HOME=" + shellQuote(dir), "MCPCLI_TOKEN_STORE=file", "BROWSER=" + shellQuote(loopbackBrowser(t))},
				bin, "session", "--url", srv.URL+"/mcp")
			g.waitFor("Sign in? [o]pen in browser")
			g.keys("o", "Enter")
			g.waitFor("authtest 1.0.0", "Tools 2")
			g.call("admin")
			g.waitFor("Sign in? [o]pen in browser")
			return g
		}, cut},
		{"session picker", func(t *testing.T) *guarded {
			home, cfg := t.TempDir(), t.TempDir()
			env := []string{"HOME=" + home, "XDG_CONFIG_HOME=" + cfg}
			cmd := exec.Command(bin, "servers", "add", "alpha", "--", bin, "demo-server")
			cmd.Env = append(os.Environ(), env...)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("mcpcli servers add: %v\n%s", err, out)
			}
			g := startGuarded(t, env, bin, "session")
			g.waitFor("which server?", "▸ alpha")
			return g
		}, "mcpcli: stopped on %s before anything was sent[exit"},
		{"line session at rest", func(t *testing.T) *guarded {
			g := demo(nil, "session", "--accessible")(t)
			g.waitFor("help lists the commands", "mcpcli>")
			return g
		}, ended},
		{"line session asking", func(t *testing.T) *guarded {
			g := demo(nil, "session", "--accessible")(t)
			g.waitFor("help lists the commands", "mcpcli>")
			g.text("call switch_account")
			g.keys("Enter")
			g.waitFor("Answer? [a]ccept and fill in")
			return g
		}, cut},
		{"tour form", func(t *testing.T) *guarded {
			g := startGuarded(t, nil, bin, "demo")
			g.waitFor("Tour 1/7", "Delete it for good? *")
			return g
		}, abandoned},
		{"one-shot arguments form", oneShot("Arguments for tool create_repo", "call", "create_repo"), "mcpcli: stopped on %s before anything was sent[exit"},
		{"one-shot form", oneShot("Which one should I use?", "call", "switch_account"), abandoned},
		{"one-shot review", func(t *testing.T) *guarded {
			g := demo(nil, "call", "switch_account")(t)
			g.waitFor("Which one should I use?")
			g.keys("C-s")
			g.waitFor("Review")
			return g
		}, abandoned},
		{"one-shot URL consent", oneShot("o open in browser", "call", "connect_account"), abandoned},
		{"one-shot sampling reply", oneShot("asks for a model reply", "call", "draft_announcement", "--sampling"), abandoned},
	}
}

// Every signal, on every screen: the run ends in order (not killed by
// main after its grace period), with the terminal as it was.
func TestSignalsRestoreTheTerminal(t *testing.T) {
	for _, sc := range exitScreens(t) {
		for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
			t.Run(sc.name+"/"+unixName(sig), func(t *testing.T) {
				t.Parallel()
				g := sc.open(t)
				g.signal(sig)
				s := g.restored(128 + int(sig))
				if want := fmt.Sprintf(sc.says, unixName(sig)); !strings.Contains(strings.ReplaceAll(s, "\n", ""), want) {
					t.Errorf("mcpcli does not say %q:\n%s", want, s)
				}
				if strings.Contains(strings.ReplaceAll(s, "\n", ""), "did not end in order") {
					t.Errorf("the run did not end in order; main stopped it:\n%s", s)
				}
			})
		}
	}
}

func unixName(sig syscall.Signal) string {
	return map[syscall.Signal]string{syscall.SIGINT: "SIGINT", syscall.SIGTERM: "SIGTERM", syscall.SIGHUP: "SIGHUP"}[sig]
}

// A second signal before the run has ended in order: main stops the run
// at once, and still gives the terminal back; its words name the signals
// as they came.
func TestASecondSignalStillRestoresTheTerminal(t *testing.T) {
	screens := exitScreens(t)
	for _, sc := range screens {
		switch sc.name {
		case "session elicitation form", "session URL consent", "tour form", "one-shot form":
		default:
			continue
		}
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			g := sc.open(t)
			pid := g.pid()
			// Both at once, sent while mcpcli is stopped: the second
			// comes before it could end in order. Which of the two it
			// takes first is the kernel's and the runtime's choice.
			for _, sig := range []syscall.Signal{syscall.SIGSTOP, syscall.SIGTERM, syscall.SIGINT, syscall.SIGCONT} {
				if err := syscall.Kill(pid, sig); err != nil {
					t.Fatal(err)
				}
			}
			s := g.waitFor("[after]")
			m := regexp.MustCompile(`mcpcli: stopped on (SIG[A-Z]+); a second signal, (SIG[A-Z]+), came before the run ended in order, so its servers were killed\[exit (\d+)\]`).FindStringSubmatch(strings.ReplaceAll(s, "\n", ""))
			code := map[string]int{"SIGINT": 130, "SIGTERM": 143}
			if m == nil || m[1] == m[2] || code[m[1]] == 0 || code[m[2]] == 0 || m[3] != strconv.Itoa(code[m[1]]) {
				t.Errorf("the words do not name both signals as they came, with the first's exit code:\n%s", s)
				return
			}
			g.restored(code[m[1]])
		})
	}
}
