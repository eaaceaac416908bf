package lint

import (
	"fmt"
	"io"
	"strings"

	"github.com/mcpcli/mcpcli/internal/plural"
	"github.com/mcpcli/mcpcli/render"
)

// Text writes a finding a line, then a closing line of counts:
//
//	error    secret-in-form  server "hostile", tools/call "login", round 1, ask "login", field "password": the form asks for ... [2026-07-28/client/elicitation#form-mode-security]
//	lint: 1 error, 0 warnings
func Text(w io.Writer, findings []Finding) error {
	var b strings.Builder
	errs, warns := 0, 0
	for _, f := range findings {
		if f.Severity == Error {
			errs++
		} else {
			warns++
		}
		times := ""
		if f.Count > 1 {
			times = fmt.Sprintf(" (%d times)", f.Count)
		}
		line := fmt.Sprintf("%-8s %s  %s: %s%s [%s]", f.Severity, f.Rule, f.Where, f.Message, times, f.Spec)
		b.WriteString(render.Line(line))
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "lint: %d error%s, %d warning%s\n", errs, plural.S(errs), warns, plural.S(warns))
	_, err := io.WriteString(w, b.String())
	return err
}

// JSON writes the findings as a JSON list (-o json).
func JSON(w io.Writer, findings []Finding) error {
	type one struct {
		Rule     string   `json:"rule"`
		Severity Severity `json:"severity"`
		Spec     string   `json:"spec"`
		SpecURL  string   `json:"specUrl"`
		Message  string   `json:"message"`
		Server   string   `json:"server,omitempty"`
		Method   string   `json:"method,omitempty"`
		Target   string   `json:"target,omitempty"`
		Call     int      `json:"call,omitempty"`
		Round    int      `json:"round,omitempty"`
		Key      string   `json:"key,omitempty"`
		Field    string   `json:"field,omitempty"`
		File     string   `json:"file,omitempty"`
		Line     int      `json:"line,omitempty"`
		Count    int      `json:"count"`
	}
	out := []one{}
	for _, f := range findings {
		out = append(out, one{f.Rule, f.Severity, f.Spec, rule(f.Rule).URL(), f.Message, f.Server, f.Method, f.Target, f.Call, f.Round, f.Key, f.Field, f.File, f.Line, f.Count})
	}
	return render.WriteJSON(w, out)
}

// SARIF writes the findings as a SARIF 2.1.0 log, for code-scanning views:
// every rule in the tool's driver, each finding a result with its rule,
// level and message, located in a flow file when it came from one and
// always by a logical location (server, request, round, ask, field).
func SARIF(w io.Writer, findings []Finding, version string) error {
	type text struct {
		Text string `json:"text"`
	}
	type rule struct {
		ID               string `json:"id"`
		Name             string `json:"name"`
		ShortDescription text   `json:"shortDescription"`
		HelpURI          string `json:"helpUri"`
		Default          struct {
			Level string `json:"level"`
		} `json:"defaultConfiguration"`
	}
	type logical struct {
		Name               string `json:"name"`
		FullyQualifiedName string `json:"fullyQualifiedName"`
		Kind               string `json:"kind"`
	}
	type physical struct {
		ArtifactLocation struct {
			URI string `json:"uri"`
		} `json:"artifactLocation"`
		Region *struct {
			StartLine int `json:"startLine"`
		} `json:"region,omitempty"`
	}
	type location struct {
		Physical *physical `json:"physicalLocation,omitempty"`
		Logical  []logical `json:"logicalLocations"`
	}
	type result struct {
		RuleID    string     `json:"ruleId"`
		RuleIndex int        `json:"ruleIndex"`
		Level     string     `json:"level"`
		Message   text       `json:"message"`
		Locations []location `json:"locations"`
	}
	type driver struct {
		Name           string `json:"name"`
		Version        string `json:"version,omitempty"`
		InformationURI string `json:"informationUri"`
		Rules          []rule `json:"rules"`
	}
	type run struct {
		Tool struct {
			Driver driver `json:"driver"`
		} `json:"tool"`
		Results []result `json:"results"`
	}
	type log struct {
		Schema  string `json:"$schema"`
		Version string `json:"version"`
		Runs    []run  `json:"runs"`
	}
	var r run
	r.Tool.Driver = driver{Name: "mcpcli lint", Version: version, InformationURI: "https://modelcontextprotocol.io/specification/2026-07-28"}
	index := map[string]int{}
	for i, rl := range Rules {
		index[rl.ID] = i
		x := rule{ID: rl.ID, Name: rl.ID, ShortDescription: text{rl.Says}, HelpURI: rl.URL()}
		x.Default.Level = string(rl.Severity)
		r.Tool.Driver.Rules = append(r.Tool.Driver.Rules, x)
	}
	r.Results = []result{}
	for _, f := range findings {
		loc := location{Logical: []logical{{Name: logicalName(f.Where), FullyQualifiedName: fullyQualified(f.Where), Kind: "member"}}}
		if f.File != "" {
			p := &physical{}
			p.ArtifactLocation.URI = f.File
			if f.Line > 0 {
				p.Region = &struct {
					StartLine int `json:"startLine"`
				}{f.Line}
			}
			loc.Physical = p
		}
		msg := f.Message
		if f.Count > 1 {
			msg += fmt.Sprintf(" (%d times)", f.Count)
		}
		r.Results = append(r.Results, result{RuleID: f.Rule, RuleIndex: index[f.Rule], Level: string(f.Severity),
			Message: text{f.Where.String() + ": " + msg}, Locations: []location{loc}})
	}
	return render.WriteJSON(w, log{Schema: "https://json.schemastore.org/sarif-2.1.0.json", Version: "2.1.0", Runs: []run{r}})
}

func logicalName(w Where) string {
	switch {
	case w.Field != "":
		return w.Field
	case w.Key != "":
		return w.Key
	case w.Target != "":
		return w.Target
	}
	return w.Method
}

// fullyQualified is server/method/target/round N/key/field, the parts
// there are.
func fullyQualified(w Where) string {
	var parts []string
	for _, p := range []string{w.Server, w.Method, w.Target} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	if w.Round > 0 {
		parts = append(parts, fmt.Sprintf("round %d", w.Round))
	}
	for _, p := range []string{w.Key, w.Field} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, "/")
}

// Write writes findings on w as format says: "json", "sarif" (version is
// mcpcli's, the SARIF tool's), or text.
func Write(w io.Writer, format string, findings []Finding, version string) error {
	switch format {
	case "json":
		return JSON(w, findings)
	case "sarif":
		return SARIF(w, findings, version)
	}
	return Text(w, findings)
}
