// Package jsonpeek reads the top-level members of a JSON object without
// decoding them: each value comes back as a subslice of the input, in the
// order it was written. mcpcli uses it to look at the few fields of a
// message it needs (an id, a method, a result's resultType) once, and to
// keep a server's own bytes (a schema's field order, a result as sent)
// without copying them.
//
// It checks structure (balanced brackets, closed strings, colons and
// commas), not every detail of the grammar: a value it hands back is only
// as valid as the input. Values that matter are decoded with encoding/json.
package jsonpeek

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"

	segjson "github.com/segmentio/encoding/json"
)

// MaxDepth bounds nesting, like encoding/json's own limit.
const MaxDepth = 10000

// ErrNotObject is returned for input that is not a JSON object.
var ErrNotObject = errors.New("not a JSON object")

// Object calls fn for each member of the object in b, in order, with its
// key and its raw value (a subslice of b). fn returns false to stop early.
func Object(b []byte, fn func(key string, value []byte) bool) error {
	return object(b, MaxDepth, MaxDepth, fn)
}

// ObjectWithin is Object for an object that nests at most limit levels of
// arrays and objects (itself the first, as Deeper counts them): each value
// is checked as it is skipped, so that one pass reads the members and the
// depth. Past limit, it fails with *DepthError (after fn has seen the
// members before the one too deep).
func ObjectWithin(b []byte, limit int, fn func(key string, value []byte) bool) error {
	return object(b, min(limit-1, MaxDepth), limit, fn)
}

// DepthError is JSON nested deeper than the limit it was read with.
type DepthError struct{ Limit int }

func (e *DepthError) Error() string { return fmt.Sprintf("JSON nested deeper than %d levels", e.Limit) }

// errTooDeep is a value nested deeper than skipValue was told: the caller
// says by how much, as a *DepthError.
var errTooDeep = errors.New("too deep")

// object is Object with the most levels a member value may nest (limit,
// in the caller's words).
func object(b []byte, most, limit int, fn func(key string, value []byte) bool) error {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return ErrNotObject
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return trailing(b, i+1)
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return syntaxErr(b, i, "want a string key")
		}
		end, err := skipString(b, i)
		if err != nil {
			return err
		}
		key, err := unquote(b[i:end])
		if err != nil {
			return err
		}
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return syntaxErr(b, i, "want ':'")
		}
		i = skipSpace(b, i+1)
		vend, err := skipValue(b, i, 1, most)
		if errors.Is(err, errTooDeep) {
			return &DepthError{Limit: limit}
		}
		if err != nil {
			return err
		}
		if !fn(key, b[i:vend]) {
			return nil
		}
		i = skipSpace(b, vend)
		if i >= len(b) {
			return syntaxErr(b, i, "unterminated object")
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
		case '}':
			return trailing(b, i+1)
		default:
			return syntaxErr(b, i, "want ',' or '}'")
		}
	}
}

// Members returns the keys and raw values of the object in b, in order.
func Members(b []byte) (keys []string, values [][]byte, err error) {
	err = Object(b, func(k string, v []byte) bool {
		keys = append(keys, k)
		values = append(values, v)
		return true
	})
	return keys, values, err
}

// EachOnce calls fn for each member of the object in b, in order, and
// reports whether every member was read: b is an object, no key is given
// twice, and fn returned true for each (it stops at the first false). The
// hand decoders that read a value as encoding/json would use it: a key
// given twice is where they leave the value to encoding/json.
func EachOnce(b []byte, fn func(key string, value []byte) bool) bool {
	seen := map[string]bool{}
	ok := true
	err := Object(b, func(k string, v []byte) bool {
		if seen[k] {
			ok = false
			return false
		}
		seen[k] = true
		ok = fn(k, v)
		return ok
	})
	return err == nil && ok
}

// Get returns the raw value of key in the object b, or nil. A key given
// more than once is read as the go-sdk reads it: the last one counts.
func Get(b []byte, key string) []byte {
	var out []byte
	_ = Object(b, func(k string, v []byte) bool {
		if k == key {
			out = v
		}
		return true
	})
	return out
}

