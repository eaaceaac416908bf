package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mcpcli/mcpcli/internal/jsonpeek"
)

// Args is a tool's inputSchema read for arguments typed on a command line:
// each KEY=VALUE is typed by its property's schema.
type Args struct {
	// Names are the properties, in the order the server wrote them.
	Names []string
	Props map[string]*Arg
	// Required are the required properties' names.
	Required []string
	// Closed is set when additionalProperties is false: a key not in Props
	// is refused.
	Closed bool
}

// Arg is one property of an inputSchema.
type Arg struct {
	Name string
	// Types are its JSON types in the order given ("integer", "string"...);
	// empty when the schema gives none.
	Types       []string
	Description string
	Title       string
	Enum        []json.RawMessage
	Default     json.RawMessage
	Format      string
	Minimum     *float64
	Maximum     *float64
	MinLength   *int
	MaxLength   *int
	MinItems    *int
	MaxItems    *int
	// Items is the element schema of an array.
	Items *Arg
	// Properties are an object's property names, in the server's order.
	Properties []string
	// Raw is the property's schema as the server wrote it.
	Raw json.RawMessage
}

// Type is the first type that is not null, or "" when untyped.
func (a *Arg) Type() string {
	for _, t := range a.Types {
		if t != "null" {
			return t
		}
	}
	return ""
}

// Nullable reports whether null is one of its types.
func (a *Arg) Nullable() bool {
	for _, t := range a.Types {
		if t == "null" {
			return true
		}
	}
	return false
}

// ParseArgs reads an inputSchema. A schema without properties takes any
// keys, as strings.
func ParseArgs(inputSchema json.RawMessage) (*Args, error) {
	a := &Args{Props: map[string]*Arg{}}
	if jsonpeek.IsNull(inputSchema) {
		return a, nil
	}
	if dup := repeatedKeyword(inputSchema); dup != nil {
		return nil, fmt.Errorf("the inputSchema %v", dup)
	}
	// Read as the validator reads it, as Parse does: a keyword whatever
	// its case.
	var top topFields
	if err := top.unmarshal(inputSchema); err != nil {
		return nil, fmt.Errorf("the inputSchema is not a JSON Schema object: %v", err)
	}
	a.Required = top.Required
	a.Closed = string(bytes.TrimSpace(top.AdditionalProperties)) == "false"
	props := []byte(top.Properties)
	if jsonpeek.IsNull(props) {
		return a, nil
	}
	err := jsonpeek.Object(props, func(name string, raw []byte) bool {
		a.Names = append(a.Names, name)
		a.Props[name] = parseArg(name, raw)
		return true
	})
	if err != nil {
		return nil, fmt.Errorf("the inputSchema's properties are not an object: %v", err)
	}
	return a, nil
}

func parseArg(name string, raw []byte) *Arg {
	var p argFields
	a := &Arg{Name: name, Raw: raw}
	if p.unmarshal(raw) != nil {
		return a
	}
	a.Types = typeList(p.Type)
	a.Description, a.Title, a.Enum, a.Default, a.Format = p.Description, p.Title, p.Enum, p.Default, p.Format
	a.Minimum, a.Maximum = p.Minimum, p.Maximum
	a.MinLength, a.MaxLength, a.MinItems, a.MaxItems = p.MinLength, p.MaxLength, p.MinItems, p.MaxItems
	if props := jsonpeek.Get(raw, "properties"); !jsonpeek.IsNull(props) {
		_ = jsonpeek.Object(props, func(k string, _ []byte) bool { a.Properties = append(a.Properties, k); return true })
	}
	if len(a.Types) == 0 && len(p.Enum) > 0 {
		// An untyped enum takes the type of its values.
		a.Types = []string{jsonTypeOf(p.Enum[0])}
	}
	if !jsonpeek.IsNull(p.Items) && bytes.HasPrefix(bytes.TrimSpace(p.Items), []byte("{")) {
		a.Items = parseArg(name+"[]", p.Items)
	}
	return a
}

