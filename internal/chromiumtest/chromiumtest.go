// Package chromiumtest finds the headless Chromium the real-browser tests
// use, and the flags it needs on this kind of machine.
package chromiumtest

import (
	"os/exec"
	"runtime"
	"testing"
)

// Flags are what a headless Chromium needs here: no sandbox (root in a
// container), no GPU, nothing that talks to the network by itself (a
// closed network refuses it, many times over), and a fresh profile given
// by the caller with --user-data-dir.
var Flags = []string{
	"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
	"--disable-background-networking", "--disable-component-update", "--disable-sync",
}

// Find returns Chromium's path, or skips t saying how to install it.
func Find(t testing.TB) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the real-browser tests run on Unix")
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no chromium on $PATH: the real-browser tests need one (Debian: apt-get install chromium; .ci/run installs it)")
	return ""
}
