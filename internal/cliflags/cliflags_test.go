package cliflags

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/pflag"
)

// flags are a few of mcpcli's global flags, of each kind.
func flags() *pflag.FlagSet {
	fs := pflag.NewFlagSet("mcpcli", pflag.ContinueOnError)
	fs.StringP("server", "s", "", "")
	fs.StringP("output", "o", "text", "")
	fs.BoolP("verbose", "v", false, "")
	fs.Bool("accessible", false, "")
	fs.String("stdio", "", "")
	fs.String("url", "", "")
	fs.String("answers", "", "")
	fs.StringArray("env", nil, "")
	return fs
}

func TestCommandWord(t *testing.T) {
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
		{[]string{"-vs", "github", "tools"}, "tools", true},
		{[]string{"-v", "--verbose", "--stdio", "./srv", "session"}, "session", true},
		{[]string{"--accessible", "shell"}, "shell", true},
		{[]string{"--version"}, "", true},
		{[]string{"-h", "call"}, "call", true},
		{[]string{"--", "call", "srv"}, "", true},
		{[]string{"--url", "http://x/mcp"}, "", true},
		{[]string{"--nope", "call"}, "", false},
		{[]string{"-Z", "call"}, "", false},
		{nil, "", true},
	} {
		word, ok := CommandWord(flags(), c.args)
		if word != c.word || ok != c.ok {
			t.Errorf("CommandWord(%q) = %q, %v; want %q, %v", c.args, word, ok, c.word, c.ok)
		}
	}
}

func TestGiven(t *testing.T) {
	fs := flags()
	if err := fs.Parse([]string{"--answers", "my answers.json", "-v", "--env", "A=1", "--env", "B=2 3", "--url", "http://x/mcp"}); err != nil {
		t.Fatal(err)
	}
	names, words := Given(fs, "url")
	if diff := cmp.Diff([]string{"--answers", "--env", "--url", "--verbose"}, names); diff != "" {
		t.Errorf("Given names (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"--answers 'my answers.json'", "--env A=1", "--env 'B=2 3'", "--verbose"}, words); diff != "" {
		t.Errorf("Given words (-want +got):\n%s", diff)
	}
	if names, words := Given(flags()); names != nil || words != nil {
		t.Errorf("Given(nothing set) = %q, %q; want none", names, words)
	}
}
