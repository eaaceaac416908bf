package thirdparty

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestInstalledPackage checks that a missing or stale npm install is
// reported with the exact command that fixes it, the one CI runs.
func TestInstalledPackage(t *testing.T) {
	const pkg = "@modelcontextprotocol/server-memory"
	manifest := `{"dependencies": {"` + pkg + `": "2026.8.31"}}`
	tests := []struct {
		name      string
		installed string // node_modules/PKG/package.json; "" for none
		pkg       string
		wantErr   string // "" for success
	}{
		{"pinned version installed", `{"version": "2026.8.31"}`, pkg, ""},
		{"not installed", "", pkg,
			"the npm package @modelcontextprotocol/server-memory is not installed: run `npm ci --prefix thirdparty --no-audit --no-fund` in ROOT"},
		{"other version installed", `{"version": "2025.1.1"}`, pkg,
			"@modelcontextprotocol/server-memory 2025.1.1 is installed but thirdparty/package.json pins 2026.8.31: run `npm ci --prefix thirdparty --no-audit --no-fund` in ROOT"},
		{"not pinned", "", "left-pad", "left-pad is not pinned in thirdparty/package.json: pin it with `npm install --prefix thirdparty --save-exact left-pad` in ROOT"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			writeFile(t, filepath.Join(root, "thirdparty", "package.json"), manifest)
			dir := filepath.Join(root, "thirdparty", "node_modules", filepath.FromSlash(tt.pkg))
			if tt.installed != "" {
				writeFile(t, filepath.Join(dir, "package.json"), tt.installed)
			}
			got, err := installedPackage(root, tt.pkg)
			if tt.wantErr == "" {
				if err != nil || got != dir {
					t.Fatalf("installedPackage(%q) = %q, %v; want %q, nil", tt.pkg, got, err, dir)
				}
				return
			}
			want := strings.ReplaceAll(tt.wantErr, "ROOT", root)
			if err == nil || err.Error() != want {
				t.Fatalf("installedPackage(%q) = %q, %v; want error %q", tt.pkg, got, err, want)
			}
		})
	}
}
