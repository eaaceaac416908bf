// Package schema reads an elicitation's requestedSchema: the flat object of
// primitive fields that form mode allows. It keeps the fields in the order
// the server wrote them, says plainly what it cannot render, parses and
// checks what a person types, and validates the content before it is sent.
//
// It has no terminal code: forms (render) and line prompts build on it, and
// so does the scripted answerer.
package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"unicode"

	"github.com/google/jsonschema-go/jsonschema"
)

// Kind is what sort of input a field takes.
type Kind int

const (
	String Kind = iota
	Number
	Integer
	Boolean
	Select      // one of a list (enum, oneOf, enum+enumNames)
	MultiSelect // several of a list (array of enum / anyOf)
	// JSON is any JSON value, typed as JSON text: a tool argument that a
	// flat form cannot hold (a nested object, an array of objects, a union
	// of types). Elicitation schemas never have one.
	JSON
)

func (k Kind) String() string {
	return [...]string{"string", "number", "integer", "boolean", "select", "multi-select", "json"}[k]
}

// Option is one choice of a select: Value goes on the wire, Title is shown.
type Option struct {
	Value string
	Title string
}

// Label is what a person sees for the option.
func (o Option) Label() string {
	if o.Title != "" {
		return o.Title
	}
	return o.Value
}

// Field is one property of the requested schema.
type Field struct {
	Name        string
	Kind        Kind
	Title       string
	Description string
	Required    bool

	Format               string // email, uri, date, date-time
	MinLength, MaxLength *int
	Minimum, Maximum     *float64
	MinItems, MaxItems   *int
	Options              []Option

	// Default is the server's default, already typed like a value of this
	// field (string, float64, int64, bool, []string); nil when there is none
	// or when it did not fit the field (DefaultProblem says why).
	Default        any
	DefaultProblem string

	// Secret is set when the field looks like it asks for a password, key,
	// token or card number, which form mode must never carry.
	Secret bool

	// Schema is the property's schema as the server wrote it.
	Schema json.RawMessage
	// Nullable is set for a tool argument whose types include null.
	Nullable bool
}

// Label is the field's title, or its name.
func (f *Field) Label() string {
	if f.Title != "" {
		return f.Title
	}
	return f.Name
}

// Long reports whether a string field wants multi-line input.
func (f *Field) Long() bool {
	return f.Kind == String && f.Format == "" && (f.MaxLength == nil || *f.MaxLength > 200) &&
		(f.MinLength != nil && *f.MinLength > 80 || strings.Contains(strings.ToLower(f.Name+" "+f.Title), "description") ||
			containsAny(strings.ToLower(f.Name+" "+f.Title), "comment", "notes", "message", "body", "bio", "details"))
}

// Problem is something in the schema that mcpcli cannot render.
type Problem struct {
	Field  string // property name; empty for the schema as a whole
	Reason string
}

func (p Problem) String() string {
	if p.Field == "" {
		return p.Reason
	}
	return fmt.Sprintf("%s: %s", p.Field, p.Reason)
}

// Form is a parsed requestedSchema.
type Form struct {
	Fields   []*Field
	Problems []Problem

	// The validator's view of the schema. Resolving it is most of the cost
	// of a big schema (a 10,000-option select takes 150 ms), and nothing
	// needs it until content is validated: Prepare makes it, and Validate
	// calls Prepare.
	raw        json.RawMessage
	resolving  sync.Once
	resolved   *jsonschema.Resolved
	resolveErr error

	// The JSON fields' own checks, made when first needed.
	checksMu   sync.Mutex
	jsonChecks map[string]*jsonCheck
}

// Prepare readies the JSON Schema validator, once; Validate calls it. A
// form can call it in the background while a person fills the form in.
func (f *Form) Prepare() { f.resolve() }

func (f *Form) resolve() {
	f.resolving.Do(func() {
		if f.raw == nil {
			f.resolved, f.resolveErr = (&jsonschema.Schema{Type: "object"}).Resolve(nil)
			return
		}
		s, ok := decodeFlat(f.raw)
		if !ok {
			s = &jsonschema.Schema{}
			if err := json.Unmarshal(f.raw, s); err != nil {
				f.resolveErr = err
				return
			}
		}
		f.resolved, f.resolveErr = s.Resolve(nil)
	})
}

