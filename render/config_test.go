package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mcpcli/mcpcli/config"
)

// What servers add, remove, trust and untrust say: names, commands and
// paths made safe, the home directory shown as ~.
func TestServersSaid(t *testing.T) {
	c := Config{Home: "/home/ada"}
	for _, tc := range []struct {
		name string
		say  func(*bytes.Buffer)
		want string
	}{
		{"added stdio", func(b *bytes.Buffer) {
			c.Added(b, "weather", config.Entry{Type: config.Stdio, Command: "npx", Args: []string{"-y", "weather\x1b[2J"}}, "/home/ada/.config/mcpcli/servers.json")
		}, "Added weather (stdio: npx -y weather) to /home/ada/.config/mcpcli/servers.json; use it with -s weather\n"},
		{"added http", func(b *bytes.Buffer) {
			c.Added(b, "gh", config.Entry{Type: config.HTTP, URL: "https://x/mcp"}, "f.json")
		}, "Added gh (http: https://x/mcp) to f.json; use it with -s gh\n"},
		{"removed", func(b *bytes.Buffer) { c.Removed(b, "gh", "f.json") }, "Removed gh from f.json\n"},
		{"untrusted", func(b *bytes.Buffer) { c.Untrusted(b, "/home/ada/p/.mcp.json", true) },
			"~/p/.mcp.json is no longer trusted; its servers run only once you trust it again\n"},
		{"never trusted", func(b *bytes.Buffer) { c.Untrusted(b, "/srv/.mcp.json", false) }, "/srv/.mcp.json was not trusted; nothing to do\n"},
		{"logged out", func(b *bytes.Buffer) { LoggedOut(b, "https://mcp.example.com/mcp", "/home/ada/tokens.json", true) },
			"Signed out of https://mcp.example.com/mcp: its tokens and client registration are gone from /home/ada/tokens.json (they are not revoked at the authorization server)\n"},
		{"nothing kept", func(b *bytes.Buffer) { LoggedOut(b, "https://mcp.example.com/mcp", "the keyring", false) },
			"Nothing was kept for https://mcp.example.com/mcp in the keyring\n"},
	} {
		var b bytes.Buffer
		tc.say(&b)
		if b.String() != tc.want {
			t.Errorf("%s: said %q, want %q", tc.name, b.String(), tc.want)
		}
	}
	var b bytes.Buffer
	c.Trusted(&b, "/home/ada/p/.mcp.json", config.TrustAsk{Source: config.Source{Kind: config.KindClaudeProject, Path: "/home/ada/p/.mcp.json"}, SHA256: "0123456789abcdef0123"})
	if want := "Trusted ~/p/.mcp.json (Claude Code's project file) as it is now (SHA-256 0123456789ab); it defines:\n"; !strings.HasPrefix(b.String(), want) {
		t.Errorf("Trusted said %q, want it to start %q", b.String(), want)
	}
}
