// Package explore answers a server's asks on its own, to map what the
// server does after each answer. Values makes the content of an accept.
package explore

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mcpcli/mcpcli/schema"
)

// Values makes content that fits form: every field gets a value, required
// or not, typed as an accept sends it (string, float64, int64, bool,
// []string):
//
//   - the field's default, when the server gave one that fits;
//   - the first choice of a select, the first choices of a multi-select
//     (as many as minItems asks, at least one when it may);
//   - a valid example of each format (email, uri, date, date-time);
//   - a number within minimum and maximum (exclusive ones too), a
//     multiple of multipleOf when there is one, whole for an integer;
//   - text as long as minLength and maxLength allow;
//   - false for a boolean.
//
// The content is validated against the schema as written before it is
// returned; a field no value fits (a pattern, or bounds that leave
// nothing) is an error that names it.
func Values(form *schema.Form) (map[string]any, error) {
	if !form.Renderable() {
		return nil, fmt.Errorf("the form cannot be answered: %s", form.Problems[0])
	}
	// A default mcpcli's own field checks let through can still fail the
	// schema as written (an exclusiveMinimum, a multipleOf): then that
	// field is made up instead, and the whole checked again.
	noDefault := map[string]bool{}
	for {
		content := make(map[string]any, len(form.Fields))
		for _, f := range form.Fields {
			v, err := value(f, !noDefault[f.Name])
			if err != nil {
				return nil, &schema.FieldError{Field: f.Name, Label: f.Title, Reason: err.Error()}
			}
			content[f.Name] = v
		}
		err := form.Validate(content)
		var fe *schema.FieldError
		if err != nil && errors.As(err, &fe) && !noDefault[fe.Field] && form.Field(fe.Field) != nil && form.Field(fe.Field).Default != nil {
			noDefault[fe.Field] = true
			continue
		}
		if err != nil {
			return nil, err
		}
		return content, nil
	}
}

func value(f *schema.Field, useDefault bool) (any, error) {
	if f.Default != nil && useDefault {
		return f.Default, nil
	}
	switch f.Kind {
	case schema.Select:
		return f.Options[0].Value, nil
	case schema.MultiSelect:
		n := 1
		if f.MinItems != nil {
			n = *f.MinItems
		}
		if f.MaxItems != nil {
			n = min(n, *f.MaxItems)
		}
		n = min(n, len(f.Options))
		out := make([]string, 0, n)
		for _, o := range f.Options[:n] {
			out = append(out, o.Value)
		}
		return out, nil
	case schema.Boolean:
		return false, nil
	case schema.Number, schema.Integer:
		return number(f)
	case schema.String:
		return text(f)
	}
	return nil, fmt.Errorf("has kind %s, which a form does not hold", f.Kind)
}

// examples are valid values of each format, longest (most telling) first.
var examples = map[string][]string{
	"email":     {"ada.lovelace@example.com", "ada@example.com", "a@b.co"},
	"uri":       {"https://example.com/page", "https://example.com", "a:b"},
	"date":      {"2026-01-02"},
	"date-time": {"2026-01-02T03:04:05Z"},
	"":          {"example"},
}

func text(f *schema.Field) (any, error) {
	lo, hi := 0, math.MaxInt
	if f.MinLength != nil {
		lo = *f.MinLength
	}
	if f.MaxLength != nil {
		hi = *f.MaxLength
	}
	for _, ex := range examples[f.Format] {
		n := utf8.RuneCountInString(ex)
		switch {
		case n >= lo && n <= hi:
			return ex, nil
		case f.Format == "" && n < lo:
			return ex + strings.Repeat("x", lo-n), nil
		case f.Format == "" && n > hi:
			return ex[:hi], nil // ASCII: bytes are characters
		}
	}
	return nil, fmt.Errorf("no %s example is between %d and %d characters long", f.Format, lo, hi)
}

// bounds are what a number's schema allows, read from the schema as
// written (schema.Field has no exclusive bounds or multipleOf).
type bounds struct {
	lo, hi         float64 // ±Inf when open
	loExcl, hiExcl bool
	multipleOf     float64 // 0 when none
}

