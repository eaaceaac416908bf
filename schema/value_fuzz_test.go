package schema

import (
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// inputForm has a field of each kind a person types a line for; none is
// required, so that one field's value is content on its own.
const inputForm = `{"type":"object","properties":{
	"name":{"type":"string","minLength":2,"maxLength":8},
	"email":{"type":"string","format":"email"},
	"site":{"type":"string","format":"uri"},
	"day":{"type":"string","format":"date"},
	"at":{"type":"string","format":"date-time"},
	"bio":{"type":"string"},
	"age":{"type":"integer","minimum":13,"maximum":130},
	"count":{"type":"integer"},
	"height":{"type":"number","minimum":0.5,"maximum":2.5},
	"ratio":{"type":"number"},
	"agree":{"type":"boolean"},
	"theme":{"type":"string","enum":["light","dark","2"]},
	"country":{"type":"string","oneOf":[{"const":"GB","title":"United Kingdom"},{"const":"FR","title":"France"},{"const":"fr","title":"GB"}]},
	"langs":{"type":"array","minItems":1,"maxItems":2,"items":{"type":"string","enum":["en","fr","ja"]}},
	"topics":{"type":"array","items":{"anyOf":[{"const":"go","title":"Go"},{"const":"mcp","title":"MCP"}]}}
}}`

// argsForm is a tool's inputSchema read as a form: JSON-typed fields too.
const argsForm = `{"type":"object","properties":{
	"filter":{"type":"object","properties":{"q":{"type":"string"}}},
	"ids":{"type":"array","items":{"type":"integer"}},
	"limit":{"type":"integer","minimum":1}
}}`

// FuzzParseInput: a line typed for a field never panics, and a value it
// accepts passes the field's check, is valid UTF-8, and (but for a JSON
// field, which the whole form's validation decides) passes the JSON Schema
// validator and reaches the server as it was read (the wire's JSON reads
// back, field-typed, to the same value). The seeds are in
// testdata/fuzz/FuzzParseInput.
func FuzzParseInput(f *testing.F) {
	var forms []*Form
	for _, raw := range []string{inputForm, argsForm} {
		parse := Parse
		if raw == argsForm {
			parse = ParseArguments
		}
		form, err := parse(json.RawMessage(raw))
		if err != nil || !form.Renderable() {
			f.Fatalf("Parse(%s) = %v, %v", raw, form.Problems, err)
		}
		forms = append(forms, form)
	}
	var fields []*Field
	fieldForm := map[*Field]*Form{}
	for _, form := range forms {
		for _, fl := range form.Fields {
			fields = append(fields, fl)
			fieldForm[fl] = form
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, in string) {
		fl := fields[int(which)%len(fields)]
		v, err := fl.ParseInput(in)
		if err != nil || v == nil {
			return
		}
		if err := fl.Check(v); err != nil {
			t.Fatalf("%s.ParseInput(%q) = %#v, which its own check refuses: %v", fl.Name, in, v, err)
		}
		if s, ok := v.(string); ok && !utf8.ValidString(s) {
			t.Fatalf("%s.ParseInput(%q) = %q, not valid UTF-8: the wire would carry something else", fl.Name, in, s)
		}
		if fl.Kind == JSON {
			// Any JSON value: the schema as written decides when the
			// whole is validated (Check says nothing of it).
			return
		}
		if err := fieldForm[fl].Validate(map[string]any{fl.Name: v}); err != nil {
			t.Fatalf("%s.ParseInput(%q) = %#v, which the schema refuses: %v", fl.Name, in, v, err)
		}
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("%s.ParseInput(%q) = %#v, which does not marshal: %v", fl.Name, in, v, err)
		}
		var wire any
		if err := json.Unmarshal(b, &wire); err != nil {
			t.Fatalf("json.Unmarshal(%s): %v", b, err)
		}
		back, err := fl.FromAny(wire)
		if err != nil {
			t.Fatalf("%s.ParseInput(%q) = %#v, sent as %s, which reads back as an error: %v", fl.Name, in, v, b, err)
		}
		if diff := cmp.Diff(v, back); diff != "" {
			t.Fatalf("%s.ParseInput(%q) = %#v, sent as %s, reads back differently (-typed +read):\n%s", fl.Name, in, v, b, diff)
		}
	})
}
