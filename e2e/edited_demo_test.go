//go:build unix

package e2e

// Issue 20's done-when: changing what the demo server asks is caught.
// The test copies demoserver/ into a temporary package of this module,
// edits the copy's create_repo (a key renamed, a required field dropped,
// a round added), builds each edited server, and runs the built mcpcli
// test on a flow recorded against the unedited server: each edit fails
// with a diff naming the step, the round and the key; --update makes the
// flow pass again, keeping its comments and answers.

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// demoEdit is one edit of the copy's demoserver/tools.go: each old
// string is replaced once.
type demoEdit struct {
	name     string
	replace  [][2]string
	wantDiff []string // in mcpcli test's output
	// wantKept are lines the flow holds after --update: its answers, but
	// those of an ask that never comes (removed with it, by design: see
	// flow/update.go), and for a new ask the answer the replay gave it.
	wantKept []string
}

const (
	basicsAnswer  = `answer basics accept {"name": "hello", "visibility": "private"}`
	detailsAnswer = `answer details accept {"license": "MIT"}`
)

var demoEdits = []demoEdit{
	{
		name: "a key renamed",
		replace: [][2]string{
			{`"details": elicit(`, `"extras": elicit(`},
			{`response(req.Params.InputResponses, "details")`, `response(req.Params.InputResponses, "extras")`},
		},
		wantDiff: []string{`step 1 (call create_repo), round 2, ask "details"`, `"extras"`},
		wantKept: []string{basicsAnswer, "answer extras cancel"},
	},
	{
		name:     "a required field dropped",
		replace:  [][2]string{{`},"required":["name","visibility"]}`, `},"required":["name"]}`}},
		wantDiff: []string{`step 1 (call create_repo), round 1, ask "basics": required`},
		wantKept: []string{basicsAnswer, detailsAnswer},
	},
	{
		name: "a round added",
		replace: [][2]string{
			{"\tVisibility string `json:\"visibility\"`\n", "\tVisibility string `json:\"visibility\"`\n\tDone       string `json:\"done,omitempty\"`\n"},
			{`		return text("Created %s repository %s/%s (license: %s%s).", st.Visibility, owner, st.Name, license, extra), nil
	}`, `		st.Done = fmt.Sprintf("Created %s repository %s/%s (license: %s%s).", st.Visibility, owner, st.Name, license, extra)
		state, err := d.state.seal(bind, 3, st)
		if err != nil {
			return nil, err
		}
		return &mcp.CallToolResult{RequestState: state, InputRequests: mcp.InputRequestMap{
			"confirm": elicit("Step 3 of 3: create it?", ` + "`" + `{"type":"object","properties":{"sure":{"type":"boolean","title":"Sure","default":true}}}` + "`" + `),
		}}, nil
	case 3:
		if r := response(req.Params.InputResponses, "confirm"); r == nil || r.Action != "accept" {
			return text("Nothing was created."), nil
		}
		return text("%s", st.Done), nil
	}`},
		},
		wantDiff: []string{`step 1 (call create_repo), round 3: round`, `+ round 3 asks "confirm"`, `step 1 (call create_repo): rounds`},
		wantKept: []string{basicsAnswer, detailsAnswer, "answer confirm cancel"},
	},
}

func TestAnEditedDemoServerFailsItsFlowAndUpdateMakesItPass(t *testing.T) {
	if testing.Short() {
		t.Skip("builds four copies of the demo server")
	}
	dir := t.TempDir()
	answers := filepath.Join(dir, "answers.json")
	if err := os.WriteFile(answers, []byte(`{"basics": {"action": "accept", "content": {"name": "hello", "visibility": "private"}}, "details": {"action": "accept", "content": {"license": "MIT"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	recorded := filepath.Join(dir, "create_repo.flow")
	out, _ := wantRun(t, 0, "call", "create_repo", "owner=octo", "--answers", answers, "--record", recorded, "--", binary(t), "demo-server")
	wantContains(t, "mcpcli call create_repo --record", out, "Created private repository octo/hello (license: MIT).")
	src, err := os.ReadFile(recorded)
	if err != nil {
		t.Fatal(err)
	}
	// A comment of the person's own, which --update must keep.
	src = []byte(strings.Replace(string(src), "call create_repo", "# the wizard, both rounds accepted\ncall create_repo", 1))

	t.Run("unedited copy", func(t *testing.T) {
		srv := buildDemoCopy(t, nil)
		flow := writeFlow(t, src)
		out, _ := wantRun(t, 0, "test", flow, "--", srv)
		wantContains(t, "mcpcli test against the unedited copy", out, "PASS   ", "1 flow, 1 passed")
	})
	for _, e := range demoEdits {
		t.Run(e.name, func(t *testing.T) {
			srv := buildDemoCopy(t, e.replace)
			flow := writeFlow(t, src)
			out, _ := wantRun(t, 1, "test", flow, "--", srv)
			wantContains(t, "mcpcli test against the server with "+e.name, out, append([]string{"FAIL   "}, e.wantDiff...)...)

			out, _ = wantRun(t, 0, "test", flow, "--update", "--", srv)
			wantContains(t, "mcpcli test --update", out, "(updated)")
			out, _ = wantRun(t, 0, "test", flow, "--", srv)
			wantContains(t, "mcpcli test after --update", out, "PASS   ")
			got, err := os.ReadFile(flow)
			if err != nil {
				t.Fatal(err)
			}
			wantContains(t, "the updated flow", string(got), append([]string{"# the wizard, both rounds accepted\n"}, e.wantKept...)...)
		})
	}
}

// writeFlow writes src as a flow file of its own.
func writeFlow(t *testing.T, src []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "create_repo.flow")
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// buildDemoCopy copies demoserver/ (its non-test files) into a temporary
// package of this module, applies edits to its tools.go, and builds a
// stdio server of it; it returns the server's path.
func buildDemoCopy(t *testing.T, edits [][2]string) string {
	t.Helper()
	root, err := os.MkdirTemp("testdata", "edited-demo-")
	if err != nil {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if root, err = os.MkdirTemp("testdata", "edited-demo-"); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		os.RemoveAll(root)
		os.Remove("testdata") // when no other copy is left in it
	})
	pkg := filepath.Join(root, "demoserver")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("../demoserver/*.go")
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if filepath.Base(f) == "tools.go" {
			s := string(b)
			for _, e := range edits {
				if !strings.Contains(s, e[0]) {
					t.Fatalf("demoserver/tools.go no longer holds %q: update this test's edit", e[0])
				}
				s = strings.Replace(s, e[0], e[1], 1)
			}
			b = []byte(s)
		}
		if err := os.WriteFile(filepath.Join(pkg, filepath.Base(f)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	importPath := "github.com/mcpcli/mcpcli/e2e/" + filepath.ToSlash(pkg)
	main := `package main

import (
	"context"
	"os"

	demoserver "` + importPath + `"
)

func main() {
	d, err := demoserver.New(demoserver.Options{})
	if err != nil {
		panic(err)
	}
	defer d.Close()
	_ = d.ServeStdio(context.Background(), os.Stdin, os.Stdout)
}
`
	if err := os.WriteFile(filepath.Join(root, "main.go"), []byte(main), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "edited-demo")
	cmd := exec.Command("go", "build", "-o", bin, "./"+filepath.ToSlash(root))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build the edited demo server: %v\n%s", err, out)
	}
	return bin
}
