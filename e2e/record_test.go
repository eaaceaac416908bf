//go:build unix

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 20's first done-when: a flow recorded in the session replays
// green on a fresh clone. In tmux, the session calls the demo server's
// create_repo through its forms (round 1 accepted, round 2 declined), S
// then f saves it as a flow file; then, in a directory holding nothing
// but that file and the binary, with no mcpcli on $PATH and a HOME of its
// own, mcpcli test passes it; with its expected result edited, it fails
// with a diff that names the step and the check.
func TestSessionRecordsAFlowThatReplaysOnAFreshClone(t *testing.T) {
	bin := mcpcli(t)
	// The session starts the server as "mcpcli demo-server", as a person
	// would, so that the flow's server line names no path of this machine.
	path := "PATH=" + shellQuote(filepath.Dir(bin)+":"+os.Getenv("PATH"))
	tm := start(t, []string{path, "HOME=" + shellQuote(t.TempDir())}, "", bin, "session", "--", "mcpcli", "demo-server")
	tm.waitFor("mcpcli demo server 1.0.0", "Tools 10")
	tm.pick("create_repo")
	tm.waitFor("Arguments for tool create_repo", "owner *")
	tm.text("octo")
	tm.keys("Enter")
	tm.waitFor("Review: these arguments go to", "[ Send ]")
	tm.keys("Enter")
	tm.waitFor("step 1 of 2", "Repository name *")
	tm.keys("C-s")
	tm.waitFor("Review", "[ Accept: send ]")
	tm.keys("Enter")
	tm.waitFor("round 2", "Invite collaborators", "ctrl+x decline")
	tm.keys("C-x")
	tm.waitFor(`Declined: creating repository "hello-mcp"`, "✓ complete · 2 rounds")

	tm.keys("S")
	tm.waitFor("Save the session's 1 request as", "f  a flow file, a test", "s script · f flow file")
	tm.keys("f")
	tm.waitFor("File: flows/create_repo.flow█", "enter save")
	saved := filepath.Join(t.TempDir(), "create_repo.flow")
	tm.keys("C-u")
	tm.text(saved)
	tm.keys("Enter")
	tm.waitFor("saved the flow " + saved[:min(len(saved), 30)])
	tm.keys("q")
	tm.exited()

	// A fresh clone: the flow file and the binary, nothing else.
	fresh := t.TempDir()
	src, err := os.ReadFile(saved)
	if err != nil {
		t.Fatal(err)
	}
	flowText := string(src)
	for _, want := range []string{"server command mcpcli demo-server\n", `call create_repo {"owner": "octo"}`, "  round 1\n", "    answer basics accept", "  round 2\n", "    answer details decline\n", "rounds == 2"} {
		if !strings.Contains(flowText, want) {
			t.Errorf("the saved flow lacks %q:\n%s", want, flowText)
		}
	}
	copyFile(t, bin, filepath.Join(fresh, "mcpcli"), 0o755)
	copyFile(t, saved, filepath.Join(fresh, "create_repo.flow"), 0o644)
	test := func(want int) string {
		t.Helper()
		cmd := exec.Command("./mcpcli", "test", "create_repo.flow")
		cmd.Dir = fresh
		cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + fresh}
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("mcpcli test: %v", err)
		}
		if code != want {
			t.Fatalf("mcpcli test create_repo.flow exited %d, want %d:\n%s\nthe flow:\n%s", code, want, out, flowText)
		}
		return string(out)
	}
	out := test(0)
	wantContains(t, "mcpcli test (recorded)", out, "PASS   create_repo.flow", "1 flow, 1 passed, 0 failed, 0 errors")

	// The expected result edited: the run fails, with a diff.
	old := `Declined: creating repository \"hello-mcp\". Nothing changed.`
	edited := strings.Replace(flowText, old, `Created private repository octo/hello-mcp.`, 1)
	if edited == flowText {
		t.Fatalf("the saved flow does not expect %s:\n%s", old, flowText)
	}
	if err := os.WriteFile(filepath.Join(fresh, "create_repo.flow"), []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	out = test(1)
	wantContains(t, "mcpcli test (edited)", out, "FAIL   create_repo.flow", "step 1 (call create_repo): text (line ",
		`- == "Created private repository octo/hello-mcp."`, `+ "`+old+`"`, "1 flow, 0 passed, 1 failed")
}

func copyFile(t *testing.T, from, to string, perm os.FileMode) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, perm); err != nil {
		t.Fatal(err)
	}
}