// Renderable reports whether every field can be shown and answered.
func (f *Form) Renderable() bool { return len(f.Problems) == 0 }

// Field returns the field called name, or nil.
func (f *Form) Field(name string) *Field {
	for _, fl := range f.Fields {
		if fl.Name == name {
			return fl
		}
	}
	return nil
}

var formats = map[string]bool{"email": true, "uri": true, "date": true, "date-time": true}

// Parse reads a requestedSchema. A schema it cannot render is not an error:
// the Form lists Problems, and the person can still decline or cancel.
// Parse fails only on bytes that are not a JSON object.
func Parse(raw json.RawMessage) (*Form, error) { return parse(raw, false) }

// MaxFields bounds the fields of one form, and MaxOptions the options of
// one field: beyond them a schema is refused before anything is built
// (50,000 fields took 1.16 GB to lay out).
const (
	MaxFields  = 1000
	MaxOptions = 10_000
)

// ParseArguments reads a tool's inputSchema as a form: like Parse, but a
// property a flat form cannot show (a nested object, an array of objects,
// a union of types, no type at all) becomes a JSON field, and a format
// mcpcli does not know is plain text. The whole is still validated against
// the schema as written.
func ParseArguments(raw json.RawMessage) (*Form, error) { return parse(raw, true) }

func parse(raw json.RawMessage, args bool) (*Form, error) {
	form := &Form{}
	if len(bytes.TrimSpace(raw)) == 0 || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		// No schema: an empty form, answered by accept with {}.
		form.resolve()
		return form, nil
	}
	// A keyword given twice (see keys.go) is refused where it is: in a
	// property, that field; elsewhere, the form.
	dup := repeatedKeyword(raw)
	inField := dup != nil && len(dup.Path) >= 2 && keyword(dup.Path[0]) == "properties"
	if dup != nil && !inField {
		form.Problems = append(form.Problems, Problem{Reason: "the schema " + dup.Error()})
	}
	// Read as the validator reads it (encoding/json into a struct: a key
	// matches a keyword whatever its case, the last one counts), so that
	// "Required" or "tYpe" means to the form what it means to the check.
	var top struct {
		Type       json.RawMessage `json:"type"`
		Required   json.RawMessage `json:"required"`
		Ref        json.RawMessage `json:"$ref"`
		Properties json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(raw, &top); err != nil {
		return nil, fmt.Errorf("requestedSchema is not a JSON object: %v", err)
	}
	if t := top.Type; t != nil && string(t) != `"object"` {
		form.Problems = append(form.Problems, Problem{Reason: fmt.Sprintf("the schema's type is %s, not object", t)})
	}
	var required []string
	if r := top.Required; r != nil {
		if err := json.Unmarshal(r, &required); err != nil {
			form.Problems = append(form.Problems, Problem{Reason: "required is not a list of names"})
		}
	}
	isRequired := map[string]bool{}
	for _, r := range required {
		isRequired[r] = true
	}
	if top.Ref != nil {
		form.Problems = append(form.Problems, Problem{Reason: "the schema uses $ref, which form mode does not allow"})
	}
	if props := top.Properties; props != nil && string(props) != "null" {
		names, values, err := orderedObject(props)
		if err != nil {
			return nil, fmt.Errorf("requestedSchema.properties is not an object: %v", err)
		}
		if len(names) > MaxFields {
			return nil, fmt.Errorf("the form has %d fields; mcpcli shows at most %d (no person fills in more: the server is broken or hostile)", len(names), MaxFields)
		}
		for i, name := range names {
			if inField && name == dup.Path[1] {
				inner := &KeyError{Path: dup.Path[2:], First: dup.First, Then: dup.Then, Name: dup.Name}
				form.Problems = append(form.Problems, Problem{Field: name, Reason: inner.Error()})
				continue
			}
			fl, probs := parseField(name, values[i], isRequired[name], args)
			form.Problems = append(form.Problems, probs...)
			if fl != nil {
				form.Fields = append(form.Fields, fl)
			}
		}
	}
	for _, r := range required {
		if form.Field(r) == nil && !hasProblem(form.Problems, r) {
			form.Problems = append(form.Problems, Problem{Field: r, Reason: "is required but has no property"})
		}
	}
	form.raw = append(json.RawMessage(nil), raw...)
	return form, nil
}

