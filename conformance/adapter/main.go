// Command adapter is the "client" the official MCP conformance suite runs:
//
//	conformance client --command "timeout 25 adapter -mcpcli bin/mcpcli" ...
//
// The suite starts one scenario server per scenario and runs
// sh -c "<command> <serverUrl>", with the scenario's name in
// MCP_CONFORMANCE_SCENARIO, the spec version in
// MCP_CONFORMANCE_PROTOCOL_VERSION and extra data as JSON in
// MCP_CONFORMANCE_CONTEXT. The adapter is not a client of its own: for each
// scenario it runs the real mcpcli binary, one command at a time, the way a
// person would (list the tools, then call one with --args and --answers),
// and reads what it needs from mcpcli's -o json output.
//
// It never reads stdin (the suite's pipe never closes), gives each mcpcli a
// closed stdin and an answers file of its own in a private temporary
// directory, and uses no fixed ports, so scenarios can run in parallel.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Getenv, os.Stderr))
}

// env is the scenario as the suite describes it.
type env struct {
	URL      string
	Scenario string
	Version  string
	Context  map[string]json.RawMessage
}

// runner runs mcpcli against one scenario server.
type runner struct {
	bin     string
	browser string // the $BROWSER for sign-in (conformance/browser)
	env     env
	dir     string // private to this scenario
	timeout time.Duration
	log     io.Writer
	ctx     context.Context
	n       int // answers files written

	// For sign-in: flags added to every command, and the environment
	// (nil: the adapter's own).
	flags   []string
	environ []string
}

func run(ctx context.Context, args []string, getenv func(string) string, stderr io.Writer) int {
	fs := flag.NewFlagSet("adapter", flag.ContinueOnError)
	fs.SetOutput(stderr)
	mcpcli := fs.String("mcpcli", "", "path to the mcpcli binary (default: mcpcli beside this program, else $PATH)")
	timeout := fs.Duration("timeout", 20*time.Second, "bound on each mcpcli command")
	browser := fs.String("browser", "", "the $BROWSER mcpcli signs in with (default: conformance-browser beside this program)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() < 1 {
		fmt.Fprintln(stderr, "adapter: the server URL must be the last argument (the conformance suite appends it)")
		return 2
	}
	e := env{
		URL:      fs.Arg(fs.NArg() - 1),
		Scenario: getenv("MCP_CONFORMANCE_SCENARIO"),
		Version:  getenv("MCP_CONFORMANCE_PROTOCOL_VERSION"),
	}
	if raw := getenv("MCP_CONFORMANCE_CONTEXT"); raw != "" {
		if err := json.Unmarshal([]byte(raw), &e.Context); err != nil {
			fmt.Fprintf(stderr, "adapter: MCP_CONFORMANCE_CONTEXT is not a JSON object: %v\n", err)
			return 2
		}
	}
	play, ok := scenarios[e.Scenario]
	if !ok {
		fmt.Fprintf(stderr, "adapter: no play for scenario %q (MCP_CONFORMANCE_SCENARIO); known: %s\n",
			e.Scenario, strings.Join(known(), ", "))
		return 2
	}
	bin, err := findMcpcli(*mcpcli)
	if err != nil {
		fmt.Fprintf(stderr, "adapter: %v\n", err)
		return 2
	}
	dir, err := os.MkdirTemp("", "mcpcli-conformance-")
	if err != nil {
		fmt.Fprintf(stderr, "adapter: %v\n", err)
		return 1
	}
	defer os.RemoveAll(dir)
	r := &runner{bin: bin, browser: findBeside(*browser, "conformance-browser"), env: e, dir: dir, timeout: *timeout, log: &lockedWriter{w: stderr}, ctx: ctx}
	fmt.Fprintf(stderr, "adapter: scenario %s, spec %s, server %s\n", e.Scenario, orNone(e.Version), e.URL)
	if err := play(r); err != nil {
		fmt.Fprintf(stderr, "adapter: scenario %s: %v\n", e.Scenario, err)
		return 1
	}
	return 0
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

func findMcpcli(flagValue string) (string, error) {
	if flagValue != "" {
		return flagValue, nil
	}
	if self, err := os.Executable(); err == nil {
		beside := filepath.Join(filepath.Dir(self), "mcpcli")
		if st, err := os.Stat(beside); err == nil && !st.IsDir() {
			return beside, nil
		}
	}
	p, err := exec.LookPath("mcpcli")
	if err != nil {
		return "", errors.New("cannot find mcpcli: pass -mcpcli PATH (make conformance builds bin/mcpcli)")
	}
	return p, nil
}

// lockedWriter lets a command's stdout and stderr, copied by two
// goroutines, share the adapter's log.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// findBeside is flagValue, else name beside this program, else name.
func findBeside(flagValue, name string) string {
	if flagValue != "" {
		return flagValue
	}
	if self, err := os.Executable(); err == nil {
		beside := filepath.Join(filepath.Dir(self), name)
		if st, err := os.Stat(beside); err == nil && !st.IsDir() {
			return beside
		}
	}
	return name
}

// answers writes an answers file for one command and returns its path.
func (r *runner) answers(v any) string {
	r.n++
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	name := filepath.Join(r.dir, fmt.Sprintf("answers-%d.json", r.n))
	if err := os.WriteFile(name, b, 0o600); err != nil {
		panic(err)
	}
	return name
}

// decline is the answers file for commands that expect no question: if a
// server asks anyway, the answer is no.
var decline = map[string]any{"*": map[string]any{"action": "decline"}}

// mcpcli runs one mcpcli command against the scenario server. The answers
// file is always given, so mcpcli never waits on a terminal.
func (r *runner) mcpcli(answers any, args ...string) ([]byte, error) {
	if answers == nil {
		answers = decline
	}
	full := append([]string{}, args...)
	full = append(full, r.flags...)
	full = append(full, "--url", r.env.URL, "--answers", r.answers(answers), "--timeout", r.timeout.String())
	ctx, cancel := context.WithTimeout(r.ctx, r.timeout+5*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, r.bin, full...)
	cmd.Env = r.environ
	cmd.Stdin = nil // /dev/null: mcpcli must not wait for a person
	var out bytes.Buffer
	cmd.Stdout = io.MultiWriter(&out, r.log)
	cmd.Stderr = r.log
	fmt.Fprintf(r.log, "adapter: $ mcpcli %s\n", strings.Join(quote(full), " "))
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		err = fmt.Errorf("mcpcli %s exited with status %d", args[0], ee.ExitCode())
	}
	return out.Bytes(), err
}

