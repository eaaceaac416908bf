package config

import (
	"bytes"
	"fmt"
	"strconv"
	"unicode"
	"unicode/utf16"
)

// encode writes v as JSON indented by two spaces, ending in a newline.
// Strings escape, besides what JSON requires, DEL, C1 controls, U+2028,
// U+2029 and invisible format characters, so the file stays inert on a
// terminal.
func encode(v *value) []byte {
	var b bytes.Buffer
	writeValue(&b, v, 0)
	b.WriteByte('\n')
	return b.Bytes()
}

func writeValue(b *bytes.Buffer, v *value, depth int) {
	newline := func(d int) {
		b.WriteByte('\n')
		for range d {
			b.WriteString("  ")
		}
	}
	switch v.kind {
	case kNull:
		b.WriteString("null")
	case kBool:
		b.WriteString(strconv.FormatBool(v.boolean))
	case kNumber:
		b.WriteString(v.str)
	case kString:
		writeString(b, v.str)
	case kArray:
		if len(v.elems) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteByte('[')
		for i, e := range v.elems {
			if i > 0 {
				b.WriteByte(',')
			}
			newline(depth + 1)
			writeValue(b, e, depth+1)
		}
		newline(depth)
		b.WriteByte(']')
	case kObject:
		if len(v.members) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteByte('{')
		for i, m := range v.members {
			if i > 0 {
				b.WriteByte(',')
			}
			newline(depth + 1)
			writeString(b, m.key)
			b.WriteString(": ")
			writeValue(b, m.val, depth+1)
		}
		newline(depth)
		b.WriteByte('}')
	}
}

func writeString(b *bytes.Buffer, s string) {
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || r == 0x2028 || r == 0x2029 || unicode.Is(unicode.Cf, r):
			if r > 0xffff {
				r1, r2 := utf16.EncodeRune(r)
				fmt.Fprintf(b, `\u%04x\u%04x`, r1, r2)
			} else {
				fmt.Fprintf(b, `\u%04x`, r)
			}
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
}
