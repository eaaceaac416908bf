package main

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/mcpcli/mcpcli/shell/tour"
)

// A command's help page is read when its help is shown, not when the
// command is made; every way to ask shows the whole page and examples.
func TestHelpShowsEachCommandsPage(t *testing.T) {
	var named []*cobra.Command
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Annotations[annotHelp] != "" {
			named = append(named, c)
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(NewCmdRoot(testFactory()))
	if len(named) < 20 {
		t.Fatalf("found %d commands with a help page, want every command (20 or more)", len(named))
	}
	for _, c := range named {
		path := strings.Fields(c.CommandPath())[1:]
		name := c.Annotations[annotHelp]
		if c.Long != "" || c.Example != "" {
			t.Errorf("mcpcli %s, made: its page is read already (Long %d bytes, Example %d), want it read when help is shown", strings.Join(path, " "), len(c.Long), len(c.Example))
		}
		long := strings.TrimRight(page(name), "\n")
		for _, args := range [][]string{append(append([]string{}, path...), "--help"), append([]string{"help"}, path...)} {
			f := testFactory()
			f.Args = args
			out := f.Deps.Out.(*bytes.Buffer)
			if code := Run(t.Context(), args, f.Deps); code != 0 {
				t.Errorf("mcpcli %s: exit %d, stderr %s", strings.Join(args, " "), code, f.Deps.Err)
				continue
			}
			if !strings.Contains(out.String(), long) {
				t.Errorf("mcpcli %s does not show help/%s.txt:\n%s", strings.Join(args, " "), name, out)
			}
			if !strings.Contains(out.String(), "Examples:\n"+examples(name)+"\n") {
				t.Errorf("mcpcli %s does not show help/%s.examples.txt:\n%s", strings.Join(args, " "), name, out)
			}
			if name == "demo" && !strings.Contains(out.String(), page(name)+tour.List()) {
				t.Errorf("mcpcli %s does not list the tour's flows after its page:\n%s", strings.Join(args, " "), out)
			}
			// A run that makes one command does not sort its flags
			// (sortFlags); its help does.
			for _, section := range []string{"Flags:", "Global Flags:"} {
				names := listedFlags(out.String(), section)
				if !slices.IsSorted(names) {
					t.Errorf("mcpcli %s lists its %s out of name order: %v", strings.Join(args, " "), strings.TrimSuffix(section, ":"), names)
				}
				if section == "Flags:" && args[len(args)-1] == "--help" && !slices.Contains(names, "help") {
					t.Errorf("mcpcli %s: read no --help among its Flags %v; has the help's layout changed?", strings.Join(args, " "), names)
				}
			}
		}
	}
}

// listedFlags is the names of the flags help lists under section
// ("Flags:"), in the order listed.
func listedFlags(help, section string) []string {
	var names []string
	in := false
	for _, line := range strings.Split(help, "\n") {
		switch {
		case line == section:
			in = true
		case in && strings.TrimSpace(line) == "":
			return names
		case in:
			// "  -o, --output FORMAT  …" or "      --args string  …";
			// a description's further lines start otherwise.
			f := strings.Fields(line)
			if len(f) > 1 && len(f[0]) == 3 && f[0][0] == '-' && f[0][2] == ',' {
				f = f[1:]
			}
			if n, ok := strings.CutPrefix(f[0], "--"); ok && strings.HasPrefix(line, "  ") && !strings.HasPrefix(line, "          ") {
				names = append(names, n)
			}
		}
	}
	return names
}
