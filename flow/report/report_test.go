package report_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpcli/mcpcli/flow"
	"github.com/mcpcli/mcpcli/flow/report"
	"github.com/mcpcli/mcpcli/lint"
)

var call = flow.Request{Kind: flow.Call, Target: "delete_project"}

// sample is a pass, a fail with hostile server text, and a flow that
// could not run.
func sample() []report.Flow {
	return []report.Flow{
		{Name: "flows/create.flow", Duration: 412 * time.Millisecond, Steps: []flow.Request{{Kind: flow.Call, Target: "create_repo"}, {Kind: flow.Read, Target: "demo://x"}}},
		{Name: "flows/delete #1.flow", Duration: 120 * time.Millisecond, Steps: []flow.Request{call, {Kind: flow.Prompt, Target: "p"}}, Mismatches: []flow.Mismatch{
			{Step: 1, Request: call, Round: 1, Key: "confirm_delete", Subject: "required", Want: `== ["confirm"]`, Got: `[]`, Note: `"confirm" no longer required`, Line: 9},
			{Step: 1, Request: call, Subject: "text", Want: `== "Deleted."`, Got: `"\u001b[31mKept <b>&</b>\u202e"`, Line: 12},
		}},
		{Name: "flows/broken.flow", Err: errors.New("flows/broken.flow:3:1: \"rond\" is not a flow keyword\nsecond line\x1b[2J")},
	}
}

func TestText(t *testing.T) {
	var b bytes.Buffer
	if err := report.Text(&b, sample()); err != nil {
		t.Fatal(err)
	}
	want := `PASS   flows/create.flow  2 steps, 0.412s
FAIL   flows/delete #1.flow  2 steps, 0.120s, 2 mismatches
       step 1 (call delete_project), round 1, ask "confirm_delete": required (line 9)
         - == ["confirm"]
         + []
           "confirm" no longer required
       step 1 (call delete_project): text (line 12)
         - == "Deleted."
         + "\u001b[31mKept <b>&</b>\u202e"
ERROR  flows/broken.flow:3:1: "rond" is not a flow keyword second line
3 flows, 1 passed, 1 failed, 1 error, in 0.5s
`
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("Text (-want +got):\n%s", diff)
	}
	if strings.ContainsAny(b.String(), "\x1b\u202e") {
		t.Errorf("Text wrote a control character: %q", b.String())
	}
}

func TestStatusAndOK(t *testing.T) {
	fl := sample()
	for i, want := range []report.Status{report.Pass, report.Fail, report.Error} {
		if got := fl[i].Status(); got != want {
			t.Errorf("Status(%s) = %s, want %s", fl[i].Name, got, want)
		}
	}
	if report.OK(fl) || !report.OK(fl[:1]) || !report.OK(nil) {
		t.Errorf("OK: all three %v, the pass alone %v, none %v", report.OK(fl), report.OK(fl[:1]), report.OK(nil))
	}
}

func TestJSON(t *testing.T) {
	var b bytes.Buffer
	if err := report.JSON(&b, sample()); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Flows []struct {
			Name       string
			Status     string
			DurationMs int64
			Steps      int
			Error      string
			Mismatches []struct {
				Step    int
				Request string
				Round   int
				Key     string
				Subject string
				Want    string
				Got     string
				Line    int
				Text    string
			}
		}
		Passed, Failed, Errors int
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("JSON is not JSON: %v\n%s", err, b.String())
	}
	if doc.Passed != 1 || doc.Failed != 1 || doc.Errors != 1 || len(doc.Flows) != 3 {
		t.Fatalf("JSON counts = %+v", doc)
	}
	m := doc.Flows[1].Mismatches[0]
	if doc.Flows[1].Status != "fail" || doc.Flows[1].DurationMs != 120 || m.Request != "call delete_project" || m.Key != "confirm_delete" || m.Line != 9 || m.Round != 1 {
		t.Errorf("JSON flow 2 = %+v", doc.Flows[1])
	}
	if doc.Flows[2].Status != "error" || !strings.HasPrefix(doc.Flows[2].Error, "flows/broken.flow:3:1") {
		t.Errorf("JSON flow 3 = %+v", doc.Flows[2])
	}
	if doc.Flows[0].Mismatches == nil {
		t.Errorf("a passing flow's mismatches are null; want []")
	}
}

