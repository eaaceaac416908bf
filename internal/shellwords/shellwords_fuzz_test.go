package shellwords

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// refSplit is the reference: the documented rules as a state machine,
// one byte at a time.
func refSplit(s string) ([]string, bool) {
	const (
		between = iota
		bare
		bareEscape
		single
		double
		doubleEscape
	)
	var words []string
	var cur []byte
	state := between
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch state {
		case between, bare:
			switch c {
			case ' ', '\t', '\n':
				if state == bare {
					words = append(words, string(cur))
					cur = nil
				}
				state = between
			case '\'':
				state = single
			case '"':
				state = double
			case '\\':
				state = bareEscape
			default:
				cur = append(cur, c)
				state = bare
			}
		case bareEscape:
			cur = append(cur, c)
			state = bare
		case single:
			if c == '\'' {
				state = bare
			} else {
				cur = append(cur, c)
			}
		case double:
			switch c {
			case '"':
				state = bare
			case '\\':
				state = doubleEscape
			default:
				cur = append(cur, c)
			}
		case doubleEscape:
			state = double
			if c == '"' || c == '\\' {
				cur = append(cur, c)
				continue
			}
			// Only \" and \\ are escapes: the backslash stands for
			// itself, and c is read afresh.
			cur = append(cur, '\\')
			i--
		}
	}
	switch state {
	case bare:
		words = append(words, string(cur))
	case between:
	default:
		return nil, false
	}
	return words, true
}

// quoters write a word so that Split reads it back, each its own way.
var quoters = []func(string) string{
	func(w string) string { return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'" },
	func(w string) string {
		return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(w) + `"`
	},
	func(w string) string {
		if w == "" {
			return "''"
		}
		var b strings.Builder
		for i := 0; i < len(w); i++ {
			b.WriteByte('\\')
			b.WriteByte(w[i])
		}
		return b.String()
	},
}

// FuzzSplit: Split agrees with the reference state machine, and any list
// of words, each quoted in any of three ways and joined, splits back into
// those words. The seeds are in testdata/fuzz/FuzzSplit.
func FuzzSplit(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string, how uint8) {
		got, err := Split(s)
		want, ok := refSplit(s)
		if (err == nil) != ok {
			t.Fatalf("Split(%q) error = %v; the reference says ok = %v", s, err, ok)
		}
		if err == nil {
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("Split(%q) (-reference +got):\n%s", s, diff)
			}
		}

		// Any list of words: s cut at NUL bytes.
		words := strings.Split(s, "\x00")
		var line []string
		for i, w := range words {
			line = append(line, quoters[(int(how)+i)%len(quoters)](w))
		}
		sep := []string{" ", "\t", "\n", "  \t "}[int(how)%4]
		joined := strings.Join(line, sep)
		back, err := Split(joined)
		if err != nil {
			t.Fatalf("Split(%q), the words %q quoted: %v", joined, words, err)
		}
		if diff := cmp.Diff(words, back); diff != "" {
			t.Fatalf("Split(%q), the words %q quoted (-words +split):\n%s", joined, words, diff)
		}
	})
}
