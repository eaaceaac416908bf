package config

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseDotenv(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		want     map[string]string
		wantLine int
		wantMsg  string
	}{
		{"empty", "", map[string]string{}, 0, ""},
		{"plain", "A=1\nB = two words \n", map[string]string{"A": "1", "B": "two words"}, 0, ""},
		{"comments and blanks", "# header\n\n  # indented\nA=1 # trailing\nB=x#not-a-comment\nC= # only a comment\n", map[string]string{"A": "1", "B": "x#not-a-comment", "C": ""}, 0, ""},
		{"export", "export A=1\nexport\tB=2\nexporter=3\n", map[string]string{"A": "1", "B": "2", "exporter": "3"}, 0, ""},
		{"double quotes", `A="a # not a comment"` + "\n" + `B="line\nnext\t\"q\" \\ \x"` + "\n", map[string]string{"A": "a # not a comment", "B": "line\nnext\t\"q\" \\ \\x"}, 0, ""},
		{"single quotes are literal", `A='$HOME \n "x"' # c` + "\n", map[string]string{"A": `$HOME \n "x"`}, 0, ""},
		{"quoted over lines", "A=\"one\ntwo\"\nB=3\n", map[string]string{"A": "one\ntwo", "B": "3"}, 0, ""},
		{"CRLF", "A=1\r\nB=\"x\"\r\nC='y\r\nz'\r\n", map[string]string{"A": "1", "B": "x", "C": "y\nz"}, 0, ""},
		{"BOM", "\uFEFFA=1\n", map[string]string{"A": "1"}, 0, ""},
		{"equals in the value", "URL=https://h/?a=b\n", map[string]string{"URL": "https://h/?a=b"}, 0, ""},
		{"last one wins", "A=1\nA=2\n", map[string]string{"A": "2"}, 0, ""},
		{"no trailing newline", "A=1", map[string]string{"A": "1"}, 0, ""},
		{"no equals", "A=1\noops\n", nil, 2, `"oops" has no =; write NAME=value`},
		{"bad name", "A B=1\n", nil, 1, `"A B" is not a variable name; use letters, digits and _`},
		{"name starts with a digit", "1A=1\n", nil, 1, `"1A" is not a variable name; use letters, digits and _`},
		{"unclosed quote", "A=1\nB=\"open\nC=2\n", nil, 2, `the value of B opens a " quote and never closes it`},
		{"text after a quote", "A=\"x\" y\n", nil, 1, `"y" after the closing quote of A; put a # before a comment`},
		{"line count after a long quote", "A='a\nb\nc'\nbad\n", nil, 4, `"bad" has no =; write NAME=value`},
		{"invalid UTF-8", "A=1\nB=\xff\n", nil, 2, "invalid UTF-8; save the file as UTF-8"},
	}
	for _, tt := range tests {
		got, line, msg := parseDotenv([]byte(tt.in))
		if line != tt.wantLine || msg != tt.wantMsg {
			t.Errorf("parseDotenv(%q) error = line %d %q, want line %d %q", tt.in, line, msg, tt.wantLine, tt.wantMsg)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("parseDotenv(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}
