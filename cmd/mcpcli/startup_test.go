package main

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A run makes the command it runs and no other; help, a mistake, or no
// command make them all.
func TestRootMakesWhatItRuns(t *testing.T) {
	names := func(args ...string) []string {
		f := testFactory()
		f.Args = args
		var out []string
		for _, c := range NewCmdRoot(f).Commands() {
			out = append(out, c.Name())
		}
		return out
	}
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"call", "echo", "--", "srv"}, []string{"call"}},
		{[]string{"-o", "json", "shell", "--", "srv"}, []string{"session"}},
		{[]string{"--version"}, nil},
	} {
		if diff := cmp.Diff(c.want, names(c.args...)); diff != "" {
			t.Errorf("mcpcli %q makes (-want +got):\n%s", c.args, diff)
		}
	}
	for _, args := range [][]string{nil, {"--help"}, {"help", "call"}, {"cal"}, {"completion", "bash"}, {"--nope", "call"}, {"--", "srv"}} {
		got := names(args...)
		for _, want := range []string{"call", "session", "tools", "answers"} {
			if !slices.Contains(got, want) {
				t.Errorf("mcpcli %q makes %q, want every command (no %s)", args, got, want)
			}
		}
	}
}
