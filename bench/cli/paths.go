//go:build linux

package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// client is one side of a path: the command and what it reads on stdin.
type client struct {
	argv  []string
	input string // written to a pipe on stdin; empty means /dev/null
}

// path is one row of the table.
type path struct {
	id, name     string
	target       float64
	mcpcli, bare client
	check        func(stdout []byte) error // judges one untimed run's output
	http         bool                      // clients are set once the HTTP server is up
	form         bool                      // measured in tmux to the first form
	long         bool                      // runs take seconds: a third of the pairs, one warm-up pair
}

type bench struct {
	cfg      config
	dir      string
	progress io.Writer
	devnull  *os.File
	tmux     *tmux
}

// path checks both clients' output once, then runs warm-up and measured
// pairs, alternating which client goes first. The warm-up pairs give the
// peak RSS; the measured pairs give the times.
func (b *bench) path(p path) row {
	r := row{name: p.name, target: p.target}
	fail := func(err error) row {
		fmt.Fprintf(b.progress, "%s: %v\n", p.id, err)
		r.na = "n/a (failed: " + oneLine(firstLine(err.Error())) + ")"
		return r
	}
	if !p.form {
		for _, c := range []struct {
			who string
			c   client
		}{{"mcpcli", p.mcpcli}, {"bare", p.bare}} {
			if err := b.check(c.c, p.check); err != nil {
				return fail(fmt.Errorf("%s: %w", c.who, err))
			}
		}
	}
	warmup, n := b.cfg.warmup, b.cfg.n
	if p.long {
		// Each run is long enough to average out the scheduler's noise
		// on its own, and the run must stay within minutes.
		warmup, n = 1, max(3, (n+2)/3)
	}
	fmt.Fprintf(b.progress, "%s: %d pairs …", p.id, warmup+n)
	var pairs []pair
	var mcpcliKB, bareKB []int64
	for i := range warmup + n {
		// Warm-up runs measure peak RSS (traced, so not timed); the
		// first-form runs measure it as they go.
		warm := i < warmup
		var m, bare run
		var err error
		if i%2 == 0 {
			if m, err = b.once(p, p.mcpcli, warm); err == nil {
				bare, err = b.once(p, p.bare, warm)
			}
		} else {
			if bare, err = b.once(p, p.bare, warm); err == nil {
				m, err = b.once(p, p.mcpcli, warm)
			}
		}
		if err != nil {
			fmt.Fprintln(b.progress)
			return fail(err)
		}
		if warm || p.form {
			mcpcliKB = append(mcpcliKB, m.rssKB)
			bareKB = append(bareKB, bare.rssKB)
		}
		if !warm {
			pairs = append(pairs, pair{mcpcliMs: msOf(m.wall), bareMs: msOf(bare.wall), mcpcliCPUMs: msOf(m.cpu), bareCPUMs: msOf(bare.cpu)})
		}
	}
	r.sum = summarize(pairs, mcpcliKB, bareKB)
	fmt.Fprintf(b.progress, " %.2f× (mcpcli %s ms, bare %s ms)\n", r.sum.ratio, ms(r.sum.mcpcliMs), ms(r.sum.bareMs))
	return r
}

func msOf(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// once runs one client once, stdout to /dev/null; peak asks for its peak
// RSS instead of a time that counts.
func (b *bench) once(p path, c client, peak bool) (run, error) {
	if p.form {
		return b.tmux.firstForm(c.argv, 10*time.Second)
	}
	return b.exec(c, b.devnull, peak)
}

// check runs c once with its stdout kept and judges it, so that a client
// that fails fast is not timed as a fast client.
func (b *bench) check(c client, judge func([]byte) error) error {
	out, err := os.Create(filepath.Join(b.dir, "stdout"))
	if err != nil {
		return err
	}
	defer out.Close()
	if _, err := b.exec(c, out, false); err != nil {
		return err
	}
	got, err := os.ReadFile(out.Name())
	if err != nil {
		return err
	}
	return judge(got)
}

// exec runs c with stdout to out and stderr kept for the error, and
// fails unless it exits 0.
func (b *bench) exec(c client, out *os.File, peak bool) (run, error) {
	stdin := b.devnull
	if c.input != "" {
		r, w, err := os.Pipe()
		if err != nil {
			return run{}, err
		}
		defer r.Close()
		go func() {
			io.WriteString(w, c.input)
			w.Close()
		}()
		stdin = r
	}
	errFile, err := os.Create(filepath.Join(b.dir, "stderr"))
	if err != nil {
		return run{}, err
	}
	defer errFile.Close()
	r, err := measure(c.argv, [3]*os.File{stdin, out, errFile}, b.cfg.limit, peak)
	if err == nil && r.status.ExitStatus() != 0 {
		err = fmt.Errorf("exited with %v", r.status.ExitStatus())
		if r.status.Signaled() {
			err = fmt.Errorf("killed by %v", r.status.Signal())
		}
	}
	if err != nil {
		tail, _ := os.ReadFile(errFile.Name())
		return run{}, fmt.Errorf("%s: %w; its stderr: %s", strings.Join(c.argv, " "), err, lastLines(tail, 5))
	}
	return r, nil
}

func hasAll(subs ...string) func([]byte) error {
	return func(out []byte) error {
		for _, s := range subs {
			if !bytes.Contains(out, []byte(s)) {
				return fmt.Errorf("stdout has no %q: %s", s, lastLines(out, 5))
			}
		}
		return nil
	}
}

func atLeast(n int) func([]byte) error {
	return func(out []byte) error {
		if len(out) < n || !bytes.Contains(out, []byte("the quick brown fox")) {
			return fmt.Errorf("stdout has %d bytes, want the %d-byte text", len(out), n)
		}
		return nil
	}
}

func count(sub string, n int) func([]byte) error {
	return func(out []byte) error {
		if got := bytes.Count(out, []byte(sub)); got < n {
			return fmt.Errorf("stdout has %q %d times, want %d: %s", sub, got, n, lastLines(out, 5))
		}
		return nil
	}
}

func lastLines(b []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	s := strings.Join(lines, " | ")
	if len(s) > 400 {
		s = s[len(s)-400:]
	}
	return s
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
