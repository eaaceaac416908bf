package render

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func TestReadSecretLine(t *testing.T) {
	var out bytes.Buffer
	p := NewPrompter(strings.NewReader("hunter22\n"), &out)
	p.Echo = true
	got, err := p.ReadSecretLine(context.Background(), "key: ")
	if err != nil || got != "hunter22" {
		t.Fatalf("ReadSecretLine on piped input = %q, %v; want hunter22", got, err)
	}
	if strings.Contains(out.String(), "hunter22") || !strings.Contains(out.String(), "key: ••••••••") {
		t.Errorf("piped secret echoed as %q, want dots", out.String())
	}

	out.Reset()
	p = NewPrompter(strings.NewReader("not read\n"), &out)
	p.ReadSecret = func() (string, error) { return "from-the-terminal", nil }
	got, err = p.ReadSecretLine(context.Background(), "key: ")
	if err != nil || got != "from-the-terminal" {
		t.Fatalf("ReadSecretLine on a terminal = %q, %v; want what ReadSecret read", got, err)
	}
	if out.String() != "key: \n" {
		t.Errorf("terminal secret wrote %q, want only the prompt and a newline", out.String())
	}
}
