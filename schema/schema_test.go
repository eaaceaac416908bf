package schema

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func ip(n int) *int           { return &n }
func fp(f float64) *float64   { return &f }
func obj(props string) string { return `{"type":"object","properties":{` + props + `}}` }

// parseOne parses a schema holding one property "f" and returns its field.
func parseOne(t *testing.T, prop string, required bool) (*Field, *Form) {
	t.Helper()
	req := ""
	if required {
		req = `,"required":["f"]`
	}
	form, err := Parse(json.RawMessage(`{"type":"object","properties":{"f":` + prop + `}` + req + `}`))
	if err != nil {
		t.Fatalf("Parse(%s) error: %v", prop, err)
	}
	return form.Field("f"), form
}

func TestParseKinds(t *testing.T) {
	tests := []struct {
		name string
		prop string
		req  bool
		want Field
	}{
		{"plain string", `{"type":"string"}`, false, Field{Name: "f", Kind: String}},
		{"string everything", `{"type":"string","title":"Display name","description":"Shown to others","minLength":3,"maxLength":50,"default":"ada"}`, true,
			Field{Name: "f", Kind: String, Title: "Display name", Description: "Shown to others", Required: true, MinLength: ip(3), MaxLength: ip(50), Default: "ada"}},
		{"email", `{"type":"string","format":"email","default":"a@example.com"}`, false, Field{Name: "f", Kind: String, Format: "email", Default: "a@example.com"}},
		{"uri", `{"type":"string","format":"uri"}`, false, Field{Name: "f", Kind: String, Format: "uri"}},
		{"date", `{"type":"string","format":"date","default":"2026-01-31"}`, false, Field{Name: "f", Kind: String, Format: "date", Default: "2026-01-31"}},
		{"date-time", `{"type":"string","format":"date-time"}`, false, Field{Name: "f", Kind: String, Format: "date-time"}},
		{"number", `{"type":"number","minimum":0.5,"maximum":2.5,"default":1.7}`, false, Field{Name: "f", Kind: Number, Minimum: fp(0.5), Maximum: fp(2.5), Default: 1.7}},
		{"integer", `{"type":"integer","minimum":13,"maximum":130,"default":42}`, true, Field{Name: "f", Kind: Integer, Required: true, Minimum: fp(13), Maximum: fp(130), Default: int64(42)}},
		{"integer default written as 42.0", `{"type":"integer","default":42.0}`, false, Field{Name: "f", Kind: Integer, Default: int64(42)}},
		{"boolean", `{"type":"boolean","default":true}`, false, Field{Name: "f", Kind: Boolean, Default: true}},
		{"boolean no default", `{"type":"boolean"}`, false, Field{Name: "f", Kind: Boolean}},
		{"enum", `{"type":"string","enum":["Red","Green","Blue"],"default":"Red"}`, false,
			Field{Name: "f", Kind: Select, Options: []Option{{Value: "Red"}, {Value: "Green"}, {Value: "Blue"}}, Default: "Red"}},
		{"enum without type", `{"enum":["a","b"]}`, false, Field{Name: "f", Kind: Select, Options: []Option{{Value: "a"}, {Value: "b"}}}},
		{"titled oneOf", `{"type":"string","oneOf":[{"const":"#FF0000","title":"Red"},{"const":"#00FF00","title":"Green"}],"default":"#00FF00"}`, false,
			Field{Name: "f", Kind: Select, Options: []Option{{"#FF0000", "Red"}, {"#00FF00", "Green"}}, Default: "#00FF00"}},
		{"legacy enumNames", `{"type":"string","enum":["free","pro"],"enumNames":["Free","Pro ($8/mo)"]}`, false,
			Field{Name: "f", Kind: Select, Options: []Option{{"free", "Free"}, {"pro", "Pro ($8/mo)"}}}},
		{"enumNames of the wrong length are ignored", `{"type":"string","enum":["a","b"],"enumNames":["A"]}`, false,
			Field{Name: "f", Kind: Select, Options: []Option{{Value: "a"}, {Value: "b"}}}},
		{"duplicate choices are shown once", `{"type":"string","enum":["a","b","a"]}`, false,
			Field{Name: "f", Kind: Select, Options: []Option{{Value: "a"}, {Value: "b"}}}},
		{"multi enum", `{"type":"array","minItems":1,"maxItems":2,"items":{"type":"string","enum":["Red","Green","Blue"]},"default":["Red","Green"]}`, true,
			Field{Name: "f", Kind: MultiSelect, Required: true, MinItems: ip(1), MaxItems: ip(2), Options: []Option{{Value: "Red"}, {Value: "Green"}, {Value: "Blue"}}, Default: []string{"Red", "Green"}}},
		{"multi anyOf", `{"type":"array","items":{"anyOf":[{"const":"go","title":"Go"},{"const":"mcp","title":"MCP"}]},"default":[]}`, false,
			Field{Name: "f", Kind: MultiSelect, Options: []Option{{"go", "Go"}, {"mcp", "MCP"}}, Default: []string{}}},
		{"multi items.oneOf read like anyOf", `{"type":"array","items":{"oneOf":[{"const":"go","title":"Go"}]}}`, false,
			Field{Name: "f", Kind: MultiSelect, Options: []Option{{"go", "Go"}}}},
		{"secret string", `{"type":"string","title":"API key"}`, false, Field{Name: "f", Kind: String, Title: "API key", Secret: true}},
		{"secret integer", `{"type":"integer","title":"PIN"}`, false, Field{Name: "f", Kind: Integer, Title: "PIN", Secret: true}},
		{"null default is no default", `{"type":"string","default":null}`, false, Field{Name: "f", Kind: String}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, form := parseOne(t, tt.prop, tt.req)
			if !form.Renderable() {
				t.Fatalf("Parse(%s) problems: %v", tt.prop, form.Problems)
			}
			if string(got.Schema) != tt.prop {
				t.Errorf("Parse(%s).Schema = %s, want the property as written", tt.prop, got.Schema)
			}
			got.Schema = nil
			if diff := cmp.Diff(&tt.want, got); diff != "" {
				t.Errorf("Parse(%s) field (-want +got):\n%s", tt.prop, diff)
			}
		})
	}
}