func TestTAP(t *testing.T) {
	for _, v := range []int{13, 14} {
		var b bytes.Buffer
		if err := report.TAP(&b, sample(), v); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(b.String(), "\n")
		if lines[0] != "TAP version "+map[int]string{13: "13", 14: "14"}[v] || lines[1] != "1..3" {
			t.Errorf("TAP %d header = %q", v, lines[:2])
		}
		var points []string
		inYAML := false
		for _, l := range lines[2:] {
			switch {
			case l == "  ---":
				inYAML = true
			case l == "  ...":
				inYAML = false
			case inYAML:
				if !strings.HasPrefix(l, "  ") {
					t.Errorf("a YAML line is not indented: %q", l)
				}
			case l != "":
				points = append(points, l)
			}
		}
		want := []string{"ok 1 - flows/create.flow", `not ok 2 - flows/delete \#1.flow`, "not ok 3 - flows/broken.flow"}
		if diff := cmp.Diff(want, points); diff != "" {
			t.Errorf("TAP %d test points (-want +got):\n%s", v, diff)
		}
		if !strings.Contains(b.String(), `      want: "== [\"confirm\"]"`) || !strings.Contains(b.String(), "  severity: error") {
			t.Errorf("TAP %d diagnostics:\n%s", v, b.String())
		}
	}
	if err := report.TAP(&bytes.Buffer{}, nil, 12); err == nil {
		t.Error("TAP version 12: no error")
	}
}

// xmllint validates doc against testdata/jenkins-junit.xsd.
func xmllint(t *testing.T, doc []byte) error {
	t.Helper()
	path := filepath.Join(t.TempDir(), "junit.xml")
	if err := os.WriteFile(path, doc, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("xmllint", "--noout", "--schema", filepath.Join("testdata", "jenkins-junit.xsd"), path).CombinedOutput()
	if err != nil {
		return errors.New(string(out))
	}
	return nil
}

func TestJUnitValidatesAgainstTheSchema(t *testing.T) {
	if _, err := exec.LookPath("xmllint"); err != nil {
		t.Skip("xmllint is not installed (Debian: apt-get install libxml2-utils; .ci/run installs it)")
	}
	var b bytes.Buffer
	if err := report.JUnit(&b, "mcpcli test", sample()); err != nil {
		t.Fatal(err)
	}
	if err := xmllint(t, b.Bytes()); err != nil {
		t.Fatalf("JUnit output fails jenkins-junit.xsd:\n%s\n%s", err, b.String())
	}
	if err := report.JUnit(&b, "empty", nil); err != nil {
		t.Fatal(err)
	}
	// The check itself catches a bad document: a testcase without a name.
	bad := bytes.Replace(b.Bytes(), []byte(`<testcase name="step 1: call create_repo"`), []byte(`<testcase`), 1)
	if err := xmllint(t, bad); err == nil {
		t.Fatal("xmllint accepted a testcase without a name: the schema check checks nothing")
	}
}

func TestJUnitShape(t *testing.T) {
	var b bytes.Buffer
	if err := report.JUnit(&b, "mcpcli test", sample()); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	for _, want := range []string{
		`<testsuites name="mcpcli test" tests="5" failures="1" errors="1" time="0.532">`,
		`<testsuite name="flows/create.flow" tests="2" failures="0" errors="0" time="0.412">`,
		`<testcase name="step 2: read demo://x" classname="flows/create.flow"></testcase>`,
		`<failure message="step 1 (call delete_project), round 1, ask &#34;confirm_delete&#34;: required: want == [&#34;confirm&#34;], got [] (&#34;confirm&#34; no longer required)" type="required">`,
		`<testcase name="step 2: prompt p" classname="flows/delete #1.flow"></testcase>`,
		`<error message="flows/broken.flow:3:1: &#34;rond&#34; is not a flow keyword" type="error">`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("JUnit has no %s:\n%s", want, s)
		}
	}
	if strings.Contains(s, "\x1b") {
		t.Errorf("JUnit holds an escape character")
	}
}

