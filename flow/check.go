package flow

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/mcpcli/mcpcli/internal/plural"
)

// Mismatch is one way a live run differs from its flow file.
type Mismatch struct {
	Step    int // from 1
	Request Request
	Round   int    // the round it is about; 0 when none
	Key     string // the ask it is about; "" when none
	// Subject is what differs: "step" (it did not run), "round" (one more
	// or one less), "ask" (one not expected, or one expected that never
	// came), "mode", "message", "url", "fields", "required", "type",
	// "enum", or of the result: "rounds", "isError", "text",
	// "structuredContent", "error".
	Subject string
	Field   string // the field, for type and enum
	Want    string // what the file expects, as written there
	Got     string // what came, JSON-quoted where it is the server's text
	Note    string // a hint in words: "renamed from \"name\"?"
	Line    int    // the file's line; 0 when the file has none for it
}

// Where names the step, round, key and field: `step 1 (call create_repo),
// round 2, ask "details", field "license"`.
func (m Mismatch) Where() string {
	parts := []string{fmt.Sprintf("step %d (%s)", m.Step, m.Request)}
	if m.Round > 0 {
		parts = append(parts, fmt.Sprintf("round %d", m.Round))
	}
	if m.Key != "" {
		parts = append(parts, "ask "+jsonText(m.Key))
	}
	if m.Field != "" {
		parts = append(parts, "field "+jsonText(m.Field))
	}
	return strings.Join(parts, ", ")
}

// String is the mismatch on one line.
func (m Mismatch) String() string {
	s := fmt.Sprintf("%s: %s: want %s, got %s", m.Where(), m.Subject, m.Want, m.Got)
	if m.Note != "" {
		s += " (" + m.Note + ")"
	}
	return s
}

// Diff is the mismatch as a small diff: where, then - what the file
// expects and + what came.
func (m Mismatch) Diff() string {
	var b strings.Builder
	b.WriteString(m.Where())
	b.WriteString(": ")
	b.WriteString(m.Subject)
	if m.Line > 0 {
		fmt.Fprintf(&b, " (line %d)", m.Line)
	}
	b.WriteString("\n  - ")
	b.WriteString(m.Want)
	b.WriteString("\n  + ")
	b.WriteString(m.Got)
	if m.Note != "" {
		b.WriteString("\n    ")
		b.WriteString(m.Note)
	}
	return b.String()
}

// Check compares each step of f with its run (runs[i] is step i's) and
// returns every difference: an ask the file does not expect, an expected
// ask that never came, an ask whose mode, message, URL or schema changed,
// a round more or less, and a result that does not match. None means the
// flow passed.
func Check(f *File, runs []Run) []Mismatch {
	var out []Mismatch
	for i, st := range f.Steps {
		if i >= len(runs) {
			out = append(out, Mismatch{Step: i + 1, Request: st.Request, Subject: "step", Want: "it runs", Got: "it did not run (a step before it failed)", Line: st.Line})
			continue
		}
		out = append(out, checkStep(i+1, st, runs[i])...)
	}
	return out
}

func checkStep(n int, st *Step, run Run) []Mismatch {
	var out []Mismatch
	add := func(m Mismatch) {
		m.Step, m.Request = n, st.Request
		out = append(out, m)
	}
	live := map[int]LiveRound{}
	for _, lr := range run.Rounds {
		live[lr.Number] = lr
	}
	expected := map[int]bool{}
	for _, r := range st.Rounds {
		expected[r.Number] = true
		lr, ok := live[r.Number]
		if !ok {
			add(Mismatch{Round: r.Number, Subject: "round", Want: "round " + fmt.Sprint(r.Number) + " asks " + keyList(expectedKeys(r)),
				Got: fmt.Sprintf("no round %d: %s", r.Number, roundsTaken(run)), Line: r.Line})
			continue
		}
		checkRound(r, lr, add)
	}
	for _, lr := range run.Rounds {
		if expected[lr.Number] {
			continue
		}
		var keys []string
		for _, a := range lr.Asks {
			keys = append(keys, a.Key)
		}
		add(Mismatch{Round: lr.Number, Subject: "round", Want: fmt.Sprintf("no round %d", lr.Number),
			Got: fmt.Sprintf("round %d asks %s", lr.Number, keyList(keys)), Line: st.Line})
	}
	checkResult(st, run, add)
	return out
}

func roundsTaken(run Run) string {
	switch {
	case run.Result != nil:
		return fmt.Sprintf("the request took %d round%s", run.Result.Rounds, plural.S(run.Result.Rounds))
	case run.Err != nil:
		return "the request failed first: " + jsonText(firstLine(run.Err.Error()))
	}
	return "the request ended"
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " ..."
	}
	return s
}

