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

// --version is mcpcli's own flag (cobra's, with the build described only
// when it is given): it reads as a bool flag does.
func TestVersionFlagReadsAsABool(t *testing.T) {
	for _, c := range []struct {
		args     []string
		code     int
		out, err string
	}{
		{[]string{"--version=true"}, 0, "mcpcli version ", ""},
		{[]string{"--version=false"}, 0, "Usage:", ""},
		{[]string{"--version=maybe"}, 1, "", `invalid argument "maybe" for "--version" flag`},
		{[]string{"--help"}, 0, "--version                   version for mcpcli", ""},
		// Completion offers nothing once it is given, as for cobra's own.
		{[]string{"__complete", "--version", ""}, 0, ":4\n", ""},
	} {
		var out, errb bytes.Buffer
		deps := &Deps{Streams: Streams{In: strings.NewReader(""), Out: &out, Err: &errb}, Getenv: func(string) string { return "" }}
		code := Run(t.Context(), c.args, deps)
		if code != c.code || !strings.Contains(out.String(), c.out) || !strings.Contains(errb.String(), c.err) {
			t.Errorf("mcpcli %q = exit %d, stdout %q, stderr %q; want exit %d, stdout with %q, stderr with %q", c.args, code, out.String(), errb.String(), c.code, c.out, c.err)
		}
	}
}
