package schema

import (
	"encoding/json"
	"testing"
)

// A JSON argument is checked against its own schema as it is typed (with
// the root's $defs for its $refs), and the reason reads as words.
func TestCheckJSON(t *testing.T) {
	form, err := ParseArguments(json.RawMessage(`{"type":"object","properties":{
		"entities":{"type":"array","items":{"$ref":"#/$defs/E"}},
		"opts":{"type":"object","properties":{"text":{"type":"string"}}},
		"name":{"type":"string"}},
		"$defs":{"E":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		field, value, want string
	}{
		{"entities", `[{"name":"a"}]`, ""},
		{"entities", `[{"name":1}]`, `does not fit its schema at "name": has type "integer", want "string"`},
		{"entities", `[{"x":1}]`, `does not fit its schema: missing properties: ["name"]`},
		{"entities", `{"name":"a"}`, `does not fit its schema: has type "object", want "array"`},
		{"opts", `{"text":5}`, `does not fit its schema at "text": has type "integer", want "string"`},
		{"name", `5`, ""}, // not a JSON field: its own checks apply elsewhere
	} {
		var v any
		if err := json.Unmarshal([]byte(tc.value), &v); err != nil {
			t.Fatal(err)
		}
		err := form.CheckJSON(tc.field, v)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("CheckJSON(%s, %s) = %q, want %q", tc.field, tc.value, got, tc.want)
		}
	}
	// The whole, when sent, names the field in words too.
	var v any
	json.Unmarshal([]byte(`[{"name":1}]`), &v)
	err = form.Validate(map[string]any{"entities": v})
	if want := `entities does not fit its schema at "name": has type "integer", want "string"`; err == nil || err.Error() != want {
		t.Errorf("Validate(entities=[{name:1}]) = %v, want %q", err, want)
	}
}