func TestParseArgumentsTypesWhatAFormCannotHoldAsJSON(t *testing.T) {
	raw := `{"type":"object","properties":{
		"name":{"type":"string","format":"uuid"},
		"note":{"type":["string","null"]},
		"opts":{"type":"object","properties":{"a":{"type":"integer"}}},
		"rows":{"type":"array","items":{"type":"object"}},
		"any":{},
		"either":{"type":["integer","string"]},
		"level":{"type":"integer","minimum":1,"maximum":5}
	},"required":["name","opts"]}`
	form, err := ParseArguments(json.RawMessage(raw))
	if err != nil || !form.Renderable() {
		t.Fatalf("ParseArguments = %v, %v; want a form with every argument", form.Problems, err)
	}
	var got []string
	for _, f := range form.Fields {
		got = append(got, fmt.Sprintf("%s:%s:%v:%v", f.Name, f.Kind, f.Required, f.Nullable))
	}
	want := []string{"name:string:true:false", "note:string:false:true", "opts:json:true:false", "rows:json:false:false", "any:json:false:false", "either:json:false:false", "level:integer:false:false"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ParseArguments fields (-want +got):\n%s", diff)
	}
	v, err := form.Field("opts").ParseInput(`{"a": 1}`)
	if err != nil {
		t.Fatalf("ParseInput(opts) = %v", err)
	}
	if _, err := form.Content(map[string]any{"name": "x", "opts": v}); err != nil {
		t.Errorf("Content with opts %v = %v, want it valid", v, err)
	}
	if _, err := form.Content(map[string]any{"name": "x", "opts": map[string]any{"a": "no"}}); err == nil {
		t.Errorf("Content with opts.a a string = nil, want the schema's refusal")
	}
	if _, err := form.Field("opts").ParseInput(`{"a": 1} trailing`); err == nil {
		t.Errorf("ParseInput(opts) with trailing data = nil, want an error")
	}
}

func TestParseKeepsOrder(t *testing.T) {
	raw := `{"type":"object","properties":{"zeta":{"type":"string"},"alpha":{"type":"number"},"mid":{"type":"boolean"},"alpha":{"type":"integer"},"b":{"type":"string"}}}`
	form, err := Parse(json.RawMessage(raw))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	var kinds []Kind
	for _, f := range form.Fields {
		names = append(names, f.Name)
		kinds = append(kinds, f.Kind)
	}
	if diff := cmp.Diff([]string{"zeta", "alpha", "mid", "b"}, names); diff != "" {
		t.Errorf("field order (-want +got):\n%s", diff)
	}
	// A repeated key keeps its first place and its last value, as encoding/json does.
	if kinds[1] != Integer {
		t.Errorf("repeated key alpha has kind %v, want integer", kinds[1])
	}
}

