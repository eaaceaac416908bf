// Package htmltext escapes a string for an HTML page mcpcli writes itself
// (the sign-in's loopback page, the demo's connect page), where every
// string goes into element text or a double-quoted attribute value.
package htmltext

import (
	"html"
	"strings"
)

// Escape is html.EscapeString, with NUL written as U+FFFD, as
// html/template writes it. It is enough for element text and double-quoted
// attribute values, not for a script, a style, an unquoted attribute or a
// URL.
func Escape(s string) string {
	return html.EscapeString(strings.ReplaceAll(s, "\x00", "\uFFFD"))
}