// expectedKeys are the keys a round expects: those it checks and those it
// answers, in the file's order.
func expectedKeys(r *Round) []string {
	var keys []string
	for _, a := range r.Asks {
		keys = append(keys, a.Key)
	}
	for _, a := range r.Answers {
		if !contains(keys, a.Key) {
			keys = append(keys, a.Key)
		}
	}
	return keys
}

func keyList(keys []string) string {
	if len(keys) == 0 {
		return "nothing"
	}
	q := make([]string, len(keys))
	for i, k := range keys {
		q[i] = jsonText(k)
	}
	return strings.Join(q, ", ")
}

func checkRound(r *Round, lr LiveRound, add func(Mismatch)) {
	want := expectedKeys(r)
	got := map[string]liveAsk{}
	var gotKeys []string
	for _, a := range lr.Asks {
		got[a.Key] = readAsk(a)
		gotKeys = append(gotKeys, a.Key)
	}
	var missing, extra []string
	for _, k := range want {
		if _, ok := got[k]; !ok {
			missing = append(missing, k)
		}
	}
	for _, k := range gotKeys {
		if !contains(want, k) {
			extra = append(extra, k)
		}
	}
	line := func(key string) int {
		for _, a := range r.Asks {
			if a.Key == key {
				return a.Line
			}
		}
		for _, a := range r.Answers {
			if a.Key == key {
				return a.Line
			}
		}
		return r.Line
	}
	for _, k := range missing {
		m := Mismatch{Round: r.Number, Key: k, Subject: "ask", Want: "asked", Got: "not asked; round " + fmt.Sprint(r.Number) + " asks " + keyList(gotKeys), Line: line(k)}
		if len(missing) == 1 && len(extra) == 1 {
			m.Note = "renamed to " + jsonText(extra[0]) + "?"
		}
		add(m)
	}
	for _, k := range extra {
		m := Mismatch{Round: r.Number, Key: k, Subject: "ask", Want: "not asked", Got: "asked: " + jsonText(got[k].Message), Line: r.Line}
		if len(missing) == 1 && len(extra) == 1 {
			m.Note = "renamed from " + jsonText(missing[0]) + "?"
		}
		add(m)
	}
	for _, spec := range r.Asks {
		la, ok := got[spec.Key]
		if !ok {
			continue
		}
		checkAsk(r.Number, spec, la, add)
	}
}

func checkAsk(round int, spec *AskSpec, la liveAsk, add func(Mismatch)) {
	at := func(m Mismatch) Mismatch {
		m.Round, m.Key = round, spec.Key
		return m
	}
	if spec.Mode != "" && spec.Mode != la.Mode {
		add(at(Mismatch{Subject: "mode", Want: spec.Mode, Got: la.Mode, Line: spec.Line}))
	}
	fieldsReported := false
	for _, c := range spec.Asserts {
		if c.Subject == SubjFields && !c.holds(la.shape.fields) {
			fieldsReported = true
		}
	}
	for _, c := range spec.Asserts {
		var got any
		switch c.Subject {
		case SubjMessage:
			got = la.Message
		case SubjURL:
			got = la.URL
		case SubjFields:
			got = la.shape.fields
		case SubjRequired:
			got = la.shape.required
		case SubjType, SubjEnum:
			if !contains(la.shape.fields, c.Field) {
				if !fieldsReported {
					add(at(Mismatch{Subject: c.Subject, Field: c.Field, Want: c.want(), Got: "no field " + jsonText(c.Field) + "; the fields are " + jsonText(la.shape.fields), Line: c.Line}))
				}
				continue
			}
			if c.Subject == SubjType {
				got = la.shape.types[c.Field]
			} else if e, ok := la.shape.enums[c.Field]; ok {
				got = e
			} else {
				if c.holds([]string{}) {
					continue
				}
				add(at(Mismatch{Subject: c.Subject, Field: c.Field, Want: c.want(), Got: "no list of choices", Line: c.Line}))
				continue
			}
		}
		if !c.holds(got) {
			m := at(Mismatch{Subject: c.Subject, Field: c.Field, Want: c.want(), Got: jsonText(got), Line: c.Line})
			if list, ok := got.([]string); ok {
				if want, ok := c.Value.([]string); ok {
					m.Note = setNote(c.Subject, want, list)
				}
			}
			add(m)
		}
	}
}

// setNote says in words how two lists differ.
func setNote(subj string, want, got []string) string {
	var gone, added []string
	for _, w := range want {
		if !contains(got, w) {
			gone = append(gone, w)
		}
	}
	for _, g := range got {
		if !contains(want, g) {
			added = append(added, g)
		}
	}
	var parts []string
	switch subj {
	case SubjRequired:
		if len(gone) > 0 {
			parts = append(parts, keyList(gone)+" no longer required")
		}
		if len(added) > 0 {
			parts = append(parts, keyList(added)+" now required")
		}
	default:
		if len(gone) > 0 {
			parts = append(parts, keyList(gone)+" gone")
		}
		if len(added) > 0 {
			parts = append(parts, keyList(added)+" new")
		}
		if subj == SubjFields && len(gone) == 1 && len(added) == 1 {
			parts = append(parts, "renamed?")
		}
	}
	return strings.Join(parts, "; ")
}

