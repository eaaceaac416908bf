// Package thirdparty starts the third-party MCP servers that mcpcli's tests
// run against: the reference servers and TypeScript SDK examples pinned in
// the repository's thirdparty/package.json (installed with
// `npm ci --prefix thirdparty --no-audit --no-fund`), and the go-sdk's
// example servers, built from the module cache.
//
// A stdio helper returns the argv to start; an HTTP helper starts the server
// on a free loopback port, waits until the port accepts connections, and
// returns its URL; the whole process group is stopped when the test ends.
// Anything missing (node, the npm packages, a build) fails the test with the
// command that fixes it: these tests never skip.
package thirdparty

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// InstallCommand installs the npm packages the helpers need, run from the
// repository's root.
const InstallCommand = "npm ci --prefix thirdparty --no-audit --no-fund"

const (
	// startTimeout bounds a server's start-up: Node loads a few hundred
	// modules before it listens, slowly on a busy 2-core machine.
	startTimeout = 30 * time.Second
	// stopGrace is how long a server has to exit on SIGTERM before its
	// process group is killed.
	stopGrace = 5 * time.Second
	// outputLimit bounds the server output kept for failure messages.
	outputLimit = 64 << 10
)

// RepoRoot returns the root of the mcpcli checkout the test runs in: the
// nearest directory above the working directory that has go.mod and
// thirdparty/package.json.
func RepoRoot(t testing.TB) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatalf("thirdparty: working directory: %v", err)
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if fileExists(filepath.Join(dir, "go.mod")) && fileExists(filepath.Join(dir, "thirdparty", "package.json")) {
			return dir
		}
		if filepath.Dir(dir) == dir {
			t.Fatalf("thirdparty: no directory above %s has go.mod and thirdparty/package.json; run the test inside the mcpcli checkout", wd)
		}
	}
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// Node returns the node binary the npm servers run on: the machine's
// (Debian's nodejs, installed with npm), which must be Node 20 or newer, the
// oldest that every pinned package's engines field accepts.
func Node(t testing.TB) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("thirdparty: node is not on PATH: install it (apt-get install -y nodejs npm), then run %s in %s", InstallCommand, RepoRoot(t))
	}
	out, err := exec.Command(node, "--version").Output()
	if err != nil {
		t.Fatalf("thirdparty: %s --version: %v", node, err)
	}
	version := strings.TrimSpace(string(out))
	major, _, _ := strings.Cut(strings.TrimPrefix(version, "v"), ".")
	if n, err := strconv.Atoi(major); err != nil || n < 20 {
		t.Fatalf("thirdparty: %s is Node %s; the pinned servers need Node 20 or newer", node, version)
	}
	return node
}

// npmPackage returns the directory of an npm package pinned in
// thirdparty/package.json, after checking that npm installed the pinned
// version; otherwise the test fails with the command that installs it.
func npmPackage(t testing.TB, name string) string {
	t.Helper()
	dir, err := installedPackage(RepoRoot(t), name)
	if err != nil {
		t.Fatalf("thirdparty: %v", err)
	}
	return dir
}

// installedPackage returns the directory of the npm package name under
// root/thirdparty/node_modules, or an error that says how to install it.
func installedPackage(root, name string) (string, error) {
	var manifest struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	if err := readJSON(filepath.Join(root, "thirdparty", "package.json"), &manifest); err != nil {
		return "", err
	}
	pinned, ok := manifest.Dependencies[name]
	if !ok {
		return "", fmt.Errorf("%s is not pinned in thirdparty/package.json: pin it with `npm install --prefix thirdparty --save-exact %s` in %s", name, name, root)
	}
	fix := fmt.Sprintf("run `%s` in %s", InstallCommand, root)
	dir := filepath.Join(root, "thirdparty", "node_modules", filepath.FromSlash(name))
	var installed struct {
		Version string `json:"version"`
	}
	if err := readJSON(filepath.Join(dir, "package.json"), &installed); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return "", fmt.Errorf("the npm package %s is not installed: %s", name, fix)
		}
		return "", fmt.Errorf("%v: %s", err, fix)
	}
	if installed.Version != pinned {
		return "", fmt.Errorf("%s %s is installed but thirdparty/package.json pins %s: %s", name, installed.Version, pinned, fix)
	}
	return dir, nil
}

func readJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	return nil
}

// freePort returns a TCP port on 127.0.0.1 that was free a moment ago. The
// server that gets it may lose a race for it; startHTTP then tries again.
func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("thirdparty: finding a free loopback port: %v", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// tailBuffer keeps the last outputLimit bytes written to it; a server's
// stdout and stderr both go here, for failure messages.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if over := len(b.buf) - outputLimit; over > 0 {
		b.buf = append(b.buf[:0], b.buf[over:]...)
	}
	return len(p), nil
}

