package lint_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/lint"
)

// findings from the hostile server, one of them placed in a flow file.
func hostileFindings(t *testing.T) []lint.Finding {
	srv := hostile(t)
	l := lint.New(lint.Options{MaxRounds: 3})
	s := session(t, srv.URL, client.Options{MaxRounds: 3}, l)
	for _, p := range plants {
		if p.tool == "tools/list" {
			s.ListTools(context.Background())
		} else {
			s.CallTool(context.Background(), p.tool, nil)
		}
	}
	s.CallTool(context.Background(), "loop", nil) // the same finding twice: counted
	fs := l.Findings()
	fs[0].File, fs[0].Line = "flows/hostile.flow", 7
	return fs
}

func TestText(t *testing.T) {
	fs := []lint.Finding{
		{Rule: lint.SecretInForm, Severity: lint.Error, Spec: "2026-07-28/client/elicitation#form-mode-security", Message: `the form asks for what looks like a secret ("Password\u001b[2J")`,
			Where: lint.Where{Server: "evil\x1b]0;x\a", Method: "tools/call", Target: "login", Round: 1, Key: "k", Field: "password"}, Count: 1},
		{Rule: lint.URLNotHTTPS, Severity: lint.Warning, Spec: "2026-07-28/client/elicitation#safe-url-handling", Message: `plain http to "example.com"; use https outside loopback`,
			Where: lint.Where{Server: "s", Method: "tools/call", Target: "c", Round: 2, Key: "u"}, Count: 3},
	}
	var b bytes.Buffer
	if err := lint.Text(&b, fs); err != nil {
		t.Fatal(err)
	}
	want := `error    secret-in-form  server "evil\u001b]0;x\u0007", tools/call "login", round 1, ask "k", field "password": the form asks for what looks like a secret ("Password\u001b[2J") [2026-07-28/client/elicitation#form-mode-security]
warning  url-not-https  server "s", tools/call "c", round 2, ask "u": plain http to "example.com"; use https outside loopback (3 times) [2026-07-28/client/elicitation#safe-url-handling]
lint: 1 error, 1 warning
`
	if b.String() != want {
		t.Errorf("Text =\n%s\nwant\n%s", b.String(), want)
	}
}

func TestJSON(t *testing.T) {
	fs := hostileFindings(t)
	var b bytes.Buffer
	if err := lint.JSON(&b, fs); err != nil {
		t.Fatal(err)
	}
	var out []struct {
		Rule, Severity, Spec, SpecURL, Message, Server, Method, Target, Key, File string
		Round, Line, Count                                                        int
	}
	if err := json.Unmarshal(b.Bytes(), &out); err != nil {
		t.Fatalf("JSON: %v\n%s", err, b.String())
	}
	if len(out) != len(fs) {
		t.Fatalf("JSON has %d findings, want %d", len(out), len(fs))
	}
	loops := 0
	for _, f := range out {
		if !strings.HasPrefix(f.SpecURL, "https://modelcontextprotocol.io/specification/2026-07-28/") && !strings.HasPrefix(f.SpecURL, "https://modelcontextprotocol.io/specification/2025-11-25/") {
			t.Errorf("finding %s: specUrl %q", f.Rule, f.SpecURL)
		}
		if f.Rule == lint.TooManyRounds {
			loops++
			if f.Count != 2 {
				t.Errorf("too-many-rounds came twice, count %d", f.Count)
			}
		}
	}
	if loops != 1 {
		t.Errorf("too-many-rounds is listed %d times; the same finding is one, counted", loops)
	}
	if out[0].File != "flows/hostile.flow" || out[0].Line != 7 {
		t.Errorf("finding 1's file = %q line %d", out[0].File, out[0].Line)
	}
}

