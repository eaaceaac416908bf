package main

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/internal/toolcache"
	"github.com/mcpcli/mcpcli/transport"
)

// cacheDirEnv names the directory of mcpcli's cache, in place of the
// system's (os.UserCacheDir()/mcpcli).
const cacheDirEnv = "MCPCLI_CACHE_DIR"

// SystemCacheDir is mcpcli's cache directory: $MCPCLI_CACHE_DIR, else
// mcpcli under the user's cache directory ($XDG_CACHE_HOME or ~/.cache on
// Linux).
func SystemCacheDir() (string, error) {
	if d := os.Getenv(cacheDirEnv); d != "" {
		return d, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "mcpcli"), nil
}

// toolCache is where the tool list of the server t reaches is kept
// between runs, or nil when there is nowhere to keep it (no cache
// directory) or nothing to key it by (HTTP+SSE, whose servers speak only
// protocols without ttlMs).
func (f *Factory) toolCache(t transport.Transport) *client.ToolCache {
	if f.Deps.CacheDir == nil {
		return nil
	}
	var tc client.ToolCache
	switch t := t.(type) {
	case *transport.Stdio:
		tc.Server, tc.Auth = stdioIdentity(t.Cmd)
	case *transport.HTTP:
		// Who asks is read from each request's headers (client.ToolCache).
		tc.Server = "http\x00" + t.URL
	default:
		return nil
	}
	dir, err := f.Deps.CacheDir()
	if err != nil || dir == "" {
		return nil
	}
	tc.Store = &toolcache.Store{Dir: filepath.Join(dir, "tools")}
	return &tc
}

// stdioIdentity is who a stdio server is: its command, the environment
// mcpcli adds and takes away, and where it runs (a relative command is
// another program in another directory). auth is what it knows of who
// runs it: a digest of the whole environment it starts with.
func stdioIdentity(c transport.Command) (server, auth string) {
	dir := c.Dir
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs // "" is the working directory
	}
	var b strings.Builder
	b.WriteString("stdio")
	for _, part := range [][]string{c.Argv, {"env"}, c.Env, {"unset"}, c.Unset, {"dir", dir}} {
		for _, p := range part {
			b.WriteString("\x00")
			b.WriteString(p)
		}
	}
	env := os.Environ()
	env = slices.DeleteFunc(env, func(kv string) bool {
		k, _, _ := strings.Cut(kv, "=")
		return slices.Contains(c.Unset, k)
	})
	env = append(env, c.Env...)
	slices.Sort(env)
	sum := sha256.Sum256([]byte(strings.Join(env, "\x00")))
	return b.String(), hex.EncodeToString(sum[:])
}
