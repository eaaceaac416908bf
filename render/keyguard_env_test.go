package render

import (
	"testing"
	"time"
)

func TestKeyGuardEnv(t *testing.T) {
	tests := []struct {
		v    string
		want time.Duration
		bad  bool
	}{
		{"", 0, false}, // the default
		{"0", NoKeyGuard, false},
		{"0s", NoKeyGuard, false},
		{"500ms", 500 * time.Millisecond, false},
		{"1s", time.Second, false},
		{"fast", 0, true},
		{"-1s", 0, true},
	}
	for _, tt := range tests {
		got, bad := KeyGuard(tt.v)
		if got != tt.want || bad != tt.bad {
			t.Errorf("KeyGuard(%q) = %v, %v; want %v, %v", tt.v, got, bad, tt.want, tt.bad)
		}
	}
}
