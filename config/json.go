package config

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// The config files are read by a small JSON parser of our own rather than
// encoding/json because a config error must say where it is (line and
// column for every value, not only for syntax errors), duplicate keys must
// be found rather than silently resolved, the one file mcpcli rewrites must
// keep its members in order with their unknown fields, and VS Code's file
// may hold comments and trailing commas.

// maxDepth bounds nesting, as encoding/json does, so a hostile file cannot
// exhaust the stack.
const maxDepth = 10000

type kind uint8

const (
	kNull kind = iota
	kBool
	kNumber
	kString
	kArray
	kObject
)

func (k kind) String() string {
	return [...]string{"null", "a boolean", "a number", "a string", "an array", "an object"}[k]
}

// value is one parsed JSON value and where it starts in the file.
type value struct {
	kind    kind
	str     string // a string's value, or a number's literal text
	boolean bool
	elems   []*value
	members []member
	off     int // byte offset in the parsed data (after any BOM)
}

// member is one key of an object, in file order; keys may repeat.
type member struct {
	key    string
	keyOff int
	val    *value
}

// get returns the last member named key (nil when absent) and how many
// members carry that key.
func (v *value) get(key string) (*value, int) {
	var found *value
	n := 0
	for _, m := range v.members {
		if m.key == key {
			found, n = m.val, n+1
		}
	}
	return found, n
}

// doc is a parsed file.
type doc struct {
	src  []byte // without the BOM
	root *value // nil for a file holding only whitespace (and comments)
}

// pos turns a byte offset into a 1-based line and column (in characters).
func (d *doc) pos(off int) (line, col int) {
	if off > len(d.src) {
		off = len(d.src)
	}
	line, start := 1, 0
	for i := 0; i < off; i++ {
		if d.src[i] == '\n' {
			line, start = line+1, i+1
		}
	}
	return line, utf8.RuneCount(d.src[start:off]) + 1
}

// syntaxError is a place in the file and what is wrong there.
type syntaxError struct {
	off int
	msg string
}

func (e *syntaxError) Error() string { return e.msg }

// parseJSON parses data as one JSON value. With jsonc it also accepts
// comments (// and /* */) and a trailing comma before ] or }, as VS Code
// does. A leading UTF-8 BOM is skipped; invalid UTF-8 is an error.
func parseJSON(data []byte, jsonc bool) (*doc, *syntaxError) {
	src := trimBOM(data)
	d := &doc{src: src}
	if !utf8.Valid(src) {
		i := 0
		for i < len(src) {
			r, size := utf8.DecodeRune(src[i:])
			if r == utf8.RuneError && size == 1 {
				break
			}
			i += size
		}
		return d, &syntaxError{i, fmt.Sprintf("invalid UTF-8 (byte 0x%02x); save the file as UTF-8", src[i])}
	}
	p := &parser{src: src, jsonc: jsonc}
	if err := p.space(); err != nil {
		return d, err
	}
	if p.i == len(src) {
		return d, nil
	}
	root, err := p.value(0)
	if err != nil {
		return d, err
	}
	if err := p.space(); err != nil {
		return d, err
	}
	if p.i < len(src) {
		return d, p.errorf("invalid JSON: %s after the end of the top-level value", p.describe())
	}
	d.root = root
	return d, nil
}

type parser struct {
	src   []byte
	i     int
	jsonc bool
}

func (p *parser) errorf(format string, args ...any) *syntaxError {
	return &syntaxError{p.i, fmt.Sprintf(format, args...)}
}

// describe names what is at the current offset, for an error message.
func (p *parser) describe() string {
	if p.i >= len(p.src) {
		return "the end of the file"
	}
	r, _ := utf8.DecodeRune(p.src[p.i:])
	return strconv.QuoteRune(r)
}