// Unmarshal decodes b into v as the go-sdk decodes what a server sends
// (its internal/json: segmentio's decoder, a key matching a field only
// when spelled exactly as the field's tag, the last of a repeated key
// counting, every one of them decoded). Where mcpcli decodes a server's
// message, or a part of one, into a struct, it decodes with this, so that
// it never reads "Method" or a first "code" where the go-sdk reads
// "method" or the last one.
func Unmarshal(b []byte, v any) error {
	if Deeper(b, maxSDKDepth) {
		return fmt.Errorf("JSON nested deeper than %d levels", maxSDKDepth)
	}
	// Parse, not the go-sdk's Decoder over a reader: the same decoding,
	// without first copying b into a buffer grown as it is read. What
	// follows the value is ignored, as the Decoder ignores it.
	_, err := segjson.Parse(b, v, segjson.DontMatchCaseInsensitiveStructFields)
	return err
}

// maxSDKDepth is the go-sdk's bound on nesting.
const maxSDKDepth = 1000

// Len returns the length of the JSON value at the start of b (after
// leading space), or an error when there is none.
func Len(b []byte) (int, error) {
	i := skipSpace(b, 0)
	n, err := skipValue(b, i, 1, MaxDepth)
	if errors.Is(err, errTooDeep) {
		err = &DepthError{Limit: MaxDepth}
	}
	return n, err
}

// IsNull reports whether a raw value is absent or null.
func IsNull(v []byte) bool {
	return len(v) == 0 || string(v) == "null"
}

func trailing(b []byte, i int) error {
	if j := skipSpace(b, i); j < len(b) {
		return syntaxErr(b, j, "data after the object")
	}
	return nil
}

func skipSpace(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// skipValue returns the index just past the value that starts at i, at
// depth; an array or object deeper than most is refused.
func skipValue(b []byte, i, depth, most int) (int, error) {
	if i >= len(b) {
		return i, syntaxErr(b, i, "want a value")
	}
	switch c := b[i]; {
	case c == '"':
		return skipString(b, i)
	case c == '{' || c == '[':
		if depth > most {
			return i, errTooDeep
		}
		closer := byte('}')
		if c == '[' {
			closer = ']'
		}
		i = skipSpace(b, i+1)
		if i < len(b) && b[i] == closer {
			return i + 1, nil
		}
		for {
			if c == '{' {
				if i >= len(b) || b[i] != '"' {
					return i, syntaxErr(b, i, "want a string key")
				}
				end, err := skipString(b, i)
				if err != nil {
					return i, err
				}
				i = skipSpace(b, end)
				if i >= len(b) || b[i] != ':' {
					return i, syntaxErr(b, i, "want ':'")
				}
				i = skipSpace(b, i+1)
			}
			end, err := skipValue(b, i, depth+1, most)
			if err != nil {
				return end, err
			}
			i = skipSpace(b, end)
			if i >= len(b) {
				return i, syntaxErr(b, i, "unterminated "+map[byte]string{'{': "object", '[': "array"}[c])
			}
			if b[i] == closer {
				return i + 1, nil
			}
			if b[i] != ',' {
				return i, syntaxErr(b, i, fmt.Sprintf("want ',' or '%c'", closer))
			}
			i = skipSpace(b, i+1)
		}
	case c == '-' || c >= '0' && c <= '9':
		j := i + 1
		for j < len(b) && (b[j] >= '0' && b[j] <= '9' || b[j] == '.' || b[j] == 'e' || b[j] == 'E' || b[j] == '+' || b[j] == '-') {
			j++
		}
		return j, nil
	case c == 't':
		return literal(b, i, "true")
	case c == 'f':
		return literal(b, i, "false")
	case c == 'n':
		return literal(b, i, "null")
	}
	return i, syntaxErr(b, i, "want a value")
}

func literal(b []byte, i int, lit string) (int, error) {
	if len(b)-i >= len(lit) && string(b[i:i+len(lit)]) == lit {
		return i + len(lit), nil
	}
	return i, syntaxErr(b, i, "want "+lit)
}

// skipString returns the index just past the string that starts at i.
func skipString(b []byte, i int) (int, error) {
	// A long string is skipped at memchr speed: find each quote, and count
	// the backslashes before it (an odd number escapes it).
	for j := i + 1; j < len(b); j++ {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			break
		}
		j += k
		n := 0
		for p := j - 1; p > i && b[p] == '\\'; p-- {
			n++
		}
		if n%2 == 0 {
			return j + 1, nil
		}
	}
	return len(b), syntaxErr(b, i, "unterminated string")
}