func TestParseEmpty(t *testing.T) {
	for _, raw := range []string{``, `null`, `{}`, `{"type":"object"}`, `{"type":"object","properties":{}}`, `{"type":"object","properties":null}`} {
		form, err := Parse(json.RawMessage(raw))
		if err != nil {
			t.Errorf("Parse(%q) error: %v", raw, err)
			continue
		}
		if len(form.Fields) != 0 || !form.Renderable() {
			t.Errorf("Parse(%q) = %d fields, problems %v; want an empty renderable form", raw, len(form.Fields), form.Problems)
		}
		content, err := form.Content(nil)
		if err != nil || len(content) != 0 {
			t.Errorf("Parse(%q).Content(nil) = %v, %v; want {}, nil", raw, content, err)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, raw := range []string{`[]`, `"object"`, `42`, `{"type":"object","properties":[]}`, `{`, `{"type":"object","properties":{"a":1,}}`} {
		if _, err := Parse(json.RawMessage(raw)); err == nil {
			t.Errorf("Parse(%q) = nil error, want one", raw)
		}
	}
}

// TestParseUnrenderable covers schemas form mode does not allow: the form
// lists a problem naming the field and the reason, and never panics.
func TestParseUnrenderable(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		field  string // problem's field
		reason string // substring of the reason
	}{
		{"nested object", obj(`"addr":{"type":"object","properties":{"street":{"type":"string"}}}`), "addr", "nested object"},
		{"array of objects", obj(`"people":{"type":"array","items":{"type":"object","properties":{"n":{"type":"string"}}}}`), "people", "array of objects"},
		{"array of free strings", obj(`"tags":{"type":"array","items":{"type":"string"}}`), "tags", "without a list of choices"},
		{"array without items", obj(`"tags":{"type":"array"}`), "tags", "without items"},
		{"unknown type", obj(`"when":{"type":"timestamp"}`), "when", `unknown type "timestamp"`},
		{"no type", obj(`"x":{"title":"X"}`), "x", "no type"},
		{"type list", obj(`"x":{"type":["string","null"]}`), "x", "one primitive type"},
		{"unknown format", obj(`"ip":{"type":"string","format":"ipv4"}`), "ip", `format "ipv4"`},
		{"ref", obj(`"x":{"$ref":"#/$defs/y"}`), "x", "$ref"},
		{"top-level ref", `{"$ref":"#/$defs/y"}`, "", "$ref"},
		{"not an object schema", `{"type":"array","items":{"type":"string"}}`, "", "not object"},
		{"property is not a schema", obj(`"x":true`), "x", "not a schema object"},
		{"property keyword of the wrong type", obj(`"x":{"type":"string","minLength":"3"}`), "x", "minLength"},
		{"enum of numbers", obj(`"n":{"type":"number","enum":[1,2]}`), "n", "choices of strings only"},
		{"enum with a number", obj(`"c":{"type":"string","enum":["a",2]}`), "c", "not a string"},
		{"empty enum", obj(`"c":{"type":"string","enum":[]}`), "c", "nothing to choose"},
		{"empty oneOf", obj(`"c":{"type":"string","oneOf":[]}`), "c", "nothing to choose"},
		{"oneOf with a number const", obj(`"c":{"oneOf":[{"const":1,"title":"One"}]}`), "c", "not a string"},
		{"empty items enum", obj(`"c":{"type":"array","items":{"enum":[]}}`), "c", "nothing to choose"},
		{"required without property", `{"type":"object","properties":{},"required":["ghost"]}`, "ghost", "no property"},
		{"required is not a list", `{"type":"object","properties":{},"required":"a"}`, "", "required is not a list"},
		// Keywords whatever their case, as the validator reads them: a form
		// it shows is one the check can pass.
		{"Required, read as required", `{"type":"object","properties":{"a":{"type":"string"}},"Required":["b"]}`, "b", "no property"},
		{"tYpe, read as type", `{"tYpe":{"":0}}`, "", "not object"},
		{"the last of type and TYPE", `{"type":"object","TYPE":"string"}`, "", "not object"},
		{"a null type", `{"type":null}`, "", "not object"},
		// A keyword given twice, exactly or in two spellings, is refused:
		// the validator, the go-sdk (which sorts a schema's keys before
		// its own check) and the form would each read another schema
		// (issue 22; FuzzParse found the first two).
		{"required twice, the first no list", `{"type":"object","properties":{"a":{"type":"string","default":"x"}},"required":1,"required":["a"]}`, "", `gives the keyword "required" twice`},
		{"properties twice", `{"type":"object","properties":1,"properties":{"a":{"type":"string","default":"x"}}}`, "", `gives the keyword "properties" twice`},
		{"type and Type in a property", obj(`"a":{"type":"string","Type":"integer","default":"x"}`), "a", `gives the keyword "type" twice, as "type" and "Type"`},
		{"a property twice", `{"type":"object","properties":{"a":{"type":"string"},"a":{"type":"integer"}}}`, "", `gives "a" twice in properties`},
		{"a keyword twice in an option", obj(`"c":{"type":"string","oneOf":[{"const":"a","title":"A","const":"b"}]}`), "c", `gives the keyword "const" twice in oneOf/0`},
		{"items and Items", obj(`"m":{"type":"array","items":{"enum":["a"]},"Items":{"enum":["b"]}}`), "m", `as "items" and "Items"`},
		{"properties spelled with a long s", `{"type":"object","properties":{},"propertie\u017f":{"a":{"type":"string"}}}`, "", `gives the keyword "properties" twice`},
		{"minLength over maxLength", obj(`"s":{"type":"string","minLength":5,"maxLength":2}`), "s", "at least 5 and at most 2 characters: no answer can fit"},
		{"minimum over maximum", obj(`"n":{"type":"integer","minimum":10,"maximum":1}`), "n", "from 10 up to 1"},
		{"minItems over maxItems", obj(`"m":{"type":"array","minItems":3,"maxItems":1,"items":{"enum":["a","b","c"]}}`), "m", "at least 3 and at most 1"},
		{"minItems over the choices", obj(`"m":{"type":"array","minItems":3,"items":{"enum":["a","b"]}}`), "m", "at least 3 of 2 choices"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			form, err := Parse(json.RawMessage(tt.schema))
			if err != nil {
				t.Fatalf("Parse(%s) error: %v; want a form with problems", tt.schema, err)
			}
			if form.Renderable() {
				t.Fatalf("Parse(%s) is renderable; want a problem about %q", tt.schema, tt.reason)
			}
			found := false
			for _, p := range form.Problems {
				if p.Field == tt.field && strings.Contains(p.Reason, tt.reason) {
					found = true
				}
			}
			if !found {
				t.Errorf("Parse(%s) problems = %v; want one for %q containing %q", tt.schema, form.Problems, tt.field, tt.reason)
			}
			// Nothing can be accepted from an unrenderable form.
			if _, err := form.Content(map[string]any{}); err == nil {
				t.Errorf("Content of unrenderable form %s = nil error, want one", tt.schema)
			}
		})
	}
}