// space skips whitespace, and comments when they are allowed.
func (p *parser) space() *syntaxError {
	for p.i < len(p.src) {
		switch c := p.src[p.i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			p.i++
		case c == '/' && p.jsonc && p.i+1 < len(p.src) && p.src[p.i+1] == '/':
			for p.i < len(p.src) && p.src[p.i] != '\n' {
				p.i++
			}
		case c == '/' && p.jsonc && p.i+1 < len(p.src) && p.src[p.i+1] == '*':
			end := strings.Index(string(p.src[p.i+2:]), "*/")
			if end < 0 {
				return p.errorf("invalid JSON: a /* comment is never closed with */")
			}
			p.i += 2 + end + 2
		default:
			return nil
		}
	}
	return nil
}

func (p *parser) value(depth int) (*value, *syntaxError) {
	if depth >= maxDepth {
		return nil, p.errorf("invalid JSON: nested more than %d levels deep", maxDepth)
	}
	if p.i >= len(p.src) {
		return nil, p.errorf("invalid JSON: the file ends where a value should be")
	}
	v := &value{off: p.i}
	switch c := p.src[p.i]; {
	case c == '{':
		return v, p.object(v, depth)
	case c == '[':
		return v, p.array(v, depth)
	case c == '"':
		s, err := p.string()
		v.kind, v.str = kString, s
		return v, err
	case c == '-' || (c >= '0' && c <= '9'):
		s, err := p.number()
		v.kind, v.str = kNumber, s
		return v, err
	case p.literal("true"):
		v.kind, v.boolean = kBool, true
	case p.literal("false"):
		v.kind = kBool
	case p.literal("null"):
		v.kind = kNull
	default:
		return nil, p.errorf("invalid JSON: %s where a value should be", p.describe())
	}
	return v, nil
}

func (p *parser) literal(word string) bool {
	if strings.HasPrefix(string(p.src[p.i:min(len(p.src), p.i+len(word))]), word) {
		p.i += len(word)
		return true
	}
	return false
}

func (p *parser) object(v *value, depth int) *syntaxError {
	v.kind = kObject
	v.members = []member{}
	p.i++ // {
	for first := true; ; first = false {
		if err := p.space(); err != nil {
			return err
		}
		if p.i < len(p.src) && p.src[p.i] == '}' && (first || p.jsonc) {
			p.i++
			return nil
		}
		if p.i >= len(p.src) || p.src[p.i] != '"' {
			if first {
				return p.errorf("invalid JSON: %s where a key in double quotes or } should be", p.describe())
			}
			return p.errorf("invalid JSON: %s where a key in double quotes should be (is there a comma too many?)", p.describe())
		}
		keyOff := p.i
		key, err := p.string()
		if err != nil {
			return err
		}
		if err := p.space(); err != nil {
			return err
		}
		if p.i >= len(p.src) || p.src[p.i] != ':' {
			return p.errorf("invalid JSON: %s where : should be, after the key %q", p.describe(), key)
		}
		p.i++
		if err := p.space(); err != nil {
			return err
		}
		val, err := p.value(depth + 1)
		if err != nil {
			return err
		}
		v.members = append(v.members, member{key: key, keyOff: keyOff, val: val})
		if err := p.space(); err != nil {
			return err
		}
		switch {
		case p.i < len(p.src) && p.src[p.i] == ',':
			p.i++
		case p.i < len(p.src) && p.src[p.i] == '}':
			p.i++
			return nil
		default:
			return p.errorf("invalid JSON: %s where , or } should be, after the value of %q", p.describe(), key)
		}
	}
}

func (p *parser) array(v *value, depth int) *syntaxError {
	v.kind = kArray
	v.elems = []*value{}
	p.i++ // [
	for first := true; ; first = false {
		if err := p.space(); err != nil {
			return err
		}
		if p.i < len(p.src) && p.src[p.i] == ']' && (first || p.jsonc) {
			p.i++
			return nil
		}
		elem, err := p.value(depth + 1)
		if err != nil {
			return err
		}
		v.elems = append(v.elems, elem)
		if err := p.space(); err != nil {
			return err
		}
		switch {
		case p.i < len(p.src) && p.src[p.i] == ',':
			p.i++
		case p.i < len(p.src) && p.src[p.i] == ']':
			p.i++
			return nil
		default:
			return p.errorf("invalid JSON: %s where , or ] should be, in an array", p.describe())
		}
	}
}

