package thirdparty

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const (
	pkgEverything = "@modelcontextprotocol/server-everything"
	pkgFilesystem = "@modelcontextprotocol/server-filesystem"
	pkgMemory     = "@modelcontextprotocol/server-memory"
	pkgSDK        = "@modelcontextprotocol/sdk"
)

// nodeArgv is the argv that runs script (a path inside the npm package pkg)
// on Node.
func nodeArgv(t testing.TB, pkg, script string, args ...string) []string {
	t.Helper()
	path := filepath.Join(npmPackage(t, pkg), filepath.FromSlash(script))
	if !fileExists(path) {
		t.Fatalf("thirdparty: %s has no %s: reinstall with `%s` in %s", pkg, script, InstallCommand, RepoRoot(t))
	}
	return append([]string{Node(t), path}, args...)
}

// nodeHTTP starts script from pkg with the loopback preload (which binds it
// to 127.0.0.1 and moves the hard-coded ports in moves to the ones picked),
// and returns the ports once the first accepts connections.
func nodeHTTP(t testing.TB, name, pkg, script string, args []string, nports int, env func(ports []int) []string, moves func(ports []int) map[int]int) []int {
	t.Helper()
	return nodeServer(t, name, pkg, script, args, nports, env, moves).ports
}

// nodeServer is nodeHTTP, keeping what starts the server again.
func nodeServer(t testing.TB, name, pkg, script string, args []string, nports int, env func(ports []int) []string, moves func(ports []int) map[int]int) *HTTPServer {
	t.Helper()
	argv := nodeArgv(t, pkg, script, args...)
	preload := filepath.Join(RepoRoot(t), "thirdparty", "loopback.cjs")
	if !fileExists(preload) {
		t.Fatalf("thirdparty: %s is missing from the checkout", preload)
	}
	argv = append([]string{argv[0], "--require", preload}, argv[1:]...)
	return startServer(t, name, nports, func(ports []int) launch {
		var e []string
		if env != nil {
			e = env(ports)
		}
		if moves != nil {
			var pairs []string
			for from, to := range moves(ports) {
				pairs = append(pairs, fmt.Sprintf("%d=%d", from, to))
			}
			sort.Strings(pairs)
			e = append(e, "MCPCLI_THIRDPARTY_PORTS="+strings.Join(pairs, ","))
		}
		return launch{argv: argv, env: e}
	})
}

func loopbackURL(port int, path string) string {
	return "http://127.0.0.1:" + strconv.Itoa(port) + path
}

// Everything returns the argv that runs server-everything over stdio.
func Everything(t testing.TB) []string {
	t.Helper()
	return nodeArgv(t, pkgEverything, "dist/index.js", "stdio")
}

// EverythingHTTP starts server-everything's Streamable HTTP mode and returns
// its endpoint, http://127.0.0.1:PORT/mcp (it takes its port from $PORT).
func EverythingHTTP(t testing.TB) string {
	t.Helper()
	ports := nodeHTTP(t, "server-everything streamableHttp", pkgEverything, "dist/index.js", []string{"streamableHttp"}, 1,
		func(p []int) []string { return []string{"PORT=" + strconv.Itoa(p[0])} }, nil)
	return loopbackURL(ports[0], "/mcp")
}

// EverythingSSE starts server-everything's HTTP+SSE mode (protocol
// 2024-11-05) and returns its SSE endpoint, http://127.0.0.1:PORT/sse; the
// endpoint event then names POST /message?sessionId=....
func EverythingSSE(t testing.TB) string {
	t.Helper()
	ports := nodeHTTP(t, "server-everything sse", pkgEverything, "dist/index.js", []string{"sse"}, 1,
		func(p []int) []string { return []string{"PORT=" + strconv.Itoa(p[0])} }, nil)
	return loopbackURL(ports[0], "/sse")
}