func TestParseDefaultProblems(t *testing.T) {
	tests := []struct {
		prop   string
		reason string
	}{
		{`{"type":"string","minLength":5,"default":"abc"}`, "at least 5"},
		{`{"type":"string","format":"email","default":"not-an-email"}`, "email"},
		{`{"type":"integer","default":1.5}`, "whole number"},
		{`{"type":"integer","minimum":1,"default":0}`, "at least 1"},
		{`{"type":"number","default":"7"}`, "must be a number"},
		{`{"type":"boolean","default":"yes"}`, "true or false"},
		{`{"type":"string","enum":["a","b"],"default":"c"}`, "one of"},
		{`{"type":"array","items":{"enum":["a","b"]},"default":["a","z"]}`, `"z" is not one of`},
		{`{"type":"array","items":{"enum":["a","b"]},"minItems":1,"default":[]}`, "at least 1"},
		{`{"type":"array","items":{"enum":["a","b"]},"default":"a"}`, "must be a list"},
	}
	for _, tt := range tests {
		f, form := parseOne(t, tt.prop, false)
		if !form.Renderable() || f == nil {
			t.Errorf("Parse(%s): problems %v; a bad default must not make the form unrenderable", tt.prop, form.Problems)
			continue
		}
		if f.Default != nil {
			t.Errorf("Parse(%s).Default = %#v, want nil", tt.prop, f.Default)
		}
		if !strings.Contains(f.DefaultProblem, tt.reason) {
			t.Errorf("Parse(%s).DefaultProblem = %q, want it to contain %q", tt.prop, f.DefaultProblem, tt.reason)
		}
	}
}

