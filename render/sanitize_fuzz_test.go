package render

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mcpcli/mcpcli/internal/textsafe"
)

// checkInertText says what in out a terminal could be made to obey or
// would hide: any C0 or C1 control (ESC among them) or DEL but the newline
// where newlines are kept, a line or paragraph separator, and an invisible
// character other than an emoji presentation selector right after the
// emoji it belongs to. It returns "" for inert text.
func checkInertText(out string, keepNewlines bool) string {
	if !utf8.ValidString(out) {
		return "invalid UTF-8"
	}
	prev := rune(-1)
	for i, r := range out {
		switch {
		case r == '\n' && keepNewlines:
		case r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f:
			return fmt.Sprintf("control %U at byte %d", r, i)
		case r == '\u2028' || r == '\u2029':
			return fmt.Sprintf("separator %U at byte %d", r, i)
		case textsafe.Invisible(r):
			if (r != 0xFE0F && r != 0xFE0E) || !textsafe.EmojiBase(prev) {
				return fmt.Sprintf("invisible %U at byte %d, after %U", r, i, prev)
			}
		}
		prev = r
	}
	return ""
}

// FuzzSanitize: whatever a server sends, Sanitize keeps no escape
// sequence, control (but the newline) or invisible character (but an
// emoji's presentation selector), and Line not the newline either; an
// invisible character is shown as <U+XXXX>; sanitizing is idempotent and
// Line is Sanitize with newlines as spaces; fit keeps to its box. The
// seeds are in testdata/fuzz/FuzzSanitize.
func FuzzSanitize(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string, r rune, w, h int) {
		out, line := Sanitize(s), Line(s)
		if why := checkInertText(out, true); why != "" {
			t.Fatalf("Sanitize(%q) = %q: %s", s, out, why)
		}
		if why := checkInertText(line, false); why != "" {
			t.Fatalf("Line(%q) = %q: %s", s, line, why)
		}
		if again := Sanitize(out); again != out {
			t.Fatalf("Sanitize is not idempotent: %q → %q → %q", s, out, again)
		}
		if again := Line(line); again != line {
			t.Fatalf("Line is not idempotent: %q → %q → %q", s, line, again)
		}
		if want := strings.ReplaceAll(out, "\n", " "); line != want {
			t.Fatalf("Line(%q) = %q; want Sanitize's %q with newlines as spaces", s, line, want)
		}
		if got := Line(out); got != line {
			t.Fatalf("Line(Sanitize(%q)) = %q; want Line's own %q", s, got, line)
		}
		if plainASCII(s) && out != s {
			t.Fatalf("Sanitize(%q) = %q; printable ASCII must stay as it is", s, out)
		}
		if Width(out) < 0 || Width(line) < 0 {
			t.Fatalf("Width(Sanitize(%q)) = %d, Width(Line) = %d", s, Width(out), Width(line))
		}

		// An invisible character between letters, wherever it sits in
		// hostile text, is shown by its code point, by both.
		if textsafe.Invisible(r) {
			want := fmt.Sprintf("a<U+%04X>b", r)
			for name, fn := range map[string]func(string) string{"Sanitize": Sanitize, "Line": Line} {
				if got := fn("a" + string(r) + "b" + s); !strings.HasPrefix(got, want) {
					t.Fatalf("%s(%q) = %q; want it to start %q", name, "a"+string(r)+"b"+s, got, want)
				}
			}
		}

		// fit cuts sanitized text to the screen it is drawn on.
		w, h = w%300, h%100
		if w > 0 && h > 0 {
			box := fit(out, w, h)
			lines := strings.Split(box, "\n")
			if len(lines) > h {
				t.Fatalf("fit(%q, %d, %d) has %d lines", out, w, h, len(lines))
			}
			for _, l := range lines {
				if Width(l) > w {
					t.Fatalf("fit(%q, %d, %d) has a line %d cells wide: %q", out, w, h, Width(l), l)
				}
			}
		}
	})
}

// plainASCII is printable ASCII and newlines only.
func plainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x7f || c < 0x20 && c != '\n' {
			return false
		}
	}
	return true
}
