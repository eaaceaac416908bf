// Package jsonesc makes encoded JSON safe to show on a terminal without
// changing what it means.
package jsonesc

import (
	"fmt"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Escape rewrites, in encoded JSON, the characters encoding/json leaves
// raw that a terminal may obey or hide: DEL, 8-bit C1 controls (U+009B is
// CSI), and format characters (bidi overrides, zero-width, tags). They can
// only be inside strings, where \uXXXX means the same.
func Escape(b []byte) []byte {
	var out []byte
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == 0x7f || (r >= 0x80 && r <= 0x9f) || (r >= 0xad && unicode.Is(unicode.Cf, r)) {
			if out == nil {
				out = append(make([]byte, 0, len(b)+32), b[:i]...)
			}
			if r > 0xffff {
				r1, r2 := utf16.EncodeRune(r)
				out = fmt.Appendf(out, `\u%04x\u%04x`, r1, r2)
			} else {
				out = fmt.Appendf(out, `\u%04x`, r)
			}
		} else if out != nil {
			out = append(out, b[i:i+size]...)
		}
		i += size
	}
	if out == nil {
		return b
	}
	return out
}
