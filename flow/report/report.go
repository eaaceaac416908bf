// Package report writes the outcome of flow runs for people and for CI:
// a line per flow (Text), JUnit XML, TAP and JSON.
//
// Every string a server sent reaches a Mismatch already JSON-quoted; Text
// passes each line through render's sanitizer too, since it goes to a
// terminal.
package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/mcpcli/mcpcli/flow"
	"github.com/mcpcli/mcpcli/internal/plural"
	"github.com/mcpcli/mcpcli/lint"
	"github.com/mcpcli/mcpcli/render"
)

// Flow is the outcome of one flow file.
type Flow struct {
	Name     string // the file, as it was named on the command line
	Duration time.Duration
	// Steps are the file's requests, in order (empty when it could not be
	// read).
	Steps      []flow.Request
	Mismatches []flow.Mismatch
	// Err is why the flow could not run at all: a file that does not
	// parse, a server that cannot be reached.
	Err error
	// Updated says --update rewrote the file.
	Updated bool
	// Findings are what lint found wrong in the asks the server made
	// while the flow ran. They are reported with the flow; with Strict
	// (--strict) any of them fails it.
	Findings []lint.Finding
	Strict   bool
}

// LintFails reports whether the flow's findings fail it (--strict).
func (f Flow) LintFails() bool { return f.Strict && len(f.Findings) > 0 }

// findingLine is a finding on one line, as Text and JUnit write it.
func findingLine(fd lint.Finding) string {
	times := ""
	if fd.Count > 1 {
		times = fmt.Sprintf(" (%d times)", fd.Count)
	}
	return fmt.Sprintf("lint %s %s  %s: %s%s [%s]", fd.Severity, fd.Rule, fd.Where, fd.Message, times, fd.Spec)
}

// Status is how a flow went.
type Status string

// The statuses.
const (
	Pass  Status = "pass"
	Fail  Status = "fail"  // it ran, and the server differs from the file
	Error Status = "error" // it could not run
)

// Status is Error when the flow could not run, Fail when it found
// mismatches, else Pass.
func (f Flow) Status() Status {
	switch {
	case f.Err != nil:
		return Error
	case len(f.Mismatches) > 0 || f.LintFails():
		return Fail
	}
	return Pass
}

// Counts tallies flows by status.
func Counts(flows []Flow) (passed, failed, errored int) {
	for _, f := range flows {
		switch f.Status() {
		case Pass:
			passed++
		case Fail:
			failed++
		case Error:
			errored++
		}
	}
	return
}

// OK reports whether every flow passed: mcpcli test exits 0 then, else 1.
func OK(flows []Flow) bool {
	_, f, e := Counts(flows)
	return f == 0 && e == 0
}

