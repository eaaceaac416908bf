package render

import (
	"bufio"
	"errors"
	"io"
	"strings"
	"testing"
)

func TestReadBoundedLine(t *testing.T) {
	long := strings.Repeat("a", 5000)
	for _, tc := range []struct {
		name, in string
		max      int
		want     []string // lines read, "!" for one refused
	}{
		{"short lines", "one\ntwo\n", 10, []string{"one\n", "two\n"}},
		{"at the bound", "0123456789\r\nx\n", 10, []string{"0123456789\r\n", "x\n"}},
		{"over the bound", "0123456789A\nnext\n", 10, []string{"!", "next\n"}},
		{"over, longer than bufio's buffer", long + "\nnext\n", 100, []string{"!", "next\n"}},
		{"over, at the end of input", long, 100, []string{"!"}},
		{"last line without newline", "one\ntwo", 10, []string{"one\n", "two"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := bufio.NewReaderSize(strings.NewReader(tc.in), 16)
			var got []string
			for {
				s, err := readBoundedLine(r, tc.max)
				var long *LineTooLongError
				switch {
				case errors.As(err, &long):
					if len([]rune(long.Head)) > headRunes {
						t.Errorf("readBoundedLine(%q) keeps %d runes of the refused line, want at most %d", tc.in, len([]rune(long.Head)), headRunes)
					}
					got = append(got, "!")
					continue
				case s != "":
					got = append(got, s)
				}
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatalf("readBoundedLine(%q): %v", tc.in, err)
				}
			}
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("readBoundedLine(%q, %d) read %q, want %q", tc.in, tc.max, got, tc.want)
			}
		})
	}
}

// The error names the line and the bound, and quotes only the start,
// sanitized (an escape sequence in it is gone).
func TestLineTooLongErrorWords(t *testing.T) {
	p := NewPrompter(strings.NewReader("ok\n"+strings.Repeat("\x1b[31mz", 300)+"\n"), io.Discard)
	p.MaxLine = 100
	if _, err := p.ReadRaw(); err != nil {
		t.Fatal(err)
	}
	_, err := p.ReadRaw()
	want := `line 2 is longer than 100 bytes, the bound on a line of input (it began "zzzz"…); it was skipped: give large arguments a line of their own under the bound`
	if err == nil || err.Error() != want {
		t.Errorf("ReadRaw() = %v, want %s", err, want)
	}
}
