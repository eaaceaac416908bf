package render

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"unicode/utf8"

	"github.com/mcpcli/mcpcli/internal/textsafe"
)

// writeIndented writes the valid JSON raw to w indented by two spaces, as
// json.Indent would, with the characters textsafe.EscapeJSON escapes
// escaped, as it goes: a 100 MB result is not built again in memory.
func writeIndented(w io.Writer, raw []byte) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	depth := 0
	newline := func(d int) {
		bw.WriteByte('\n')
		for range d {
			bw.WriteString("  ")
		}
	}
	for i := 0; i < len(raw); i++ {
		switch c := raw[i]; c {
		case ' ', '\t', '\n', '\r':
		case '"':
			end := stringEnd(raw, i)
			writeEscaped(bw, raw[i:end])
			i = end - 1
		case '{', '[':
			bw.WriteByte(c)
			j := skipSpaces(raw, i+1)
			if j < len(raw) && (raw[j] == '}' || raw[j] == ']') {
				bw.WriteByte(raw[j]) // {} and [] stay on one line
				i = j
				continue
			}
			depth++
			newline(depth)
		case '}', ']':
			depth--
			newline(depth)
			bw.WriteByte(c)
		case ',':
			bw.WriteByte(',')
			newline(depth)
		case ':':
			bw.WriteString(": ")
		default:
			bw.WriteByte(c)
		}
	}
	bw.WriteByte('\n')
	return bw.Flush()
}

// stringEnd is the index just past the JSON string that starts at i.
func stringEnd(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(b)
}

func skipSpaces(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// writeEscaped writes a JSON string token, with what textsafe.EscapeJSON
// escapes escaped; plain ASCII runs go out as they are.
func writeEscaped(bw *bufio.Writer, s []byte) {
	start := 0
	for i := 0; i < len(s); {
		if s[i] < 0x7f {
			i++
			continue
		}
		_, size := utf8.DecodeRune(s[i:])
		if esc := textsafe.EscapeJSON(s[i : i+size]); len(esc) != size || string(esc) != string(s[i:i+size]) {
			bw.Write(s[start:i])
			bw.Write(esc)
			start = i + size
		}
		i += size
	}
	bw.Write(s[start:])
}

// errInvalidJSON is a raw result that is not JSON at all.
var errInvalidJSON = errors.New("the server's result is not valid JSON")

// validJSON checks raw before it is printed as JSON.
func validJSON(raw []byte) error {
	if !json.Valid(raw) {
		return errInvalidJSON
	}
	return nil
}
