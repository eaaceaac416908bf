// Package textsafe says which characters a terminal must not be handed raw
// from a server, for the sanitizer, URL analysis and JSON output alike.
package textsafe

import (
	"fmt"
	"strings"
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

// Unsafe reports a character a terminal would obey or hide when shown
// raw in a name: a C0 or C1 control (a newline and a tab too: a name is
// one line), DEL, a line or paragraph separator, an invisible or bidi
// character (Invisible).
func Unsafe(r rune) bool {
	return r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f || r == 0x2028 || r == 0x2029 || Invisible(r)
}

// Marked is s with every Unsafe character shown as a marker, <U+001B>,
// and invalid UTF-8 as U+FFFD: two names never look alike, and a name as
// shown can be matched back to the real one.
func Marked(s string) string {
	plain := true
	for i := 0; i < len(s) && plain; i++ {
		plain = s[i] >= 0x20 && s[i] < 0x7f
	}
	if plain {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			b.WriteRune('\uFFFD')
			i += max(size, 1)
			continue
		case Unsafe(r):
			fmt.Fprintf(&b, "<U+%04X>", r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// Sanitize makes a server string inert for a terminal (render.Sanitize
// says what it does), keeping newlines or making them spaces.
func Sanitize(s string, keepNewlines bool) string {
	if isPlain(s, keepNewlines) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	// last is the last character written: whether an invisible one is
	// part of an emoji depends on what is shown before it, not on what
	// the server sent (an escape sequence ending in a digit is gone).
	last := rune(-1)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			b.WriteRune('\uFFFD')
			last = '\uFFFD'
			i += max(size, 1)
			continue
		case r == 0x1b: // ESC
			i += skipEscape(s[i+1:]) + 1
			continue
		case r == 0x9b: // 8-bit CSI
			i += size + skipCSI(s[i+size:])
			continue
		case r == 0x90 || r == 0x9d || r == 0x98 || r == 0x9e || r == 0x9f: // 8-bit DCS, OSC, SOS, PM, APC
			i += size + skipString(s[i+size:])
			continue
		case r == '\n' || r == '\u2028' || r == '\u2029':
			last = ' '
			if keepNewlines {
				last = '\n'
			}
			b.WriteRune(last)
		case r == '\t':
			b.WriteString("    ")
			last = ' '
		case r == '\r':
			// dropped: a bare CR rewrites the line it is on
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f):
			// other controls: dropped
		case Invisible(r):
			if partOfEmoji(last, r, s[i+size:]) {
				if r == 0xFE0F || r == 0xFE0E {
					b.WriteString(s[i : i+size]) // presentation: the emoji renders
					last = r
				}
				// a joiner or a flag's tags: the emoji shows as its parts
			} else {
				fmt.Fprintf(&b, "<U+%04X>", r)
				last = '>'
			}
		default:
			b.WriteString(s[i : i+size])
			last = r
		}
		i += size
	}
	return b.String()
}

// partOfEmoji reports whether the invisible r belongs to an emoji, given
// the last character shown before it and the text after it: a variation
// selector after an emoji base, a joiner between two emoji, a tag in a
// subdivision flag (U+1F3F4 then tags, which are not shown, so the flag
// stays the last character shown).
func partOfEmoji(last, r rune, after string) bool {
	next, _ := utf8.DecodeRuneInString(after)
	switch {
	case r == 0xFE0F || r == 0xFE0E:
		return EmojiBase(last)
	case r == 0x200D:
		return (EmojiBase(last) || last == 0xFE0F) && EmojiBase(next)
	case r >= 0xE0020 && r <= 0xE007F:
		return last == 0x1F3F4
	}
	return false
}

// isPlain is the fast path: printable ASCII (and newlines, where kept) only.
func isPlain(s string, keepNewlines bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 || c == 0x7f || (c < 0x20 && !(c == '\n' && keepNewlines)) {
			return false
		}
	}
	return true
}

// skipEscape returns how many bytes after an ESC belong to its sequence.
func skipEscape(s string) int {
	if s == "" {
		return 0
	}
	switch s[0] {
	case '[':
		return 1 + skipCSI(s[1:])
	case ']', 'P', 'X', '^', '_':
		return 1 + skipString(s[1:])
	}
	// Two-byte sequences (ESC c, ESC 7...), and ESC + intermediates + final.
	i := 0
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
		i++
	}
	if i < len(s) && s[i] >= 0x30 && s[i] <= 0x7e {
		i++
	}
	return i
}

// skipCSI skips parameter and intermediate bytes and the final byte.
func skipCSI(s string) int {
	i := 0
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x3f {
		i++
	}
	if i < len(s) && s[i] >= 0x40 && s[i] <= 0x7e {
		i++
	}
	return i
}

// skipString skips a control string up to and including its terminator:
// BEL, ESC \, or 8-bit ST. An unterminated string runs to the end.
func skipString(s string) int {
	for i := 0; i < len(s); {
		if s[i] == 0x07 {
			return i + 1
		}
		if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\' {
			return i + 2
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == 0x9c {
			return i + size
		}
		i += max(size, 1)
	}
	return len(s)
}
