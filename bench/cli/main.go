//go:build linux

// Command cli is `make bench-cli`: it builds mcpcli, bench/bare (a minimal
// go-sdk v1.8.0 client) and bench/server, runs both clients through the
// same paths against the same server, interleaved pair by pair, and prints
// a table of the median of the paired time ratios (mcpcli / bare) and of
// each client's peak RSS, with the target each path is held to. The table
// also goes to bench/RESULTS.md.
//
// Run it from the repository's root: go run ./bench/cli [-n 31].
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

type config struct {
	n, warmup int
	out       string
	mcpcli    string // a built mcpcli to use instead of building ./cmd/mcpcli
	only      map[string]bool
	limit     time.Duration
	// staticFloor builds bare and the server static too (CGO_ENABLED=0),
	// as mcpcli is built: both sides then start the same way.
	staticFloor bool
}

func main() {
	var cfg config
	var only string
	flag.IntVar(&cfg.n, "n", 31, "measured pairs per path (the median of 15 moved by 0.1x from run to run on a 2-core VM)")
	flag.IntVar(&cfg.warmup, "warmup", 3, "pairs run first per path, traced for peak RSS and not timed")
	flag.StringVar(&cfg.out, "out", filepath.Join("bench", "RESULTS.md"), "write the table to `FILE` too (empty: don't)")
	flag.StringVar(&cfg.mcpcli, "mcpcli", "", "measure the mcpcli binary at `PATH` instead of building ./cmd/mcpcli")
	flag.StringVar(&only, "paths", "", "run only these paths, comma-separated: "+strings.Join(pathIDs, ","))
	flag.DurationVar(&cfg.limit, "limit", 2*time.Minute, "kill a client still running after this long")
	flag.BoolVar(&cfg.staticFloor, "static-floor", false, "build bare and the server static (CGO_ENABLED=0) as mcpcli is, instead of with a plain go build")
	flag.Parse()
	if only != "" {
		cfg.only = map[string]bool{}
		for _, id := range strings.Split(only, ",") {
			cfg.only[strings.TrimSpace(id)] = true
		}
	}
	if cfg.n < 1 || cfg.warmup < 1 {
		fmt.Fprintln(os.Stderr, "bench-cli: -n and -warmup must be at least 1 (the warm-up runs measure peak RSS)")
		os.Exit(2)
	}
	if err := runBench(cfg, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "bench-cli:", err)
		os.Exit(1)
	}
}

// pathIDs name the paths, in the table's order, for -paths.
var pathIDs = []string{"version", "call", "elicit", "tools", "http", "big5", "big50", "session", "form", "keys"}