// unquote decodes a JSON string as encoding/json does: without escapes
// and in valid UTF-8, a plain conversion; otherwise bytes that are not
// UTF-8 become U+FFFD.
func unquote(q []byte) (string, error) {
	if plain(q) {
		return string(q[1 : len(q)-1]), nil
	}
	var s string
	if err := json.Unmarshal(q, &s); err != nil {
		return "", err
	}
	return s, nil
}

// String decodes a raw JSON string value; ok is false for anything else.
func String(v []byte) (s string, ok bool) {
	if len(v) < 2 || v[0] != '"' {
		return "", false
	}
	s, err := unquote(v)
	return s, err == nil
}

// SyntaxError is input that is not well-formed JSON.
type SyntaxError struct {
	Offset int
	Msg    string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("invalid JSON at offset %d: %s", e.Offset, e.Msg)
}

func syntaxErr(_ []byte, i int, msg string) error { return &SyntaxError{Offset: i, Msg: msg} }

// Array calls fn for each element of the array in b, in order, with its
// raw value (a subslice of b). fn returns false to stop early.
func Array(b []byte, fn func(value []byte) bool) error {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '[' {
		return errors.New("not a JSON array")
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return nil
	}
	for {
		end, err := skipValue(b, i, 1, MaxDepth)
		if errors.Is(err, errTooDeep) {
			return &DepthError{Limit: MaxDepth}
		}
		if err != nil {
			return err
		}
		if !fn(b[i:end]) {
			return nil
		}
		i = skipSpace(b, end)
		if i >= len(b) {
			return syntaxErr(b, i, "unterminated array")
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
		case ']':
			return nil
		default:
			return syntaxErr(b, i, "want ',' or ']'")
		}
	}
}

// Deeper reports whether the JSON text b nests arrays and objects more
// than limit levels deep. It looks at brackets outside strings only: it
// says nothing of whether b is valid.
func Deeper(b []byte, limit int) bool {
	depth := 0
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			end, err := skipString(b, i)
			if err != nil {
				return false
			}
			i = end - 1
		case '[', '{':
			depth++
			if depth > limit {
				return true
			}
		case ']', '}':
			depth--
		}
	}
	return false
}

// PlainStrings reads the member key of the object b as Unmarshal reads it
// into a []string field tagged key, in the case servers send: the key
// given once, its value null or an array of strings that need no
// decoding (no escapes, valid UTF-8), and b valid JSON that Unmarshal
// takes. ok is false for anything else, and then only Unmarshal can say
// what it reads. A missing key or null is (nil, true); [] is an empty,
// non-nil list, as Unmarshal makes it.
//
// It exists for a list mcpcli reads from every server (a discover
// result's supportedVersions): Unmarshal into a struct builds the
// struct's decoder by reflection, in every run, on the goroutine reading
// the server, and that is where the goroutine's stack grew, 29 frames
// deep.
func PlainStrings(b []byte, key string) (list []string, ok bool) {
	if Deeper(b, maxSDKDepth) || !segjson.Valid(b) {
		return nil, false
	}
	var raw []byte
	seen, plain := 0, true
	if Object(b, func(k string, v []byte) bool {
		if k == key {
			seen++
			raw = v
		}
		return seen < 2
	}) != nil || seen > 1 {
		return nil, false
	}
	if raw == nil || IsNull(raw) {
		return nil, true
	}
	list = []string{}
	if Array(raw, func(v []byte) bool {
		s, isPlain := plainString(v)
		plain = plain && isPlain
		list = append(list, s)
		return plain
	}) != nil || !plain {
		return nil, false
	}
	return list, true
}

// plainString is the JSON string v when it needs no decoding (plain).
func plainString(v []byte) (string, bool) {
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' || !plain(v) {
		return "", false
	}
	return string(v[1 : len(v)-1]), true
}

// plain reports whether the JSON string q, quotes included, as skipString
// found it, reads as its bytes: no escapes or control characters, and
// valid UTF-8.
func plain(q []byte) bool {
	ascii := true
	for _, c := range q[1 : len(q)-1] {
		if c == '\\' || c < 0x20 {
			return false
		}
		ascii = ascii && c < 0x80
	}
	return ascii || utf8.Valid(q[1:len(q)-1])
}