func hasProblem(ps []Problem, field string) bool {
	for _, p := range ps {
		if p.Field == field {
			return true
		}
	}
	return false
}

// prop is the subset of a property schema that form mode uses.
type prop struct {
	Type        json.RawMessage   `json:"type"`
	Title       *string           `json:"title"`
	Description *string           `json:"description"`
	Format      string            `json:"format"`
	MinLength   *int              `json:"minLength"`
	MaxLength   *int              `json:"maxLength"`
	Minimum     *float64          `json:"minimum"`
	Maximum     *float64          `json:"maximum"`
	MinItems    *int              `json:"minItems"`
	MaxItems    *int              `json:"maxItems"`
	Enum        []json.RawMessage `json:"enum"`
	EnumNames   []string          `json:"enumNames"`
	OneOf       []constTitle      `json:"oneOf"`
	AnyOf       []constTitle      `json:"anyOf"`
	Items       *prop             `json:"items"`
	Default     json.RawMessage   `json:"default"`
	Properties  json.RawMessage   `json:"properties"`
	Ref         string            `json:"$ref"`
}

type constTitle struct {
	Const json.RawMessage `json:"const"`
	Title string          `json:"title"`
}

func parseField(name string, raw json.RawMessage, required, args bool) (*Field, []Problem) {
	if !args {
		return parseFormField(name, raw, required, false)
	}
	f, probs := parseFormField(name, raw, required, true)
	if len(probs) == 0 {
		return f, nil
	}
	// What a flat form cannot hold is typed as JSON.
	var p struct {
		Title       string          `json:"title"`
		Description string          `json:"description"`
		Default     json.RawMessage `json:"default"`
	}
	_ = json.Unmarshal(raw, &p)
	f = &Field{Name: name, Kind: JSON, Title: p.Title, Description: p.Description, Required: required, Schema: raw}
	if !jsonpeekNull(p.Default) {
		var v any
		if json.Unmarshal(p.Default, &v) == nil {
			f.Default = v
		}
	}
	return f, nil
}

func jsonpeekNull(b json.RawMessage) bool {
	t := bytes.TrimSpace(b)
	return len(t) == 0 || string(t) == "null"
}