func runBench(cfg config, stdout, progress io.Writer) error {
	if _, err := os.Stat(filepath.Join("cmd", "mcpcli")); err != nil {
		return errors.New("run it from the repository's root (where cmd/mcpcli is): go run ./bench/cli")
	}
	for id := range cfg.only {
		if !contains(pathIDs, id) {
			return fmt.Errorf("-paths: no path %q; the paths are %s", id, strings.Join(pathIDs, ","))
		}
	}
	dir, err := os.MkdirTemp("", "bench-cli-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)

	fmt.Fprintln(progress, "building mcpcli, bench/bare and bench/server …")
	mcpcli, err := build(dir, cfg.mcpcli, cfg.staticFloor)
	if err != nil {
		return err
	}
	bare, server := filepath.Join(dir, "bare"), filepath.Join(dir, "server")
	// Each binary is read from disk when it first runs, as an installed
	// program is after a reboot, and not left in the page cache as the
	// linker wrote it: there a freshly linked mcpcli costs about 45 more
	// page faults a start (10% of --version's CPU on a 6.18 kernel), more
	// than the bare client does.
	for _, f := range []string{mcpcli, filepath.Join(filepath.Dir(mcpcli), "mcpcli-supervise"), bare, server} {
		if err := dropCache(f); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("dropping %s from the page cache: %w", f, err)
		}
	}
	// mcpcli keeps tool lists (bench/server says they stay fresh) in a
	// cache of this run's own, which the warm-up runs fill: every timed
	// call runs as a person's second call does. The tmux server started
	// below inherits it too.
	os.Setenv("MCPCLI_CACHE_DIR", filepath.Join(dir, "cache"))
	// The keystroke benchmark types into a form as soon as it is drawn,
	// to time the draw: the key guard (which drops keys pressed in a
	// form's first 300 ms, for a person's safety) would drop them.
	os.Setenv("MCPCLI_KEY_GUARD", "0")
	b := &bench{cfg: cfg, dir: dir, progress: progress}
	if b.devnull, err = os.OpenFile(os.DevNull, os.O_RDWR, 0); err != nil {
		return err
	}
	defer b.devnull.Close()
	answers := filepath.Join(dir, "a.json")
	if err := os.WriteFile(answers, []byte(`{"confirm": {"action": "accept", "content": {"ok": true}}}`+"\n"), 0o644); err != nil {
		return err
	}

	head := header(cfg, mcpcli, bare)

	var rows []row
	want := func(id string) bool { return cfg.only == nil || cfg.only[id] }
	echo := `{"text":"hi"}`
	stdio := func(c ...string) []string { return append(c, "--", server) }
	paths := []path{
		{id: "version", name: "start-up (`--version`; bare: no arguments)", target: 1.15,
			mcpcli: client{argv: []string{mcpcli, "--version"}},
			bare:   client{argv: []string{bare, "-version"}},
			check:  hasAll("version")},
		{id: "call", name: "one call (`call echo text=hi`)", target: 1.15,
			mcpcli: client{argv: stdio(mcpcli, "call", "echo", "text=hi")},
			bare:   client{argv: stdio(bare, "-call", "echo", "-args", echo)},
			check:  hasAll("hi")},
		{id: "elicit", name: "one elicitation round (`--answers`)", target: 1.15,
			mcpcli: client{argv: stdio(mcpcli, "call", "confirm", "--answers", answers)},
			bare:   client{argv: stdio(bare, "-call", "confirm")},
			check:  hasAll("confirmed: ok=true")},
		{id: "tools", name: "`tools`", target: 1.15,
			mcpcli: client{argv: stdio(mcpcli, "tools")},
			bare:   client{argv: stdio(bare, "-list")},
			check:  hasAll("echo", "confirm", "big")},
		{id: "http", name: "one call over Streamable HTTP", target: 1.15, http: true},
		{id: "big5", name: "5 MB result, `-o json`", target: 1.15,
			mcpcli: client{argv: stdio(mcpcli, "call", "big", "size=5000000", "-o", "json")},
			bare:   client{argv: stdio(bare, "-call", "big", "-args", `{"size":5000000}`)},
			check:  atLeast(5000000)},
		{id: "big50", name: "50 MB result, `-o json`", target: 1.15,
			mcpcli: client{argv: stdio(mcpcli, "call", "big", "size=50000000", "-o", "json")},
			bare:   client{argv: stdio(bare, "-call", "big", "-args", `{"size":50000000}`)},
			check:  atLeast(50000000), long: true},
		{id: "session", name: "1,000 calls: `session --accessible` vs an in-process loop", target: 1.3,
			mcpcli: client{argv: stdio(mcpcli, "session", "--accessible"), input: strings.Repeat("call echo text=hi\n", 1000)},
			bare:   client{argv: stdio(bare, "-loop", "1000", "-call", "echo", "-args", echo)},
			check:  count("hi", 1000)},
		{id: "form", name: "first form on screen, tmux 80x24, against bare drawing a minimal form", target: 1.3, form: true,
			mcpcli: client{argv: stdio(mcpcli, "call", "confirm")},
			bare:   client{argv: stdio(bare, "-form", "minimal", "-call", "confirm")}},
		{id: "form", name: "first form on screen, tmux 80x24, against bare printing the input_required it received", form: true,
			mcpcli: client{argv: stdio(mcpcli, "call", "confirm")},
			bare:   client{argv: stdio(bare, "-form", "print", "-call", "confirm")}},
	}
	for _, p := range paths {
		if !want(p.id) {
			continue
		}
		if p.http {
			url, stop, err := startHTTP(server)
			if err != nil {
				rows = append(rows, row{name: p.name, target: p.target, na: "n/a (" + oneLine(err.Error()) + ")"})
				continue
			}
			p.mcpcli = client{argv: []string{mcpcli, "call", "echo", "text=hi", "--url", url}}
			p.bare = client{argv: []string{bare, "-call", "echo", "-args", echo, "-url", url}}
			p.check = hasAll("hi")
			rows = append(rows, b.path(p))
			stop()
			continue
		}
		if p.id == "session" && !hasCommand(mcpcli, "session") {
			rows = append(rows, row{name: p.name, target: p.target, na: "n/a (no session command yet)"})
			continue
		}
		if p.form {
			if _, err := exec.LookPath("tmux"); err != nil {
				rows = append(rows, row{name: p.name, target: p.target, na: "n/a (tmux is not installed)"})
				continue
			}
			t, err := startTmux(fmt.Sprintf("mcpcli-bench-%d", os.Getpid()))
			if err != nil {
				rows = append(rows, row{name: p.name, target: p.target, na: "n/a (" + oneLine(err.Error()) + ")"})
				continue
			}
			b.tmux = t
			rows = append(rows, b.path(p))
			t.close()
			b.tmux = nil
			continue
		}
		rows = append(rows, b.path(p))
	}

	var keys []keyRow
	if want("keys") {
		keys = b.keyTable(mcpcli, server)
	}

	var table bytes.Buffer
	table.WriteString(head)
	table.WriteString("\n")
	writeTable(&table, rows)
	table.WriteString("\n" + notes(cfg))
	if len(keys) > 0 {
		table.WriteString("\n## Keystrokes\n\n")
		writeKeyTable(&table, keys)
		table.WriteString("\n" + keyNotes)
	}
	fmt.Fprint(stdout, "\n"+table.String())
	if cfg.out != "" {
		doc := "# `make bench-cli`: the last run\n\n" + table.String()
		if err := os.WriteFile(cfg.out, []byte(doc), 0o644); err != nil {
			return err
		}
		fmt.Fprintln(progress, "wrote", cfg.out)
	}
	return nil
}

