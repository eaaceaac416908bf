package main

import (
	"embed"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpcli/mcpcli/shell/tour"
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

// annotHelp names a command's help page: help/NAME.txt is its long
// description, help/NAME.examples.txt its examples.
const annotHelp = "mcpcli/help"

// helpPage is the annotations of a command whose help is the page name.
func helpPage(name string) map[string]string { return map[string]string{annotHelp: name} }

// withHelpPages shows a command's help with its page (see helpPage) read
// in: it is read when the help is shown, not each time the command is
// made, which is at every run of it. Its flags are listed by name (see
// sortFlags).
func withHelpPages(show func(*cobra.Command, []string)) func(*cobra.Command, []string) {
	return func(c *cobra.Command, args []string) {
		sortFlags(c, true)
		if name := c.Annotations[annotHelp]; name != "" && c.Long == "" {
			c.Long, c.Example = page(name), examples(name)
			if name == "demo" {
				c.Long += tour.List()
			}
		}
		show(c, args)
	}
}
