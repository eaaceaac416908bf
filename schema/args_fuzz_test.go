package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"math/big"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// hasDuplicateKey is the reference for duplicate keys: encoding/json's
// token stream, each object's keys in a set of their own.
func hasDuplicateKey(data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber() // a number no float64 holds (1e700) must not end the walk
	type frame struct {
		object bool
		keys   map[string]bool
		key    bool // the next token of an object is a key
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.object && top.key {
			if d, ok := tok.(json.Delim); ok && d == '}' {
				stack = stack[:len(stack)-1]
				if len(stack) > 0 && stack[len(stack)-1].object {
					stack[len(stack)-1].key = true
				}
				continue
			}
			k := tok.(string)
			if top.keys[k] {
				return true
			}
			top.keys[k] = true
			top.key = false
			continue
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{object: true, keys: map[string]bool{}, key: true})
			continue
		case json.Delim('['):
			stack = append(stack, &frame{})
			continue
		case json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
		if len(stack) > 0 && stack[len(stack)-1].object {
			stack[len(stack)-1].key = true // a value ended: a key comes next
		}
	}
}

// FuzzDecodeJSON: DecodeJSON accepts exactly one JSON value (a leading
// BOM aside) that encoding/json accepts, in valid UTF-8, with no key twice
// in any object, and reads it as encoding/json does with UseNumber. The
// seeds are in testdata/fuzz/FuzzDecodeJSON.
func FuzzDecodeJSON(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := DecodeJSON(data)
		src := bytes.TrimPrefix(data, []byte("\uFEFF"))
		valid, utf, dup := json.Valid(src), utf8.Valid(src), hasDuplicateKey(src)
		if want := valid && utf && !dup; (err == nil) != want {
			t.Fatalf("DecodeJSON(%q) error = %v; encoding/json valid: %v, UTF-8: %v, duplicate key: %v", data, err, valid, utf, dup)
		}
		if err != nil {
			return
		}
		dec := json.NewDecoder(bytes.NewReader(src))
		dec.UseNumber()
		var std any
		if err := dec.Decode(&std); err != nil {
			t.Fatalf("encoding/json cannot decode %q, which it calls valid: %v", src, err)
		}
		if _, err := dec.Token(); !errors.Is(err, io.EOF) {
			t.Fatalf("encoding/json finds more after the value in %q: %v", src, err)
		}
		if diff := cmp.Diff(std, got); diff != "" {
			t.Fatalf("DecodeJSON(%q) reads differently from encoding/json (-std +ours):\n%s", data, diff)
		}
	})
}

// coerceSchema is the inputSchema FuzzCoerce types values for: one
// property of each type, unions, nullables, an untyped one, an untyped enum.
const coerceSchema = `{"type":"object","properties":{
	"i":{"type":"integer"},
	"n":{"type":"number"},
	"b":{"type":"boolean"},
	"s":{"type":"string"},
	"a":{"type":"array","items":{"type":"integer"}},
	"o":{"type":"object"},
	"z":{"type":"null"},
	"is":{"type":["integer","string"]},
	"nn":{"type":["number","null"]},
	"ba":{"type":["boolean","array","null"]},
	"on":{"type":["object","number"]},
	"x":{"description":"untyped"},
	"e":{"enum":[1,2,3]},
	"odd":{"type":"uuid"}
},"required":["i"]}`

// jsonTypes is every JSON Schema type v is an instance of, as the wire
// carries it.
func jsonTypes(t *testing.T, v any) map[string]bool {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("json.Marshal(%#v): %v", v, err)
	}
	x, err := DecodeJSON(b)
	if err != nil {
		t.Fatalf("json.Marshal(%#v) = %s, which DecodeJSON refuses: %v", v, b, err)
	}
	switch x := x.(type) {
	case nil:
		return map[string]bool{"null": true}
	case bool:
		return map[string]bool{"boolean": true}
	case string:
		return map[string]bool{"string": true}
	case []any:
		return map[string]bool{"array": true}
	case map[string]any:
		return map[string]bool{"object": true}
	case json.Number:
		_, whole := new(big.Int).SetString(x.String(), 10)
		return map[string]bool{"number": true, "integer": whole}
	}
	t.Fatalf("DecodeJSON gave %T", x)
	return nil
}

// FuzzCoerce: typing KEY=VALUE for a property never panics, and a value
// it accepts is an instance of one of the property's types once on the
// wire (a number valid JSON that a parser keeps, an integer without
// fraction or exponent), text and untyped values exactly as typed; and
// ParseNumber never gives infinity or NaN. The seeds are in
// testdata/fuzz/FuzzCoerce.
func FuzzCoerce(f *testing.F) {
	args, err := ParseArgs(json.RawMessage(coerceSchema))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, key, value string) {
		if n, err := ParseNumber(value); err == nil && (math.IsInf(n, 0) || math.IsNaN(n)) {
			t.Fatalf("ParseNumber(%q) = %v", value, n)
		}
		v, err := args.Coerce(key, value)
		if err != nil {
			return
		}
		p := args.Props[key]
		if p == nil || len(p.Types) == 0 || p.Type() == "uuid" {
			if v != value {
				t.Fatalf("Coerce(%q, %q) = %#v; an untyped argument goes as typed", key, value, v)
			}
			return
		}
		is := jsonTypes(t, v)
		fits := false
		for _, typ := range p.Types {
			fits = fits || is[typ]
		}
		if !fits {
			t.Fatalf("Coerce(%q, %q) = %#v, which is not one of %v", key, value, v, p.Types)
		}
		switch x := v.(type) {
		case string:
			if x != value {
				t.Fatalf("Coerce(%q, %q) = %q; text goes as typed", key, value, x)
			}
		case json.Number:
			f, err := x.Float64()
			if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
				t.Fatalf("Coerce(%q, %q) = %s, which a JSON parser reads as %v (%v)", key, value, x, f, err)
			}
			if f == 0 && strings.ContainsAny(strings.SplitN(strings.ToLower(x.String()), "e", 2)[0], "123456789") {
				t.Fatalf("Coerce(%q, %q) = %s, which a JSON parser reads as 0", key, value, x)
			}
		}
	})
}