func quote(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, " \t\n\"'\\$*?;&|<>(){}[]") {
			b, _ := json.Marshal(a)
			a = "'" + strings.ReplaceAll(string(b), "'", `'\''`) + "'"
		}
		out[i] = a
	}
	return out
}

// listed is what `mcpcli tools|prompts|resources -o json` prints.
type listed struct {
	Tools []struct {
		Name        string          `json:"name"`
		InputSchema json.RawMessage `json:"inputSchema"`
	} `json:"tools"`
	Prompts []struct {
		Name string `json:"name"`
	} `json:"prompts"`
	Resources []struct {
		URI string `json:"uri"`
	} `json:"resources"`
}

func (r *runner) list(what string) (*listed, error) {
	out, err := r.mcpcli(nil, what, "-o", "json")
	if err != nil {
		return nil, err
	}
	var l listed
	if err := json.Unmarshal(out, &l); err != nil {
		return nil, fmt.Errorf("mcpcli %s -o json printed something that is not JSON: %v", what, err)
	}
	return &l, nil
}

// call runs `mcpcli call NAME --args JSON -o json`. A tool result with
// isError (exit status 2) still counts as a call made.
func (r *runner) call(name string, args json.RawMessage, answers any) error {
	cmdArgs := []string{"call", name, "-o", "json"}
	if len(args) > 0 {
		cmdArgs = append(cmdArgs, "--args", string(args))
	}
	_, err := r.mcpcli(answers, cmdArgs...)
	return err
}

// toolCall is one entry of the context's toolCalls.
type toolCall struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

func (r *runner) toolCalls() ([]toolCall, error) {
	raw, ok := r.env.Context["toolCalls"]
	if !ok {
		return nil, errors.New("MCP_CONFORMANCE_CONTEXT has no toolCalls")
	}
	var calls []toolCall
	if err := json.Unmarshal(raw, &calls); err != nil {
		return nil, fmt.Errorf("MCP_CONFORMANCE_CONTEXT toolCalls: %v", err)
	}
	return calls, nil
}

// all runs every step and reports the first error, so that one refused
// request does not hide what the others show the suite.
func all(steps ...func() error) error {
	var first error
	for _, s := range steps {
		if err := s(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

func known() []string {
	names := make([]string, 0, len(scenarios))
	for n := range scenarios {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
