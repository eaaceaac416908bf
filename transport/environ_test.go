package transport

import (
	"slices"
	"testing"
)

func TestEnvironUnsetsInheritedVariables(t *testing.T) {
	base := []string{"HOME=/home/ada", "TOKEN=s3cret", "PATH=/bin", "TOKENS=keep"}
	got := environ(base, []string{"TOKEN", "MISSING"}, []string{"PATH=/usr/bin", "NEW=1"})
	want := []string{"HOME=/home/ada", "PATH=/bin", "TOKENS=keep", "PATH=/usr/bin", "NEW=1"}
	if !slices.Equal(got, want) {
		t.Errorf("environ(%q, unset TOKEN MISSING, set PATH NEW) = %q, want %q", base, got, want)
	}
}
