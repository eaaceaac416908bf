package schema

import (
	"bytes"
	"encoding/json"
	"math"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/mcpcli/mcpcli/internal/jsonpeek"
)

// decodeFlat decodes a requested schema into the validator's Schema, as
// json.Unmarshal (jsonschema.Schema's UnmarshalJSON) decodes it, when the
// schema is of the flat kind elicitation asks with: an object of
// properties, each a primitive or an array of enum values, with the
// keywords below and nothing else. It reports false for anything else
// (another keyword, a key in another case, a null, a boolean schema, a
// value of an unexpected kind, a key given twice), and the caller decodes
// with json.Unmarshal as before.
//
// Why: the first json.Unmarshal into a jsonschema.Schema makes
// encoding/json build its decoder for that type (sixty fields, several of
// them schemas again) by reflection, and jsonschema-go decodes every schema
// twice (once into the struct, once into a map, for the keywords it does not
// know): about a million instructions, 14% of an elicitation round answered
// from a file. Each value here is still decoded by encoding/json, as
// the basic type it is, so strings, numbers and enum values come out the
// same; TestDecodeFlatIsJSONUnmarshal and FuzzDecodeFlatIsJSONUnmarshal
// hold the two to the same result.
func decodeFlat(raw []byte) (*jsonschema.Schema, bool) {
	// jsonpeek checks structure, not every token: what it hands over is
	// decoded by encoding/json, but a default is kept as written.
	if !json.Valid(raw) {
		return nil, false
	}
	s := &jsonschema.Schema{}
	if !decodeFlatInto(s, raw, 0) {
		return nil, false
	}
	return s, true
}

// flatDepth bounds the nesting decodeFlat reads: the form (0), a
// property (1), a multi-select's items or a titled option (2), and a
// titled option of a multi-select's items (3).
const flatDepth = 3

func decodeFlatInto(s *jsonschema.Schema, raw []byte, depth int) bool {
	if depth > flatDepth {
		return false
	}
	return jsonpeek.EachOnce(raw, func(key string, v []byte) bool {
		return !bytes.Equal(v, []byte("null")) && decodeFlatKey(s, key, v, depth)
	})
}

func decodeFlatKey(s *jsonschema.Schema, key string, v []byte, depth int) bool {
	switch key {
	case "$schema":
		return depth == 0 && unmarshal(v, &s.Schema)
	case "type":
		switch v[0] {
		case '"':
			return unmarshal(v, &s.Type)
		case '[':
			return unmarshal(v, &s.Types)
		}
		return false
	case "title":
		return unmarshal(v, &s.Title)
	case "description":
		return unmarshal(v, &s.Description)
	case "required":
		return unmarshal(v, &s.Required)
	case "properties":
		if depth != 0 {
			return false
		}
		s.Properties = map[string]*jsonschema.Schema{}
		ok := true
		err := jsonpeek.Object(v, func(name string, pv []byte) bool {
			if _, dup := s.Properties[name]; dup {
				ok = false
				return false
			}
			p := &jsonschema.Schema{}
			s.Properties[name] = p
			ok = decodeFlatInto(p, pv, depth+1)
			return ok
		})
		return err == nil && ok
	}
	if depth == 0 {
		return false // a form's own keywords end here
	}
	switch key {
	case "format":
		return unmarshal(v, &s.Format)
	case "pattern":
		return unmarshal(v, &s.Pattern)
	case "default":
		// Kept as written, but read as json.Unmarshal reads every value
		// too (jsonschema-go's pass into a map): it refuses a number
		// beyond float64's range, and so must this.
		var d any
		if !unmarshal(v, &d) {
			return false
		}
		s.Default = json.RawMessage(bytes.Clone(v))
		return true
	case "enum":
		return unmarshal(v, &s.Enum)
	case "const":
		var c any
		if !unmarshal(v, &c) {
			return false
		}
		s.Const = &c
		return true
	case "minimum":
		return floatKey(v, &s.Minimum)
	case "maximum":
		return floatKey(v, &s.Maximum)
	case "exclusiveMinimum":
		return floatKey(v, &s.ExclusiveMinimum)
	case "exclusiveMaximum":
		return floatKey(v, &s.ExclusiveMaximum)
	case "minLength":
		return intKey(v, &s.MinLength)
	case "maxLength":
		return intKey(v, &s.MaxLength)
	case "minItems":
		return intKey(v, &s.MinItems)
	case "maxItems":
		return intKey(v, &s.MaxItems)
	case "uniqueItems":
		return unmarshal(v, &s.UniqueItems)
	case "items":
		if v[0] != '{' {
			return false
		}
		s.Items = &jsonschema.Schema{}
		return decodeFlatInto(s.Items, v, depth+1)
	case "anyOf":
		return flatList(v, &s.AnyOf, depth)
	case "oneOf":
		return flatList(v, &s.OneOf, depth)
	case "enumNames":
		// Not a keyword of the validator's: it keeps it in Extra, as
		// json.Unmarshal decodes it into an any.
		var names any
		if !unmarshal(v, &names) {
			return false
		}
		s.Extra = map[string]any{key: names}
		return true
	}
	return false
}

// flatList decodes an array of schemas (a titled select's options).
func flatList(v []byte, dst *[]*jsonschema.Schema, depth int) bool {
	if v[0] != '[' {
		return false
	}
	list := []*jsonschema.Schema{}
	ok := true
	err := jsonpeek.Array(v, func(ev []byte) bool {
		if len(ev) == 0 || ev[0] != '{' {
			ok = false
			return false
		}
		e := &jsonschema.Schema{}
		list = append(list, e)
		ok = decodeFlatInto(e, ev, depth+1)
		return ok
	})
	*dst = list
	return err == nil && ok
}

func unmarshal(v []byte, dst any) bool { return json.Unmarshal(v, dst) == nil }

func floatKey(v []byte, dst **float64) bool {
	var f float64
	if !unmarshal(v, &f) {
		return false
	}
	*dst = &f
	return true
}

// intKey reads an integer-valued keyword as jsonschema-go does: a whole
// number, written with a decimal point or not, that fits in an int32.
func intKey(v []byte, dst **int) bool {
	var i int64
	if bytes.ContainsRune(v, '.') {
		var f float64
		if !unmarshal(v, &f) || float64(int64(f)) != f {
			return false
		}
		i = int64(f)
	} else if !unmarshal(v, &i) {
		return false
	}
	if i < math.MinInt32 || i > math.MaxInt32 {
		return false
	}
	n := int(i)
	*dst = &n
	return true
}
