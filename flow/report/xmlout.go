package report

import (
	"strings"
	"unicode/utf8"
)

// xmlOut writes the few XML elements JUnit needs, byte for byte as
// encoding/xml's Encoder with Indent("", "  ") writes them (the tests
// compare the two): a child element on a line of its own, indented two
// spaces a level; text and an element's end tag on the line it starts.
// It is not encoding/xml itself, whose package set-up (maps and names of
// the XML and HTML entities) every run of mcpcli paid at its start for a
// report only 'mcpcli test --junit' writes.
type xmlOut struct {
	b     strings.Builder
	depth int
	inner bool // an element was just started: its end goes on its line
	lines bool // something was written: the next start takes a new line
}

// header is encoding/xml's Header.
const xmlHeader = `<?xml version="1.0" encoding="UTF-8"?>` + "\n"

// start opens element name with attrs, given as name and value pairs.
func (x *xmlOut) start(name string, attrs ...string) {
	x.indent(1)
	x.b.WriteByte('<')
	x.b.WriteString(name)
	for i := 0; i+1 < len(attrs); i += 2 {
		x.b.WriteByte(' ')
		x.b.WriteString(attrs[i])
		x.b.WriteString(`="`)
		xmlEscape(&x.b, attrs[i+1])
		x.b.WriteByte('"')
	}
	x.b.WriteByte('>')
}

// text writes s, escaped, inside the element last started.
func (x *xmlOut) text(s string) { xmlEscape(&x.b, s) }

// end closes element name.
func (x *xmlOut) end(name string) {
	x.indent(-1)
	x.b.WriteString("</")
	x.b.WriteString(name)
	x.b.WriteByte('>')
}

// element is start, text and end.
func (x *xmlOut) element(name, text string, attrs ...string) {
	x.start(name, attrs...)
	x.text(text)
	x.end(name)
}

// indent is encoding/xml's printer.writeIndent.
func (x *xmlOut) indent(delta int) {
	if delta < 0 {
		x.depth--
		if x.inner {
			x.inner = false
			return
		}
	}
	if x.lines {
		x.b.WriteByte('\n')
	} else {
		x.lines = true
	}
	for range x.depth {
		x.b.WriteString("  ")
	}
	if delta > 0 {
		x.depth++
		x.inner = true
	}
}

// xmlEscape writes s as encoding/xml escapes text and attribute values:
// the five markup characters, tab, newline and carriage return as
// references, and what XML cannot hold (control characters, invalid
// UTF-8) as U+FFFD.
func xmlEscape(b *strings.Builder, s string) {
	last := 0
	for i := 0; i < len(s); {
		r, width := utf8.DecodeRuneInString(s[i:])
		i += width
		var esc string
		switch r {
		case '"':
			esc = "&#34;"
		case '\'':
			esc = "&#39;"
		case '&':
			esc = "&amp;"
		case '<':
			esc = "&lt;"
		case '>':
			esc = "&gt;"
		case '\t':
			esc = "&#x9;"
		case '\n':
			esc = "&#xA;"
		case '\r':
			esc = "&#xD;"
		default:
			if !xmlChar(r) || (r == utf8.RuneError && width == 1) {
				esc = "\uFFFD"
				break
			}
			continue
		}
		b.WriteString(s[last : i-width])
		b.WriteString(esc)
		last = i
	}
	b.WriteString(s[last:])
}

// xmlChar reports whether XML 1.0 can hold r (its Char production).
func xmlChar(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D ||
		r >= 0x20 && r <= 0xD7FF ||
		r >= 0xE000 && r <= 0xFFFD ||
		r >= 0x10000 && r <= 0x10FFFF
}
