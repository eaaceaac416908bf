package schema

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

// Flat schemas of every kind elicitation asks with: decodeFlat reads them.
var flatSchemas = []string{
	`{"type":"object","properties":{"name":{"type":"string","description":"Your full name"},"email":{"type":"string","format":"email","description":"Your email address"},"age":{"type":"number","minimum":18,"description":"Your age"}},"required":["name","email"]}`,
	`{"type":"object","properties":{"ok":{"type":"boolean","title":"Run it?","default":false}},"required":["ok"]}`,
	`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","title":"T","description":"D","properties":{}}`,
	`{"type":"object","properties":{"n":{"type":"integer","minimum":-5,"maximum":1e3,"exclusiveMinimum":-6.5,"exclusiveMaximum":1001,"default":3}}}`,
	`{"type":"object","properties":{"s":{"type":"string","minLength":2.0,"maxLength":10,"pattern":"^[a-z]+\\u00e9$","default":  "caf\u00e9" }}}`,
	`{"type":"object","properties":{"color":{"type":"string","enum":["red","green","\u2603"],"enumNames":["Red","Green","Snowman"]}}}`,
	`{"type":"object","properties":{"plan":{"type":"string","oneOf":[{"const":"a","title":"Plan A"},{"const":"b","title":"Plan B"}]}}}`,
	`{"type":"object","properties":{"plan":{"anyOf":[{"const":1,"title":"one"},{"const":2.5,"title":"two and a half"}]}}}`,
	`{"type":"object","properties":{"tags":{"type":"array","minItems":1,"maxItems":3,"uniqueItems":true,"items":{"type":"string","enum":["x","y","z"]},"default":["x" , "y"]}}}`,
	`{"type":"object","properties":{"tags":{"type":"array","items":{"anyOf":[{"const":"x","title":"Ex"},{"const":"y","title":"Why"}]}}}}`,
	`{"type":"object","properties":{"maybe":{"type":["string","null"],"default":{"a": [1, 2]}}}}`,
	` { "type" : "object" , "properties" : { "a" : { "type" : "string" } } , "required" : [ ] } `,
	`{"type":"object","properties":{"big":{"type":"integer","maximum":1.7976931348623157e308,"minLength":2147483647}}}`,
	// @modelcontextprotocol/server-everything's trigger-elicitation-request
	// (2026.8.31, as thirdparty/ pins it): every kind of field, titled and legacy enums included.
	`{"type": "object", "properties": {"name": {"title": "String", "type": "string", "description": "Your full, legal name"}, "check": {"title": "Boolean", "type": "boolean", "description": "Agree to the terms and conditions"}, "firstLine": {"title": "String with default", "type": "string", "description": "Favorite first line of a story", "default": "It was a dark and stormy night."}, "email": {"title": "String with email format", "type": "string", "format": "email", "description": "Your email address (will be verified, and never shared with anyone else)"}, "homepage": {"type": "string", "format": "uri", "title": "String with uri format", "description": "Portfolio / personal website"}, "birthdate": {"title": "String with date format", "type": "string", "format": "date", "description": "Your date of birth"}, "integer": {"title": "Integer", "type": "integer", "description": "Your favorite integer (do not give us your phone number, pin, or other sensitive info)", "minimum": 1, "maximum": 100, "default": 42}, "number": {"title": "Number in range 1-1000", "type": "number", "description": "Favorite number (there are no wrong answers)", "minimum": 0, "maximum": 1000, "default": 3.14}, "untitledSingleSelectEnum": {"type": "string", "title": "Untitled Single Select Enum", "description": "Choose your favorite friend", "enum": ["Monica", "Rachel", "Joey", "Chandler", "Ross", "Phoebe"], "default": "Monica"}, "untitledMultipleSelectEnum": {"type": "array", "title": "Untitled Multiple Select Enum", "description": "Choose your favorite instruments", "minItems": 1, "maxItems": 3, "items": {"type": "string", "enum": ["Guitar", "Piano", "Violin", "Drums", "Bass"]}, "default": ["Guitar"]}, "titledSingleSelectEnum": {"type": "string", "title": "Titled Single Select Enum", "description": "Choose your favorite hero", "oneOf": [{"const": "hero-1", "title": "Superman"}, {"const": "hero-2", "title": "Green Lantern"}, {"const": "hero-3", "title": "Wonder Woman"}], "default": "hero-1"}, "titledMultipleSelectEnum": {"type": "array", "title": "Titled Multiple Select Enum", "description": "Choose your favorite types of fish", "minItems": 1, "maxItems": 3, "items": {"anyOf": [{"const": "fish-1", "title": "Tuna"}, {"const": "fish-2", "title": "Salmon"}, {"const": "fish-3", "title": "Trout"}]}, "default": ["fish-1"]}, "legacyTitledEnum": {"type": "string", "title": "Legacy Titled Single Select Enum", "description": "Choose your favorite type of pet", "enum": ["pet-1", "pet-2", "pet-3", "pet-4", "pet-5"], "enumNames": ["Cats", "Dogs", "Birds", "Fish", "Reptiles"], "default": "pet-1"}}, "required": ["name"]}`,
}

