package jsonpeek

import (
	"encoding/json"
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
	})
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
