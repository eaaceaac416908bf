package tui

import (
	"strings"
	"testing"

	"github.com/mcpcli/mcpcli/transport"
)

// --result-budget takes a size of at least 1 MiB.
func TestBudget(t *testing.T) {
	var b Budget = DefaultResultBudget
	if b.String() != transport.FormatSize(DefaultResultBudget) || b.Type() != "SIZE" {
		t.Errorf("Budget(default) shows %q, %q; want %q, SIZE", b.String(), b.Type(), transport.FormatSize(DefaultResultBudget))
	}
	if err := b.Set("2MiB"); err != nil || b != 2<<20 {
		t.Errorf("Set(2MiB) = %v, %d; want 2097152", err, b)
	}
	for _, s := range []string{"512KiB", "lots"} {
		if err := b.Set(s); err == nil || b != 2<<20 {
			t.Errorf("Set(%q) = %v, leaving %d; want an error, 2097152 kept", s, err, b)
		}
	}
	if err := b.Set("1000000"); err == nil || !strings.Contains(err.Error(), "less than 1MiB, too small to keep a result of any size") {
		t.Errorf("Set(1000000) = %v; want it too small", err)
	}
}
