package client

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// keptToolCases are tools as servers send them, and tools readTool must
// leave to json.Unmarshal.
func keptToolCases(t testing.TB) [][]byte {
	var out [][]byte
	// Every tool of two third-party servers (tools -o json, at the
	// versions thirdparty/ pins).
	files, _ := filepath.Glob("testdata/tools/*.json")
	if len(files) == 0 {
		t.Fatal("no testdata/tools/*.json")
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var list struct{ Tools []json.RawMessage }
		if err := json.Unmarshal(b, &list); err != nil || len(list.Tools) == 0 {
			t.Fatalf("%s: %v (%d tools)", f, err, len(list.Tools))
		}
		for _, raw := range list.Tools {
			out = append(out, raw)
		}
	}
	for _, s := range []string{
		`{"name":"a","inputSchema":{"type":"object"}}`,
		`{"name":"a","inputSchema":{"type":"object"},"_meta":{"k":[1,2.5,"x",null,true]},"title":"T","description":"D","outputSchema":{"type":"object"}}`,
		`{"name":"a","annotations":null}`,
		`{"name":"a","annotations":{"destructiveHint":null,"openWorldHint":true,"readOnlyHint":false,"idempotentHint":true,"title":"t"}}`,
		`{"name":"a","annotations":{}}`,
		`{"name":"a","execution":{"taskSupport":"optional"},"x-extra":1}`,
		`{"name":null,"title":null,"_meta":null,"inputSchema":null}`,
		`{"name":"\u00e9\ud83d\ude00\"\\","description":"<&>\u2028"}`,
		`{ "name" : "spaced" , "inputSchema" : { } }`,
		// Left to json.Unmarshal:
		`{"name":"a","icons":[{"src":"data:,","sizes":["48x48"]}]}`,
		`{"name":"a","Name":"b"}`,
		`{"NAME":"a"}`,
		`{"name":"a","name":"b"}`,
		`{"name":"a","annotations":{"readOnlyHint":true},"annotations":{"title":"t"}}`,
		`{"name":"a","_meta":{"a":1},"_meta":{"b":2}}`,
		`{"name":"a","annotations":{"readOnlyHint":true,"readOnlyHint":false}}`,
		`{"name":"a","annotations":{"ReadOnlyHint":true}}`,
		`{"name":"a","annotations":{"other":1}}`,
		`{"name":"a","annotations":[]}`,
		`{"name":"a","annotations":{"readOnlyHint":"yes"}}`,
		`{"name":1}`,
		`{"name":"a","_meta":[]}`,
		`{"name":"a","titl\u0065":"escaped key"}`,
		"{\"name\":\"a\",\"\u212aey\":1}",
		`{"name":"a","ſ":1}`,
		`{"name":"a","deſcription":"a long s: json.Unmarshal folds it to s"}`,
		`null`,
		`[]`,
		`{"name":"a"`,
		`{"name":"a"} trailing`,
		`{"name":"a",}`,
		``,
		`"str"`,
	} {
		out = append(out, []byte(s))
	}
	return out
}

func TestDecodeToolIsJSONUnmarshal(t *testing.T) {
	read := 0
	for _, raw := range keptToolCases(t) {
		want := &mcp.Tool{}
		wantErr := json.Unmarshal(raw, want)
		got, err := decodeTool(raw)
		if (err != nil) != (wantErr != nil) {
			t.Errorf("decodeTool(%s) error = %v, json.Unmarshal's = %v", raw, err, wantErr)
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("decodeTool(%s) =\n%#v\njson.Unmarshal read\n%#v", raw, got, want)
		}
		if _, ok := readTool(raw); ok {
			read++
		}
	}
	// The servers' tools, and the plain cases, take the fast path.
	if read < 29+9 {
		t.Errorf("readTool read %d of the tools itself, want at least %d: the servers' tools went to json.Unmarshal", read, 29+9)
	}
}

func FuzzDecodeToolIsJSONUnmarshal(f *testing.F) {
	for _, raw := range keptToolCases(f) {
		f.Add(raw)
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		want := &mcp.Tool{}
		wantErr := json.Unmarshal(raw, want)
		got, err := decodeTool(raw)
		if (err != nil) != (wantErr != nil) {
			t.Fatalf("decodeTool(%q) error = %v, json.Unmarshal's = %v", raw, err, wantErr)
		}
		if err == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("decodeTool(%q) =\n%#v\njson.Unmarshal read\n%#v", raw, got, want)
		}
	})
}

// readTool reads the fields of mcp.Tool it knows, and drops any key it
// does not: a go-sdk whose Tool gains a field would have it dropped from
// kept tools without a word. This fails first.
func TestReadToolKnowsEveryField(t *testing.T) {
	for _, c := range []struct {
		v    any
		want []string
	}{
		{mcp.Tool{}, toolKeys[:]},
		{mcp.ToolAnnotations{}, []string{"destructiveHint", "idempotentHint", "openWorldHint", "readOnlyHint", "title"}},
	} {
		typ := reflect.TypeOf(c.v)
		var got []string
		for f := range typ.Fields() {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			got = append(got, name)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("mcp.%s's JSON names are %q, readTool knows %q: read the new ones in readTool (or leave them to json.Unmarshal) and update toolKeys", typ.Name(), got, c.want)
		}
		if _, ok := reflect.New(typ).Interface().(json.Unmarshaler); ok {
			t.Errorf("mcp.%s has an UnmarshalJSON, which readTool does not call", typ.Name())
		}
	}
}
