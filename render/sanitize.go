// Package render is everything a person sees: line prompts, forms, results,
// and the one sanitizer every server string passes through first.
package render

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/mcpcli/mcpcli/internal/textsafe"
)

// Sanitize makes a server string inert for a terminal. It removes escape
// sequences (CSI, OSC, DCS, SOS, PM, APC, in their 7-bit and 8-bit forms),
// C0 and C1 controls and DEL, and replaces invalid UTF-8. Characters that
// show as nothing (bidi overrides and isolates, zero-width spaces and
// joiners, variation selectors, tags: Unicode's format and
// default-ignorable characters) are shown as <U+XXXX>, so that
// "delete\u034f_project" never reads like "delete_project"; where they
// are part of an emoji (the emoji presentation selector after a symbol, a
// joiner between emoji, a subdivision flag's tags) the emoji renders.
// Newlines are kept; tabs become spaces.
func Sanitize(s string) string { return sanitize(s, true) }

// Line is Sanitize for one-line places (titles, labels, names): newlines
// become spaces too.
func Line(s string) string { return sanitize(s, false) }

// Name is Line for a name a person may type back (a tool's, a prompt's):
// every control character, escapes' ESC included, and every invisible one
// is shown as a marker, <U+001B>, instead of being dropped, so that two
// names never look alike, and the name as shown can be matched back to
// the real one (Shown).
func Name(s string) string { return sanitizeMarked(s) }

// Shown returns the names whose shown form (Name) is shown, when it is not
// a name itself: what a person who typed a name as mcpcli showed it meant.
func Shown(shown string, names []string) []string {
	var out []string
	for _, n := range names {
		if n == shown {
			return nil
		}
		if n != shown && Name(n) == shown {
			out = append(out, n)
		}
	}
	return out
}

// sanitizeMarked is sanitize that marks controls instead of dropping them.
func sanitizeMarked(s string) string {
	if isPlain(s, false) {
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
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || r == '\u2028' || r == '\u2029' || textsafe.Invisible(r):
			fmt.Fprintf(&b, "<U+%04X>", r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func sanitize(s string, keepNewlines bool) string {
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
		case textsafe.Invisible(r):
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
		return textsafe.EmojiBase(last)
	case r == 0x200D:
		return (textsafe.EmojiBase(last) || last == 0xFE0F) && textsafe.EmojiBase(next)
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
