package schema

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"

	"github.com/mcpcli/mcpcli/internal/jsonpeek"
)

// fieldCases are schemas and properties as servers write them, and what
// unmarshalFields must leave to json.Unmarshal.
func fieldCases(t testing.TB) [][]byte {
	var out [][]byte
	// Every inputSchema of two third-party servers' tools, and each of
	// their properties (tools -o json, at the versions thirdparty/ pins).
	for _, f := range []string{"../client/testdata/tools/server-everything-2026.8.31.json", "../client/testdata/tools/server-filesystem-2026.8.31.json"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var list struct {
			Tools []struct{ InputSchema json.RawMessage }
		}
		if err := json.Unmarshal(b, &list); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, tool := range list.Tools {
			out = append(out, tool.InputSchema)
			_ = jsonpeek.Object(jsonpeek.Get(tool.InputSchema, "properties"), func(_ string, v []byte) bool {
				out = append(out, v)
				return true
			})
		}
	}
	for _, s := range []string{
		`{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false}`,
		`{"type":["string","null"],"description":"d","title":"t","enum":["a",1,null],"default":"a","format":"email","minimum":1.5,"maximum":1e3,"minLength":1,"maxLength":9,"minItems":0,"maxItems":2,"items":{"type":"integer"}}`,
		`{"TYPE":"string","Description":"in another case","MINLENGTH":2}`,
		`{"minLength":1,"minlength":3}`,
		`{"type":"a","type":"b"}`,
		`{"required":["a"],"required":null}`,
		`{"minimum":null,"default":null,"enum":null,"type":null,"description":null}`,
		`{"minimum":1,"minimum":null}`,
		`{"unknown":{"deep":[1,2,{"x":null}]},"x-mcp-header":"H"}`,
		` {"type":"string"} `,
		`{"typ\u0065":"escaped key","\u0074itle":"t"}`,
		`{}`,
		// Left to json.Unmarshal:
		`{"minLength":1.5}`,
		`{"minLength":"1"}`,
		`{"minLength":1e400}`,
		`{"maximum":1e400}`,
		`{"description":1}`,
		`{"required":"a"}`,
		`{"enum":{}}`,
		"{\"\u212aey\":1,\"type\":\"string\"}",
		`{"ſ":1}`,
		`{"deſcription":"a long s: json.Unmarshal folds it to s"}`,
		`{"type":"array","itemſ":{"type":"string"}}`,
		`{"type":"string"`,
		`{"type":"string",}`,
		`{"type":"string"} trailing`,
		`null`,
		`[]`,
		`"s"`,
		`1`,
		``,
	} {
		out = append(out, []byte(s))
	}
	return out
}

// checkFields compares one decoding of b with json.Unmarshal's.
func checkFields(t *testing.T, b []byte) {
	t.Helper()
	var got, want argFields
	gotErr, wantErr := got.unmarshal(b), json.Unmarshal(b, &want)
	if (gotErr != nil) != (wantErr != nil) || !reflect.DeepEqual(got, want) {
		t.Errorf("argFields.unmarshal(%q) = %+v, %v; json.Unmarshal: %+v, %v", b, got, gotErr, want, wantErr)
	}
	var gotTop, wantTop topFields
	gotErr, wantErr = gotTop.unmarshal(b), json.Unmarshal(b, &wantTop)
	if (gotErr != nil) != (wantErr != nil) || !reflect.DeepEqual(gotTop, wantTop) {
		t.Errorf("topFields.unmarshal(%q) = %+v, %v; json.Unmarshal: %+v, %v", b, gotTop, gotErr, wantTop, wantErr)
	}
}

func TestFieldsAreJSONUnmarshal(t *testing.T) {
	read := 0
	for _, b := range fieldCases(t) {
		checkFields(t, b)
		if unmarshalFields(b, func(string) any { return nil }) {
			read++
		}
	}
	// The servers' schemas take the way without reflection.
	if read < 60 {
		t.Errorf("unmarshalFields read %d of the cases itself, want 60 or more", read)
	}
}

func FuzzFieldsAreJSONUnmarshal(f *testing.F) {
	for _, b := range fieldCases(f) {
		f.Add(b)
	}
	f.Fuzz(checkFields)
}