// keyTable times keystrokes in tmux: each path against cat's echo.
func (b *bench) keyTable(mcpcli, server string) []keyRow {
	paste, err := writePaste(b.dir)
	if err == nil {
		_, err = exec.LookPath("tmux")
	}
	var t *tmux
	if err == nil {
		t, err = startTmux(fmt.Sprintf("mcpcli-keys-%d", os.Getpid()))
	}
	paths := keyPaths(mcpcli, server, paste)
	if err != nil {
		rows := make([]keyRow, len(paths))
		for i := range paths {
			rows[i] = keyRow{p: paths[i], na: "n/a (" + oneLine(err.Error()) + ")"}
		}
		return rows
	}
	defer t.close()
	b.tmux = t
	defer func() { b.tmux = nil }()
	return b.keyRows(paths, max(3, (b.cfg.n+4)/5), b.progress)
}

const keyNotes = "A keystroke is timed from the moment the benchmark's tmux control client sends it (send-keys) to the moment it reads tmux's %output notification of the pane's output after which a capture of the pane first shows the key's effect; each key is sent once the pane has been quiet for 30 ms, and then 0–10 ms later (so that it lands anywhere in a frame). `cat` in the same tmux server is the floor: the terminal's own echo, no program in between. Runs of each path alternate with runs of `cat`; the first two keys of each run are not counted. The paste is 1 MB of text lines, pasted into a field of bench/server's 200-field survey form (bracketed paste, `paste-buffer -p`) then Backspace in the field that holds it, then Tab to the next field.\n"

// build builds the programs into dir: mcpcli as make build does (static,
// CGO_ENABLED=0, with its supervisor beside it), bare and the server with a
// plain go build, or static too with staticFloor. A given mcpcli is used as
// it is (with whatever supervisor is beside it).
func build(dir, given string, staticFloor bool) (string, error) {
	mcpcli := filepath.Join(dir, "mcpcli")
	if given == "" {
		if err := goBuild(dir, true, "./cmd/mcpcli", "./cmd/mcpcli-supervise"); err != nil {
			return "", err
		}
	} else {
		abs, err := filepath.Abs(given)
		if err != nil {
			return "", err
		}
		mcpcli = abs
	}
	if err := goBuild(dir, staticFloor, "./bench/bare", "./bench/server"); err != nil {
		return "", err
	}
	return mcpcli, nil
}

func goBuild(dir string, static bool, pkgs ...string) error {
	cmd := exec.Command("go", append([]string{"build", "-o", dir + string(filepath.Separator)}, pkgs...)...)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	cmd.Env = os.Environ()
	if static {
		cmd.Env = append(cmd.Env, "CGO_ENABLED=0")
	}
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build %s: %w", strings.Join(pkgs, " "), err)
	}
	return nil
}

// hasCommand says whether mcpcli knows the command name.
func hasCommand(mcpcli, name string) bool {
	return exec.Command(mcpcli, name, "--help").Run() == nil
}

