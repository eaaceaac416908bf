// Package tourtape plays the tour (mcpcli demo) in tmux the way a person
// would, from a script of keys: make demo-cast records it as docs/demo.cast,
// and the end-to-end tests look at every step of it. It also plays a cast
// back into a terminal, output events in order, as asciinema cat does.
package tourtape

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Tmux is one tmux server of its own (its own socket) with one window
// running one command.
type Tmux struct {
	Socket string
	Dir    string // where the script, and the exit file, are kept
}

// ErrNoTmux is Start's error when tmux is not installed.
var ErrNoTmux = errors.New("tmux is not installed (apt-get install tmux)")

// Start runs argv, with env added to the environment, in a new tmux window
// of cols×rows, its files in dir. When the command ends, the window stays
// as the command left it (Exited reports its status): nothing else is
// drawn in it.
func Start(dir string, cols, rows int, env []string, argv ...string) (*Tmux, error) {
	if _, err := exec.LookPath("tmux"); err != nil {
		return nil, ErrNoTmux
	}
	t := &Tmux{Socket: filepath.Join(dir, "tmux.sock"), Dir: dir}
	var words []string
	for _, e := range env {
		words = append(words, quote(e))
	}
	for _, a := range argv {
		words = append(words, quote(a))
	}
	// The command waits until tmux has the window's size right; its exit
	// status goes to a file, and the shell then sleeps without a word.
	// A Ctrl+C typed reaches the command; the shell, trapping it, stays.
	script := fmt.Sprintf("trap true INT\nwhile [ ! -e %[1]s/go ]; do sleep 0.02; done\nenv %[2]s\necho $? > %[1]s/exit.tmp && mv %[1]s/exit.tmp %[1]s/exit\nexec sleep 86400\n",
		quote(dir), strings.Join(words, " "))
	if err := os.WriteFile(filepath.Join(dir, "run.sh"), []byte(script), 0o755); err != nil {
		return nil, err
	}
	if _, err := t.Run("-f", "/dev/null", "new-session", "-d", "-s", "main", "-x", strconv.Itoa(cols), "-y", strconv.Itoa(rows), "sh "+quote(filepath.Join(dir, "run.sh"))); err != nil {
		return nil, err
	}
	if _, err := t.Run("set-option", "-t", "main", "status", "off"); err != nil {
		t.Close()
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "go"), nil, 0o644); err != nil {
		t.Close()
		return nil, err
	}
	return t, nil
}

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// Run runs a tmux command on this server.
func (t *Tmux) Run(args ...string) (string, error) {
	cmd := exec.Command("tmux", append([]string{"-S", t.Socket}, args...)...)
	cmd.Env = append(os.Environ(), "TERM=xterm-256color")
	out, err := cmd.CombinedOutput()
	if err != nil {
		return string(out), fmt.Errorf("tmux %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(string(out)))
	}
	return string(out), nil
}

// Keys presses keys by tmux's names: "Enter", "C-s", "Down", "y".
func (t *Tmux) Keys(keys ...string) error {
	_, err := t.Run(append([]string{"send-keys", "-t", "main"}, keys...)...)
	return err
}

// Type types s, literally.
func (t *Tmux) Type(s string) error {
	_, err := t.Run("send-keys", "-t", "main", "-l", s)
	return err
}

// Screen is what the window shows now, as text.
func (t *Tmux) Screen() (string, error) { return t.Run("capture-pane", "-p", "-t", "main") }

// Styled is what the window shows now and what scrolled off its top, with
// the colours and attributes as escape sequences.
func (t *Tmux) Styled() (string, error) {
	return t.Run("capture-pane", "-p", "-e", "-S", "-", "-t", "main")
}

// History is the window's text with everything that scrolled off its top.
func (t *Tmux) History() (string, error) { return t.Run("capture-pane", "-p", "-S", "-", "-t", "main") }

// Joined is History with the lines the terminal wrapped joined again: a
// line wider than the window is one the terminal cut, not the program.
func (t *Tmux) Joined() (string, error) {
	return t.Run("capture-pane", "-p", "-J", "-S", "-", "-t", "main")
}

// Pid is the process id of the command (the child of the window's shell).
func (t *Tmux) Pid() (int, error) {
	out, err := t.Run("display-message", "-p", "-t", "main", "#{pane_pid}")
	if err != nil {
		return 0, err
	}
	parent := strings.TrimSpace(out)
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, st := range stats {
		b, err := os.ReadFile(st)
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces, not ")".
		rest := string(b[strings.LastIndexByte(string(b), ')')+1:])
		if f := strings.Fields(rest); len(f) > 1 && f[1] == parent {
			return strconv.Atoi(filepath.Base(filepath.Dir(st)))
		}
	}
	return 0, fmt.Errorf("the command of the window (a child of process %s) is not running", parent)
}

// WaitFor polls the screen until it shows every one of want, for at most
// timeout, and returns it.
func (t *Tmux) WaitFor(timeout time.Duration, want ...string) (string, error) {
	deadline := time.Now().Add(timeout)
	for {
		s, err := t.Screen()
		if err != nil {
			return s, err
		}
		missing := ""
		for _, w := range want {
			if !strings.Contains(s, w) {
				missing = w
				break
			}
		}
		if missing == "" {
			return s, nil
		}
		if code, ok := t.exitCode(); ok {
			return s, fmt.Errorf("the command ended (status %d) before the screen showed %q:\n%s", code, missing, s)
		}
		if time.Now().After(deadline) {
			return s, fmt.Errorf("the screen did not show %q within %s:\n%s", missing, timeout, s)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (t *Tmux) exitCode() (int, bool) {
	b, err := os.ReadFile(filepath.Join(t.Dir, "exit"))
	if err != nil {
		return 0, false
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(b)))
	return n, err == nil
}

// Exited waits, at most timeout, for the command to end, and returns its
// exit status.
func (t *Tmux) Exited(timeout time.Duration) (int, error) {
	deadline := time.Now().Add(timeout)
	for {
		if code, ok := t.exitCode(); ok {
			return code, nil
		}
		if time.Now().After(deadline) {
			s, _ := t.Screen()
			return 0, fmt.Errorf("the command did not end within %s:\n%s", timeout, s)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Close stops the tmux server, and the command in it.
func (t *Tmux) Close() { exec.Command("tmux", "-S", t.Socket, "kill-server").Run() }
