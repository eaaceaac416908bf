//go:build unix

package e2e

// The example flows (examples/flows) run through the built mcpcli test,
// as CI would run a project's flows: against the demo server, and against
// server-everything pinned in thirdparty/. The JUnit the command writes
// is checked against the JUnit XML schema flow/report keeps.

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpcli/mcpcli/internal/thirdparty"
)

func TestExampleFlowsPassThroughMcpcliTest(t *testing.T) {
	t.Run("demo server", func(t *testing.T) {
		t.Parallel()
		junit := filepath.Join(t.TempDir(), "junit.xml")
		out, _ := wantRun(t, 0, "test", "../examples/flows/demo", "-j", "6", "--junit", junit)
		wantContains(t, "mcpcli test examples/flows/demo", out,
			"PASS   ../examples/flows/demo/create_repo_accept.flow",
			"PASS   ../examples/flows/demo/create_repo_decline_round2.flow",
			"PASS   ../examples/flows/demo/create_repo_cancel_round1.flow",
			"PASS   ../examples/flows/demo/release_notes_prompt.flow",
			"PASS   ../examples/flows/demo/q3_report_read.flow",
			"PASS   ../examples/flows/demo/connect_account_url.flow",
			"6 flows, 6 passed, 0 failed, 0 errors")
		xmllintJUnit(t, junit)
	})
	t.Run("server-everything", func(t *testing.T) {
		t.Parallel()
		argv := thirdparty.Everything(t)
		out, _ := wantRun(t, 0, withServer(argv, "test", "../examples/flows/everything")...)
		wantContains(t, "mcpcli test examples/flows/everything", out, "PASS   ../examples/flows/everything/elicitation_decline.flow", "1 flow, 1 passed")
	})
}

// A failing run's JUnit, from the command itself, passes the schema too.
func TestJUnitOfAFailingRunPassesTheSchema(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile("../examples/flows/demo/create_repo_decline_round2.flow")
	if err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(string(src), `required == ["license"]`, `required == ["license", "topic"]`, 1)
	if bad == string(src) {
		t.Fatal("the example no longer says required == [\"license\"]: update this test")
	}
	path := filepath.Join(dir, "changed.flow")
	if err := os.WriteFile(path, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	junit := filepath.Join(dir, "junit.xml")
	out, _ := wantRun(t, 1, "test", path, "--junit", junit)
	wantContains(t, "mcpcli test changed.flow", out, `round 2, ask "details": required (line`)
	b, _ := os.ReadFile(junit)
	wantContains(t, "junit.xml", string(b), `failures="1"`, `<failure message="step 1 (call create_repo), round 2, ask &#34;details&#34;: required`)
	xmllintJUnit(t, junit)
}

func xmllintJUnit(t *testing.T, path string) {
	t.Helper()
	if _, err := exec.LookPath("xmllint"); err != nil {
		t.Skip("xmllint is not installed (Debian: apt-get install libxml2-utils; .ci/run installs it)")
	}
	out, err := exec.Command("xmllint", "--noout", "--schema", "../flow/report/testdata/jenkins-junit.xsd", path).CombinedOutput()
	if err != nil {
		b, _ := os.ReadFile(path)
		t.Fatalf("mcpcli test --junit fails jenkins-junit.xsd: %v\n%s\n%s", err, out, b)
	}
}
