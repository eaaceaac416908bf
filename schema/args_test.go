package schema

import (
	"encoding/json"
	"strings"
	"testing"
)

// A number no JSON parser keeps is refused, not sent to become infinity
// or 0; what parsers keep goes as typed.
func TestParseNumberRefusesWhatParsersCannotKeep(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string // "" for accepted
	}{
		{"1e-400", "1e-400 is too small for a number a JSON parser can keep (it would become 0)"},
		{"-2.5E-999", "too small"},
		{"1e400", "1e400 is too large for a number a JSON parser can keep (it would become infinity)"},
		{"0", ""}, {"0.000", ""}, {"0e-400", ""}, {"1e-300", ""}, {"-12.5", ""},
		{"NaN", "the tool wants a number"}, {"abc", "the tool wants a number"},
	} {
		_, err := ParseNumber(tc.in)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("ParseNumber(%q) error = %v; want %q", tc.in, err, tc.want)
		}
	}
}

// A whole number keeps its digits past 2^53 (JSON has no limit on them),
// but not past what a parser reading numbers as floats keeps at all.
func TestCoerceRefusesAWholeNumberThatWouldBecomeInfinity(t *testing.T) {
	args, err := ParseArgs([]byte(`{"type":"object","properties":{"i":{"type":"integer"},"is":{"type":["integer","string"]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	big := "1" + strings.Repeat("0", 400)
	for _, tc := range []struct {
		key, value string
		want       any
		wantErr    string
	}{
		{"i", "9007199254740993", json.Number("9007199254740993"), ""},
		{"i", "+7", json.Number("7"), ""},
		{"i", big, nil, "is too large for a number a JSON parser can keep (it would become infinity)"},
		{"is", big, big, ""}, // text is one of its types
	} {
		got, err := args.Coerce(tc.key, tc.value)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("Coerce(%q, %.20q…) = %v, %v; want an error containing %q", tc.key, tc.value, got, err, tc.wantErr)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("Coerce(%q, %.20q…) = %#v, %v; want %#v", tc.key, tc.value, got, err, tc.want)
		}
	}
}

// DecodeJSON takes one JSON value and nothing else: JSON's own whitespace
// around it, a BOM before it, no more.
func TestDecodeJSONIsStrict(t *testing.T) {
	for _, tc := range []struct {
		in      string
		wantErr string // "" for accepted
	}{
		{" {\"a\": [1, 2.50]}\r\n\t", ""},
		{"\uFEFF[1]", ""},
		{"0\f", "there is more after the value"},
		{"{}\u00a0", "there is more after the value"},
		{"{}\u0085", "there is more after the value"},
		{"{} x", "there is more after the value"},
		{`{"a":1,"\u0061":2}`, `key "a" appears twice`},
		{`[{"b":{"c":1,"c":2}}]`, `key "c" appears twice`},
		{"\"\xff\"", "not valid UTF-8"},
	} {
		_, err := DecodeJSON([]byte(tc.in))
		if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
			t.Errorf("DecodeJSON(%q) error = %v; want %q", tc.in, err, tc.wantErr)
		}
	}
}

// A value the property's enum does not list is refused before anything is
// sent, naming what it takes; a word where an array goes gets the array
// to write instead.
func TestCoerceChecksEnumsAndShowsArrays(t *testing.T) {
	args, err := ParseArgs([]byte(`{"type":"object","properties":{
		"kind":{"type":"string","enum":["error","success"]},
		"n":{"type":"integer","enum":[1,2]},
		"paths":{"type":"array","items":{"type":"string"}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		key, value, wantErr string
	}{
		{"kind", "error", ""},
		{"kind", "bogus", `the tool takes one of "error", "success"`},
		{"n", "2", ""},
		{"n", "3", "the tool takes one of 1, 2"},
		{"paths", "/tmp/x", `the tool wants a JSON array, like ["/tmp/x"]`},
		{"paths", `["/tmp/x"]`, ""},
		{"paths", `[1,`, "the tool wants a JSON array: "},
	} {
		_, err := args.Coerce(tc.key, tc.value)
		switch {
		case tc.wantErr == "" && err != nil:
			t.Errorf("Coerce(%s, %s) = %v, want it taken", tc.key, tc.value, err)
		case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
			t.Errorf("Coerce(%s, %s) error = %v, want %q", tc.key, tc.value, err, tc.wantErr)
		}
	}
}

// A tool's inputSchema is read as the validator reads it (a keyword
// whatever its case), and one that gives a keyword twice is refused, as
// Parse refuses it (issue 22).
func TestParseArgsReadsKeysAsTheValidator(t *testing.T) {
	a, err := ParseArgs(json.RawMessage(`{"type":"object","Properties":{"n":{"type":"integer"}}}`))
	if err != nil || a.Props["n"] == nil || a.Props["n"].Type() != "integer" {
		t.Errorf(`ParseArgs({"Properties":{"n":…}}) = %+v, %v; want the property n, an integer`, a, err)
	}
	for _, raw := range []string{
		`{"type":"object","properties":{"n":{"type":"integer"}},"Properties":{"n":{"type":"string"}}}`,
		`{"type":"object","properties":{"n":{"type":"integer","type":"string"}}}`,
		`{"type":"object","properties":{"n":{"type":"integer"},"n":{"type":"string"}}}`,
	} {
		if a, err := ParseArgs(json.RawMessage(raw)); err == nil || !strings.Contains(err.Error(), "twice") {
			t.Errorf("ParseArgs(%s) = %+v, %v; want it refused for a key given twice", raw, a, err)
		}
	}
}
