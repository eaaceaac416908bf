package render

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// Confirm takes y or yes; Enter, n, no and, after three tries, anything
// else are no. What was typed before the question is dropped first.
func TestConfirm(t *testing.T) {
	tests := []struct {
		in      string
		want    bool
		dropped bool // DropTypeahead set: the first line was typed ahead
	}{
		{"y\n", true, false},
		{"YES\n", true, false},
		{"\n", false, false},
		{"n\n", false, false},
		{"maybe\nsure\nok\n", false, false},
		{"maybe\ny\n", true, false},
		{"y\n", false, true}, // typed ahead: dropped, then end of input
	}
	for _, tt := range tests {
		var out bytes.Buffer
		p := NewPrompter(strings.NewReader(tt.in), &out)
		if tt.dropped {
			p.DropTypeahead = func() {}
			p.In.Peek(1) // what the terminal already holds, read ahead
		}
		got, err := p.Confirm(context.Background(), "Trust it? [y/N] ")
		if tt.dropped {
			if err == nil || got {
				t.Errorf("Confirm(%q typed ahead) = %v, %v; want it dropped, then no answer", tt.in, got, err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("Confirm(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}
