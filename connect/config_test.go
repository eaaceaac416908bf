package connect

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpcli/mcpcli/config"
)

// A shell completes the server names that start with what was typed,
// each with what it runs: every name, or only those in mcpcli's own file;
// never a name a terminal would obey.
func TestComplete(t *testing.T) {
	home, dir := t.TempDir(), t.TempDir()
	file := filepath.Join(dir, "servers.json")
	if err := os.WriteFile(file, []byte(`{"mcpServers": {
		"weather": {"command": "weather-server", "args": ["--eu"]},
		"web": {"url": "https://web.example/mcp"},
		"we\u001b[2Jird": {"command": "x"},
		"other": {"command": "other-server"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	configs := func() *Configs {
		return &Configs{File: file, Home: func() (string, error) { return home, nil }, Options: func() (config.Options, error) {
			return config.Options{OS: runtime.GOOS, Home: home, Dir: dir, LookupEnv: func(string) (string, bool) { return "", false }}, nil
		}}
	}
	cfg, err := configs().Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if err := cfg.Add("west", config.Entry{Type: config.Stdio, Command: "west-server"}, false); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		own    bool
		prefix string
		want   []Completion
	}{
		{false, "we", []Completion{{"weather", "stdio: weather-server --eu"}, {"web", "http: https://web.example/mcp"}, {"west", "stdio: west-server"}}},
		{true, "we", []Completion{{"west", "stdio: west-server"}}},
		{false, "x", nil},
	} {
		got, err := configs().Complete(context.Background(), tc.own, tc.prefix)
		if err != nil {
			t.Fatalf("Complete(own %v, %q) = %v", tc.own, tc.prefix, err)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("Complete(own %v, %q) (-want +got):\n%s", tc.own, tc.prefix, diff)
		}
	}
}
