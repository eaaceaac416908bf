package config_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/mcpcli/mcpcli/config"
)

// A project's .mcp.json names a server; mcpcli -s github finds it from a
// subdirectory, asks the person to trust the file, and expands its values.
func Example() {
	root, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(root)
	project := filepath.Join(root, "project")
	os.MkdirAll(filepath.Join(project, "src"), 0o755)
	os.WriteFile(filepath.Join(project, ".mcp.json"), []byte(`{
	  "mcpServers": {
	    "github": {
	      "command": "npx",
	      "args": ["-y", "@modelcontextprotocol/server-github"],
	      "env": {"GITHUB_TOKEN": "${GITHUB_TOKEN}", "LOG": "${LOG_LEVEL:-info}"}
	    }
	  }
	}`), 0o644)

	env := map[string]string{"GITHUB_TOKEN": "ghp_example"}
	cfg, err := config.Load(config.Options{
		OS:        "linux",
		Home:      filepath.Join(root, "home"),
		Dir:       filepath.Join(project, "src"),
		LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok },
		Ask:       func(in config.Input) (string, error) { return "", errors.New("no terminal to ask on") },
		Trusted:   &config.TrustStore{Path: filepath.Join(root, "state", "trusted-projects.json")},
		Approve: func(ask config.TrustAsk) (bool, error) {
			fmt.Printf("trust %s? it runs %s %s, reading %v\n", filepath.Base(ask.Source.Path), ask.Servers[0].Name, ask.Servers[0].Entry.Target(), ask.Variables)
			return true, nil
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	srv, err := cfg.Server("github")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(srv.Transport, srv.Argv(), srv.Environ())
	fmt.Println(srv.Source.Kind, filepath.Base(srv.Source.Path))

	_, err = cfg.Server("gitlab")
	fmt.Println(errors.Is(err, config.ErrNotFound))
	// Output:
	// trust .mcp.json? it runs github npx -y @modelcontextprotocol/server-github, reading [GITHUB_TOKEN LOG_LEVEL]
	// stdio [npx -y @modelcontextprotocol/server-github] [GITHUB_TOKEN=ghp_example LOG=info]
	// claude-code-project .mcp.json
	// true
}
