package main

import (
	"embed"
	"strings"

	"github.com/spf13/cobra"
)

// The help topics ('mcpcli help answers', ...) are pages of text in
// help/: a file's first line is the topic's summary, and after a blank
// line comes the page.
//
//go:embed help/*.txt
var helpPages embed.FS

func helpTopics() []*cobra.Command {
	var topics []*cobra.Command
	for _, name := range []string{"answers", "trace", "accessible", "config", "sign-in"} {
		b, err := helpPages.ReadFile("help/" + name + ".txt")
		if err != nil {
			panic(err) // embedded: cannot happen
		}
		short, long, _ := strings.Cut(strings.TrimSuffix(string(b), "\n"), "\n\n")
		topics = append(topics, &cobra.Command{Use: name, Short: short, Long: long})
	}
	return topics
}