// SARIF 2.1.0: what the schema requires of a log, a run, a tool, a rule,
// a result and a location, and what code-scanning views read.
func TestSARIF(t *testing.T) {
	fs := hostileFindings(t)
	var b bytes.Buffer
	if err := lint.SARIF(&b, fs, "1.2.3"); err != nil {
		t.Fatal(err)
	}
	var log struct {
		Schema  string `json:"$schema"`
		Version string `json:"version"`
		Runs    []struct {
			Tool *struct {
				Driver *struct {
					Name    string `json:"name"`
					Version string `json:"version"`
					Rules   []struct {
						ID               string `json:"id"`
						HelpURI          string `json:"helpUri"`
						ShortDescription struct {
							Text string `json:"text"`
						} `json:"shortDescription"`
						DefaultConfiguration struct {
							Level string `json:"level"`
						} `json:"defaultConfiguration"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				RuleIndex *int   `json:"ruleIndex"`
				Level     string `json:"level"`
				Message   *struct {
					Text string `json:"text"`
				} `json:"message"`
				Locations []struct {
					PhysicalLocation *struct {
						ArtifactLocation *struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
						Region *struct {
							StartLine int `json:"startLine"`
						} `json:"region"`
					} `json:"physicalLocation"`
					LogicalLocations []struct {
						Name               string `json:"name"`
						FullyQualifiedName string `json:"fullyQualifiedName"`
					} `json:"logicalLocations"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(b.Bytes(), &log); err != nil {
		t.Fatalf("SARIF is not JSON: %v", err)
	}
	if log.Version != "2.1.0" || log.Schema == "" || len(log.Runs) != 1 {
		t.Fatalf("SARIF log: version %q, $schema %q, %d runs", log.Version, log.Schema, len(log.Runs))
	}
	run := log.Runs[0]
	if run.Tool == nil || run.Tool.Driver == nil || run.Tool.Driver.Name == "" || run.Tool.Driver.Version != "1.2.3" {
		t.Fatalf("SARIF run.tool.driver = %+v", run.Tool)
	}
	rules := run.Tool.Driver.Rules
	ids := map[string]bool{}
	for _, r := range rules {
		if r.ID == "" || ids[r.ID] || r.ShortDescription.Text == "" || !strings.HasPrefix(r.HelpURI, "https://") || (r.DefaultConfiguration.Level != "error" && r.DefaultConfiguration.Level != "warning") {
			t.Errorf("SARIF rule %+v", r)
		}
		ids[r.ID] = true
	}
	if len(rules) != len(lint.Rules) {
		t.Errorf("SARIF lists %d rules, lint has %d", len(rules), len(lint.Rules))
	}
	if len(run.Results) != len(fs) {
		t.Fatalf("SARIF has %d results, want %d", len(run.Results), len(fs))
	}
	for i, r := range run.Results {
		if r.Message == nil || r.Message.Text == "" {
			t.Errorf("result %d has no message", i)
		}
		if r.RuleIndex == nil || *r.RuleIndex < 0 || *r.RuleIndex >= len(rules) || rules[*r.RuleIndex].ID != r.RuleID {
			t.Errorf("result %d: ruleIndex does not point at rule %s", i, r.RuleID)
		}
		if r.Level != "error" && r.Level != "warning" {
			t.Errorf("result %d: level %q", i, r.Level)
		}
		if len(r.Locations) != 1 || len(r.Locations[0].LogicalLocations) != 1 || r.Locations[0].LogicalLocations[0].FullyQualifiedName == "" {
			t.Errorf("result %d: locations %+v", i, r.Locations)
		}
	}
	p := run.Results[0].Locations[0].PhysicalLocation
	if p == nil || p.ArtifactLocation == nil || p.ArtifactLocation.URI != "flows/hostile.flow" || p.Region == nil || p.Region.StartLine != 7 {
		t.Errorf("result 1's physical location = %+v, want flows/hostile.flow line 7", p)
	}
	if run.Results[1].Locations[0].PhysicalLocation != nil {
		t.Errorf("a finding from no file has a physical location")
	}
}

func TestJSONAndSARIFEscapeWhatATerminalObeys(t *testing.T) {
	fs := []lint.Finding{{Rule: lint.EmptyMessage, Severity: lint.Error, Spec: "x#y", Message: "m\u202e", Where: lint.Where{Server: "s\u009b", Key: "k\u200f"}, Count: 1}}
	for name, write := range map[string]func(*bytes.Buffer) error{
		"JSON":  func(b *bytes.Buffer) error { return lint.JSON(b, fs) },
		"SARIF": func(b *bytes.Buffer) error { return lint.SARIF(b, fs, "dev") },
	} {
		var b bytes.Buffer
		if err := write(&b); err != nil {
			t.Fatal(err)
		}
		if strings.ContainsAny(b.String(), "\u202e\u009b\u200f") {
			t.Errorf("%s holds raw controls: %q", name, b.String())
		}
	}
}
