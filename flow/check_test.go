package flow_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/flow"
)

// has reports whether ms holds a mismatch with these fields (empty ones
// match anything) whose note contains note.
func has(ms []flow.Mismatch, subject string, round int, key, field, note string) bool {
	for _, m := range ms {
		if m.Subject == subject && (round == 0 || m.Round == round) && (key == "" || m.Key == key) &&
			(field == "" || m.Field == field) && strings.Contains(m.Note, note) {
			return true
		}
	}
	return false
}

type wantMismatch struct {
	subject    string
	round      int
	key, field string
	note       string
}

// Each change to the server's asks fails the recorded flow with a
// mismatch that names it, and --update makes the flow green again.
func TestChangedServerFailsWithANamedDiffAndUpdateFixesIt(t *testing.T) {
	declineFirst := answerFunc(func(r client.Round, a client.Ask) *mcp.ElicitResult { return &mcp.ElicitResult{Action: "decline"} })
	for _, tc := range []struct {
		name   string
		inner  client.Answerer
		change variant
		want   []wantMismatch
	}{
		{"key renamed", acceptWizard, variant{renameKey: true}, []wantMismatch{
			{"ask", 1, "basics", "", `renamed to "setup"?`},
			{"ask", 1, "setup", "", `renamed from "basics"?`},
			{"round", 2, "", "", ""},
			{"rounds", 0, "", "", ""},
			{"text", 0, "", "", ""},
		}},
		{"required dropped", acceptWizard, variant{dropRequired: true}, []wantMismatch{
			{"required", 1, "basics", "", `"name" no longer required`},
		}},
		{"round added", acceptWizard, variant{extraRound: true}, []wantMismatch{
			{"round", 3, "", "", ""},
			{"rounds", 0, "", "", ""},
		}},
		{"type changed", acceptWizard, variant{typeChange: true}, []wantMismatch{
			{"type", 1, "basics", "name", ""},
		}},
		{"choice added", acceptWizard, variant{enumChange: true}, []wantMismatch{
			{"enum", 1, "basics", "visibility", `"internal" new`},
		}},
		{"field renamed", acceptWizard, variant{renameField: true}, []wantMismatch{
			{"fields", 1, "basics", "", "renamed?"},
			{"required", 1, "basics", "", `"title" now required`},
		}},
		{"form became a URL ask", acceptWizard, variant{urlMode: true}, []wantMismatch{
			{"mode", 1, "basics", "", ""},
			{"fields", 1, "basics", "", `"name", "visibility" gone`},
		}},
		{"result after decline changed", declineFirst, variant{declineMessage: "No repository for you."}, []wantMismatch{
			{"text", 0, "", "", ""},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := record(t, wizard(variant{}), tc.inner, createReq)
			changed := wizard(tc.change)
			runs := replay(t, connect(t, changed), f, nil)
			ms := flow.Check(f, runs)
			for _, w := range tc.want {
				if !has(ms, w.subject, w.round, w.key, w.field, w.note) {
					t.Errorf("Check after %s: no %+v among:\n%s", tc.name, w, diffs(ms))
				}
			}
			for _, m := range ms {
				if !strings.HasPrefix(m.Where(), "step 1 (call create)") {
					t.Errorf("mismatch %q does not name the step", m.Where())
				}
			}
			nf, err := f.Update(runs)
			if err != nil {
				t.Fatalf("Update: %v", err)
			}
			again := replay(t, connect(t, changed), nf, nil)
			if ms := flow.Check(nf, again); len(ms) > 0 {
				t.Errorf("after Update, Check = \n%s\nthe file:\n%s", diffs(ms), nf.Format())
			}
		})
	}
}

func diffs(ms []flow.Mismatch) string {
	var b strings.Builder
	for _, m := range ms {
		fmt.Fprintln(&b, m.Diff())
	}
	return b.String()
}

