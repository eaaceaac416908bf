package connect

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpcli/mcpcli/config"
)

// servers add turns its flags into the entry written to the file.
func TestServersAddEntryFromFlags(t *testing.T) {
	tests := []struct {
		name  string
		flags Flags
		want  config.Entry
		err   string
	}{
		{"command after --", Flags{ServerArgv: []string{"./w", "-v"}, Env: []string{"A=1"}, Cwd: "/srv"},
			config.Entry{Type: config.Stdio, Command: "./w", Args: []string{"-v"}, Env: map[string]string{"A": "1"}, Cwd: "/srv"}, ""},
		{"--stdio", Flags{Stdio: `npx -y "@scope/pkg"`},
			config.Entry{Type: config.Stdio, Command: "npx", Args: []string{"-y", "@scope/pkg"}}, ""},
		{"--url with headers and a client", Flags{URL: "https://x.example/mcp", Headers: []string{"x-api-key: ${KEY}"}, ClientID: "c1"},
			config.Entry{Type: config.HTTP, URL: "https://x.example/mcp", Headers: map[string]string{"X-Api-Key": "${KEY}"}, OAuth: &config.OAuth{ClientID: "c1"}}, ""},
		{"--url with a variable", Flags{URL: "${BASE}/mcp"}, config.Entry{Type: config.HTTP, URL: "${BASE}/mcp"}, ""},
		{"neither", Flags{}, config.Entry{}, "give the server's command after --"},
		{"both", Flags{URL: "https://x/mcp", ServerArgv: []string{"./w"}}, config.Entry{}, "not both"},
		{"--header on stdio", Flags{ServerArgv: []string{"./w"}, Headers: []string{"A: b"}}, config.Entry{}, "apply to --url servers"},
		{"--env on http", Flags{URL: "https://x/mcp", Env: []string{"A=1"}}, config.Entry{}, "apply to stdio servers"},
		{"a bad url", Flags{URL: "ftp://x"}, config.Entry{}, "must start with http:// or https://"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Entry(tt.flags)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Errorf("Entry(%+v) error = %v, want one saying %q", tt.flags, err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Entry(%+v): %v", tt.flags, err)
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("Entry(%+v) (-want +got):\n%s", tt.flags, d)
			}
		})
	}
}