func TestSecret(t *testing.T) {
	tests := []struct {
		name, title, desc string
		kind              string
		want              bool
	}{
		{"password", "", "", "string", true},
		{"new_password", "", "", "string", true},
		{"passphrase", "", "", "string", true},
		{"apiKey", "", "", "string", true},
		{"APIKey", "", "", "string", true},
		{"api_key", "", "", "string", true},
		{"x", "API key", "", "string", true},
		{"access_token", "", "", "string", true},
		{"githubToken", "", "", "string", true},
		{"client_secret", "", "", "string", true},
		{"card", "Card number", "", "string", true},
		{"cvv", "", "", "integer", true},
		{"pin", "", "", "integer", true},
		{"code", "One-time code", "", "string", true},
		{"ssn", "", "", "string", true},
		{"x", "", "Paste your private key here", "string", true},
		{"cred", "Credentials", "", "string", true},
		// Not secrets.
		{"passport_country", "", "", "string", false},
		{"compass", "Compass heading", "", "string", false},
		{"tokenizer", "", "", "string", false},
		{"secretary", "", "", "string", false},
		{"keyboard", "Keyboard layout", "", "string", false},
		{"name", "Full name", "", "string", false},
		{"email", "", "", "string", false},
		{"spin", "", "", "number", false},
		{"remember_password", "Remember password?", "", "boolean", false}, // booleans carry no secret
		// A measure of a secret is none (server-everything's sampling
		// maxTokens).
		{"maxTokens", "", "", "number", false},
		{"max_tokens", "", "Maximum number of tokens to generate", "integer", false},
		{"n", "", "Maximum number of tokens to generate", "integer", false},
		{"password_min_length", "", "", "integer", false},
		{"token_ttl", "", "", "integer", false},
		{"key", "", "Your API token (max 40 characters)", "string", true}, // a string still asks for it
		// A description that warns against giving a secret does not ask
		// for one (server-everything's "Integer").
		{"integer", "Integer", "Your favorite integer (do not give us your phone number, pin, or other sensitive info)", "integer", false},
		{"nickname", "", "Never use your password here.", "string", false},
		{"note", "", "No passwords, please. Paste your API key below.", "string", true},
		{"phone", "", "Don't share your PIN", "string", false},
	}
	for _, tt := range tests {
		prop, _ := json.Marshal(map[string]any{"type": tt.kind, "title": tt.title, "description": tt.desc})
		form, err := Parse(json.RawMessage(`{"type":"object","properties":{` + mustJSON(tt.name) + `:` + string(prop) + `}}`))
		if err != nil || len(form.Fields) != 1 {
			t.Fatalf("Parse(%s) = %v, %v", prop, form, err)
		}
		if got := form.Fields[0].Secret; got != tt.want {
			t.Errorf("Secret(name %q, title %q, description %q) = %v, want %v", tt.name, tt.title, tt.desc, got, tt.want)
		}
	}
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func TestParseInput(t *testing.T) {
	colors := `{"type":"string","oneOf":[{"const":"#f00","title":"Red"},{"const":"#0f0","title":"Green"},{"const":"3","title":"Three"}]}`
	tests := []struct {
		prop    string
		in      string
		want    any
		wantErr string
	}{
		{`{"type":"string"}`, "", nil, ""},
		{`{"type":"string"}`, "  Ada  ", "  Ada  ", ""}, // text is kept as typed
		{`{"type":"string","minLength":3}`, "ab", nil, "at least 3 characters (now 2)"},
		{`{"type":"string","maxLength":3}`, "abcd", nil, "at most 3 characters (now 4)"},
		{`{"type":"string","maxLength":3}`, "日本語", "日本語", ""}, // characters, not bytes
		{`{"type":"string","minLength":1,"maxLength":1}`, "a", "a", ""},
		{`{"type":"string","format":"email"}`, "ada@example.com", "ada@example.com", ""},
		{`{"type":"string","format":"email"}`, "ada@localhost", "ada@localhost", ""},
		{`{"type":"string","format":"email"}`, "ada", nil, "email address"},
		{`{"type":"string","format":"email"}`, "Ada <ada@example.com>", nil, "email address"},
		{`{"type":"string","format":"email"}`, "ada@example", nil, "email address"},
		{`{"type":"string","format":"uri"}`, "https://example.com/x?y=1", "https://example.com/x?y=1", ""},
		{`{"type":"string","format":"uri"}`, "example.com", nil, "full URI"},
		{`{"type":"string","format":"uri"}`, "https://exa mple.com", nil, "full URI"},
		{`{"type":"string","format":"date"}`, "2026-02-28", "2026-02-28", ""},
		{`{"type":"string","format":"date"}`, "2026-02-30", nil, "date like"},
		{`{"type":"string","format":"date"}`, "28/02/2026", nil, "date like"},
		{`{"type":"string","format":"date-time"}`, "2026-11-30T14:05:00Z", "2026-11-30T14:05:00Z", ""},
		{`{"type":"string","format":"date-time"}`, "2026-11-30T14:05:00+02:00", "2026-11-30T14:05:00+02:00", ""},
		{`{"type":"string","format":"date-time"}`, "2026-11-30 14:05", nil, "date and time"},
		{`{"type":"number"}`, " 3.5 ", 3.5, ""},
		{`{"type":"number"}`, "-1e3", -1000.0, ""},
		{`{"type":"number"}`, "NaN", nil, "must be a number"},
		{`{"type":"number"}`, "Inf", nil, "must be a number"},
		{`{"type":"number"}`, "three", nil, "must be a number"},
		{`{"type":"number","minimum":0.5,"maximum":2.5}`, "3", nil, "between 0.5 and 2.5"},
		{`{"type":"number","minimum":0.5}`, "0.4", nil, "at least 0.5"},
		{`{"type":"number","maximum":2.5}`, "2.6", nil, "at most 2.5"},
		{`{"type":"integer"}`, "42", int64(42), ""},
		{`{"type":"integer"}`, "4.2", nil, "whole number"},
		{`{"type":"integer"}`, "1e3", nil, "whole number"},
		{`{"type":"integer","minimum":13,"maximum":130}`, "12", nil, "between 13 and 130"},
		// What a float-reading JSON parser cannot keep exactly would reach
		// the server as another number; an answers file has it refused too.
		{`{"type":"integer"}`, "9007199254740992", int64(9007199254740992), ""},
		{`{"type":"integer"}`, "-9007199254740992", int64(-9007199254740992), ""},
		{`{"type":"integer"}`, "9007199254740993", nil, "a JSON parser keeps exactly"},
		{`{"type":"integer"}`, "-9223372036854775808", nil, "a JSON parser keeps exactly"},
		// Bytes that are not UTF-8 would be sent as U+FFFD.
		{`{"type":"string"}`, "caf\xe9", nil, "UTF-8"},
		{`{"type":"string","enum":["a","b"]}`, "a\xff", nil, "UTF-8"},
		{`{"type":"boolean"}`, "Yes", true, ""},
		{`{"type":"boolean"}`, "n", false, ""},
		{`{"type":"boolean"}`, "off", false, ""},
		{`{"type":"boolean"}`, "maybe", nil, "yes or no"},
		{colors, "#0f0", "#0f0", ""},
		{colors, "red", "#f00", ""},   // a title, any case
		{colors, "2", "#0f0", ""},     // a number
		{colors, "3", "3", ""},        // a value wins over a number
		{colors, "three", "3", ""},    // a title
		{colors, "Blue", nil, "Red"},  // the reason lists the choices
		{colors, "0", nil, "not one"}, // numbers start at 1
		// What the person reads is the title: typing a title picks that
		// option, even when another option's hidden value is the same text.
		{`{"type":"string","oneOf":[{"const":"a","title":"b"},{"const":"b","title":"a"}]}`, "a", "b", ""},
		{`{"type":"array","items":{"anyOf":[{"const":"keep","title":"delete"},{"const":"delete","title":"keep"}]}}`, "keep", []string{"delete"}, ""},
		{`{"type":"array","items":{"anyOf":[{"const":"go","title":"Go"},{"const":"mcp","title":"MCP"}]},"maxItems":1}`, "Go, mcp", nil, "at most 1"},
		{`{"type":"array","items":{"enum":["en","fr","ja"]}}`, "en, ja", []string{"en", "ja"}, ""},
		{`{"type":"array","items":{"enum":["en","fr","ja"]}}`, "3,1", []string{"ja", "en"}, ""},
		{`{"type":"array","items":{"enum":["en","fr","ja"]}}`, "en,,fr,", []string{"en", "fr"}, ""},
		{`{"type":"array","items":{"enum":["en","fr","ja"]}}`, "en,en", nil, "chosen twice"},
		{`{"type":"array","items":{"enum":["en","fr","ja"]}}`, "de", nil, `"de" is not one of`},
		{`{"type":"array","items":{"enum":["en","fr","ja"]},"minItems":2}`, "en", nil, "at least 2"},
		// Only commas: nothing chosen, a list all the same (null is no array).
		{`{"type":"array","items":{"enum":["en","fr","ja"]}}`, " , ,", []string{}, ""},
		{`{"type":"array","items":{"enum":["en","fr","ja"]},"minItems":1}`, ",", nil, "at least 1 chosen (now 0)"},
	}
	for _, tt := range tests {
		f, _ := parseOne(t, tt.prop, false)
		got, err := f.ParseInput(tt.in)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ParseInput(%s, %q) = %#v, %v; want error containing %q", tt.prop, tt.in, got, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseInput(%s, %q) error: %v", tt.prop, tt.in, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("ParseInput(%s, %q) (-want +got):\n%s", tt.prop, tt.in, diff)
		}
	}
}