// Schemas decodeFlat leaves to json.Unmarshal.
var notFlatSchemas = []string{
	`{"type":"object","additionalProperties":false,"properties":{}}`,
	`{"type":"object","properties":{"a":{"type":"string","title":null}}}`,
	`{"type":"object","properties":{"a":{"Type":"string"}}}`,
	`{"type":"object","properties":{"a":true}}`,
	`{"type":"object","properties":{"a":{"type":"array","items":[{"type":"string"}]}}}`,
	`{"type":"object","properties":{"a":{"type":"object","properties":{"b":{"type":"string"}}}}}`,
	`{"type":"object","properties":{"a":{"type":"string","type":"number"}}}`,
	`{"type":"object","properties":{"a":{"type":"string"},"a":{"type":"number"}}}`,
	`{"type":"object","properties":{"a":{"type":"string","minLength":+1}}}`,
	`{"type":"object","properties":{"a":{"type":"string","minLength":1e3}}}`,
	`{"type":"object","properties":{"a":{"type":"string","minLength":3000000000}}}`,
	`{"type":"object","properties":{"a":{"type":"string","minLength":1.5}}}`,
	`{"type":"object","properties":{"a":{"type":"string","default":tru}}}`,
	`{"type":"object","properties":{"a":{"type":"string","default":null}}}`,
	`{"type":"object","properties":{"n":{"type":"number","default":1e400}},"required":["n"]}`,
	`{"type":"object","properties":{"n":{"type":"array","default":{"x":[-1e999]}}}}`,
	`{"type":"object","properties":{"a":{"$ref":"#/$defs/x"}},"$defs":{"x":{"type":"string"}}}`,
	`{"type":"object","properties":{"a":{"type":"string","x-custom":1}}}`,
	`{"type":"object","enumNames":["a"]}`,
	`{"type":"object","properties":{"a":{"type":7}}}`,
	`{"type":"object","properties":{"a":{"anyOf":[true]}}}`,
	`["not an object"]`,
	`{"type":"object"} trailing`,
}

// decodedByJSON is what Form.resolve decoded every schema with before
// decodeFlat, and still does for the rest.
func decodedByJSON(raw []byte) (*jsonschema.Schema, error) {
	s := &jsonschema.Schema{}
	err := json.Unmarshal(raw, s)
	return s, err
}

func TestDecodeFlatIsJSONUnmarshal(t *testing.T) {
	for _, raw := range flatSchemas {
		got, ok := decodeFlat([]byte(raw))
		if !ok {
			t.Errorf("decodeFlat(%s) = false, want it read", raw)
			continue
		}
		want, err := decodedByJSON([]byte(raw))
		if err != nil {
			t.Errorf("json.Unmarshal(%s) = %v, want it read too", raw, err)
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("decodeFlat(%s) =\n%#v\nwant json.Unmarshal's\n%#v", raw, got, want)
		}
	}
	for _, raw := range notFlatSchemas {
		if s, ok := decodeFlat([]byte(raw)); ok {
			t.Errorf("decodeFlat(%s) = %#v, want it left to json.Unmarshal", raw, s)
		}
	}
}

// A schema decoded either way is checked the same: a form validates the
// same answers.
func TestFormValidatesAlikeEitherWay(t *testing.T) {
	raw := []byte(flatSchemas[8])
	flat, _ := decodeFlat(raw)
	full, _ := decodedByJSON(raw)
	for _, inst := range []map[string]any{
		{"tags": []any{"x"}}, {"tags": []any{}}, {"tags": []any{"x", "x"}}, {"tags": []any{"w"}}, {"tags": []any{"x", "y", "z", "x"}}, {},
	} {
		rf, err := flat.Resolve(nil)
		if err != nil {
			t.Fatal(err)
		}
		rj, err := full.Resolve(nil)
		if err != nil {
			t.Fatal(err)
		}
		if ef, ej := rf.Validate(inst), rj.Validate(inst); (ef == nil) != (ej == nil) {
			t.Errorf("Validate(%v): decodeFlat's schema says %v, json.Unmarshal's %v", inst, ef, ej)
		}
	}
}

func FuzzDecodeFlatIsJSONUnmarshal(f *testing.F) {
	for _, raw := range append(append([]string{}, flatSchemas...), notFlatSchemas...) {
		f.Add([]byte(raw))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		got, ok := decodeFlat(raw)
		if !ok {
			return
		}
		want, err := decodedByJSON(raw)
		if err != nil {
			t.Fatalf("decodeFlat(%q) read what json.Unmarshal refuses: %v", raw, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("decodeFlat(%q) =\n%#v\nwant json.Unmarshal's\n%#v", raw, got, want)
		}
	})
}
