package shellwords

import (
	"reflect"
	"testing"
)

func TestSplit(t *testing.T) {
	tests := []struct {
		in      string
		want    []string
		wantErr string
	}{
		{"", nil, ""},
		{"  npx -y  server ", []string{"npx", "-y", "server"}, ""},
		{`say 'two words' "and \"quoted\"" back\ slash`, []string{"say", "two words", `and "quoted"`, "back slash"}, ""},
		{`''`, []string{""}, ""},
		{`a"b"'c'`, []string{"abc"}, ""},
		{`$HOME *`, []string{"$HOME", "*"}, ""},
		{`'open`, nil, "unterminated single quote"},
		{`"open`, nil, "unterminated double quote"},
		{`end\`, nil, "trailing backslash"},
	}
	for _, tt := range tests {
		got, err := Split(tt.in)
		if tt.wantErr != "" {
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("Split(%q) error = %v, want %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Split(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestQuote(t *testing.T) {
	for _, s := range []string{"plain", "", "two words", "it's", `a\b`, "$HOME", "-x", "tab\there", "new\nline", "'", "''", `"`} {
		q := Quote(s)
		got, err := Split(q)
		if err != nil || len(got) != 1 || got[0] != s {
			t.Errorf("Split(Quote(%q) = %q) = %q, %v; want [%q]", s, q, got, err, s)
		}
	}
	if got := Quote("/usr/bin/mcpcli"); got != "/usr/bin/mcpcli" {
		t.Errorf("Quote(a plain path) = %q, want it as it is", got)
	}
}