func parseFormField(name string, raw json.RawMessage, required, args bool) (*Field, []Problem) {
	var p prop
	if err := json.Unmarshal(raw, &p); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return nil, []Problem{{name, fmt.Sprintf("has %s of the wrong type (%s where the schema wants %s)", te.Field, te.Value, jsonType(te.Type))}}
		}
		return nil, []Problem{{name, "is not a schema object"}}
	}
	options := max(len(p.Enum), len(p.OneOf), len(p.AnyOf))
	if p.Items != nil {
		options = max(options, len(p.Items.Enum), len(p.Items.OneOf), len(p.Items.AnyOf))
	}
	if options > MaxOptions {
		return nil, []Problem{{name, fmt.Sprintf("has %d options; mcpcli shows at most %d", options, MaxOptions)}}
	}
	f := &Field{Name: name, Required: required, Format: p.Format,
		MinLength: p.MinLength, MaxLength: p.MaxLength, Minimum: p.Minimum, Maximum: p.Maximum,
		MinItems: p.MinItems, MaxItems: p.MaxItems, Schema: raw}
	if p.Title != nil {
		f.Title = *p.Title
	}
	if p.Description != nil {
		f.Description = *p.Description
	}
	var typ string
	if len(p.Type) > 0 {
		if err := json.Unmarshal(p.Type, &typ); err != nil {
			var types []string
			if args && json.Unmarshal(p.Type, &types) == nil {
				// A tool argument may be nullable: ["string", "null"].
				var rest []string
				for _, t := range types {
					if t == "null" {
						f.Nullable = true
					} else {
						rest = append(rest, t)
					}
				}
				if len(rest) == 1 {
					typ = rest[0]
				}
			}
			if typ == "" {
				return nil, []Problem{{name, fmt.Sprintf("has type %s; form mode allows one primitive type", p.Type)}}
			}
		}
	}
	if p.Ref != "" {
		return nil, []Problem{{name, "uses $ref, which form mode does not allow"}}
	}
	if typ == "" && (p.Enum != nil || p.OneOf != nil) {
		typ = "string"
	}
	if typ != "string" && typ != "" && (p.Enum != nil || p.OneOf != nil) {
		return nil, []Problem{{name, fmt.Sprintf("has a list of choices on type %q; form mode allows choices of strings only", typ)}}
	}
	switch typ {
	case "string":
		switch {
		case p.OneOf != nil:
			f.Kind = Select
			opts, err := titledOptions(p.OneOf)
			if err != nil {
				return nil, []Problem{{name, "oneOf " + err.Error()}}
			}
			f.Options = opts
		case p.Enum != nil:
			f.Kind = Select
			opts, err := enumOptions(p.Enum, p.EnumNames)
			if err != nil {
				return nil, []Problem{{name, "enum " + err.Error()}}
			}
			f.Options = opts
		default:
			f.Kind = String
			if f.Format != "" && !formats[f.Format] {
				if args {
					f.Format = "" // a tool's own format (uuid, hostname…): plain text, checked by the schema
					break
				}
				return nil, []Problem{{name, fmt.Sprintf("has format %q; mcpcli knows email, uri, date and date-time", f.Format)}}
			}
		}
	case "number":
		f.Kind = Number
	case "integer":
		f.Kind = Integer
	case "boolean":
		f.Kind = Boolean
	case "array":
		f.Kind = MultiSelect
		if p.Items == nil {
			return nil, []Problem{{name, "is an array without items; form mode allows arrays of enum values only"}}
		}
		if p.Items.AnyOf == nil {
			p.Items.AnyOf = p.Items.OneOf // a common slip; validation still uses the schema as written
		}
		switch {
		case p.Items.AnyOf != nil:
			opts, err := titledOptions(p.Items.AnyOf)
			if err != nil {
				return nil, []Problem{{name, "items.anyOf " + err.Error()}}
			}
			f.Options = opts
		case p.Items.Enum != nil:
			opts, err := enumOptions(p.Items.Enum, p.Items.EnumNames)
			if err != nil {
				return nil, []Problem{{name, "items.enum " + err.Error()}}
			}
			f.Options = opts
		default:
			var it string
			_ = json.Unmarshal(p.Items.Type, &it)
			if it == "object" || len(p.Items.Properties) > 0 {
				return nil, []Problem{{name, "is an array of objects; form mode allows arrays of enum values only"}}
			}
			return nil, []Problem{{name, "is an array without a list of choices; form mode allows arrays of enum values only"}}
		}
	case "object":
		return nil, []Problem{{name, "is a nested object; form mode allows primitive fields only"}}
	case "":
		return nil, []Problem{{name, "has no type"}}
	default:
		return nil, []Problem{{name, fmt.Sprintf("has unknown type %q", typ)}}
	}
	if reason := impossible(f); reason != "" {
		return nil, []Problem{{name, reason + ": no answer can fit"}}
	}
	f.Secret = looksSecret(f)
	if len(p.Default) > 0 && string(p.Default) != "null" {
		v, err := f.fromJSON(p.Default)
		if err == nil {
			err = f.Check(v)
		}
		if err != nil {
			f.DefaultProblem = fmt.Sprintf("the server's default %s was left out: %v", compact(p.Default), err)
		} else {
			f.Default = v
		}
	}
	return f, nil
}

func compact(b []byte) string {
	var buf bytes.Buffer
	if json.Compact(&buf, b) != nil {
		return string(b)
	}
	s := buf.String()
	if r := []rune(s); len(r) > 60 {
		s = string(r[:57]) + "..."
	}
	return s
}

