package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// scripts/fuzz runs a target again only when Go's own fuzzing coordinator
// failed it with a bare "context deadline exceeded" and wrote no input
// (go.dev/issue/75804); a failing input, or the race three times, fails.
func TestFuzzScriptRetriesOnlyGosDeadlineRace(t *testing.T) {
	script, err := filepath.Abs("../scripts/fuzz")
	if err != nil {
		t.Fatal(err)
	}
	// A fake go: it fails with the race's signature while the races file
	// counts down, and writes a failing input when told to crash.
	fake := `#!/usr/bin/env bash
n=$(cat races)
if [ "$n" -gt 0 ]; then echo $((n-1)) > races; printf -- '--- FAIL: FuzzX (10.15s)\n    context deadline exceeded\nFAIL\n'; exit 1; fi
if [ -f crash ]; then mkdir -p p/testdata/fuzz/FuzzX; echo x > p/testdata/fuzz/FuzzX/0ab; printf -- '--- FAIL: FuzzX (1s)\n    context deadline exceeded\n'; exit 1; fi
if [ -f seedfail ]; then printf -- '--- FAIL: FuzzX/seed (0s)\n    bad\n'; exit 1; fi
echo PASS
`
	for _, tc := range []struct {
		name   string
		races  string
		file   string
		ok     bool
		output string
	}{
		{"race once, then a pass", "1", "", true, "running it again"},
		{"race twice, then a pass", "2", "", true, "running it again"},
		{"race three times", "3", "", false, "3 times in a row"},
		{"a written input fails at once, whatever it printed", "0", "crash", false, "failed on p/testdata/fuzz/FuzzX/0ab"},
		{"a failing seed fails at once", "0", "seedfail", false, "failed without writing an input"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			write := func(name, s string, mode os.FileMode) {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(s), mode); err != nil {
					t.Fatal(err)
				}
			}
			write("go", fake, 0o755)
			write("races", tc.races, 0o644)
			if tc.file != "" {
				write(tc.file, "", 0o644)
			}
			if err := os.MkdirAll(filepath.Join(dir, "p"), 0o755); err != nil {
				t.Fatal(err)
			}
			write("p/x_test.go", "package p\nfunc FuzzX(f *testing.F) {}\n", 0o644)
			cmd := exec.Command(script, "p:FuzzX")
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "GO="+filepath.Join(dir, "go"), "FUZZTIME=1s")
			out, err := cmd.CombinedOutput()
			if (err == nil) != tc.ok {
				t.Fatalf("scripts/fuzz p:FuzzX: err = %v, want ok = %v\n%s", err, tc.ok, out)
			}
			if !strings.Contains(string(out), tc.output) {
				t.Errorf("scripts/fuzz p:FuzzX printed no %q:\n%s", tc.output, out)
			}
		})
	}
}
