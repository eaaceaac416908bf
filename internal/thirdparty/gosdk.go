package thirdparty

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// goSDKModule is the go-sdk module whose examples the helpers build, at the
// version go.mod requires.
const goSDKModule = "github.com/modelcontextprotocol/go-sdk"

// buildTimeout bounds one go build of an example: a cold build compiles the
// go-sdk, which takes about a minute on a busy 2-core machine.
const buildTimeout = 5 * time.Minute

// A goSDKExample is one of the go-sdk's examples/server/* programs that
// serves a real transport (the others connect a client in memory).
type goSDKExample struct {
	// stdio: it serves stdin/stdout when started without flags.
	stdio bool
	// http returns the flags that make it listen on 127.0.0.1:port, and
	// the path to give clients, when it has an HTTP mode.
	http func(port int) (flags []string, path string)
}

func streamableFlag(port int) ([]string, string) {
	return []string{"-http", "127.0.0.1:" + strconv.Itoa(port)}, "/mcp"
}

var goSDKExamples = map[string]goSDKExample{
	// everything: tools greet, greet (structured), ping, log, sample,
	// elicit (form), elicit (url), roots, ...; prompts; resources.
	"everything":         {stdio: true, http: streamableFlag},
	"hello":              {stdio: true},
	"memory":             {stdio: true, http: streamableFlag},
	"sequentialthinking": {stdio: true, http: streamableFlag},
	"toolschemas":        {stdio: true},
	// sse serves HTTP+SSE (2024-11-05): greeter1 at /greeter1, greeter2
	// at /greeter2.
	"sse": {http: func(port int) ([]string, string) {
		return []string{"-host", "127.0.0.1", "-port", strconv.Itoa(port)}, "/greeter1"
	}},
}

// GoSDKServer returns the argv of a go-sdk example server that serves
// stdio: everything, hello, memory, sequentialthinking or toolschemas. It is
// built from the module cache at the version go.mod requires.
func GoSDKServer(t testing.TB, name string) []string {
	t.Helper()
	ex := lookupGoSDKExample(t, name)
	if !ex.stdio {
		t.Fatalf("thirdparty: the go-sdk example %s serves only HTTP: use GoSDKServerHTTP", name)
	}
	return []string{buildGoSDKExample(t, name)}
}

// GoSDKServerHTTP starts a go-sdk example server on a free loopback port
// and returns its URL: Streamable HTTP at /mcp for everything, memory and
// sequentialthinking (their handler answers on any path); HTTP+SSE at
// /greeter1 for sse.
func GoSDKServerHTTP(t testing.TB, name string) string {
	t.Helper()
	ex := lookupGoSDKExample(t, name)
	if ex.http == nil {
		t.Fatalf("thirdparty: the go-sdk example %s serves only stdio: use GoSDKServer", name)
	}
	bin := buildGoSDKExample(t, name)
	var path string
	ports := startHTTP(t, "go-sdk example "+name, 1, func(p []int) launch {
		flags, pth := ex.http(p[0])
		path = pth
		return launch{argv: append([]string{bin}, flags...)}
	})
	return loopbackURL(ports[0], path)
}

func lookupGoSDKExample(t testing.TB, name string) goSDKExample {
	t.Helper()
	ex, ok := goSDKExamples[name]
	if !ok {
		var names []string
		for n := range goSDKExamples {
			names = append(names, n)
		}
		sort.Strings(names)
		t.Fatalf("thirdparty: no go-sdk example server %q; known: %s", name, strings.Join(names, ", "))
	}
	return ex
}

// buildGoSDKExample builds examples/server/NAME into a directory shared by
// every test binary on the machine, and returns the binary's path. go build
// does the caching: when the binary there is up to date it only checks
// (about 0.1 s), so a test binary in effect builds each example once.
func buildGoSDKExample(t testing.TB, name string) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("thirdparty: go is not on PATH, so the go-sdk examples cannot be built: %v", err)
	}
	dir := filepath.Join(os.TempDir(), "mcpcli-thirdparty-go-sdk")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatalf("thirdparty: %v", err)
	}
	bin := filepath.Join(dir, name)
	pkg := goSDKModule + "/examples/server/" + name
	ctx, cancel := context.WithTimeout(context.Background(), buildTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, goTool, "build", "-o", bin, pkg)
	cmd.Dir = RepoRoot(t)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("thirdparty: go build -o %s %s (in %s): %v\n%s", bin, pkg, cmd.Dir, err, out)
	}
	return bin
}