// A hand-edited flow: comments, a pattern, answers with odd spacing, a
// multi-line answer. Update keeps all of it but what the run contradicts.
const handEdited = `# The wizard, private path.   
server command wizard

call create {"owner": "octo"}
  # The first round: the basics.
  round 1
    ask basics form   # the key matters
      message ~ /step 1 of 2/
      fields == ["name", "visibility"]
      required == ["name", "visibility"]  # both needed
      type name == "string"
      enum visibility == ["public", "private"]
    answer   basics   accept {"name":"hello",
                              "visibility":"private"}
  round 2
    # license is a choice
    answer details accept {"license": "MIT"}
  result
    text ~ /^Created/
    rounds == 2
`

func TestUpdateKeepsAnswersCommentsAndWhatStillHolds(t *testing.T) {
	f, err := flow.Parse("hand.flow", []byte(handEdited))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(f.Format()); got != handEdited {
		t.Fatalf("Format() of a parsed file changed it:\n%s", got)
	}
	changed := wizard(variant{dropRequired: true, enumChange: true, extraRound: true})
	runs := replay(t, connect(t, changed), f, nil)
	nf, err := f.Update(runs)
	if err != nil {
		t.Fatal(err)
	}
	want := `# The wizard, private path.   
server command wizard

call create {"owner": "octo"}
  # The first round: the basics.
  round 1
    ask basics form   # the key matters
      message ~ /step 1 of 2/
      fields == ["name", "visibility"]
      required == ["visibility"]  # both needed
      type name == "string"
      enum visibility == ["public", "private", "internal"]
    answer   basics   accept {"name":"hello",
                              "visibility":"private"}
  round 2
    # license is a choice
    answer details accept {"license": "MIT"}
  round 3
    ask confirm form
      message == "Sure?"
      fields == ["ok"]
      required == ["ok"]
      type ok == "boolean"
    answer confirm cancel
  result
    text ~ /^Created/
    rounds == 3
`
	if got := string(nf.Format()); got != want {
		t.Errorf("Update:\n%s\nwant:\n%s", got, want)
	}
}

