//go:build linux

package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// tmux is a private tmux server (its own socket, no config file) driven
// through one control-mode client: the launches, keys and captures are
// commands written to that client, so polling the screen every 2 ms does
// not start a tmux process each time, which would steal the CPU the client
// under test needs. The client also tells, as %output notifications, when
// a program in its session writes to its terminal: a line read from it is
// stamped with the time it was read.
type tmux struct {
	socket string
	path   string // the socket's file, removed at the end (kill-server leaves it)
	ctl    *exec.Cmd
	in     io.WriteCloser
	lines  chan stamped // what the control client writes, line by line
	seq    int

	// watch is the pane whose output is noted: outs counts its %output
	// notifications, outAt is when the last one was read.
	watch string
	outs  int
	outAt time.Time
}

// stamped is one line from the control client and when it was read.
type stamped struct {
	s  string
	at time.Time
}

func startTmux(socket string) (*tmux, error) {
	t := &tmux{socket: socket}
	// A session that lives as long as the benchmark holds the server up
	// and gives the control client somewhere to attach.
	if out, err := t.command("-f", "/dev/null", "new-session", "-d", "-s", "keep", "-x", "80", "-y", "24", "sleep 86400").CombinedOutput(); err != nil {
		return nil, fmt.Errorf("start a tmux server: %v: %s", err, out)
	}
	// A client that fails keeps its pane, so the error is on the screen.
	if out, err := t.command("set-option", "-g", "remain-on-exit", "on").CombinedOutput(); err != nil {
		t.close()
		return nil, fmt.Errorf("tmux set-option: %v: %s", err, out)
	}
	t.ctl = t.command("-C", "attach-session", "-t", "keep")
	var err error
	if t.in, err = t.ctl.StdinPipe(); err != nil {
		return nil, err
	}
	stdout, err := t.ctl.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := t.ctl.Start(); err != nil {
		t.close()
		return nil, fmt.Errorf("tmux control client: %w", err)
	}
	t.lines = make(chan stamped, 4096)
	go func() {
		defer close(t.lines)
		r := bufio.NewReaderSize(stdout, 1<<20)
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			t.lines <- stamped{strings.TrimSuffix(line, "\n"), time.Now()}
		}
	}()
	out, err := t.do("display-message -p '#{socket_path}'")
	if err != nil || len(out) != 1 || out[0] == "" {
		t.close()
		return nil, fmt.Errorf("tmux control client: answered %q, %v to display-message", out, err)
	}
	t.path = out[0]
	return t, nil
}

func (t *tmux) command(args ...string) *exec.Cmd {
	return exec.Command("tmux", append([]string{"-L", t.socket}, args...)...)
}

// do runs one tmux command through the control client and returns its
// output lines.
func (t *tmux) do(command string) ([]string, error) {
	lines, _, err := t.doAt(command)
	return lines, err
}

// doAt is do, and when the last output of the watched pane before the
// command ran was read.
func (t *tmux) doAt(command string) ([]string, time.Time, error) {
	if _, err := fmt.Fprintln(t.in, command); err != nil {
		return nil, time.Time{}, fmt.Errorf("tmux control client: %w", err)
	}
	return t.block()
}

// next is the next line from the control client, or an error after limit.
func (t *tmux) next(limit time.Duration) (stamped, error) {
	timer := time.NewTimer(limit)
	defer timer.Stop()
	select {
	case l, ok := <-t.lines:
		if !ok {
			return stamped{}, errors.New("tmux control client: it exited")
		}
		return l, nil
	case <-timer.C:
		return stamped{}, fmt.Errorf("tmux control client: nothing for %v", limit)
	}
}

// note takes a notification: the watched pane's output is counted.
func (t *tmux) note(l stamped) {
	if rest, ok := strings.CutPrefix(l.s, "%output "); ok && t.watch != "" && strings.HasPrefix(rest, t.watch+" ") {
		t.outs++
		t.outAt = l.at
	}
}

