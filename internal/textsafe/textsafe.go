// Package textsafe says which characters a terminal must not be handed raw
// from a server, for the sanitizer, URL analysis and JSON output alike.
package textsafe

import (
	"fmt"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// EscapeJSON rewrites, in encoded JSON, the characters encoding/json leaves
// raw that a terminal may obey or hide: DEL, 8-bit C1 controls (U+009B is
// CSI), and format characters (bidi overrides, zero-width, tags). They can
// only be inside strings, where \uXXXX means the same.
func EscapeJSON(b []byte) []byte {
	var out []byte
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == 0x7f || (r >= 0x80 && r <= 0x9f) || Invisible(r) {
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

// Invisible reports characters that reorder or hide text: every Unicode
// format character (Cf: bidi controls, zero-width spaces and joiners, soft
// hyphens, tag characters...) and the Hangul fillers, which draw as blanks.
func Invisible(r rune) bool {
	switch r {
	case 0x115F, 0x1160, 0x3164, 0xFFA0: // Hangul fillers
		return true
	}
	return r >= 0xAD && unicode.Is(unicode.Cf, r)
}
