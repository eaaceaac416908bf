package config

import (
	"fmt"
	"strings"
	"testing"
)

// bigClaudeJSON is a ~/.claude.json of a busy user: many projects, each
// with a long history of prompts, and a few servers.
func bigClaudeJSON() []byte {
	var b strings.Builder
	b.WriteString(`{"numStartups": 412, "projects": {`)
	for p := range 200 {
		if p > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"/home/ada/src/project-%d": {"allowedTools": [], "history": [`, p)
		for h := range 100 {
			if h > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `{"display": "fix the failing test in pkg/%d and explain why it failed \"quoted\" é", "pastedContents": {}}`, h)
		}
		b.WriteString(`], "mcpServers": {"db": {"type": "stdio", "command": "pg-mcp", "args": ["--read-only"], "env": {}}}}`)
	}
	b.WriteString(`}, "mcpServers": {"notion": {"type": "http", "url": "https://mcp.notion.com/mcp"}}}`)
	return []byte(b.String())
}

func BenchmarkParseClaudeJSON(b *testing.B) {
	data := bigClaudeJSON()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := parseJSON(data, false); err != nil {
			b.Fatal(err)
		}
	}
}