func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(bytes.TrimSpace(b.buf))
}

// process is a started server.
type process struct {
	name   string
	cmd    *exec.Cmd
	output *tailBuffer
	done   chan struct{} // closed when the process has exited
	err    error         // how it exited, once done is closed
}

// launch is what startHTTP runs: argv and extra environment (K=V) for a
// server told to listen on ports[0] (and ports[1], ... when it needs more).
type launch struct {
	argv []string
	env  []string
}

// startHTTP starts a server that listens on the loopback ports it is given,
// and returns them once they all accept connections. The server is
// stopped, its whole process group, when the test ends; if the test failed,
// its output is logged. A server that exits because another process took
// its port first is started again on new ports, at most three times.
func startHTTP(t testing.TB, name string, nports int, build func(ports []int) launch) []int {
	t.Helper()
	return startServer(t, name, nports, build).ports
}

// An HTTPServer is a started HTTP server that a test can stop and start
// again on the same ports: a server that restarts, and forgets what it kept
// in memory (its sessions, the tokens it issued).
type HTTPServer struct {
	// URL is its MCP endpoint.
	URL string

	t     testing.TB
	name  string
	l     launch
	ports []int
	p     *process
}

// Restart stops the server and starts it again, on the same ports, and
// returns once it listens again.
func (s *HTTPServer) Restart() {
	s.t.Helper()
	s.p.stop()
	s.p = start(s.t, s.name, s.l.argv, s.l.env)
	if err := s.p.waitListening(s.ports); err != nil {
		s.t.Fatalf("thirdparty: %s did not start again: %v; its output:\n%s", s.name, err, s.p.output)
	}
}

// startServer is startHTTP, keeping what starts the server again.
func startServer(t testing.TB, name string, nports int, build func(ports []int) launch) *HTTPServer {
	t.Helper()
	const attempts = 3
	for attempt := 1; ; attempt++ {
		ports := make([]int, nports)
		for i := range ports {
			ports[i] = freePort(t)
		}
		l := build(ports)
		p := start(t, name, l.argv, l.env)
		err := p.waitListening(ports)
		if err == nil {
			return &HTTPServer{t: t, name: name, l: l, ports: ports, p: p}
		}
		p.stop()
		if attempt < attempts && strings.Contains(p.output.String(), "EADDRINUSE") {
			continue
		}
		t.Fatalf("thirdparty: %s (%s) %v; its output:\n%s", name, strings.Join(l.argv, " "), err, p.output)
	}
}

// start starts argv in its own process group, in a fresh temporary working
// directory, with env added to the test's environment.
func start(t testing.TB, name string, argv, env []string) *process {
	t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), env...)
	cmd.SysProcAttr = sysProcAttr()
	p := &process{name: name, cmd: cmd, output: &tailBuffer{}, done: make(chan struct{})}
	cmd.Stdout = p.output
	cmd.Stderr = p.output
	if err := cmd.Start(); err != nil {
		t.Fatalf("thirdparty: starting %s (%s): %v", name, strings.Join(argv, " "), err)
	}
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		p.stop()
		if t.Failed() {
			t.Logf("thirdparty: %s's output:\n%s", name, p.output)
		}
	})
	return p
}

// waitListening waits until 127.0.0.1 accepts connections on every port, the
// process exits, or startTimeout passes.
func (p *process) waitListening(ports []int) error {
	deadline := time.Now().Add(startTimeout)
	for _, port := range ports {
		if err := p.waitPort(port, deadline); err != nil {
			return err
		}
	}
	return nil
}

func (p *process) waitPort(port int, deadline time.Time) error {
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	for {
		select {
		case <-p.done:
			return fmt.Errorf("exited (%v) before listening on %s", p.err, addr)
		default:
		}
		conn, err := net.DialTimeout("tcp", addr, 250*time.Millisecond)
		if err == nil {
			conn.Close()
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("did not listen on %s within %v (last dial: %v)", addr, startTimeout, err)
		}
		select {
		case <-p.done:
		case <-time.After(25 * time.Millisecond):
		}
	}
}

// stop sends SIGTERM to the process group, and SIGKILL if it has not
// exited within stopGrace. It may be called more than once.
func (p *process) stop() {
	select {
	case <-p.done:
		return
	default:
	}
	pid := p.cmd.Process.Pid
	terminateGroup(pid)
	select {
	case <-p.done:
	case <-time.After(stopGrace):
		killGroup(pid)
		<-p.done
	}
	// Children left in the group (none of these servers forks, but a
	// server that exits on SIGTERM may leave one) go too.
	killGroup(pid)
}
