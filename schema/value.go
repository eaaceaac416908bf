package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/mail"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mcpcli/mcpcli/internal/plural"
)

// A value of a field is typed by its kind:
//
//	String, Select  string
//	Number          float64
//	Integer         int64
//	Boolean         bool
//	MultiSelect     []string

// maxExactInt is the largest whole number a JSON parser that reads
// numbers as 64-bit floats (JavaScript's does) keeps exactly, 2^53.
const maxExactInt = 1 << 53

// fromJSON types a JSON value (a default, or scripted content) for f.
func (f *Field) fromJSON(raw json.RawMessage) (any, error) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	return f.FromAny(v)
}

// FromAny types a decoded JSON value for f.
func (f *Field) FromAny(v any) (any, error) {
	switch f.Kind {
	case JSON:
		return v, nil
	case String, Select:
		s, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("must be a string, not %s", jsonKind(v))
		}
		return s, nil
	case Number:
		n, ok := v.(float64)
		if !ok {
			return nil, fmt.Errorf("must be a number, not %s", jsonKind(v))
		}
		return n, nil
	case Integer:
		n, ok := v.(float64)
		if !ok {
			return nil, fmt.Errorf("must be a whole number, not %s", jsonKind(v))
		}
		if n != math.Trunc(n) || math.Abs(n) > maxExactInt {
			return nil, fmt.Errorf("must be a whole number, not %v", n)
		}
		return int64(n), nil
	case Boolean:
		b, ok := v.(bool)
		if !ok {
			return nil, fmt.Errorf("must be true or false, not %s", jsonKind(v))
		}
		return b, nil
	case MultiSelect:
		list, ok := v.([]any)
		if !ok {
			return nil, fmt.Errorf("must be a list, not %s", jsonKind(v))
		}
		out := make([]string, 0, len(list))
		for _, e := range list {
			s, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("must be a list of strings, not one holding %s", jsonKind(e))
			}
			out = append(out, s)
		}
		return out, nil
	}
	return nil, fmt.Errorf("unknown kind")
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case float64:
		return "a number"
	case bool:
		return "a boolean"
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// Check says why v (typed for f) is not acceptable, or returns nil.
// The reason reads after the field's name: "must be at least 3 characters".
func (f *Field) Check(v any) error {
	switch f.Kind {
	case JSON:
		return nil // the schema as written decides, when the whole is validated
	case String:
		s, ok := v.(string)
		if !ok {
			return errors.New("must be text")
		}
		n := utf8.RuneCountInString(s)
		if f.MinLength != nil && n < *f.MinLength {
			return fmt.Errorf("must be at least %d character%s (now %d)", *f.MinLength, plural.S(*f.MinLength), n)
		}
		if f.MaxLength != nil && n > *f.MaxLength {
			return fmt.Errorf("must be at most %d character%s (now %d)", *f.MaxLength, plural.S(*f.MaxLength), n)
		}
		return checkFormat(f.Format, s)
	case Number, Integer:
		var n float64
		switch x := v.(type) {
		case float64:
			if f.Kind == Integer && x != math.Trunc(x) {
				return errors.New("must be a whole number")
			}
			n = x
		case int64:
			n = float64(x)
		default:
			return errors.New("must be a number")
		}
		if math.IsNaN(n) || math.IsInf(n, 0) {
			return errors.New("must be a finite number")
		}
		switch {
		case f.Minimum != nil && f.Maximum != nil && (n < *f.Minimum || n > *f.Maximum):
			return fmt.Errorf("must be between %s and %s", num(*f.Minimum), num(*f.Maximum))
		case f.Minimum != nil && n < *f.Minimum:
			return fmt.Errorf("must be at least %s", num(*f.Minimum))
		case f.Maximum != nil && n > *f.Maximum:
			return fmt.Errorf("must be at most %s", num(*f.Maximum))
		}
	case Boolean:
		if _, ok := v.(bool); !ok {
			return errors.New("must be yes or no")
		}
	case Select:
		s, ok := v.(string)
		if !ok || f.Option(s) == nil {
			return fmt.Errorf("must be one of: %s", f.choiceList())
		}
	case MultiSelect:
		list, ok := v.([]string)
		if !ok {
			return errors.New("must be a list of choices")
		}
		seen := map[string]bool{}
		for _, s := range list {
			if f.Option(s) == nil {
				return fmt.Errorf("%q is not one of: %s", s, f.choiceList())
			}
			if seen[s] {
				return fmt.Errorf("%q is chosen twice", s)
			}
			seen[s] = true
		}
		if f.MinItems != nil && len(list) < *f.MinItems {
			return fmt.Errorf("must have at least %d chosen (now %d)", *f.MinItems, len(list))
		}
		if f.MaxItems != nil && len(list) > *f.MaxItems {
			return fmt.Errorf("must have at most %d chosen (now %d)", *f.MaxItems, len(list))
		}
	}
	return nil
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// Option returns the option whose value is v, or nil.
func (f *Field) Option(v string) *Option {
	for i := range f.Options {
		if f.Options[i].Value == v {
			return &f.Options[i]
		}
	}
	return nil
}

func (f *Field) choiceList() string {
	const max = 8
	var parts []string
	for i, o := range f.Options {
		if i == max {
			parts = append(parts, fmt.Sprintf("… (%d more)", len(f.Options)-max))
			break
		}
		parts = append(parts, o.Label())
	}
	return strings.Join(parts, ", ")
}

// checkFormat checks s against a string format. "" fits none of them: an
// optional field left empty never gets here (it is left out), so "" here is
// a value that would be sent.
func checkFormat(format, s string) error {
	switch format {
	case "email":
		a, err := mail.ParseAddress(s)
		if err != nil || a.Address != s || !strings.Contains(s[strings.LastIndex(s, "@"):], ".") && !strings.HasSuffix(s, "@localhost") {
			return errors.New("must be an email address like name@example.com")
		}
	case "uri":
		u, err := url.Parse(s)
		if err != nil || u.Scheme == "" || strings.ContainsAny(s, " \t\n") {
			return errors.New("must be a full URI like https://example.com/page")
		}
	case "date":
		if _, err := time.Parse("2006-01-02", s); err != nil {
			return errors.New("must be a date like 2026-11-30")
		}
	case "date-time":
		if _, err := time.Parse(time.RFC3339, s); err != nil {
			return errors.New("must be a date and time like 2026-11-30T14:05:00Z")
		}
	}
	return nil
}

// ParseInput reads what a person typed for f. Empty input means "no value"
// and returns (nil, nil); the caller decides between default, unset and
// "required". Select input may be a value, a title or a 1-based number;
// multi-select input is a comma-separated list of those.
func (f *Field) ParseInput(in string) (any, error) {
	if !utf8.ValidString(in) {
		// JSON would carry U+FFFD in place of each bad byte: not what was typed.
		return nil, errors.New("must be text in UTF-8; what was typed has bytes that are not")
	}
	if f.Kind != String {
		in = strings.TrimSpace(in)
	}
	if in == "" {
		return nil, nil
	}
	var v any
	switch f.Kind {
	case JSON:
		x, err := DecodeJSON([]byte(in))
		if err != nil {
			return nil, fmt.Errorf("must be JSON: %v", err)
		}
		return x, nil
	case String:
		v = in
	case Number:
		n, err := ParseNumber(in)
		var re *RangeError
		if errors.As(err, &re) {
			return nil, fmt.Errorf("must be a number a JSON parser can keep: %v", re)
		}
		if err != nil {
			return nil, fmt.Errorf("must be a number like 42 or 3.5, not %q", in)
		}
		v = n
	case Integer:
		n, err := strconv.ParseInt(in, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("must be a whole number like 42, not %q", in)
		}
		if n > maxExactInt || n < -maxExactInt {
			// What FromAny refuses in an answers file, for the same reason.
			return nil, fmt.Errorf("must be a whole number a JSON parser keeps exactly (between -%d and %d), not %s", maxExactInt, maxExactInt, in)
		}
		v = n
	case Boolean:
		switch strings.ToLower(in) {
		case "y", "yes", "true", "1", "on":
			v = true
		case "n", "no", "false", "0", "off":
			v = false
		default:
			return nil, fmt.Errorf("answer yes or no, not %q", in)
		}
	case Select:
		o, err := f.pick(in)
		if err != nil {
			return nil, err
		}
		v = o.Value
	case MultiSelect:
		list := []string{} // "," chooses nothing: an empty list, never null
		for _, part := range strings.Split(in, ",") {
			part = strings.TrimSpace(part)
			if part == "" {
				continue
			}
			o, err := f.pick(part)
			if err != nil {
				return nil, err
			}
			list = append(list, o.Value)
		}
		v = list
	}
	if err := f.Check(v); err != nil {
		return nil, err
	}
	return v, nil
}

// pick finds the option meant by what a person typed. Titles are what the
// person reads, so an exact title comes first, before another option's
// value spelled the same; then values, any case; then list numbers.
func (f *Field) pick(in string) (*Option, error) {
	for i := range f.Options {
		if f.Options[i].Title != "" && f.Options[i].Title == in {
			return &f.Options[i], nil
		}
	}
	if o := f.Option(in); o != nil {
		return o, nil
	}
	for i := range f.Options {
		if f.Options[i].Title != "" && strings.EqualFold(f.Options[i].Title, in) {
			return &f.Options[i], nil
		}
	}
	for i := range f.Options {
		if strings.EqualFold(f.Options[i].Value, in) {
			return &f.Options[i], nil
		}
	}
	if n, err := strconv.Atoi(in); err == nil && n >= 1 && n <= len(f.Options) {
		return &f.Options[n-1], nil
	}
	return nil, fmt.Errorf("%q is not one of: %s", in, f.choiceList())
}

// Show renders a typed value for a person: titles for choices, yes/no for
// booleans. It does not sanitize: the caller does.
func (f *Field) Show(v any) string {
	switch x := v.(type) {
	case nil:
		return "(not set)"
	case string:
		if f.Kind == Select {
			if o := f.Option(x); o != nil {
				return o.Label()
			}
		}
		return x
	case bool:
		if x {
			return "yes"
		}
		return "no"
	case float64:
		return num(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case []string:
		labels := make([]string, len(x))
		for i, s := range x {
			labels[i] = s
			if o := f.Option(s); o != nil {
				labels[i] = o.Label()
			}
		}
		if len(labels) == 0 {
			return "(none)"
		}
		return strings.Join(labels, ", ")
	}
	if f.Kind == JSON {
		b, err := json.Marshal(v)
		if err == nil {
			return string(b)
		}
	}
	return fmt.Sprint(v)
}

// Content builds what accept sends: set values, typed; a field left
// empty that has a default gets it (the go-sdk would put it in anyway on
// the 2025-11-25 path, and SEP-1034 wants defaults applied), other unset
// optional fields are left out. It refuses content that does not validate.
func (f *Form) Content(values map[string]any) (map[string]any, error) {
	content := map[string]any{}
	for _, fl := range f.Fields {
		v, ok := values[fl.Name]
		if (!ok || v == nil) && fl.Default != nil {
			v, ok = fl.Default, true
		}
		if !ok || v == nil {
			if fl.Required {
				return nil, &FieldError{Field: fl.Name, Label: fl.Title, Reason: "is required"}
			}
			continue
		}
		if s, isStr := v.(string); isStr && s == "" && !fl.Required {
			continue // an empty optional string is "not given", not ""
		}
		if err := fl.Check(v); err != nil {
			return nil, &FieldError{Field: fl.Name, Label: fl.Title, Reason: err.Error()}
		}
		content[fl.Name] = v
	}
	if err := f.Validate(content); err != nil {
		return nil, err
	}
	return content, nil
}

// WithDefaults returns content with each omitted field that has a default
// set to it: what is sent, shown as it is sent.
func (f *Form) WithDefaults(content map[string]any) map[string]any {
	out := make(map[string]any, len(content))
	for k, v := range content {
		out[k] = v
	}
	for _, fl := range f.Fields {
		if _, ok := out[fl.Name]; !ok && fl.Default != nil {
			out[fl.Name] = fl.Default
		}
	}
	return out
}

// FromContent types scripted content (decoded JSON) for the form, field by
// field, so that it can be checked and shown.
func (f *Form) FromContent(content map[string]any) (map[string]any, error) {
	values := map[string]any{}
	for name, v := range content {
		fl := f.Field(name)
		if fl == nil {
			return nil, &FieldError{Field: name, Reason: "is not a field of the requested schema"}
		}
		tv, err := fl.FromAny(v)
		if err != nil {
			return nil, &FieldError{Field: name, Reason: err.Error()}
		}
		values[name] = tv
	}
	return values, nil
}

// Validate checks content against the requested schema with a JSON Schema
// validator, on top of mcpcli's own field checks.
func (f *Form) Validate(content map[string]any) error {
	if !f.Renderable() {
		return fmt.Errorf("the requested schema cannot be answered: %s", f.Problems[0])
	}
	for _, fl := range f.Fields {
		if v, ok := content[fl.Name]; ok {
			if err := fl.Check(v); err != nil {
				return &FieldError{Field: fl.Name, Label: fl.Title, Reason: err.Error()}
			}
		} else if fl.Required {
			return &FieldError{Field: fl.Name, Label: fl.Title, Reason: "is required"}
		}
	}
	f.resolve()
	if f.resolveErr != nil {
		return fmt.Errorf("the requested schema cannot be used to check the answer, so nothing is sent: %v", f.resolveErr)
	}
	inst, err := asWire(content)
	if err != nil {
		return err
	}
	if err := f.resolved.Validate(inst); err != nil {
		top, at, reason := readValidation(err)
		if fl := f.Field(top); fl != nil {
			// Said on the field it is about, in words.
			if at != "" && at != fmt.Sprintf("%q", top) {
				reason = "does not fit its schema at " + at + ": " + reason
			} else {
				reason = "does not fit its schema: " + reason
			}
			return &FieldError{Field: fl.Name, Label: fl.Title, Reason: reason}
		}
		return fmt.Errorf("the answer does not fit the schema: %s", reason)
	}
	return nil
}

// FieldError names the field at fault.
type FieldError struct {
	Field  string
	Label  string // its title, when it has one: what a person reads
	Reason string
}

func (e *FieldError) Error() string {
	if e.Label != "" && e.Label != e.Field {
		return fmt.Sprintf("%s (%s) %s", e.Label, e.Field, e.Reason)
	}
	return fmt.Sprintf("%s %s", e.Field, e.Reason)
}
