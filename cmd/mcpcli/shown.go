package main

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/render"
)

// A tool or prompt name holding control or invisible characters is shown
// with markers (render.Name: "evil<U+001B>[31mname"). Typed back as shown,
// it is taken for the real one, with a "did you mean" that spells the
// real name for a shell.

// shownName resolves name, when no tool (or prompt) is called that, to
// the one shown as name; "" when there is none. Several shown alike is an
// error naming each.
func shownName(server, what, name string, names []string) (string, error) {
	if !strings.Contains(name, "<U+") {
		return "", nil
	}
	switch real := render.Shown(name, names); len(real) {
	case 0:
		return "", nil
	case 1:
		return real[0], nil
	default:
		q := make([]string, len(real))
		for i, r := range real {
			q[i] = shellName(r)
		}
		return "", fmt.Errorf("server \"%s\" has no %s %q, and %d %ss show as that: %s; give the real name", server, what, name, len(real), what, strings.Join(q, ", "))
	}
}

// sayShown tells the person the name they typed was taken for the real one.
func sayShown(con interface{ Printf(string, ...any) }, server, what, typed, real string) {
	con.Printf("mcpcli: server \"%s\" has no %s named %q exactly; calling the %s shown as that, whose name holds characters a terminal cannot show (did you mean %s?)",
		render.Line(server), what, typed, what, shellName(real))
}

// shellName spells a name for a POSIX shell, inertly: as it is when it is
// plain, else as $'...' with every control and invisible character
// escaped.
func shellName(s string) string {
	if render.Name(s) == s {
		return shellQuote(s)
	}
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
			i++
			continue
		case r == '\'' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x80 && unicode.IsPrint(r):
			b.WriteRune(r)
		case r < 0x100 && !unicode.IsPrint(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case render.Name(string(r)) != string(r) && r > 0xffff:
			fmt.Fprintf(&b, `\U%08x`, r)
		case render.Name(string(r)) != string(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
		i += size
	}
	b.WriteString("'")
	return b.String()
}

// toolNames are the names of a tool list's tools.
func toolNames(list *client.ToolList) []string {
	names := make([]string, len(list.Tools))
	for i, t := range list.Tools {
		names[i] = t.Name
	}
	return names
}
