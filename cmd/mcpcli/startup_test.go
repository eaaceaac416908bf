package main

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCommandWord(t *testing.T) {
	root := NewCmdRoot(testFactory())
	for _, c := range []struct {
		args []string
		word string
		ok   bool
	}{
		{[]string{"call", "echo", "text=hi", "--", "srv"}, "call", true},
		{[]string{"-o", "json", "call", "echo"}, "call", true},
		{[]string{"--output=json", "tools"}, "tools", true},
		{[]string{"-s", "github", "tools"}, "tools", true},
		{[]string{"-sgithub", "tools"}, "tools", true},
		{[]string{"-v", "--verbose", "--stdio", "./srv", "session"}, "session", true},
		{[]string{"--accessible", "shell"}, "shell", true},
		{[]string{"--version"}, "", true},
		{[]string{"--", "call", "srv"}, "", true},
		{[]string{"--url", "http://x/mcp"}, "", true},
		{[]string{"--nope", "call"}, "", false},
		{[]string{"-Z", "call"}, "", false},
		{nil, "", true},
	} {
		word, ok := commandWord(root.PersistentFlags(), c.args)
		if word != c.word || ok != c.ok {
			t.Errorf("commandWord(%q) = %q, %v; want %q, %v", c.args, word, ok, c.word, c.ok)
		}
	}
}

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
