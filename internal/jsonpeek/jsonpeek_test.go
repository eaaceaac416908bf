package jsonpeek

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestMembersKeepOrderAndBytes(t *testing.T) {
	tests := []struct {
		in         string
		keys, vals []string
	}{
		{`{}`, nil, nil},
		{` { "b" : 1 , "a":[1, {"x":"}"}], "c":"q\"uote" } `, []string{"b", "a", "c"}, []string{`1`, `[1, {"x":"}"}]`, `"q\"uote"`}},
		{`{"\u0061":true,"n":null,"f":false,"e":-1.5e+3}`, []string{"a", "n", "f", "e"}, []string{`true`, `null`, `false`, `-1.5e+3`}},
	}
	for _, tt := range tests {
		keys, vals, err := Members([]byte(tt.in))
		if err != nil {
			t.Errorf("Members(%s): %v", tt.in, err)
			continue
		}
		var got []string
		for _, v := range vals {
			got = append(got, string(v))
		}
		if diff := cmp.Diff(tt.keys, keys); diff != "" {
			t.Errorf("Members(%s) keys (-want +got):\n%s", tt.in, diff)
		}
		if diff := cmp.Diff(tt.vals, got); diff != "" {
			t.Errorf("Members(%s) values (-want +got):\n%s", tt.in, diff)
		}
	}
}

func TestObjectRefusesWhatIsNotAnObject(t *testing.T) {
	for _, in := range []string{``, `[]`, `"x"`, `{`, `{"a"}`, `{"a":}`, `{"a":1,}`, `{"a":1} x`, `{"a":"unterminated}`, `{"a":[1,2}`, `{"a":tru}`} {
		if err := Object([]byte(in), func(string, []byte) bool { return true }); err == nil {
			t.Errorf("Object(%q) = nil, want an error", in)
		}
	}
}

func TestGetAndString(t *testing.T) {
	b := []byte(`{"jsonrpc":"2.0","id":7,"result":{"resultType":"input_required"}}`)
	if got := string(Get(b, "id")); got != "7" {
		t.Errorf("Get(id) = %q, want 7", got)
	}
	rt, ok := String(Get(Get(b, "result"), "resultType"))
	if !ok || rt != "input_required" {
		t.Errorf("resultType = %q, %v; want input_required", rt, ok)
	}
	if Get(b, "missing") != nil {
		t.Errorf("Get(missing) is not nil")
	}
}

func TestDeepNestingIsRefusedNotOverflowed(t *testing.T) {
	deep := make([]byte, 0, 2*MaxDepth+20)
	deep = append(deep, `{"a":`...)
	for i := 0; i < MaxDepth+5; i++ {
		deep = append(deep, '[')
	}
	if err := Object(deep, func(string, []byte) bool { return true }); err == nil {
		t.Fatalf("Object(nested %d deep) = nil, want an error", MaxDepth+5)
	}
}

// FuzzObject checks that every value handed back is a whole JSON value
// when the input is valid JSON, and that nothing panics.
func FuzzObject(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":1}`, `{"a":{"b":[1,"x\"y",null]},"c":true}`, `{"\u00e9":"\ud800"}`, `[1]`, `{"a":`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		valid := json.Valid(b)
		err := Object(b, func(k string, v []byte) bool {
			if valid && !json.Valid(v) {
				t.Errorf("Object(%q): value %q of key %q is not valid JSON", b, v, k)
			}
			return true
		})
		var m map[string]json.RawMessage
		if valid && json.Unmarshal(b, &m) == nil && m != nil && err != nil {
			t.Errorf("Object(%q) = %v for a valid object", b, err)
		}
		// The keys, in order, read as encoding/json reads them.
		if valid && m != nil {
			keys, _, err := Members(b)
			if diff := cmp.Diff(topKeys(t, b), keys); err != nil || diff != "" {
				t.Errorf("Members(%q) keys (-encoding/json +ours), %v:\n%s", b, err, diff)
			}
		}
	})
}

// topKeys is the keys of the object in b, in order, by encoding/json.
func topKeys(t *testing.T, b []byte) []string {
	dec := json.NewDecoder(bytes.NewReader(b))
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

func TestArray(t *testing.T) {
	var got []string
	err := Array([]byte(` [ 1 , {"a":[2]}, "x,y" ,null]`), func(v []byte) bool { got = append(got, string(v)); return true })
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{`1`, `{"a":[2]}`, `"x,y"`, `null`}, got); diff != "" {
		t.Errorf("Array elements (-want +got):\n%s", diff)
	}
	if err := Array([]byte(`[1,]`), func([]byte) bool { return true }); err == nil {
		t.Errorf("Array([1,]) = nil, want an error")
	}
}

func TestDeeper(t *testing.T) {
	for _, tc := range []struct {
		in    string
		limit int
		want  bool
	}{
		{`{"a":[1,2]}`, 2, false},
		{`{"a":[1,[2]]}`, 2, true},
		{`{"a":"[[[[[[[["}`, 2, false},
		{`{"a":"\"[[[[","b":{}}`, 2, false},
		{`{"a":"\\","b":[[1]]}`, 2, true},
		{`"unterminated [[[[`, 1, false},
		{strings.Repeat("[", 1001) + strings.Repeat("]", 1001), 1000, true},
		{strings.Repeat("[", 1000) + strings.Repeat("]", 1000), 1000, false},
	} {
		if got := Deeper([]byte(tc.in), tc.limit); got != tc.want {
			t.Errorf("Deeper(%.40q, %d) = %v, want %v", tc.in, tc.limit, got, tc.want)
		}
	}
}