func boundsOf(f *schema.Field) bounds {
	b := bounds{lo: math.Inf(-1), hi: math.Inf(1)}
	if f.Minimum != nil {
		b.lo = *f.Minimum
	}
	if f.Maximum != nil {
		b.hi = *f.Maximum
	}
	var raw struct {
		ExclusiveMinimum *float64 `json:"exclusiveMinimum"`
		ExclusiveMaximum *float64 `json:"exclusiveMaximum"`
		MultipleOf       *float64 `json:"multipleOf"`
	}
	_ = json.Unmarshal(f.Schema, &raw)
	if x := raw.ExclusiveMinimum; x != nil && *x >= b.lo {
		b.lo, b.loExcl = *x, true
	}
	if x := raw.ExclusiveMaximum; x != nil && *x <= b.hi {
		b.hi, b.hiExcl = *x, true
	}
	if m := raw.MultipleOf; m != nil && *m > 0 {
		b.multipleOf = *m
	}
	return b
}

func (b bounds) fits(v float64, integer bool) bool {
	if math.IsNaN(v) || math.IsInf(v, 0) || integer && v != math.Trunc(v) {
		return false
	}
	if v < b.lo || v == b.lo && b.loExcl || v > b.hi || v == b.hi && b.hiExcl {
		return false
	}
	if b.multipleOf > 0 {
		// As validators check it (jsonschema-go, and most): the quotient
		// in floating point is whole. 11.1 / 0.1 is not; 12.8 / 0.1 is.
		if _, frac := math.Modf(v / b.multipleOf); frac != 0 {
			return false
		}
	}
	return true
}

func number(f *schema.Field) (any, error) {
	b := boundsOf(f)
	integer := f.Kind == schema.Integer
	step := b.multipleOf
	if integer {
		step = wholeMultiple(step)
		if step == 0 {
			return nil, fmt.Errorf("no whole number is a multiple of %v", b.multipleOf)
		}
	}
	// Zero when it fits; else the values nearest the lower bound, then the
	// upper one, then the middle.
	cands := []float64{0}
	if step > 0 {
		// The multiples nearest each bound, then, since a multiple in
		// decimals is not always one in floating point, multiples by
		// powers of two, which always are.
		if !math.IsInf(b.lo, 0) {
			k := math.Ceil(b.lo / step)
			for i := 0.0; i < 64; i++ {
				cands = append(cands, tidy((k+i)*step))
			}
		}
		if !math.IsInf(b.hi, 0) {
			k := math.Floor(b.hi / step)
			for i := 0.0; i < 64; i++ {
				cands = append(cands, tidy((k-i)*step))
			}
		}
		for p := 1.0; p < 1<<53; p *= 2 {
			cands = append(cands, p*step, -p*step)
		}
	} else {
		if !math.IsInf(b.lo, 0) {
			cands = append(cands, b.lo, b.lo+1)
		}
		if !math.IsInf(b.hi, 0) {
			cands = append(cands, b.hi, b.hi-1)
		}
		if !math.IsInf(b.lo, 0) && !math.IsInf(b.hi, 0) {
			cands = append(cands, (b.lo+b.hi)/2)
		}
	}
	for _, v := range cands {
		if b.fits(v, integer) {
			if integer {
				if math.Abs(v) > 1<<53 {
					continue
				}
				return int64(v), nil
			}
			return v, nil
		}
	}
	return nil, fmt.Errorf("no number fits its bounds")
}

// wholeMultiple is the least whole multiple of m (1 when m is 0), or 0
// when none is found among the first thousand.
func wholeMultiple(m float64) float64 {
	if m == 0 {
		return 1
	}
	for k := 1.0; k <= 1000; k++ {
		if v := tidy(k * m); v == math.Trunc(v) {
			return v
		}
	}
	return 0
}

// tidy rounds away the binary noise of a product: 3 × 0.1 is 0.3, not
// 0.30000000000000004, as the schema's author meant.
func tidy(v float64) float64 {
	t, err := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 12, 64), 64)
	if err != nil {
		return v
	}
	return t
}
