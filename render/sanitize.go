// Package render is everything a person sees: line prompts, forms, results,
// and the one sanitizer every server string passes through first.
package render

import "github.com/mcpcli/mcpcli/internal/textsafe"

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
func Sanitize(s string) string { return textsafe.Sanitize(s, true) }

// Line is Sanitize for one-line places (titles, labels, names): newlines
// become spaces too.
func Line(s string) string { return textsafe.Sanitize(s, false) }

// Name is Line for a name a person may type back (a tool's, a prompt's):
// every control character, escapes' ESC included, and every invisible one
// is shown as a marker, <U+001B>, instead of being dropped, so that two
// names never look alike, and the name as shown can be matched back to
// the real one (Shown).
func Name(s string) string { return textsafe.Marked(s) }