// A string reads as encoding/json reads it: bytes that are not UTF-8 become
// U+FFFD (a method or a key of "\xf7" is not one of "\xf7").
func TestStringReadsLikeEncodingJSON(t *testing.T) {
	for _, q := range []string{`"plain"`, `"été"`, `"\u00e9t\u00e9"`, "\"a\xf7b\"", "\"\xc3\"", `"x\"y"`, "\"\xed\xa0\x80\""} {
		var want string
		if err := json.Unmarshal([]byte(q), &want); err != nil {
			t.Fatalf("json.Unmarshal(%q): %v", q, err)
		}
		if got, ok := String([]byte(q)); !ok || got != want {
			t.Errorf("String(%q) = %q, %v; encoding/json reads %q", q, got, ok, want)
		}
		var key string
		if err := Object([]byte("{"+q+":1}"), func(k string, _ []byte) bool { key = k; return true }); err != nil || key != want {
			t.Errorf("Object({%s:1}) key = %q, %v; encoding/json reads %q", q, key, err, want)
		}
	}
}

// ObjectWithin reads the members and checks the depth in one pass, and
// agrees with Deeper on valid JSON.
func TestObjectWithinAgreesWithDeeper(t *testing.T) {
	for _, in := range []string{
		`{"a":[1,2]}`,
		`{"a":[1,[2]]}`,
		`{"a":"[[[[[[[[","b":{}}`,
		`{"a":{"b":{"c":[]}},"d":1}`,
		`{"a":` + strings.Repeat("[", 999) + strings.Repeat("]", 999) + `}`,
		`{"a":` + strings.Repeat("[", 1000) + strings.Repeat("]", 1000) + `}`,
	} {
		for _, limit := range []int{1, 2, 3, 4, 1000, 1001} {
			var keys []string
			err := ObjectWithin([]byte(in), limit, func(k string, _ []byte) bool { keys = append(keys, k); return true })
			var de *DepthError
			deeper := Deeper([]byte(in), limit)
			if deeper != errors.As(err, &de) || !deeper && err != nil {
				t.Errorf("ObjectWithin(%.30q, %d) = %v; Deeper says %v", in, limit, err, deeper)
			}
			if deeper && de.Limit != limit {
				t.Errorf("ObjectWithin(%.30q, %d) = %v; want the limit named", in, limit, err)
			}
			if want, _, _ := Members([]byte(in)); !deeper && !slices.Equal(keys, want) {
				t.Errorf("ObjectWithin(%.30q, %d) read %q; want %q", in, limit, keys, want)
			}
		}
	}
}