// startHTTP starts the server on a free loopback port and returns its URL.
func startHTTP(server string) (url string, stop func(), err error) {
	cmd := exec.Command(server, "-http", "127.0.0.1:0")
	out, err := cmd.StdoutPipe()
	if err != nil {
		return "", nil, err
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	stop = func() {
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
	}
	line := make(chan string, 1)
	go func() {
		var b []byte
		one := make([]byte, 1)
		for {
			if _, err := out.Read(one); err != nil || one[0] == '\n' {
				break
			}
			b = append(b, one[0])
		}
		line <- string(b)
		io.Copy(io.Discard, out)
	}()
	select {
	case url = <-line:
	case <-time.After(10 * time.Second):
	}
	if !strings.HasPrefix(url, "http://") {
		stop()
		return "", nil, errors.New("the HTTP server did not print its URL")
	}
	return url, stop, nil
}

func header(cfg config, mcpcli, bare string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "- date: %s\n", time.Now().Format("2006-01-02 15:04 MST"))
	fmt.Fprintf(&b, "- machine: %s, %d cores (load average %s at the start)\n", cpuModel(), runtime.NumCPU(), loadavg())
	gv, _ := exec.Command("go", "version").Output()
	fmt.Fprintf(&b, "- %s\n", strings.TrimSpace(string(gv)))
	what := "built from " + revision(cfg.out)
	if cfg.mcpcli != "" {
		what = "given with -mcpcli " + cfg.mcpcli
	}
	fmt.Fprintf(&b, "- mcpcli %s; binaries: mcpcli %s, bare %s\n", what, size(mcpcli), size(bare))
	floor := "a plain `go build` (cgo on: dynamically linked, as a go-sdk client is built by default)"
	if cfg.staticFloor {
		floor = "`CGO_ENABLED=0` (static, as mcpcli; -static-floor)"
	}
	fmt.Fprintf(&b, "- mcpcli built as `make build` builds it (`CGO_ENABLED=0`: static); bare and the server with %s\n", floor)
	fmt.Fprintf(&b, "- every binary dropped from the page cache after the build (fdatasync, then POSIX_FADV_DONTNEED), to be read from disk at its first run as an installed program is, not run as the linker left it in memory\n")
	fmt.Fprintf(&b, "- %d timed pairs per path after %d warm-up pairs (which measure peak RSS), interleaved: the order alternates pair by pair; 50 MB: %d after 1\n", cfg.n, cfg.warmup, max(3, (cfg.n+2)/3))
	return b.String()
}

// revision is the commit checked out, marked dirty when anything tracked
// but the results file differs from it.
func revision(results string) string {
	rev, err := exec.Command("git", "rev-parse", "--short", "HEAD").Output()
	if err != nil {
		return "an unknown commit (not a git checkout)"
	}
	s := strings.TrimSpace(string(rev))
	args := []string{"status", "--porcelain", "--untracked-files=no", "--", "."}
	if results != "" {
		args = append(args, ":(exclude)"+results)
	}
	if out, err := exec.Command("git", args...).Output(); err == nil && len(bytes.TrimSpace(out)) > 0 {
		s += " with uncommitted changes"
	}
	return s
}

func notes(cfg config) string {
	return "Ratios are mcpcli / bare for each back-to-back pair; the table shows their median and quartiles. " +
		"Times are whole processes, from start to reaped (first form: from launch to the form on screen). " +
		"CPU is user + system time of the client and every process it reaped (the server, and mcpcli's supervisor): the server's share is the same on both sides, and CPU time moves less than wall time on a loaded machine. " +
		"Peak RSS is the median of the runs' peaks: " + rssMethod + "; for the first form, the client's VmHWM when the form is on screen, in every run, and its CPU then, with the processes it started (" + cpuMethod + "). " +
		"bare is bench/bare, a minimal go-sdk v1.8.0 client (its first-form floors: -form minimal, one bubbletea view of the question and its choices; -form print, the question and choices printed as lines); both talk to bench/server, whose tools/list says it stays fresh for 5 minutes (ttlMs): mcpcli keeps it in a cache of the run's own, filled by the warm-up runs, and every timed mcpcli call is one whose tool list is kept.\n"
}

func cpuModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return runtime.GOARCH
}

func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

func size(file string) string {
	fi, err := os.Stat(file)
	if err != nil {
		return "?"
	}
	return fmt.Sprintf("%.1f MB", float64(fi.Size())/1e6)
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if x == y {
			return true
		}
	}
	return false
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