// jsonType names a Go type by the JSON it decodes from.
func jsonType(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Int, reflect.Int64, reflect.Float64:
		return "a number"
	case reflect.Bool:
		return "a boolean"
	case reflect.Slice:
		return "a list"
	case reflect.Pointer:
		return jsonType(t.Elem())
	}
	return "an object"
}

func titledOptions(cs []constTitle) ([]Option, error) {
	if len(cs) == 0 {
		return nil, errors.New("is empty: there is nothing to choose")
	}
	opts := make([]Option, 0, len(cs))
	seen := map[string]bool{}
	for _, c := range cs {
		var v string
		if err := json.Unmarshal(c.Const, &v); err != nil {
			return nil, fmt.Errorf("has a const that is not a string (%s)", compact(c.Const))
		}
		if seen[v] {
			continue
		}
		seen[v] = true
		opts = append(opts, Option{Value: v, Title: c.Title})
	}
	return opts, nil
}

func enumOptions(enum []json.RawMessage, names []string) ([]Option, error) {
	if len(enum) == 0 {
		return nil, errors.New("is empty: there is nothing to choose")
	}
	opts := make([]Option, 0, len(enum))
	seen := map[string]bool{}
	for i, e := range enum {
		var v string
		if err := json.Unmarshal(e, &v); err != nil {
			return nil, fmt.Errorf("has a value that is not a string (%s)", compact(e))
		}
		if seen[v] {
			continue
		}
		seen[v] = true
		o := Option{Value: v}
		if len(names) == len(enum) {
			o.Title = names[i]
		}
		opts = append(opts, o)
	}
	return opts, nil
}

// orderedObject returns the keys of a JSON object in the order written.
func orderedObject(raw json.RawMessage) ([]string, []json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil {
		return nil, nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, nil, fmt.Errorf("want an object")
	}
	var names []string
	var values []json.RawMessage
	index := map[string]int{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		name, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil, err
		}
		if i, dup := index[name]; dup { // last one wins, as in encoding/json
			values[i] = v
			continue
		}
		index[name] = len(names)
		names = append(names, name)
		values = append(values, v)
	}
	return names, values, nil
}

// secretPhrases are the words that name secrets: passwords, keys, tokens,
// card numbers and other credentials, each a sequence of lower-case words
// (a name like apiKey or api_key is split into words first).
var secretPhrases = [][]string{
	{"password"}, {"passwords"}, {"passwd"}, {"passphrase"}, {"passcode"}, {"pass"},
	{"secret"}, {"secrets"}, {"token"}, {"tokens"}, {"apikey"}, {"apikeys"},
	{"api", "key"}, {"api", "keys"}, {"access", "key"}, {"private", "key"}, {"secret", "key"},
	{"signing", "key"}, {"credential"}, {"credentials"},
	{"card", "number"}, {"card", "no"}, {"card", "num"}, {"credit", "card"}, {"debit", "card"},
	{"cvv"}, {"cvv2"}, {"cvc"}, {"cvc2"}, {"security", "code"}, {"pin"},
	{"ssn"}, {"social", "security"}, {"otp"}, {"one", "time", "code"}, {"one", "time", "passcode"},
	{"onetime", "code"}, {"2fa"}, {"mfa"}, {"totp"}, {"verification", "code"},
	{"session", "id"}, {"session", "cookie"}, {"cookie"}, {"iban"}, {"bearer"}, {"passport", "number"},
}

// negations turn a mention of a secret into a warning against giving one:
// "do not give us your PIN", "never share a password".
var negations = map[string]bool{"not": true, "never": true, "dont": true, "don't": true, "no": true, "without": true, "avoid": true, "nor": true}

// looksSecret reports whether a field seems to ask for a secret. Its name
// and title decide first; a description counts only where it asks for
// one, not where it warns against giving one.
func looksSecret(f *Field) bool {
	if f.Kind != String && f.Kind != Number && f.Kind != Integer {
		return false
	}
	name, title := words(f.Name), words(f.Title)
	if measures(name) || measures(title) {
		return false // maxTokens, password_min_length, token_ttl: a measure, not the secret
	}
	if hasSecret(name, false) || hasSecret(title, false) {
		return true
	}
	desc := words(f.Description)
	if f.Kind != String && measures(desc) {
		return false // "the maximum number of tokens to generate"
	}
	return hasSecret(desc, true)
}

