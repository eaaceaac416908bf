package main

import (
	"embed"
	"strings"

	"github.com/spf13/cobra"
)

// The long help of each command, and the help topics ('mcpcli help
// answers', ...), are pages of text in help/, named after the command
// ("servers-add" for servers add). A topic's first line is its summary;
// after a blank line comes the page.
//
//go:embed help/*.txt
var helpPages embed.FS

// page is the help page name, as it is written.
func page(name string) string {
	b, err := helpPages.ReadFile("help/" + name + ".txt")
	if err != nil {
		panic(err) // embedded: cannot happen
	}
	return string(b)
}

func helpTopics() []*cobra.Command {
	var topics []*cobra.Command
	for _, name := range []string{"answers", "trace", "accessible", "config", "sign-in"} {
		short, long, _ := strings.Cut(strings.TrimSuffix(page(name), "\n"), "\n\n")
		topics = append(topics, &cobra.Command{Use: name, Short: short, Long: long})
	}
	return topics
}

// examples is the command name's examples, as --help shows them
// (help/NAME.examples.txt).
func examples(name string) string { return strings.TrimSuffix(page(name+".examples"), "\n") }
