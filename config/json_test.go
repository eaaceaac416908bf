package config

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// plain turns a parsed value into what encoding/json would decode, with
// numbers as json.Number, to compare the two parsers.
func plain(v *value) any {
	switch v.kind {
	case kNull:
		return nil
	case kBool:
		return v.boolean
	case kNumber:
		return json.Number(v.str)
	case kString:
		return v.str
	case kArray:
		out := []any{}
		for _, e := range v.elems {
			out = append(out, plain(e))
		}
		return out
	default:
		out := map[string]any{}
		for _, m := range v.members {
			out[m.key] = plain(m.val)
		}
		return out
	}
}

func TestParseJSONAgreesWithEncodingJSON(t *testing.T) {
	for _, in := range []string{
		`{}`, `[]`, `null`, `true`, `false`, `0`, `-0.5e+10`, `1E-2`, `""`,
		`{"a": [1, "two", {"b": null}], "c": true}`,
		`"esc \" \\ \/ \b \f \n \r \t \u00e9 \ud83d\ude00 \ud800 x"`,
		`"raw é 😀 ‮"`,
		" \t\r\n{\"a\" : 1 } \n",
	} {
		d, err := parseJSON([]byte(in), false)
		if err != nil {
			t.Errorf("parseJSON(%q): %v", in, err)
			continue
		}
		dec := json.NewDecoder(strings.NewReader(in))
		dec.UseNumber()
		var want any
		if err := dec.Decode(&want); err != nil {
			t.Fatalf("encoding/json on %q: %v", in, err)
		}
		if diff := cmp.Diff(want, plain(d.root)); diff != "" {
			t.Errorf("parseJSON(%q) (-encoding/json +ours):\n%s", in, diff)
		}
	}
}

func TestParseJSONErrors(t *testing.T) {
	tests := []struct {
		in    string
		jsonc bool
		want  string // line:col: message
	}{
		{``, false, ``},
		{`{`, false, `1:2: invalid JSON: the end of the file where a key in double quotes or } should be`},
		{`{"a" 1}`, false, `1:6: invalid JSON: '1' where : should be, after the key "a"`},
		{`{"a": 1 "b": 2}`, false, `1:9: invalid JSON: '"' where , or } should be, after the value of "a"`},
		{`[1 2]`, false, `1:4: invalid JSON: '2' where , or ] should be, in an array`},
		{`[1,]`, false, `1:4: invalid JSON: ']' where a value should be`},
		{`{"a": 01}`, false, `1:8: invalid JSON: '1' where , or } should be, after the value of "a"`},
		{`{"a": -}`, false, `1:7: invalid JSON: "-}" is not a number`},
		{`{"a": 1.}`, false, `1:7: invalid JSON: "1.}" is not a number`},
		{`{"a": tru}`, false, `1:7: invalid JSON: 't' where a value should be`},
		{`{"a": "x}`, false, `1:7: invalid JSON: a string is never closed with "`},
		{`{"a": "\x"}`, false, `1:9: invalid JSON: \x is not an escape JSON knows (\" \\ \/ \b \f \n \r \t \uXXXX)`},
		{`{"a": "\u12"}`, false, `1:8: invalid JSON: \u must be followed by four hex digits`},
		{`{} {}`, false, `1:4: invalid JSON: '{' after the end of the top-level value`},
		{"{\n  \"é\": 1,\n  ü\n}", false, `3:3: invalid JSON: 'ü' where a key in double quotes should be (is there a comma too many?)`},
		{"\xef\xbb\xbf{\"a\": 1}", false, ``},
		{"{\"a\": \"\xc3\"}", false, `1:8: invalid UTF-8 (byte 0xc3); save the file as UTF-8`},
		{"// c\n{\"a\": [1, 2,], /* x */ \"b\": {},}", true, ``},
		{"{} /* open", true, `1:4: invalid JSON: a /* comment is never closed with */`},
		{"// only a comment", true, ``},
		{"// only a comment", false, `1:1: invalid JSON: '/' where a value should be`},
		{"{,}", true, `1:2: invalid JSON: ',' where a key in double quotes or } should be`},
		{strings.Repeat("[", maxDepth+1), false, fmt.Sprintf("1:%d: invalid JSON: nested more than %d levels deep", maxDepth+1, maxDepth)},
	}
	for _, tt := range tests {
		d, err := parseJSON([]byte(tt.in), tt.jsonc)
		got := ""
		if err != nil {
			line, col := d.pos(err.off)
			got = fmt.Sprintf("%d:%d: %s", line, col, err.msg)
		}
		if got != tt.want {
			t.Errorf("parseJSON(%.40q, jsonc=%v) error = %q, want %q", tt.in, tt.jsonc, got, tt.want)
		}
	}
}

func TestEncode(t *testing.T) {
	in := `{"b": [], "a": {"x": [1, -2.50e3, true, null, "s"], "e": {}}, "esc": "q\" \\ \n \t \u0001 \u007f \u009b \u202e \u2028 \U000e0041 é <&>"}`
	in = strings.ReplaceAll(in, `\U000e0041`, "\U000e0041") // a tag character, raw
	d, err := parseJSON([]byte(in), false)
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "b": [],
  "a": {
    "x": [
      1,
      -2.50e3,
      true,
      null,
      "s"
    ],
    "e": {}
  },
  "esc": "q\" \\ \n \t \u0001 \u007f \u009b \u202e \u2028 \udb40\udc41 é <&>"
}
`
	got := string(encode(d.root))
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("encode (-want +got):\n%s", diff)
	}
	d2, err := parseJSON([]byte(got), false)
	if err != nil {
		t.Fatalf("parseJSON(encode(...)): %v", err)
	}
	if diff := cmp.Diff(plain(d.root), plain(d2.root)); diff != "" {
		t.Errorf("encode does not round-trip (-before +after):\n%s", diff)
	}
}
