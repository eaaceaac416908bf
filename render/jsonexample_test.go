package render

import (
	"encoding/json"
	"testing"

	"github.com/mcpcli/mcpcli/schema"
)

// A JSON field's placeholder shows a value of the field's own shape: an
// array of objects is not shown as an array of strings.
func TestJSONExample(t *testing.T) {
	for _, tc := range []struct{ schema, want string }{
		{`{"type":"object"}`, `JSON, like {"key": "value"}`},
		{`{"type":"array","items":{"type":"string"}}`, `JSON, like ["a", "b"]`},
		{`{"type":"array","items":{"$ref":"#/$defs/Entity"}}`, `JSON, like [{"key": "value"}]`},
		{`{"type":"array","items":{"type":"object","properties":{"a":{}}}}`, `JSON, like [{"key": "value"}]`},
		{`{"type":"array","items":{"type":"integer"}}`, `JSON, like [1, 2]`},
		{`{"type":["null","array"]}`, `JSON, like ["a", "b"]`},
		{`{}`, `JSON`},
	} {
		if got := jsonExample(&schema.Field{Schema: json.RawMessage(tc.schema)}); got != tc.want {
			t.Errorf("jsonExample(%s) = %s, want %s", tc.schema, got, tc.want)
		}
	}
}
