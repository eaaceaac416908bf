package render

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpcli/mcpcli/internal/textsafe"
)

// oldIndent is what WriteRaw wrote before it streamed: the reference.
func oldIndent(raw []byte) []byte {
	var b bytes.Buffer
	json.Indent(&b, bytes.TrimRight(raw, " \t\r\n"), "", "  ") // it kept trailing space; WriteRaw does not
	b.WriteByte('\n')
	return textsafe.EscapeJSON(b.Bytes())
}

var indentSeeds = []string{
	`{}`, `[]`, `{"a":1}`, `[1,2,3]`, ` { "a" : [ ] , "b" : { } } `,
	`{"content":[{"type":"text","text":"hi\nthere \"quoted\" \\ back"}],"isError":false}`,
	`{"x":"\u001b[31mred","y":"` + "\u202e\u200b\u0085é😀" + `","z":null,"n":-1.5e+3}`,
	`[[[[]]],{"a":{"b":{"c":[true,false,null]}}}]`,
	`"just a string"`, `42`,
}

func TestWriteRawStreamsWhatIndentAndEscapeWrote(t *testing.T) {
	for _, in := range indentSeeds {
		var got bytes.Buffer
		if err := WriteRaw(&got, json.RawMessage(in)); err != nil {
			t.Fatalf("WriteRaw(%s): %v", in, err)
		}
		if want := oldIndent([]byte(in)); got.String() != string(want) {
			t.Errorf("WriteRaw(%s) =\n%s\nwant\n%s", in, got.String(), want)
		}
	}
	if err := WriteRaw(&bytes.Buffer{}, json.RawMessage(`{"a":tru}`)); err == nil || !strings.Contains(err.Error(), "not valid JSON") {
		t.Errorf("WriteRaw(invalid) error = %v; want it refused", err)
	}
}

func FuzzWriteRaw(f *testing.F) {
	for _, s := range indentSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		var got bytes.Buffer
		err := WriteRaw(&got, json.RawMessage(in))
		if !json.Valid([]byte(in)) {
			if err == nil {
				t.Fatalf("WriteRaw(%q) accepted invalid JSON", in)
			}
			return
		}
		if err != nil {
			t.Fatalf("WriteRaw(%q): %v", in, err)
		}
		if want := oldIndent([]byte(in)); got.String() != string(want) {
			t.Fatalf("WriteRaw(%q) =\n%q\nwant\n%q", in, got.String(), want)
		}
	})
}
