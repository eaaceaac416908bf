package request

import (
	"context"
	"errors"
	"strings"

	"github.com/mcpcli/mcpcli/schema"
)

// Pair is one KEY=VALUE word.
type Pair struct{ Key, Value string }

// ParsePairs reads KEY=VALUE words: a word without "=" or with an empty
// key is a *WordError, a key given twice a *TwiceError (one value would
// be lost). what names the words in those errors: "argument", "variable",
// "--var".
func ParsePairs(words []string, what string) ([]Pair, error) {
	out := make([]Pair, 0, len(words))
	seen := make(map[string]bool, len(words))
	for _, w := range words {
		k, v, ok := strings.Cut(w, "=")
		if !ok || k == "" {
			return nil, &WordError{What: what, Word: w}
		}
		if seen[k] {
			return nil, &TwiceError{What: what, Key: k}
		}
		seen[k] = true
		out = append(out, Pair{k, v})
	}
	return out, nil
}

// Values are pairs as a map (ParsePairs gave each key once).
func Values(pairs []Pair) map[string]string {
	out := make(map[string]string, len(pairs))
	for _, p := range pairs {
		out[p.Key] = p.Value
	}
	return out
}

// ReadArgs reads --args: a JSON object (ParseObject), or @FILE, the
// object in FILE; "" is no arguments. A FILE that cannot be read is an
// *ArgsFileError, unless ctx ended while it was read.
func ReadArgs(ctx context.Context, raw string) (map[string]any, error) {
	if raw == "" {
		return map[string]any{}, nil
	}
	data := []byte(raw)
	if name, ok := strings.CutPrefix(raw, "@"); ok {
		b, err := ReadInput(ctx, name, OpenFile(name))
		if err != nil {
			if ctx.Err() != nil {
				return nil, err
			}
			return nil, &ArgsFileError{Err: err}
		}
		data = b
	}
	return ParseObject(data)
}

// ArgsFileError is --args @FILE's file that cannot be read.
type ArgsFileError struct{ Err error }

func (e *ArgsFileError) Error() string { return e.Err.Error() }
func (e *ArgsFileError) Unwrap() error { return e.Err }

// ParseObject reads arguments given whole as one JSON object (--args,
// "call TOOL {...}"), as strictly as schema.DecodeJSON reads JSON; what is
// not an object is an *ObjectError.
func ParseObject(data []byte) (map[string]any, error) {
	v, err := schema.DecodeJSON(data)
	m, ok := v.(map[string]any)
	if err != nil || !ok {
		if err == nil {
			err = errors.New("it is not an object")
		}
		return nil, &ObjectError{Err: err}
	}
	return m, nil
}