// block reads the output of the next command this client sent: the next
// %begin … %end block whose flags are 1. Notifications between blocks,
// and blocks of commands tmux ran on its own (flags 0, such as the
// attach), are noted or skipped. before is when the last output of the
// watched pane was read before the block began: tmux writes what a pane
// wrote before it runs the command, so the command (a capture) saw it.
func (t *tmux) block() (lines []string, before time.Time, err error) {
	in, ours := false, false
	for {
		l, err := t.next(30 * time.Second)
		if err != nil {
			return nil, time.Time{}, err
		}
		line := l.s
		switch {
		case !in && strings.HasPrefix(line, "%begin "):
			in, ours = true, strings.HasSuffix(line, " 1")
			lines, before = lines[:0], t.outAt
		case in && strings.HasPrefix(line, "%end "):
			if ours {
				return lines, before, nil
			}
			in = false
		case in && strings.HasPrefix(line, "%error "):
			if ours {
				return nil, time.Time{}, fmt.Errorf("tmux: %s", strings.Join(lines, " "))
			}
			in = false
		case in:
			lines = append(lines, line)
		default:
			t.note(l)
		}
	}
}

// waitOutput waits until the watched pane has written more than outs
// times.
func (t *tmux) waitOutput(outs int, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for t.outs <= outs {
		l, err := t.next(time.Until(deadline))
		if err != nil {
			return err
		}
		t.note(l)
	}
	return nil
}

func (t *tmux) close() {
	if t.in != nil {
		t.in.Close()
	}
	t.command("kill-server").Run()
	if t.ctl != nil && t.ctl.Process != nil {
		t.ctl.Wait()
	}
	if t.path != "" {
		os.Remove(t.path)
	}
}

// quote makes s one word for tmux's command parser.
func quote(s string) (string, error) {
	if strings.ContainsAny(s, "'\n") {
		return "", fmt.Errorf("%q cannot be passed to tmux in single quotes", s)
	}
	return "'" + s + "'", nil
}

// formScreen is how a client's form is recognised: the question and a
// choice of the boolean field, drawn in the same frame by both clients.
var formScreen = []string{confirmMessage, "Yes"}

// confirmMessage is the question bench/server's confirm tool asks.
const confirmMessage = "Run the benchmark step?"

// firstForm starts argv in a fresh 80x24 tmux session and polls the screen
// every 2 ms until the form is on it. It returns the time from launch, and
// the client's CPU (with what it started) and peak RSS at that moment, then
// kills the session.
func (t *tmux) firstForm(argv []string, limit time.Duration) (run, error) {
	t.seq++
	name := "form" + strconv.Itoa(t.seq)
	words := []string{"new-session", "-d", "-s", name, "-x", "80", "-y", "24", "-P", "-F", "'#{pane_pid}'"}
	for _, a := range argv {
		q, err := quote(a)
		if err != nil {
			return run{}, err
		}
		words = append(words, q)
	}
	launch := strings.Join(words, " ")
	defer t.do("kill-session -t " + name)
	start := time.Now()
	out, err := t.do(launch)
	if err != nil {
		return run{}, err
	}
	if len(out) != 1 {
		return run{}, fmt.Errorf("tmux new-session printed %q, want the pane's pid", out)
	}
	pid, err := strconv.Atoi(out[0])
	if err != nil {
		return run{}, fmt.Errorf("tmux new-session printed %q, want the pane's pid", out[0])
	}
	capture := "capture-pane -p -t " + name
	var screen string
	for time.Since(start) < limit {
		lines, err := t.do(capture)
		if err != nil {
			return run{}, err
		}
		screen = strings.Join(lines, "\n")
		if containsAll(screen, formScreen) {
			r := run{wall: time.Since(start)}
			if r.cpu, err = treeCPU(pid); err != nil {
				return run{}, err
			}
			if r.rssKB, err = peakRSS(pid, pid); err != nil {
				return run{}, err
			}
			return r, nil
		}
		time.Sleep(2 * time.Millisecond)
	}
	return run{}, fmt.Errorf("no form on the screen after %v; the screen:\n%s", limit, strings.TrimRight(screen, "\n"))
}

func containsAll(s string, subs []string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}

var errNoTmux = errors.New("tmux is not installed")