func typeList(raw json.RawMessage) []string {
	var one string
	if json.Unmarshal(raw, &one) == nil && one != "" {
		return []string{one}
	}
	var many []string
	if json.Unmarshal(raw, &many) == nil {
		return many
	}
	return nil
}

func jsonTypeOf(v json.RawMessage) string {
	switch b := bytes.TrimSpace(v); {
	case len(b) == 0:
		return ""
	case b[0] == '"':
		return "string"
	case b[0] == 't' || b[0] == 'f':
		return "boolean"
	case b[0] == '[':
		return "array"
	case b[0] == '{':
		return "object"
	case b[0] == 'n':
		return "null"
	}
	return "number"
}

// Coerce types the value typed for key. Strings (and untyped arguments)
// are kept exactly as typed; numbers keep the digits as typed (JSON has no
// limit on them); arrays and objects are read as JSON, strictly. A value
// is refused, with the reason, when it fits none of the property's types.
func (a *Args) Coerce(key, value string) (any, error) {
	if !utf8.ValidString(value) {
		return nil, errors.New("is not valid UTF-8")
	}
	p := a.Props[key]
	if p == nil {
		return value, nil
	}
	types := p.Types
	if len(types) == 0 {
		return value, nil
	}
	if value == "null" && p.Nullable() {
		return nil, nil
	}
	var firstErr error
	for _, t := range types {
		if t == "null" {
			continue
		}
		v, err := coerceAs(t, value)
		if err == nil {
			if err := p.checkEnum(v); err != nil {
				return nil, err
			}
			return v, nil
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	if len(nonNull(types)) > 1 {
		return nil, fmt.Errorf("the tool wants %s", strings.Join(describeTypes(nonNull(types)), " or "))
	}
	return nil, firstErr
}

// checkEnum refuses a value the property's enum does not list, naming
// what it does.
func (a *Arg) checkEnum(v any) error {
	if len(a.Enum) == 0 {
		return nil
	}
	got, err := asWire(v)
	if err != nil {
		return nil
	}
	var names []string
	for _, e := range a.Enum {
		var want any
		if json.Unmarshal(e, &want) != nil {
			continue
		}
		if reflect.DeepEqual(got, want) {
			return nil
		}
		names = append(names, string(e))
	}
	if len(names) == 0 {
		return nil
	}
	if len(names) > 10 {
		names = append(names[:10], "…")
	}
	return fmt.Errorf("the tool takes one of %s", strings.Join(names, ", "))
}

func nonNull(types []string) []string {
	var out []string
	for _, t := range types {
		if t != "null" {
			out = append(out, t)
		}
	}
	return out
}

func describeTypes(types []string) []string {
	out := make([]string, len(types))
	for i, t := range types {
		out[i] = map[string]string{"integer": "a whole number", "number": "a number", "boolean": "true or false",
			"array": "a JSON array", "object": "a JSON object", "string": "text"}[t]
		if out[i] == "" {
			out[i] = t
		}
	}
	return out
}

func coerceAs(typ, value string) (any, error) {
	v := strings.TrimSpace(value)
	switch typ {
	case "integer":
		n, ok := new(big.Int).SetString(v, 10)
		if !ok {
			return nil, errors.New("the tool wants a whole number")
		}
		// Digits beyond 2^53 are kept, but not beyond what a parser
		// reading them as a float keeps at all: 1e400 digits arrive as
		// infinity, as the number 1e400 would.
		var re *RangeError
		if _, err := ParseNumber(n.String()); errors.As(err, &re) {
			return nil, &RangeError{Input: v, Large: true}
		}
		return json.Number(n.String()), nil
	case "number":
		f, err := ParseNumber(v)
		if err != nil {
			return nil, err
		}
		if isJSONNumber(v) {
			return json.Number(v), nil // the digits as typed
		}
		return json.Number(strconv.FormatFloat(f, 'g', -1, 64)), nil
	case "boolean":
		switch strings.ToLower(v) {
		case "true", "yes", "1":
			return true, nil
		case "false", "no", "0":
			return false, nil
		}
		return nil, errors.New("the tool wants true or false")
	case "array", "object":
		x, err := DecodeJSON([]byte(value))
		if err != nil && typ == "array" && !strings.HasPrefix(v, "[") {
			// paths=/tmp/x: a word where a list goes.
			like, _ := json.Marshal([]string{value})
			return nil, fmt.Errorf("the tool wants a JSON array, like %s", like)
		}
		if err != nil {
			return nil, fmt.Errorf("the tool wants a JSON %s: %v", typ, err)
		}
		if _, isArr := x.([]any); typ == "array" && !isArr {
			return nil, errors.New("the tool wants a JSON array like [1, 2]")
		}
		if _, isObj := x.(map[string]any); typ == "object" && !isObj {
			return nil, errors.New(`the tool wants a JSON object like {"k": 1}`)
		}
		return x, nil
	case "null":
		if v == "null" {
			return nil, nil
		}
		return nil, errors.New("the tool wants null")
	}
	return value, nil // strings, and types mcpcli does not know, as typed
}

// ParseNumber reads a number the person typed. A number no JSON parser can
// keep is refused (*RangeError) rather than sent to become something else:
// 1e400 would arrive as infinity, 1e-400 as 0.
func ParseNumber(s string) (float64, error) {
	f, err := strconv.ParseFloat(s, 64)
	switch {
	case err != nil && errors.Is(err, strconv.ErrRange) && math.IsInf(f, 0):
		return 0, &RangeError{Input: s, Large: true}
	case err != nil || math.IsNaN(f) || math.IsInf(f, 0):
		// JSON has no NaN or infinity.
		return 0, errors.New("the tool wants a number")
	case f == 0 && strings.ContainsAny(strings.SplitN(strings.ToLower(s), "e", 2)[0], "123456789"):
		return 0, &RangeError{Input: s}
	}
	return f, nil
}

// RangeError is a number beyond what a JSON parser keeps.
type RangeError struct {
	Input string
	Large bool // too large; otherwise too small
}

func (e *RangeError) Error() string {
	if e.Large {
		return fmt.Sprintf("%s is too large for a number a JSON parser can keep (it would become infinity)", e.Input)
	}
	return fmt.Sprintf("%s is too small for a number a JSON parser can keep (it would become 0)", e.Input)
}

// isJSONNumber reports whether s is a number as JSON writes it.
func isJSONNumber(s string) bool {
	if s == "" {
		return false
	}
	var n json.Number
	return json.Unmarshal([]byte(s), &n) == nil && s[0] != '"'
}

// Missing returns the required arguments values lacks, in the schema's order.
func (a *Args) Missing(values map[string]any) []string {
	var out []string
	req := map[string]bool{}
	for _, r := range a.Required {
		req[r] = true
	}
	for _, n := range a.Names {
		if _, ok := values[n]; req[n] && !ok {
			out = append(out, n)
			delete(req, n)
		}
	}
	for _, r := range a.Required {
		if _, ok := values[r]; req[r] && !ok {
			out = append(out, r)
		}
	}
	return out
}

// DecodeJSON reads one JSON value typed by a person, strictly: numbers
// keep their digits (json.Number), and trailing data, duplicate keys and
// invalid UTF-8 are errors rather than silently dropped.
func DecodeJSON(data []byte) (any, error) {
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	if !utf8.Valid(data) {
		return nil, errors.New("it is not valid UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	// JSON's own whitespace only: a form feed or a no-break space after
	// the value is more text, as it would be before it.
	if rest := bytes.Trim(data[dec.InputOffset():], " \t\r\n"); len(rest) > 0 {
		return nil, fmt.Errorf("there is more after the value: %q", clipText(string(rest), 20))
	}
	if key, ok := duplicateKey(bytes.TrimSpace(data)); ok {
		return nil, fmt.Errorf("key %q appears twice", key)
	}
	return v, nil
}

// duplicateKey finds a key that appears twice in one object, anywhere in v.
func duplicateKey(v []byte) (string, bool) {
	if len(v) == 0 {
		return "", false
	}
	var dup string
	found := false
	switch v[0] {
	case '{':
		seen := map[string]bool{}
		_ = jsonpeek.Object(v, func(k string, val []byte) bool {
			if seen[k] {
				dup, found = k, true
				return false
			}
			seen[k] = true
			dup, found = duplicateKey(val)
			return !found
		})
	case '[':
		_ = jsonpeek.Array(v, func(e []byte) bool {
			dup, found = duplicateKey(e)
			return !found
		})
	}
	return dup, found
}

func clipText(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// topFields are the keywords ParseArgs reads of an inputSchema.
type topFields struct {
	Required             []string        `json:"required"`
	AdditionalProperties json.RawMessage `json:"additionalProperties"`
	Properties           json.RawMessage `json:"properties"`
}

// unmarshal is json.Unmarshal(b, f), without encoding/json's reflection
// over the type where it can (see unmarshalFields).
func (f *topFields) unmarshal(b []byte) error {
	ok := unmarshalFields(b, func(key string) any {
		switch key {
		case "required":
			return &f.Required
		case "additionalproperties":
			return &f.AdditionalProperties
		case "properties":
			return &f.Properties
		}
		return nil
	})
	if ok {
		return nil
	}
	*f = topFields{}
	return json.Unmarshal(b, f)
}

// argFields are the keywords parseArg reads of a property's schema.
type argFields struct {
	Type        json.RawMessage   `json:"type"`
	Description string            `json:"description"`
	Title       string            `json:"title"`
	Enum        []json.RawMessage `json:"enum"`
	Default     json.RawMessage   `json:"default"`
	Format      string            `json:"format"`
	Minimum     *float64          `json:"minimum"`
	Maximum     *float64          `json:"maximum"`
	MinLength   *int              `json:"minLength"`
	MaxLength   *int              `json:"maxLength"`
	MinItems    *int              `json:"minItems"`
	MaxItems    *int              `json:"maxItems"`
	Items       json.RawMessage   `json:"items"`
}

// unmarshal is json.Unmarshal(b, f), as topFields.unmarshal.
func (f *argFields) unmarshal(b []byte) error {
	ok := unmarshalFields(b, func(key string) any {
		switch key {
		case "type":
			return &f.Type
		case "description":
			return &f.Description
		case "title":
			return &f.Title
		case "enum":
			return &f.Enum
		case "default":
			return &f.Default
		case "format":
			return &f.Format
		case "minimum":
			return &f.Minimum
		case "maximum":
			return &f.Maximum
		case "minlength":
			return &f.MinLength
		case "maxlength":
			return &f.MaxLength
		case "minitems":
			return &f.MinItems
		case "maxitems":
			return &f.MaxItems
		case "items":
			return &f.Items
		}
		return nil
	})
	if ok {
		return nil
	}
	*f = argFields{}
	return json.Unmarshal(b, f)
}

// unmarshalFields decodes the object in b as json.Unmarshal decodes it into
// a struct, member by member: field gives the field a key names (the key in
// lower case, as json.Unmarshal matches a key to a field whatever its case),
// or nil to skip the member, and each value is decoded by encoding/json into
// that field, later members over earlier ones as json.Unmarshal does. No
// reflection over the struct's type: building that decoder costs more than
// a small schema's decoding, at every run. It reports false, having
// decoded part of it, for invalid JSON, a value that is not an object, a
// key with a letter outside ASCII (encoding/json folds the Kelvin sign to
// k), or a value of the wrong type: the caller then has json.Unmarshal
// read it, error and all. TestFieldsAreJSONUnmarshal and
// FuzzFieldsAreJSONUnmarshal hold the two alike.
func unmarshalFields(b []byte, field func(key string) any) bool {
	b = bytes.TrimLeft(b, " \t\r\n")
	if len(b) == 0 || b[0] != '{' || !json.Valid(b) {
		return false
	}
	return jsonpeek.EachOnce(b, func(k string, v []byte) bool {
		for i := 0; i < len(k); i++ {
			if k[i] >= utf8.RuneSelf {
				return false
			}
		}
		if dst := field(strings.ToLower(k)); dst != nil {
			return json.Unmarshal(v, dst) == nil
		}
		return true
	})
}