func TestShow(t *testing.T) {
	form, err := Parse(json.RawMessage(obj(`"s":{"type":"string","oneOf":[{"const":"gb","title":"United Kingdom"}]},
		"m":{"type":"array","items":{"anyOf":[{"const":"go","title":"Go"},{"const":"mcp"}]}},
		"b":{"type":"boolean"},"n":{"type":"number"},"i":{"type":"integer"},"t":{"type":"string"}`)))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		field string
		v     any
		want  string
	}{
		{"s", "gb", "United Kingdom"},
		{"s", "xx", "xx"},
		{"m", []string{"go", "mcp"}, "Go, mcp"},
		{"m", []string{}, "(none)"},
		{"b", true, "yes"},
		{"b", false, "no"},
		{"n", 1.5, "1.5"},
		{"n", 1e21, "1000000000000000000000"},
		{"i", int64(-3), "-3"},
		{"t", "hello", "hello"},
		{"t", nil, "(not set)"},
	}
	for _, tt := range tests {
		if got := form.Field(tt.field).Show(tt.v); got != tt.want {
			t.Errorf("Show(%s, %#v) = %q, want %q", tt.field, tt.v, got, tt.want)
		}
	}
}

// profile is the demo's every-kind form, cut down.
const profile = `{"type":"object","properties":{
  "name":{"type":"string","title":"Full name","minLength":2,"maxLength":50},
  "email":{"type":"string","format":"email","default":"ada@example.com"},
  "bio":{"type":"string"},
  "age":{"type":"integer","minimum":13,"maximum":130},
  "height":{"type":"number","default":1.7},
  "newsletter":{"type":"boolean","default":false},
  "agree":{"type":"boolean"},
  "theme":{"type":"string","enum":["light","dark"],"default":"dark"},
  "country":{"type":"string","oneOf":[{"const":"GB","title":"United Kingdom"},{"const":"FR","title":"France"}]},
  "languages":{"type":"array","minItems":1,"maxItems":2,"items":{"type":"string","enum":["en","fr","ja"]},"default":["en"]},
  "topics":{"type":"array","items":{"anyOf":[{"const":"go","title":"Go"},{"const":"mcp","title":"MCP"}]}}
},"required":["name","email","languages"]}`

func TestContent(t *testing.T) {
	tests := []struct {
		name    string
		values  map[string]any
		want    map[string]any
		wantErr string
	}{
		// What is left out that has a default is sent with it (SEP-1034).
		{"required only: defaults fill the rest", map[string]any{"name": "Ada", "email": "ada@example.com", "languages": []string{"en"}},
			map[string]any{"name": "Ada", "email": "ada@example.com", "languages": []string{"en"}, "height": 1.7, "newsletter": false, "theme": "dark"}, ""},
		{"every kind", map[string]any{"name": "Ada", "email": "a@b.co", "bio": "Hi", "age": int64(36), "height": 1.65, "newsletter": true,
			"agree": false, "theme": "light", "country": "FR", "languages": []string{"en", "fr"}, "topics": []string{"mcp"}},
			map[string]any{"name": "Ada", "email": "a@b.co", "bio": "Hi", "age": int64(36), "height": 1.65, "newsletter": true,
				"agree": false, "theme": "light", "country": "FR", "languages": []string{"en", "fr"}, "topics": []string{"mcp"}}, ""},
		{"unset optional fields are left out, not sent empty", map[string]any{"name": "Ada", "email": "a@b.co", "languages": []string{"ja"}, "bio": "", "age": nil, "topics": nil},
			map[string]any{"name": "Ada", "email": "a@b.co", "languages": []string{"ja"}, "height": 1.7, "newsletter": false, "theme": "dark"}, ""},
		{"an empty optional list is sent when given", map[string]any{"name": "Ada", "email": "a@b.co", "languages": []string{"ja"}, "topics": []string{}, "height": 1.8, "newsletter": true, "theme": "light"},
			map[string]any{"name": "Ada", "email": "a@b.co", "languages": []string{"ja"}, "topics": []string{}, "height": 1.8, "newsletter": true, "theme": "light"}, ""},
		{"missing required", map[string]any{"email": "a@b.co", "languages": []string{"en"}}, nil, "Full name (name) is required"},
		{"nil required", map[string]any{"name": nil, "email": "a@b.co", "languages": []string{"en"}}, nil, "Full name (name) is required"},
		{"too short", map[string]any{"name": "A", "email": "a@b.co", "languages": []string{"en"}}, nil, "Full name (name) must be at least 2 characters"},
		{"bad email", map[string]any{"name": "Ada", "email": "nope", "languages": []string{"en"}}, nil, "email must be an email"},
		// "" is no email address: a required format field cannot be answered empty.
		{"empty required email", map[string]any{"name": "Ada", "email": "", "languages": []string{"en"}}, nil, "email must be an email"},
		{"too many", map[string]any{"name": "Ada", "email": "a@b.co", "languages": []string{"en", "fr", "ja"}}, nil, "languages must have at most 2 chosen"},
		{"not a choice", map[string]any{"name": "Ada", "email": "a@b.co", "languages": []string{"en"}, "country": "DE"}, nil, "country must be one of"},
		{"out of range", map[string]any{"name": "Ada", "email": "a@b.co", "languages": []string{"en"}, "age": int64(7)}, nil, "age must be between 13 and 130"},
		{"wrong type", map[string]any{"name": "Ada", "email": "a@b.co", "languages": []string{"en"}, "age": "36"}, nil, "age must be a number"},
	}
	form, err := Parse(json.RawMessage(profile))
	if err != nil || !form.Renderable() {
		t.Fatalf("Parse(profile) = %v, %v", form.Problems, err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := form.Content(tt.values)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Content(%v) = %v, %v; want error containing %q", tt.values, got, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Content(%v) error: %v", tt.values, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Content (-want +got):\n%s", diff)
			}
		})
	}
}