// measureWords make a field about a secret a measure of it (a count, a
// limit, a length, a lifetime), which is no secret.
var measureWords = map[string]bool{
	"max": true, "maximum": true, "min": true, "minimum": true, "count": true, "limit": true,
	"length": true, "len": true, "size": true, "total": true, "budget": true, "ttl": true,
	"lifetime": true, "expiry": true, "timeout": true, "retries": true, "attempts": true,
}

func measures(ws []string) bool {
	for _, w := range ws {
		if measureWords[w] {
			return true
		}
	}
	return false
}

// hasSecret reports whether ws holds a secret phrase. With negated set, a
// phrase after a negation in the same sentence does not count.
func hasSecret(ws []string, negated bool) bool {
	neg := false // a negation came earlier in this sentence
	for i, w := range ws {
		switch {
		case w == ".":
			neg = false
			continue
		case w == ",":
			continue // a list after a negation stays negated: "not your phone, PIN, or …"
		case negations[w]:
			neg = true
			continue
		}
		if negated && neg {
			continue
		}
		for _, p := range secretPhrases {
			if matchAt(ws, i, p) {
				return true
			}
		}
	}
	return false
}

func matchAt(ws []string, i int, p []string) bool {
	if i+len(p) > len(ws) {
		return false
	}
	for k, w := range p {
		if ws[i+k] != w {
			return false
		}
	}
	return true
}

// words splits text and identifiers into lower-case words, with sentence
// punctuation as words of its own ("." ends a sentence, "," the rest):
// "apiKey", "api_key" and "api-key" are all "api", "key".
func words(s string) []string {
	var out []string
	start := -1
	prevLower := false
	flush := func(end int) {
		if start >= 0 {
			out = append(out, strings.ToLower(s[start:end]))
			start = -1
		}
	}
	for i, r := range s {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '\'' || r > 0x7f && unicode.IsLetter(r):
			if start < 0 {
				start = i
			}
			prevLower = r >= 'a' && r <= 'z'
		case r >= 'A' && r <= 'Z':
			if prevLower {
				flush(i)
			}
			if start < 0 {
				start = i
			}
			prevLower = false
		case r == '.' || r == '!' || r == '?':
			flush(i)
			out = append(out, ".")
			prevLower = false
		case r == ',' || r == ';' || r == ':' || r == '(' || r == ')':
			flush(i)
			out = append(out, ",")
			prevLower = false
		default:
			flush(i)
			prevLower = false
		}
	}
	flush(len(s))
	return out
}

func containsAny(s string, subs ...string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// impossible says why no value can satisfy f's bounds, or returns "".
func impossible(f *Field) string {
	switch f.Kind {
	case String:
		if f.MinLength != nil && f.MaxLength != nil && *f.MinLength > *f.MaxLength {
			return fmt.Sprintf("asks for at least %d and at most %d characters", *f.MinLength, *f.MaxLength)
		}
	case Number, Integer:
		if f.Minimum != nil && f.Maximum != nil && *f.Minimum > *f.Maximum {
			return fmt.Sprintf("asks for a number from %s up to %s", num(*f.Minimum), num(*f.Maximum))
		}
	case MultiSelect:
		if f.MinItems != nil && f.MaxItems != nil && *f.MinItems > *f.MaxItems {
			return fmt.Sprintf("asks to choose at least %d and at most %d", *f.MinItems, *f.MaxItems)
		}
		if f.MinItems != nil && *f.MinItems > len(f.Options) {
			return fmt.Sprintf("asks to choose at least %d of %d choices", *f.MinItems, len(f.Options))
		}
	}
	return ""
}

// LooksSecretName reports whether a name (of a field, a variable, a
// header) says it holds a secret: "GITHUB_TOKEN", "apiKey", "password".
func LooksSecretName(name string) bool { return hasSecret(words(name), false) }
