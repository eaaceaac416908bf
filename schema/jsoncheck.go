package schema

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/mcpcli/mcpcli/internal/lazy"
)

// jsonCheck is a JSON field's own schema, ready to check a value as the
// person types it.
type jsonCheck struct {
	resolved *jsonschema.Resolved
	err      error
}

// CheckJSON checks v, the value of the JSON field name, against the
// field's own schema (with the root's $defs, for its $refs), so that a
// wrong value is said on the field, not only when the whole is sent. A
// schema that cannot be resolved alone checks nothing here: Validate, on
// the whole, still does.
func (f *Form) CheckJSON(name string, v any) error {
	fl := f.Field(name)
	if fl == nil || fl.Kind != JSON || v == nil {
		return nil
	}
	f.checksMu.Lock()
	c, ok := f.jsonChecks[name]
	if !ok {
		c = newJSONCheck(f.raw, fl.Schema)
		if f.jsonChecks == nil {
			f.jsonChecks = map[string]*jsonCheck{}
		}
		f.jsonChecks[name] = c
	}
	f.checksMu.Unlock()
	if c.err != nil {
		return nil
	}
	inst, err := asWire(v)
	if err != nil {
		return err
	}
	if err := c.resolved.Validate(inst); err != nil {
		_, at, reason := readValidation(err)
		if at != "" {
			return fmt.Errorf("does not fit its schema at %s: %s", at, reason)
		}
		return fmt.Errorf("does not fit its schema: %s", reason)
	}
	return nil
}

// asWire is v as the wire will carry it (JSON and back): what the
// validator must see.
func asWire(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var inst any
	err = json.Unmarshal(b, &inst)
	return inst, err
}

// newJSONCheck resolves a property's schema on its own, lending it the
// root's $defs and definitions.
func newJSONCheck(root, prop json.RawMessage) *jsonCheck {
	var p map[string]json.RawMessage
	if err := json.Unmarshal(prop, &p); err != nil {
		return &jsonCheck{err: err} // true, false: nothing to check here
	}
	var r map[string]json.RawMessage
	_ = json.Unmarshal(root, &r)
	for _, k := range []string{"$defs", "definitions"} {
		if _, own := p[k]; !own && r[k] != nil {
			p[k] = r[k]
		}
	}
	b, err := json.Marshal(p)
	if err != nil {
		return &jsonCheck{err: err}
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(b, &s); err != nil {
		return &jsonCheck{err: err}
	}
	res, err := s.Resolve(nil)
	return &jsonCheck{resolved: res, err: err}
}

// The validator's error is read with these, compiled when one is first
// read, not at every start of mcpcli.
var (
	propRE = lazy.Value[*regexp.Regexp]{New: func() *regexp.Regexp { return regexp.MustCompile(`/properties/([^/:]+)`) }}
	typeRE = lazy.Value[*regexp.Regexp]{New: func() *regexp.Regexp { return regexp.MustCompile(`^type: .* has type ("[^"]*"), want (.*)$`) }}
)

// readValidation reads the JSON Schema validator's error, a chain like
// `validating root: validating /properties/a: validating
// /properties/a/properties/b: type: 1 has type "integer", want "string"`:
// the top property (a), where under it (b), and the reason in words
// (has type "integer", want "string").
func readValidation(err error) (top, at, reason string) {
	msg := err.Error()
	i := strings.LastIndex(msg, "validating ")
	if i < 0 {
		return "", "", msg
	}
	last := msg[i+len("validating "):]
	path, reason, ok := strings.Cut(last, ": ")
	if !ok {
		return "", "", msg
	}
	props := propRE.Get().FindAllStringSubmatch(msg, -1)
	if len(props) > 0 {
		top = props[0][1]
	}
	if m := propRE.Get().FindAllStringSubmatch(path, -1); len(m) > 0 {
		at = fmt.Sprintf("%q", m[len(m)-1][1])
	}
	if m := typeRE.Get().FindStringSubmatch(reason); m != nil {
		reason = "has type " + m[1] + ", want " + m[2]
	}
	reason = strings.TrimPrefix(reason, "required: ")
	return top, at, reason
}