// TestValidateUsesTheSchema checks that the JSON Schema validator, not only
// mcpcli's field checks, stands between a form and the wire.
func TestValidateUsesTheSchema(t *testing.T) {
	// additionalProperties and pattern are not form-mode keywords, so the
	// field checks know nothing of them; the validator still applies them.
	form, err := Parse(json.RawMessage(`{"type":"object","properties":{"code":{"type":"string","pattern":"^[A-Z]{3}$"}},"additionalProperties":false}`))
	if err != nil || !form.Renderable() {
		t.Fatalf("Parse = %v, %v", form.Problems, err)
	}
	if _, err := form.Content(map[string]any{"code": "abc"}); err == nil || !strings.Contains(err.Error(), `code does not fit its schema: pattern: "abc" does not match regular expression`) {
		t.Errorf("Content(code=abc) error = %v, want the validator's refusal", err)
	}
	if got, err := form.Content(map[string]any{"code": "ABC"}); err != nil || got["code"] != "ABC" {
		t.Errorf("Content(code=ABC) = %v, %v", got, err)
	}
	if err := form.Validate(map[string]any{"code": "ABC", "extra": 1}); err == nil {
		t.Errorf("Validate with an extra property = nil, want an error")
	}
}

func TestFromContent(t *testing.T) {
	form, err := Parse(json.RawMessage(profile))
	if err != nil {
		t.Fatal(err)
	}
	var decoded map[string]any
	if err := json.Unmarshal([]byte(`{"name":"Ada","age":36,"height":1.5,"agree":true,"languages":["en","fr"],"country":"GB"}`), &decoded); err != nil {
		t.Fatal(err)
	}
	got, err := form.FromContent(decoded)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"name": "Ada", "age": int64(36), "height": 1.5, "agree": true, "languages": []string{"en", "fr"}, "country": "GB"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("FromContent (-want +got):\n%s", diff)
	}
	// An answers file's "" for a format field is checked as the form is:
	// "" is not an email address, so it is never sent as one.
	if err := form.Validate(map[string]any{"name": "Ada", "email": "", "languages": []string{"en"}}); err == nil || !strings.Contains(err.Error(), "email must be an email") {
		t.Errorf("Validate(email \"\") = %v, want the email refusal", err)
	}
	for _, bad := range []string{`{"nope":1}`, `{"age":36.5}`, `{"age":"36"}`, `{"languages":"en"}`, `{"languages":[1]}`, `{"agree":"yes"}`, `{"name":7}`} {
		var m map[string]any
		_ = json.Unmarshal([]byte(bad), &m)
		if _, err := form.FromContent(m); err == nil {
			t.Errorf("FromContent(%s) = nil error, want one", bad)
		}
	}
}

// TestHostileSchemaText checks that parsing keeps server text as it came
// (sanitizing is render's job, and it must see everything) and survives
// bytes that are not text.
func TestHostileSchemaText(t *testing.T) {
	hostile := "\x1b[2J\x1b]8;;https://evil.example\x07click\x1b]8;;\x07\u009b31m\u202eevil\xff"
	prop, _ := json.Marshal(map[string]any{
		"type": "string", "title": hostile, "description": hostile,
		"oneOf": []map[string]any{{"const": hostile, "title": hostile}}, "default": hostile,
	})
	form, err := Parse(json.RawMessage(`{"type":"object","properties":{` + mustJSON(hostile) + `:` + string(prop) + `}}`))
	if err != nil || !form.Renderable() {
		t.Fatalf("Parse(hostile) = %v, %v", form.Problems, err)
	}
	f := form.Fields[0]
	// encoding/json turns the invalid byte into U+FFFD; everything else is kept.
	clean := strings.ReplaceAll(hostile, "\xff", "\uFFFD")
	if f.Name != clean || f.Title != clean || f.Options[0].Value != clean || f.Default != clean {
		t.Errorf("Parse(hostile) changed server text: %+v", f)
	}
	if got, err := form.Content(map[string]any{clean: clean}); err != nil || got[clean] != clean {
		t.Errorf("Content(hostile) = %v, %v", got, err)
	}
}