func TestUpdateKeepsCRLFAndAMissingFinalNewline(t *testing.T) {
	src := strings.ReplaceAll(strings.TrimSuffix(handEdited, "\n"), "\n", "\r\n")
	f, err := flow.Parse("crlf.flow", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if string(f.Format()) != src {
		t.Fatalf("Format() changed a CRLF file without a final newline")
	}
	runs := replay(t, connect(t, wizard(variant{extraRound: true})), f, nil)
	nf, err := f.Update(runs)
	if err != nil {
		t.Fatal(err)
	}
	got := string(nf.Format())
	if strings.Count(got, "\n") != strings.Count(got, "\r\n") || strings.HasSuffix(got, "\n") {
		t.Errorf("Update broke the line ends:\n%q", got)
	}
	if !strings.Contains(got, "  round 3\r\n") || !strings.HasSuffix(got, "rounds == 3") {
		t.Errorf("Update did not add round 3:\n%q", got)
	}
}

func TestResultAsserts(t *testing.T) {
	base := `call create {"owner": "octo"}
  round 1
    answer basics accept {"name": "x", "visibility": "public"}
  round 2
    answer details accept {"license": "MIT"}
  result
`
	srv := wizard(variant{})
	c := connect(t, srv)
	for _, tc := range []struct {
		assert string
		pass   bool
	}{
		{`text == "Created the repository."`, true},
		{`text == "Created the repository"`, false},
		{`text contains "the repo"`, true},
		{`text contains "a repo"`, false},
		{`text ~ /^Created .* repository\.$/`, true},
		{`text ~ "^Deleted"`, false},
		{`isError == false`, true},
		{`isError == true`, false},
		{`rounds == 2`, true},
		{`rounds == 1`, false},
		{`structuredContent contains {"license": "MIT"}`, true},
		{`structuredContent contains {"tags": ["a", "b"]}`, true},
		{`structuredContent contains {"tags": ["a"]}`, false},
		{`structuredContent contains {"license": "GPL"}`, false},
		{`structuredContent == {"license": "MIT"}`, false},
		{`structuredContent == {"tags": ["a", "b"], "created": true, "license": "MIT"}`, true},
		{`error contains "x"`, false},
	} {
		f, err := flow.Parse("t.flow", []byte(base+"    "+tc.assert+"\n"))
		if err != nil {
			t.Fatalf("Parse(%s): %v", tc.assert, err)
		}
		ms := flow.Check(f, replay(t, c, f, nil))
		if got := len(ms) == 0; got != tc.pass {
			t.Errorf("%s: passed = %v, want %v; mismatches:\n%s", tc.assert, got, tc.pass, diffs(ms))
		}
	}
}

func TestAskAsserts(t *testing.T) {
	c := connect(t, wizard(variant{}))
	for _, tc := range []struct {
		assert string
		pass   bool
	}{
		{`message == "New repository (step 1 of 2)."`, true},
		{`message contains "step 1"`, true},
		{`message ~ /step 2/`, false},
		{`fields == ["visibility", "name"]`, true},
		{`fields == ["name"]`, false},
		{`fields contains ["name"]`, true},
		{`fields contains "visibility"`, true},
		{`fields contains ["title"]`, false},
		{`fields ~ /^[a-z]+$/`, true},
		{`required == ["name", "visibility"]`, true},
		{`required == []`, false},
		{`type visibility == "string"`, true},
		{`type visibility ~ /^(string|integer)$/`, true},
		{`type title == "string"`, false},
		{`enum visibility == ["private", "public"]`, true},
		{`enum visibility contains ["internal"]`, false},
		{`enum name == []`, true},
		{`url ~ /x/`, false},
	} {
		src := "call create\n  round 1\n    ask basics form\n      " + tc.assert + "\n    answer basics decline\n"
		f, err := flow.Parse("t.flow", []byte(src))
		if err != nil {
			t.Fatalf("Parse(%s): %v", tc.assert, err)
		}
		ms := flow.Check(f, replay(t, c, f, nil))
		if got := len(ms) == 0; got != tc.pass {
			t.Errorf("%s: passed = %v, want %v; mismatches:\n%s", tc.assert, got, tc.pass, diffs(ms))
		}
	}
}

// An answer in another round answers the same key; an ask the file never
// answers is cancelled and reported.
func TestReplayAnswersByKey(t *testing.T) {
	f, err := flow.Parse("t.flow", []byte(`call create
  round 2
    answer details decline
  round 5
    answer basics accept {"name": "n", "visibility": "public"}
  result
    text == "Declined the details."
`))
	if err != nil {
		t.Fatal(err)
	}
	runs := replay(t, connect(t, wizard(variant{})), f, nil)
	ms := flow.Check(f, runs)
	// basics came in round 1 and took round 5's answer (the only one);
	// round 1 itself was not expected, and round 5 never came.
	if !has(ms, "round", 1, "", "", "") || !has(ms, "round", 5, "", "", "") || len(ms) != 2 {
		t.Errorf("Check = \n%s\nwant round 1 not expected and round 5 not come", diffs(ms))
	}
	if a := runs[0].Rounds[0].Asks[0].Answer; a.Action != "accept" {
		t.Errorf("round 1's basics got %q, want round 5's accept", a.Action)
	}
}

func TestAStepThatDidNotRunIsAMismatch(t *testing.T) {
	f, err := flow.Parse("t.flow", []byte("call a\ncall b\n"))
	if err != nil {
		t.Fatal(err)
	}
	ms := flow.Check(f, []flow.Run{{Request: f.Steps[0].Request, Result: &client.Result{Method: "tools/call"}}})
	if len(ms) != 1 || ms[0].Step != 2 || ms[0].Subject != "step" {
		t.Errorf("Check with step 2 not run = %v", ms)
	}
	if got := ms[0].String(); !strings.Contains(got, "step 2 (call b)") {
		t.Errorf("String() = %q, want it to name step 2 (call b)", got)
	}
}