// Filesystem returns the argv that runs server-filesystem over stdio with a
// fresh temporary directory as its only allowed root, and that root. The
// root holds hello.txt ("hello from mcpcli's tests\n") and an empty sub/.
func Filesystem(t testing.TB) (argv []string, root string) {
	t.Helper()
	root = t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "hello.txt"), []byte("hello from mcpcli's tests\n"), 0o644); err != nil {
		t.Fatalf("thirdparty: %v", err)
	}
	if err := os.Mkdir(filepath.Join(root, "sub"), 0o755); err != nil {
		t.Fatalf("thirdparty: %v", err)
	}
	return nodeArgv(t, pkgFilesystem, "dist/index.js", root), root
}

// FilesystemNoRoot returns the argv that runs server-filesystem over stdio
// with no allowed directory: it then waits for the client's roots.
func FilesystemNoRoot(t testing.TB) []string {
	t.Helper()
	return nodeArgv(t, pkgFilesystem, "dist/index.js")
}

// Memory returns the argv that runs server-memory over stdio with its
// knowledge graph in a fresh temporary file (left to be created by the
// server), and that file's path. The argv starts with env(1), which sets
// MEMORY_FILE_PATH, so it needs no environment of its own; without it the
// server would write into thirdparty/node_modules.
func Memory(t testing.TB) (argv []string, memoryFile string) {
	t.Helper()
	memoryFile = filepath.Join(t.TempDir(), "memory.jsonl")
	return append([]string{"env", "MEMORY_FILE_PATH=" + memoryFile}, nodeArgv(t, pkgMemory, "dist/index.js")...), memoryFile
}

// An sdkExample is one of the TypeScript SDK's example servers, in
// dist/esm/examples/server/ of @modelcontextprotocol/sdk.
type sdkExample struct {
	// stdio examples speak over stdin/stdout; the others listen.
	stdio bool
	// streamable and sse are the paths of the Streamable HTTP endpoint and
	// of the HTTP+SSE (2024-11-05) GET endpoint, when the example has one.
	streamable, sse string
	// portEnv names the variables the example reads its port from;
	// authPortEnv, the one for its OAuth server's port, if it starts one.
	portEnv     []string
	authPortEnv string
	// hardPort is a port the source hard-codes, which the loopback preload
	// moves.
	hardPort int
}

// sdkExamples are the TypeScript SDK v1 example servers that the helpers
// start (all of those in v1.32.2 but demoInMemoryOAuthProvider, a module
// that elicitationUrlExample and simpleStreamableHttp --oauth import).
var sdkExamples = map[string]sdkExample{
	"elicitationFormExample":        {streamable: "/mcp", portEnv: []string{"PORT"}},
	"elicitationUrlExample":         {streamable: "/mcp", portEnv: []string{"MCP_PORT"}, authPortEnv: "MCP_AUTH_PORT"},
	"honoWebStandardStreamableHttp": {streamable: "/mcp", portEnv: []string{"MCP_PORT"}},
	"jsonResponseStreamableHttp":    {streamable: "/mcp", hardPort: 3000},
	"simpleSseServer":               {sse: "/mcp", hardPort: 3000},
	"simpleStatelessStreamableHttp": {streamable: "/mcp", hardPort: 3000},
	// simpleStreamableHttp starts its OAuth server only with --oauth,
	// which SDKOAuthServer passes.
	"simpleStreamableHttp":                 {streamable: "/mcp", portEnv: []string{"MCP_PORT"}},
	"simpleTaskInteractive":                {streamable: "/mcp", portEnv: []string{"PORT"}},
	"sseAndStreamableHttpCompatibleServer": {streamable: "/mcp", sse: "/sse", hardPort: 3000},
	"ssePollingExample":                    {streamable: "/mcp", hardPort: 3001},
	"standaloneSseWithGetStreamableHttp":   {streamable: "/mcp", hardPort: 3000},
	"mcpServerOutputSchema":                {stdio: true},
	"progressExample":                      {stdio: true},
	"toolWithSampleServer":                 {stdio: true},
}