func seconds(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', 3, 64) }

// Text writes a line per flow, the diffs of a failing one indented under
// it, and the lint findings of any, then a closing line of counts:
//
//	PASS   flows/create_repo.flow  3 steps, 0.412s
//	FAIL   flows/delete.flow  1 step, 0.120s, 1 mismatch
//	       step 1 (call delete_project), round 1, ask "confirm_delete": required (line 9)
//	         - == ["confirm"]
//	         + []
//	ERROR  flows/broken.flow:3:1: "rond" is not a flow keyword
//	3 flows, 1 passed, 1 failed, 1 error, in 0.6s
func Text(w io.Writer, flows []Flow) error {
	var b strings.Builder
	var total time.Duration
	for _, f := range flows {
		total += f.Duration
		name := render.Line(f.Name)
		switch f.Status() {
		case Error:
			// An error that names the file (file:line) is not
			// prefixed with its name again.
			msg := render.Line(f.Err.Error())
			if !strings.HasPrefix(msg, name+":") {
				msg = name + ": " + msg
			}
			fmt.Fprintf(&b, "ERROR  %s\n", msg)
			continue
		case Fail:
			fmt.Fprintf(&b, "FAIL   %s  %s, %ss", name, plural.Count(len(f.Steps), "step", "steps"), seconds(f.Duration))
			if len(f.Mismatches) > 0 {
				fmt.Fprintf(&b, ", %s", plural.Count(len(f.Mismatches), "mismatch", "mismatches"))
			}
		default:
			fmt.Fprintf(&b, "PASS   %s  %s, %ss", name, plural.Count(len(f.Steps), "step", "steps"), seconds(f.Duration))
		}
		if len(f.Findings) > 0 {
			fmt.Fprintf(&b, ", %s", plural.Count(len(f.Findings), "lint finding", "lint findings"))
		}
		if f.Updated {
			b.WriteString(" (updated)")
		}
		b.WriteByte('\n')
		for _, m := range f.Mismatches {
			for _, l := range strings.Split(m.Diff(), "\n") {
				b.WriteString("       ")
				b.WriteString(render.Line(l))
				b.WriteByte('\n')
			}
		}
		for _, fd := range f.Findings {
			b.WriteString("       ")
			b.WriteString(render.Line(findingLine(fd)))
			b.WriteByte('\n')
		}
	}
	p, fl, e := Counts(flows)
	fmt.Fprintf(&b, "%s, %d passed, %d failed, %s, in %.1fs\n", plural.Count(len(flows), "flow", "flows"), p, fl, plural.Count(e, "error", "errors"), total.Seconds())
	_, err := io.WriteString(w, b.String())
	return err
}

// JSON writes the outcome as one JSON document (-o json).
func JSON(w io.Writer, flows []Flow) error {
	type mismatch struct {
		Step    int    `json:"step"`
		Request string `json:"request"`
		Round   int    `json:"round,omitempty"`
		Key     string `json:"key,omitempty"`
		Field   string `json:"field,omitempty"`
		Subject string `json:"subject"`
		Want    string `json:"want"`
		Got     string `json:"got"`
		Note    string `json:"note,omitempty"`
		Line    int    `json:"line,omitempty"`
		Text    string `json:"text"`
	}
	type one struct {
		Name       string          `json:"name"`
		Status     Status          `json:"status"`
		DurationMS int64           `json:"durationMs"`
		Steps      int             `json:"steps"`
		Updated    bool            `json:"updated,omitempty"`
		Error      string          `json:"error,omitempty"`
		Mismatches []mismatch      `json:"mismatches"`
		Findings   json.RawMessage `json:"findings"`
	}
	var doc struct {
		Flows  []one `json:"flows"`
		Passed int   `json:"passed"`
		Failed int   `json:"failed"`
		Errors int   `json:"errors"`
	}
	doc.Flows = []one{}
	for _, f := range flows {
		o := one{Name: f.Name, Status: f.Status(), DurationMS: f.Duration.Milliseconds(), Steps: len(f.Steps), Updated: f.Updated, Mismatches: []mismatch{}}
		var fb strings.Builder
		if err := lint.JSON(&fb, f.Findings); err != nil {
			return err
		}
		o.Findings = json.RawMessage(fb.String())
		if f.Err != nil {
			o.Error = f.Err.Error()
		}
		for _, m := range f.Mismatches {
			o.Mismatches = append(o.Mismatches, mismatch{Step: m.Step, Request: m.Request.String(), Round: m.Round, Key: m.Key, Field: m.Field,
				Subject: m.Subject, Want: m.Want, Got: m.Got, Note: m.Note, Line: m.Line, Text: m.String()})
		}
		doc.Flows = append(doc.Flows, o)
	}
	doc.Passed, doc.Failed, doc.Errors = Counts(flows)
	return render.WriteJSON(w, doc)
}

// TAP writes Test Anything Protocol, version 13 or 14: a test point per
// flow, its mismatches in the YAML block under a failing one.
func TAP(w io.Writer, flows []Flow, version int) error {
	if version != 13 && version != 14 {
		return fmt.Errorf("report: TAP version %d; mcpcli writes 13 or 14", version)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "TAP version %d\n1..%d\n", version, len(flows))
	for i, f := range flows {
		desc := tapEscape(render.Line(f.Name))
		if f.Status() == Pass {
			fmt.Fprintf(&b, "ok %d - %s\n", i+1, desc)
			if len(f.Findings) > 0 {
				b.WriteString("  ---\n")
				tapFindings(&b, f.Findings)
				b.WriteString("  ...\n")
			}
			continue
		}
		fmt.Fprintf(&b, "not ok %d - %s\n", i+1, desc)
		b.WriteString("  ---\n")
		if f.Err != nil {
			fmt.Fprintf(&b, "  message: %s\n  severity: error\n", yamlString(f.Err.Error()))
		} else if len(f.Mismatches) == 0 {
			fmt.Fprintf(&b, "  message: %s\n  severity: fail\n", yamlString(plural.Count(len(f.Findings), "lint finding", "lint findings")+" (--strict)"))
		} else {
			fmt.Fprintf(&b, "  message: %s\n  severity: fail\n", yamlString(plural.Count(len(f.Mismatches), "mismatch", "mismatches")))
			b.WriteString("  mismatches:\n")
			for _, m := range f.Mismatches {
				fmt.Fprintf(&b, "    - where: %s\n      subject: %s\n      want: %s\n      got: %s\n", yamlString(m.Where()), yamlString(m.Subject), yamlString(m.Want), yamlString(m.Got))
				if m.Note != "" {
					fmt.Fprintf(&b, "      note: %s\n", yamlString(m.Note))
				}
				if m.Line > 0 {
					fmt.Fprintf(&b, "      line: %d\n", m.Line)
				}
			}
		}
		tapFindings(&b, f.Findings)
		fmt.Fprintf(&b, "  duration_ms: %d\n  ...\n", f.Duration.Milliseconds())
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// tapFindings writes findings in a test point's YAML block.
func tapFindings(b *strings.Builder, findings []lint.Finding) {
	if len(findings) == 0 {
		return
	}
	b.WriteString("  findings:\n")
	for _, fd := range findings {
		fmt.Fprintf(b, "    - rule: %s\n      severity: %s\n      where: %s\n      message: %s\n      spec: %s\n",
			yamlString(fd.Rule), yamlString(string(fd.Severity)), yamlString(fd.Where.String()), yamlString(fd.Message), yamlString(fd.Spec))
	}
}

// tapEscape keeps a description from starting a directive: # and \ are
// escaped with a backslash (TAP 14).
func tapEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, "#", `\#`).Replace(s)
}

// yamlString is s as a YAML double-quoted scalar: JSON's escapes are
// YAML's, and a JSON string is a valid YAML one.
func yamlString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// JUnit writes JUnit XML as Jenkins, GitLab and GitHub's test reporters
// read it (the Jenkins junit-4.xsd schema): a testsuite per flow file, a
// testcase per step, each mismatch a <failure>; a flow that could not run
// is one testcase with an <error>. suite names the whole run.
func JUnit(w io.Writer, suite string, flows []Flow) error {
	_, err := io.WriteString(w, junitDoc(suite, flows).xml())
	return err
}

// The JUnit document, as it is written: testsuites, a testsuite per flow,
// a testcase per step.
type (
	junitFailure struct{ Message, Type, Body string }
	junitCase    struct {
		Name, Classname, Time string
		Errors, Failures      []junitFailure
		SystemOut             []string
	}
	junitSuite struct {
		Name                    string
		Tests, Failures, Errors int
		Time                    string
		Cases                   []junitCase
		SystemOut               string
	}
	junitSuites struct {
		Name                    string
		Tests, Failures, Errors int
		Time                    string
		Suites                  []junitSuite
	}
)

func junitDoc(suite string, flows []Flow) junitSuites {
	doc := junitSuites{Name: suite}
	var total time.Duration
	for _, f := range flows {
		total += f.Duration
		ts := junitSuite{Name: f.Name, Time: seconds(f.Duration)}
		if f.Err != nil {
			ts.Cases = []junitCase{{Name: "run", Classname: f.Name, Errors: []junitFailure{{Message: firstLine(f.Err.Error()), Type: "error", Body: f.Err.Error()}}}}
			ts.Errors = 1
		}
		for i, st := range f.Steps {
			if f.Err != nil {
				break
			}
			tc := junitCase{Name: fmt.Sprintf("step %d: %s", i+1, st), Classname: f.Name}
			for _, m := range f.Mismatches {
				if m.Step == i+1 {
					tc.Failures = append(tc.Failures, junitFailure{Message: m.String(), Type: m.Subject, Body: m.Diff()})
				}
			}
			for _, fd := range f.Findings {
				if fd.Call == i+1 || fd.Call < 1 && i == 0 || fd.Call > len(f.Steps) && i == len(f.Steps)-1 {
					tc.SystemOut = append(tc.SystemOut, findingLine(fd))
					if f.Strict {
						tc.Failures = append(tc.Failures, junitFailure{Message: fd.Where.String() + ": " + fd.Message, Type: "lint " + fd.Rule, Body: findingLine(fd)})
					}
				}
			}
			if len(tc.Failures) > 0 {
				ts.Failures++
			}
			ts.Cases = append(ts.Cases, tc)
		}
		if f.Err != nil {
			var lines []string
			for _, fd := range f.Findings {
				lines = append(lines, findingLine(fd))
			}
			ts.SystemOut = strings.Join(lines, "\n")
		}
		ts.Tests = len(ts.Cases)
		doc.Tests += ts.Tests
		doc.Failures += ts.Failures
		doc.Errors += ts.Errors
		doc.Suites = append(doc.Suites, ts)
	}
	doc.Time = seconds(total)
	return doc
}

// xml is the document with its XML header, indented two spaces a level,
// and a final newline.
func (doc junitSuites) xml() string {
	var x xmlOut
	x.b.WriteString(xmlHeader)
	itoa := strconv.Itoa
	x.start("testsuites", "name", doc.Name, "tests", itoa(doc.Tests), "failures", itoa(doc.Failures), "errors", itoa(doc.Errors), "time", doc.Time)
	for _, ts := range doc.Suites {
		x.start("testsuite", "name", ts.Name, "tests", itoa(ts.Tests), "failures", itoa(ts.Failures), "errors", itoa(ts.Errors), "time", ts.Time)
		for _, tc := range ts.Cases {
			attrs := []string{"name", tc.Name, "classname", tc.Classname}
			if tc.Time != "" {
				attrs = append(attrs, "time", tc.Time)
			}
			x.start("testcase", attrs...)
			for _, e := range tc.Errors {
				x.element("error", e.Body, "message", e.Message, "type", e.Type)
			}
			for _, f := range tc.Failures {
				x.element("failure", f.Body, "message", f.Message, "type", f.Type)
			}
			for _, out := range tc.SystemOut {
				x.element("system-out", out)
			}
			x.end("testcase")
		}
		if ts.SystemOut != "" {
			x.element("system-out", ts.SystemOut)
		}
		x.end("testsuite")
	}
	x.end("testsuites")
	x.b.WriteByte('\n')
	return x.b.String()
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// Write writes flows on w as format says: "json", "tap" (TAP version
// tap), or text (a line per flow).
func Write(w io.Writer, format string, tap int, flows []Flow) error {
	switch format {
	case "json":
		return JSON(w, flows)
	case "tap":
		return TAP(w, flows, tap)
	}
	return Text(w, flows)
}
