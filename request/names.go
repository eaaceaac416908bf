package request

import (
	"strings"

	"github.com/mcpcli/mcpcli/internal/textsafe"
)

// A tool or prompt name holding control or invisible characters is shown
// with markers (render.Name: "evil<U+001B>[31mname"). Typed back as shown,
// it is taken for the real one.

// shownAs resolves name, when nothing is called that, to the one of names
// shown as name; "" when there is none. Several shown alike is a
// *ShownError naming each.
func shownAs(server, what, name string, names []string) (string, error) {
	switch real := shown(name, names); len(real) {
	case 0:
		return "", nil
	case 1:
		return real[0], nil
	default:
		return "", &ShownError{Server: server, What: what, Name: name, Real: real}
	}
}

// shown returns the names shown (textsafe.Marked) as typed, when typed is
// not a name itself: what a person who typed a name as mcpcli showed it
// meant.
func shown(typed string, names []string) []string {
	var out []string
	for _, n := range names {
		if n == typed {
			return nil
		}
		if textsafe.Marked(n) == typed {
			out = append(out, n)
		}
	}
	return out
}

// looksShown says whether a typed name may be one as mcpcli shows it: it
// holds a marker.
func looksShown(name string) bool { return strings.Contains(name, "<U+") }