func TestLong(t *testing.T) {
	tests := []struct {
		prop string
		want bool
	}{
		{`{"type":"string","title":"Short bio","maxLength":500}`, true},
		{`{"type":"string","title":"Description"}`, true},
		{`{"type":"string","minLength":100}`, true},
		{`{"type":"string","title":"Comment","maxLength":80}`, false},
		{`{"type":"string","title":"Name"}`, false},
		{`{"type":"string","title":"Notes","format":"uri"}`, false},
	}
	for _, tt := range tests {
		f, _ := parseOne(t, tt.prop, false)
		if got := f.Long(); got != tt.want {
			t.Errorf("Long(%s) = %v, want %v", tt.prop, got, tt.want)
		}
	}
}

// FuzzParse: no schema makes Parse panic, and a renderable form's defaults
// always make content that validates.
func FuzzParse(f *testing.F) {
	f.Add(profile)
	f.Add(obj(`"a":{"type":"array","items":{"anyOf":[{"const":"x"}]},"default":["x"]}`))
	f.Add(obj(`"a":{"type":"string","oneOf":[{"const":"x","title":"X"}],"default":"x"}`))
	f.Add(`{"type":"object","properties":{"a":{"type":"integer","default":9007199254740993}}}`)
	f.Fuzz(func(t *testing.T, raw string) {
		form, err := Parse(json.RawMessage(raw))
		if err != nil || !form.Renderable() {
			return
		}
		values := map[string]any{}
		complete := true
		for _, fl := range form.Fields {
			if fl.Default != nil {
				values[fl.Name] = fl.Default
			} else if fl.Required {
				complete = false
			}
		}
		if !complete {
			return
		}
		_, err = form.Content(values)
		switch {
		case err == nil:
		case strings.Contains(err.Error(), `code does not fit its schema: pattern: "abc" does not match regular expression`):
		case strings.Contains(err.Error(), "the requested schema cannot be used to check the answer, so nothing is sent"):
			// A schema the validator cannot use ({"mAXimum": {}}: a
			// keyword whatever its case, as encoding/json reads it) is
			// shown, and nothing is sent for it (TestValidatorCannotUseTheSchema).
		default:
			t.Errorf("Parse(%s): defaults do not make valid content: %v", raw, err)
		}
	})
}

// A schema the validator cannot use is still shown (the person can read
// it, decline or cancel), but nothing is sent for it.
func TestValidatorCannotUseTheSchema(t *testing.T) {
	form, err := Parse(json.RawMessage(`{"type":"object","properties":{"code":{"type":"string","pattern":"(["}}}`))
	if err != nil || !form.Renderable() {
		t.Fatalf("Parse = %v, %v", form.Problems, err)
	}
	form.Prepare()
	if _, err := form.Content(map[string]any{"code": "x"}); err == nil || !strings.Contains(err.Error(), "cannot be used to check the answer") {
		t.Errorf("Content = %v, want the validator's refusal", err)
	}
}

// A schema beyond what a person fills in is refused before anything is
// built: fields past MaxFields, options past MaxOptions.
func TestParseBoundsTheFormsSize(t *testing.T) {
	fields := func(n int) json.RawMessage {
		var b strings.Builder
		b.WriteString(`{"type":"object","properties":{`)
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"f%d":{"type":"string"}`, i)
		}
		b.WriteString(`}}`)
		return json.RawMessage(b.String())
	}
	if f, err := Parse(fields(MaxFields)); err != nil || len(f.Fields) != MaxFields {
		t.Errorf("Parse(%d fields) = %v; want every field", MaxFields, err)
	}
	for _, n := range []int{MaxFields + 1, 50_000} {
		_, err := Parse(fields(n))
		if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("the form has %d fields; mcpcli shows at most %d", n, MaxFields)) {
			t.Errorf("Parse(%d fields) error = %v; want it refused, naming the count and the bound", n, err)
		}
	}
	options := func(n int, multi bool) json.RawMessage {
		enum, _ := json.Marshal(func() []string {
			out := make([]string, n)
			for i := range out {
				out[i] = fmt.Sprint("o", i)
			}
			return out
		}())
		if multi {
			return json.RawMessage(fmt.Sprintf(`{"type":"object","properties":{"pick":{"type":"array","items":{"type":"string","enum":%s}}}}`, enum))
		}
		return json.RawMessage(fmt.Sprintf(`{"type":"object","properties":{"pick":{"type":"string","enum":%s}}}`, enum))
	}
	for _, multi := range []bool{false, true} {
		if f, err := Parse(options(MaxOptions, multi)); err != nil || !f.Renderable() {
			t.Errorf("Parse(%d options, multi %v) = %v, %+v; want a form", MaxOptions, multi, err, f)
		}
		f, err := Parse(options(MaxOptions+1, multi))
		if err != nil || f.Renderable() || len(f.Problems) != 1 || !strings.Contains(f.Problems[0].String(), "has 10001 options; mcpcli shows at most 10000") {
			t.Errorf("Parse(%d options, multi %v) = %v, %+v; want a problem naming the count", MaxOptions+1, multi, err, f)
		}
	}
}
