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
		if c := b[i]; c < 0x7f {
			// ASCII below DEL is never escaped here: the fast path.
			if out != nil {
				out = append(out, c)
			}
			i++
			continue
		}
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
// hyphens, tag characters...) and the rest of Unicode's default-ignorable
// code points (the combining grapheme joiner, variation selectors, Khmer
// and Mongolian inherent and free variation marks, the Hangul fillers,
// which draw as blanks, and the unassigned ones).
func Invisible(r rune) bool {
	switch {
	case r < 0xAD:
		return false
	case r == 0x034F, // combining grapheme joiner
		r == 0x115F, r == 0x1160, r == 0x3164, r == 0xFFA0, // Hangul fillers
		r >= 0x17B4 && r <= 0x17B5, // Khmer inherent vowels
		r >= 0x180B && r <= 0x180F, // Mongolian variation selectors
		r >= 0xFE00 && r <= 0xFE0F, // variation selectors
		r >= 0xFFF0 && r <= 0xFFF8,
		r >= 0x1BCA0 && r <= 0x1BCA3,
		r >= 0xE0000 && r <= 0xE0FFF: // tags, variation selectors supplement
		return true
	}
	return unicode.Is(unicode.Cf, r)
}

// EmojiBase reports characters a variation selector (U+FE0F emoji
// presentation) or a zero-width joiner may follow as part of an emoji:
// symbols, the keycap bases (digits, # and *), skin-tone modifiers.
func EmojiBase(r rune) bool {
	return unicode.Is(unicode.So, r) || r >= '0' && r <= '9' || r == '#' || r == '*' ||
		r >= 0x1F3FB && r <= 0x1F3FF || r >= 0x1F1E6 && r <= 0x1F1FF
}