// -o json goes to a terminal as often as to jq: what a terminal would
// obey or hide is escaped.
func TestJSONEscapesWhatATerminalObeys(t *testing.T) {
	var b bytes.Buffer
	fl := []report.Flow{{Name: "a\u202eb.flow", Err: errors.New("bad \u009b2J \u200f")}}
	if err := report.JSON(&b, fl); err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(b.String(), "\u202e\u009b\u200f") {
		t.Errorf("JSON holds raw controls: %q", b.String())
	}
	if !strings.Contains(b.String(), `a\u202eb.flow`) {
		t.Errorf("JSON lost the name: %s", b.String())
	}
}

// findingsSample is a flow whose server asked something lint flags: once
// reported alone, once failing the flow under --strict.
func findingsSample(strict bool) []report.Flow {
	fd := lint.Finding{Rule: lint.SecretInForm, Severity: lint.Error, Spec: "2026-07-28/client/elicitation#form-mode-security",
		Message: "the form asks for \"password\" \u001b[31m", Count: 2,
		Where: lint.Where{Server: "demo", Method: "tools/call", Target: "login", Call: 1, Round: 1, Key: "login", Field: "password"}}
	return []report.Flow{{Name: "flows/login.flow", Duration: 10 * time.Millisecond, Steps: []flow.Request{{Kind: flow.Call, Target: "login"}}, Findings: []lint.Finding{fd}, Strict: strict}}
}

func TestFindingsAreReportedWithTheFlow(t *testing.T) {
	for _, strict := range []bool{false, true} {
		fl := findingsSample(strict)
		wantStatus := map[bool]report.Status{false: report.Pass, true: report.Fail}[strict]
		if got := fl[0].Status(); got != wantStatus {
			t.Errorf("strict %v: Status = %s, want %s", strict, got, wantStatus)
		}
		var text, js, tap, junit bytes.Buffer
		if err := report.Text(&text, fl); err != nil {
			t.Fatal(err)
		}
		head := map[bool]string{false: "PASS   flows/login.flow  1 step, 0.010s, 1 lint finding\n", true: "FAIL   flows/login.flow  1 step, 0.010s, 1 lint finding\n"}[strict]
		line := `       lint error secret-in-form  server "demo", tools/call "login", round 1, ask "login", field "password": the form asks for "password"  (2 times) [2026-07-28/client/elicitation#form-mode-security]` + "\n"
		if !strings.HasPrefix(text.String(), head+line) {
			t.Errorf("strict %v: Text =\n%s\nwant it to start with\n%s%s", strict, text.String(), head, line)
		}
		if err := report.JSON(&js, fl); err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Flows []struct {
				Status   string
				Findings []struct{ Rule, Key string }
			}
		}
		if err := json.Unmarshal(js.Bytes(), &doc); err != nil || len(doc.Flows[0].Findings) != 1 || doc.Flows[0].Findings[0].Rule != lint.SecretInForm || doc.Flows[0].Status != string(wantStatus) {
			t.Errorf("strict %v: JSON = %s (%v)", strict, js.String(), err)
		}
		if err := report.TAP(&tap, fl, 14); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(tap.String(), "  findings:\n    - rule: \"secret-in-form\"\n") {
			t.Errorf("strict %v: TAP has no findings:\n%s", strict, tap.String())
		}
		if err := report.JUnit(&junit, "mcpcli test", fl); err != nil {
			t.Fatal(err)
		}
		hasFailure := strings.Contains(junit.String(), `type="lint secret-in-form"`)
		if !strings.Contains(junit.String(), "<system-out>lint error secret-in-form") || hasFailure != strict {
			t.Errorf("strict %v: JUnit (a failure: %v):\n%s", strict, hasFailure, junit.String())
		}
		if strings.ContainsAny(text.String()+junit.String()+js.String()+tap.String(), "\x1b") {
			t.Errorf("strict %v: an escape character reached the output", strict)
		}
		if _, err := exec.LookPath("xmllint"); err == nil {
			if err := xmllint(t, junit.Bytes()); err != nil {
				t.Errorf("strict %v: JUnit with findings fails jenkins-junit.xsd:\n%s\n%s", strict, err, junit.String())
			}
		}
	}
}