// want is the check as the file says it: `== "text"`, `~ /re/`.
func (c *Assert) want() string {
	if c.Op == Match {
		return string(Match) + " " + patternText(fmt.Sprint(c.Value))
	}
	return string(c.Op) + " " + jsonText(c.Value)
}

// holds reports whether got (a string, a []string, an int, a bool or a
// JSON value) satisfies c.
func (c *Assert) holds(got any) bool {
	switch g := got.(type) {
	case string:
		switch c.Op {
		case Equal:
			return c.Value == g
		case Contains:
			s, _ := c.Value.(string)
			return strings.Contains(g, s)
		case Match:
			return c.Pattern.MatchString(g)
		}
	case []string:
		want, _ := c.Value.([]string)
		switch c.Op {
		case Equal:
			return sameSet(want, g)
		case Contains:
			for _, w := range want {
				if !contains(g, w) {
					return false
				}
			}
			return true
		case Match:
			for _, s := range g {
				if !c.Pattern.MatchString(s) {
					return false
				}
			}
			return true
		}
	case int:
		return c.Value == g
	case bool:
		return c.Value == g
	case json.RawMessage:
		var v any
		d := json.NewDecoder(bytes.NewReader(g))
		d.UseNumber()
		if g == nil || d.Decode(&v) != nil {
			v = nil
		}
		if c.Op == Contains {
			return subset(c.Value, v)
		}
		return jsonEqual(c.Value, v)
	}
	return false
}

func sameSet(a, b []string) bool {
	x := append([]string(nil), a...)
	y := append([]string(nil), b...)
	sort.Strings(x)
	sort.Strings(y)
	x, y = dedup(x), dedup(y)
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if x[i] != y[i] {
			return false
		}
	}
	return true
}

func dedup(s []string) []string {
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

// jsonEqual compares decoded JSON (numbers as json.Number, by value).
func jsonEqual(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !jsonEqual(v, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !jsonEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	case json.Number:
		y, ok := b.(json.Number)
		return ok && sameNumber(x, y)
	}
	return a == b
}

// subset reports whether want is within got: each member of an object
// with a value within got's, a list item by item, anything else equal.
func subset(want, got any) bool {
	switch x := want.(type) {
	case map[string]any:
		y, ok := got.(map[string]any)
		if !ok {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !subset(v, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := got.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !subset(x[i], y[i]) {
				return false
			}
		}
		return true
	}
	return jsonEqual(want, got)
}

func sameNumber(a, b json.Number) bool {
	if a == b {
		return true
	}
	x, err1 := a.Float64()
	y, err2 := b.Float64()
	return err1 == nil && err2 == nil && x == y
}

func checkResult(st *Step, run Run, add func(Mismatch)) {
	exp := st.Result
	if exp == nil {
		if run.Err != nil {
			add(Mismatch{Subject: SubjError, Want: "a result", Got: "the request failed: " + jsonText(run.Err.Error()), Line: st.Line})
		}
		return
	}
	expectsError := false
	for _, c := range exp.Asserts {
		if c.Subject == SubjError {
			expectsError = true
		}
	}
	if run.Err != nil && !expectsError {
		add(Mismatch{Subject: SubjError, Want: "a result", Got: "the request failed: " + jsonText(run.Err.Error()), Line: exp.Line})
	}
	var facts resultFacts
	if run.Result != nil {
		facts = factsOf(run.Result)
	}
	for _, c := range exp.Asserts {
		m := Mismatch{Subject: c.Subject, Want: c.want(), Line: c.Line}
		var got any
		switch c.Subject {
		case SubjRounds:
			got = liveRounds(run)
		case SubjError:
			if run.Err == nil {
				m.Got = "a result, not an error: " + jsonText(facts.text)
				add(m)
				continue
			}
			got = run.Err.Error()
		default:
			if run.Result == nil {
				continue // the error is reported once, above
			}
			switch c.Subject {
			case SubjIsError:
				got = facts.isError
			case SubjText:
				got = facts.text
			case SubjStructured:
				got = facts.structured
				if facts.structured == nil {
					got = json.RawMessage(nil)
				}
			}
		}
		if !c.holds(got) {
			switch g := got.(type) {
			case json.RawMessage:
				if g == nil {
					m.Got = "none"
				} else {
					m.Got = jsonText(g)
				}
			default:
				m.Got = jsonText(g)
			}
			add(m)
		}
	}
}

// liveRounds is how many rounds the request took: the result says, or,
// when it failed, the last round asked.
func liveRounds(run Run) int {
	if run.Result != nil {
		return run.Result.Rounds
	}
	n := 0
	for _, r := range run.Rounds {
		n = max(n, r.Number)
	}
	return n
}