// string reads a quoted string at p.i. A lone UTF-16 surrogate in a \u
// escape becomes U+FFFD, as in encoding/json.
func (p *parser) string() (string, *syntaxError) {
	start := p.i
	p.i++ // "
	// Most strings have no escapes: take them whole.
	for j := p.i; j < len(p.src); j++ {
		if c := p.src[j]; c == '"' {
			p.i = j + 1
			return string(p.src[start+1 : j]), nil
		} else if c == '\\' || c < 0x20 {
			break
		}
	}
	var b strings.Builder
	run := p.i // the start of the bytes not yet copied into b
	for {
		if p.i >= len(p.src) {
			p.i = start
			return "", p.errorf("invalid JSON: a string is never closed with \"")
		}
		c := p.src[p.i]
		switch {
		case c == '"':
			b.Write(p.src[run:p.i])
			p.i++
			return b.String(), nil
		case c < 0x20:
			return "", p.errorf("invalid JSON: control character %s inside a string; write it as an escape like \\n or \\u%04x", strconv.QuoteRune(rune(c)), c)
		case c == '\\':
			b.Write(p.src[run:p.i])
			if p.i+1 >= len(p.src) {
				p.i++
				return "", p.errorf("invalid JSON: a string is never closed with \"")
			}
			switch esc := p.src[p.i+1]; esc {
			case '"', '\\', '/':
				b.WriteByte(esc)
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'u':
				r, ok := p.hex4(p.i + 2)
				if !ok {
					return "", p.errorf("invalid JSON: \\u must be followed by four hex digits")
				}
				p.i += 6
				if utf16.IsSurrogate(r) {
					dec := utf8.RuneError
					if r2, ok := p.hex4(p.i + 2); ok && p.src[p.i] == '\\' && p.src[p.i+1] == 'u' {
						if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
							dec = d
							p.i += 6
						}
					}
					r = dec
				}
				b.WriteRune(r)
				run = p.i
				continue
			default:
				p.i++
				r, _ := utf8.DecodeRune(p.src[p.i:])
				return "", p.errorf("invalid JSON: \\%s is not an escape JSON knows (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)", strings.Trim(strconv.QuoteRune(r), "'"))
			}
			p.i += 2
			run = p.i
		default:
			p.i++ // bytes of valid UTF-8: copied with the run
		}
	}
}

func (p *parser) hex4(at int) (rune, bool) {
	if at+4 > len(p.src) {
		return 0, false
	}
	var r rune
	for _, c := range p.src[at : at+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// number reads a number at p.i and returns its literal text.
func (p *parser) number() (string, *syntaxError) {
	start := p.i
	digits := func() int {
		n := 0
		for p.i < len(p.src) && p.src[p.i] >= '0' && p.src[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	bad := func() *syntaxError {
		return &syntaxError{start, fmt.Sprintf("invalid JSON: %q is not a number", p.src[start:min(len(p.src), p.i+1)])}
	}
	if p.src[p.i] == '-' {
		p.i++
	}
	if p.i < len(p.src) && p.src[p.i] == '0' {
		p.i++
	} else if digits() == 0 {
		return "", bad()
	}
	if p.i < len(p.src) && p.src[p.i] == '.' {
		p.i++
		if digits() == 0 {
			return "", bad()
		}
	}
	if p.i < len(p.src) && (p.src[p.i] == 'e' || p.src[p.i] == 'E') {
		p.i++
		if p.i < len(p.src) && (p.src[p.i] == '+' || p.src[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			return "", bad()
		}
	}
	return string(p.src[start:p.i]), nil
}
