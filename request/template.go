package request

import (
	"strings"

	"github.com/yosida95/uritemplate/v3"
)

// Template is a resource URI template with the values given for its
// variables.
type Template struct {
	Raw  string
	t    *uritemplate.Template
	Vars map[string]string
}

// IsTemplate says whether raw is a URI template (it has a "{") rather
// than a URI.
func IsTemplate(raw string) bool { return strings.Contains(raw, "{") }

// ParseTemplate reads a URI template and the values given for it: nil for
// a plain URI given none; a *NotTemplateError for one given some; a
// *TemplateError when it cannot be read; a *NoSuchArgumentError for a
// value of a variable it does not have.
func ParseTemplate(raw string, vars map[string]string) (*Template, error) {
	if !IsTemplate(raw) {
		if len(vars) > 0 {
			return nil, &NotTemplateError{URI: raw}
		}
		return nil, nil
	}
	t, err := uritemplate.New(raw)
	if err != nil {
		return nil, &TemplateError{Template: raw, Err: err}
	}
	names := t.Varnames()
	known := make(map[string]bool, len(names))
	for _, n := range names {
		known[n] = true
	}
	for k := range vars {
		if !known[k] {
			return nil, &NoSuchArgumentError{What: "template", Name: raw, Key: k, Names: names}
		}
	}
	if vars == nil {
		vars = map[string]string{}
	}
	return &Template{Raw: raw, t: t, Vars: vars}, nil
}

// Names are the template's variables, in its order.
func (t *Template) Names() []string { return t.t.Varnames() }

// Missing are the template's variables without a value.
func (t *Template) Missing() []string {
	var out []string
	for _, n := range t.t.Varnames() {
		if _, ok := t.Vars[n]; !ok {
			out = append(out, n)
		}
	}
	return out
}

// Expand fills the template in.
func (t *Template) Expand() (string, error) {
	vals := uritemplate.Values{}
	for k, v := range t.Vars {
		vals.Set(k, uritemplate.String(v))
	}
	u, err := t.t.Expand(vals)
	if err != nil {
		return "", &TemplateError{Template: t.Raw, Expand: true, Err: err}
	}
	return u, nil
}