func TestEachOnce(t *testing.T) {
	var keys []string
	all := func(k string, _ []byte) bool { keys = append(keys, k); return true }
	for _, c := range []struct {
		in   string
		fn   func(string, []byte) bool
		want bool
		keys string
	}{
		{`{"a":1,"b":{"a":2}}`, all, true, "a b"},
		{`{}`, all, true, ""},
		{`{"a":1,"b":2,"a":3}`, all, false, "a b"},
		{`{"a":1,"\u0061":2}`, all, false, "a"},
		{`{"a":1,"b":2}`, func(k string, _ []byte) bool { keys = append(keys, k); return k != "a" }, false, "a"},
		{`[1]`, all, false, ""},
		{`{"a":1`, all, false, "a"},
	} {
		keys = nil
		if got := EachOnce([]byte(c.in), c.fn); got != c.want || strings.Join(keys, " ") != c.keys {
			t.Errorf("EachOnce(%s) = %v after keys %q, want %v after %q", c.in, got, keys, c.want, c.keys)
		}
	}
}

// plainStringsCases are discover results and -32022 data as servers send
// them, and the inputs where a hand reading could part from Unmarshal's.
var plainStringsCases = []string{
	`{"supportedVersions":["2026-07-28","2025-11-25"],"capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}`,
	`{"supportedVersions":[]}`,
	`{"supportedVersions":null}`,
	`{"capabilities":{}}`,
	`{}`,
	` { "supportedVersions" : [ "a" , "b" ] } `,
	`{"supportedVersions":["a"],"supportedVersions":["b"]}`,
	`{"supportedVersions":[1],"supportedVersions":["b"]}`,
	`{"supportedVersions":["a\u0062"]}`,
	`{"supportedVersions":["a\"b"]}`,
	`{"supportedVersions":["\ud800"]}`,
	"{\"supportedVersions\":[\"\xff\"]}",
	`{"supportedVersions":[null,"a"]}`,
	`{"supportedVersions":"2026-07-28"}`,
	`{"supportedVersions":{"a":1}}`,
	`{"SupportedVersions":["a"]}`,
	`{"supportedVersion\u0073":["a"]}`,
	`{"supportedVersions":["a"],"x":01}`,
	`{"supportedVersions":["a"],"x":[1,]}`,
	`{"supportedVersions":["a"]} trailing`,
	`{"supportedVersions":["a"]`,
	`["a"]`,
	`null`,
	`"s"`,
	``,
	`{"supportedVersions":["a"],"deep":` + strings.Repeat("[", 1001) + strings.Repeat("]", 1001) + `}`,
}

// unmarshalVersions is what PlainStrings stands in for: Unmarshal into a
// struct with a []string field, as the client read supportedVersions.
func unmarshalVersions(b []byte) ([]string, error) {
	var d struct {
		SupportedVersions []string `json:"supportedVersions"`
	}
	err := Unmarshal(b, &d)
	return d.SupportedVersions, err
}

// checkPlainStrings fails when PlainStrings reads b and Unmarshal does
// not read the same: an error, or another list (nil and empty apart).
func checkPlainStrings(t *testing.T, b []byte) (ok bool) {
	t.Helper()
	got, ok := PlainStrings(b, "supportedVersions")
	if !ok {
		return false
	}
	want, err := unmarshalVersions(b)
	if err != nil {
		t.Fatalf("PlainStrings(%q) = %q, true; Unmarshal fails: %v", b, got, err)
	}
	if !reflect.DeepEqual(got, want) || (got == nil) != (want == nil) {
		t.Fatalf("PlainStrings(%q) = %#v, true; Unmarshal reads %#v", b, got, want)
	}
	return true
}

func TestPlainStringsReadsAsUnmarshal(t *testing.T) {
	// The cases PlainStrings reads by hand; every other one it leaves to
	// Unmarshal.
	byHand := []string{
		plainStringsCases[0], plainStringsCases[1], plainStringsCases[2], plainStringsCases[3],
		plainStringsCases[4], plainStringsCases[5],
		`{"SupportedVersions":["a"]}`,      // another key: the list is missing
		`{"supportedVersion\u0073":["a"]}`, // the key, spelled with an escape
	}
	for _, c := range plainStringsCases {
		if ok := checkPlainStrings(t, []byte(c)); ok != slices.Contains(byHand, c) {
			t.Errorf("PlainStrings(%.60q) ok = %v, want %v", c, ok, !ok)
		}
	}
}

func FuzzPlainStringsIsUnmarshal(f *testing.F) {
	for _, c := range plainStringsCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		checkPlainStrings(t, b)
	})
}
