package main

import (
	"bytes"
	"runtime"
	"strings"
	"testing"
)

// --version names the build; a test binary knows only its Go.
func TestVersionFlag(t *testing.T) {
	var out, errb bytes.Buffer
	deps := &Deps{Streams: Streams{In: strings.NewReader(""), Out: &out, Err: &errb}, Getenv: func(string) string { return "" }}
	code := Run(t.Context(), []string{"--version"}, deps)
	if code != 0 || !strings.HasPrefix(out.String(), "mcpcli version ") || !strings.Contains(out.String(), runtime.Version()) {
		t.Errorf("mcpcli --version = %q (exit %d), want \"mcpcli version ...\" naming %s", out.String(), code, runtime.Version())
	}
}