// SDKExampleNames lists the example servers the SDKExample helpers know.
func SDKExampleNames() []string {
	names := make([]string, 0, len(sdkExamples))
	for name := range sdkExamples {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

func lookupSDKExample(t testing.TB, name string) sdkExample {
	t.Helper()
	ex, ok := sdkExamples[name]
	if !ok {
		t.Fatalf("thirdparty: no TypeScript SDK example server %q; known: %s", name, strings.Join(SDKExampleNames(), ", "))
	}
	return ex
}

func sdkScript(name string) string { return "dist/esm/examples/server/" + name + ".js" }

// SDKExample returns the argv that runs a stdio example server of the
// TypeScript SDK: mcpServerOutputSchema, progressExample or
// toolWithSampleServer (which prints a banner on stdout, before any message).
func SDKExample(t testing.TB, name string) []string {
	t.Helper()
	ex := lookupSDKExample(t, name)
	if !ex.stdio {
		t.Fatalf("thirdparty: the SDK example %s listens on HTTP: use SDKExampleHTTP or SDKExampleSSE", name)
	}
	return nodeArgv(t, pkgSDK, sdkScript(name))
}

// SDKExampleHTTP starts an HTTP example server of the TypeScript SDK and
// returns its Streamable HTTP endpoint, http://127.0.0.1:PORT/mcp.
// elicitationUrlExample demands an OAuth bearer token (get one with
// DemoOAuthToken) and builds its URLs with localhost, not 127.0.0.1.
func SDKExampleHTTP(t testing.TB, name string) string {
	t.Helper()
	ex := lookupSDKExample(t, name)
	if ex.streamable == "" {
		t.Fatalf("thirdparty: the SDK example %s has no Streamable HTTP endpoint; use SDKExampleSSE or SDKExample", name)
	}
	return loopbackURL(startSDKExample(t, name, ex), ex.streamable)
}

// SDKExampleSSE starts an example server of the TypeScript SDK that speaks
// HTTP+SSE (protocol 2024-11-05), simpleSseServer or
// sseAndStreamableHttpCompatibleServer, and returns its SSE GET endpoint.
func SDKExampleSSE(t testing.TB, name string) string {
	t.Helper()
	ex := lookupSDKExample(t, name)
	if ex.sse == "" {
		t.Fatalf("thirdparty: the SDK example %s has no HTTP+SSE endpoint", name)
	}
	return loopbackURL(startSDKExample(t, name, ex), ex.sse)
}

func startSDKExample(t testing.TB, name string, ex sdkExample) int {
	t.Helper()
	nports := 1
	if ex.authPortEnv != "" {
		nports = 2
	}
	ports := nodeHTTP(t, "SDK example "+name, pkgSDK, sdkScript(name), nil, nports,
		func(p []int) []string {
			var env []string
			for _, k := range ex.portEnv {
				env = append(env, k+"="+strconv.Itoa(p[0]))
			}
			if ex.authPortEnv != "" {
				env = append(env, ex.authPortEnv+"="+strconv.Itoa(p[1]))
			}
			return env
		},
		func(p []int) map[int]int {
			if ex.hardPort == 0 {
				return nil
			}
			return map[int]int{ex.hardPort: p[0]}
		})
	return ports[0]
}

// SDKOAuthServer starts the TypeScript SDK's simpleStreamableHttp example
// with --oauth: the example server guarded by the SDK's demo OAuth
// authorization server (demoInMemoryOAuthProvider) on a port of its own.
// The authorization server approves every authorization request at once (a
// redirect straight back with the code), registers clients dynamically,
// issues one-hour tokens and no refresh tokens, and keeps all of it in
// memory: a Restart forgets every token, which the example then answers
// with HTTP 500. The URL names the host localhost, as the server names
// itself in its protected resource metadata (RFC 9728): a client that
// checks it must use that name.
func SDKOAuthServer(t testing.TB) *HTTPServer {
	t.Helper()
	const name = "simpleStreamableHttp"
	ex := lookupSDKExample(t, name)
	srv := nodeServer(t, "SDK example "+name+" --oauth", pkgSDK, sdkScript(name), []string{"--oauth"}, 2,
		func(p []int) []string {
			return []string{ex.portEnv[0] + "=" + strconv.Itoa(p[0]), "MCP_AUTH_PORT=" + strconv.Itoa(p[1])}
		}, nil)
	srv.URL = "http://localhost:" + strconv.Itoa(srv.ports[0]) + ex.streamable
	return srv
}
