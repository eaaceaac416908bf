package config

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// readEnvFile reads a dotenv file (an "envFile").
func readEnvFile(path string) (map[string]string, error) {
	data, err := readFileBounded(path, nil)
	if err != nil {
		return nil, fmt.Errorf("%s cannot be read: %s", showPath(path), oneLine(err))
	}
	vars, line, msg := parseDotenv(data)
	if msg != "" {
		return nil, fmt.Errorf("%s:%d: %s", showPath(path), line, msg)
	}
	return vars, nil
}

// parseDotenv reads NAME=value lines. Blank lines and lines starting with #
// are skipped; "export " before a name is allowed; spaces around the name
// and the = are dropped. A value is
//   - in single quotes: taken as it is, and may span lines;
//   - in double quotes: \n, \r, \t, \" and \\ are escapes, and it may span lines;
//   - otherwise: up to the end of the line or a " #" comment, trimmed.
//
// Nothing is expanded. A name given twice takes the last value, as other
// dotenv readers do. On error it returns the line and what is wrong.
func parseDotenv(data []byte) (vars map[string]string, line int, msg string) {
	data = trimBOM(data)
	if !utf8.Valid(data) {
		n := 1
		for i := 0; i < len(data); {
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size == 1 {
				break
			}
			if r == '\n' {
				n++
			}
			i += size
		}
		return nil, n, "invalid UTF-8; save the file as UTF-8"
	}
	s := string(data)
	vars = map[string]string{}
	line = 1
	for i := 0; i < len(s); i, line = nextLine(s, i), line+1 {
		end := nextLine(s, i) - 1 // the \n, or len(s)
		if end > len(s) {
			end = len(s)
		}
		t := strings.TrimSpace(s[i:end])
		if t == "" || t[0] == '#' {
			continue
		}
		eq := strings.IndexByte(s[i:end], '=')
		if eq < 0 {
			return nil, line, fmt.Sprintf("%s has no =; write NAME=value", quote(t))
		}
		name := strings.TrimSpace(s[i : i+eq])
		if rest, ok := strings.CutPrefix(name, "export"); ok && rest != "" && (rest[0] == ' ' || rest[0] == '\t') {
			name = strings.TrimSpace(rest)
		}
		if !goodEnvName(name) {
			return nil, line, fmt.Sprintf("%s is not a variable name; use letters, digits and _", quote(name))
		}
		j := i + eq + 1
		for j < end && (s[j] == ' ' || s[j] == '\t') {
			j++
		}
		if j < end && (s[j] == '"' || s[j] == '\'') {
			q := s[j]
			val, n, ok := quoted(s[j+1:], q)
			if !ok {
				return nil, line, fmt.Sprintf("the value of %s opens a %c quote and never closes it", name, q)
			}
			k := j + 1 + n // just after the closing quote
			first := line
			line += strings.Count(s[j:k], "\n")
			i = k
			end = nextLine(s, k) - 1
			if end > len(s) {
				end = len(s)
			}
			if a := strings.TrimSpace(s[k:end]); a != "" && a[0] != '#' {
				return nil, first, fmt.Sprintf("%s after the closing quote of %s; put a # before a comment", quote(a), name)
			}
			vars[name] = val
			continue
		}
		value := s[i+eq+1 : end]
		if c := strings.Index(value, " #"); c >= 0 {
			value = value[:c]
		}
		if c := strings.Index(value, "\t#"); c >= 0 {
			value = value[:c]
		}
		vars[name] = strings.TrimSpace(value)
	}
	return vars, 0, ""
}

// nextLine is the index just after the line break that ends the line at
// i, or len(s)+1 at the end of s.
func nextLine(s string, i int) int {
	if n := strings.IndexByte(s[i:], '\n'); n >= 0 {
		return i + n + 1
	}
	return len(s) + 1
}

// quoted reads a value up to its closing quote q; it returns the value and
// how many bytes of s it used, the quote included.
func quoted(s string, q byte) (string, int, bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == q:
			return b.String(), i + 1, true
		case c == '\\' && q == '"' && i+1 < len(s):
			switch s[i+1] {
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case '"', '\\':
				b.WriteByte(s[i+1])
			default:
				b.WriteByte('\\')
				continue
			}
			i++
		case c == '\r' && i+1 < len(s) && s[i+1] == '\n':
			// a CRLF file: the line break is \n
		default:
			b.WriteByte(c)
		}
	}
	return "", 0, false
}

// goodEnvName accepts a dotenv variable name: letters, digits, _, . and -,
// not starting with a digit.
func goodEnvName(name string) bool {
	if name == "" || (name[0] >= '0' && name[0] <= '9') {
		return false
	}
	for _, r := range name {
		if !(r == '_' || r == '.' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

func trimBOM(b []byte) []byte {
	if len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
		return b[3:]
	}
	return b
}
