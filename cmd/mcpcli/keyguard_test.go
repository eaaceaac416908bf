package main

import (
	"testing"
	"time"

	"github.com/mcpcli/mcpcli/render"
)

func TestKeyGuardEnv(t *testing.T) {
	tests := []struct {
		v    string
		want time.Duration
		bad  bool
	}{
		{"", 0, false}, // the default
		{"0", render.NoKeyGuard, false},
		{"0s", render.NoKeyGuard, false},
		{"500ms", 500 * time.Millisecond, false},
		{"1s", time.Second, false},
		{"fast", 0, true},
		{"-1s", 0, true},
	}
	for _, tt := range tests {
		got, bad := keyGuard(tt.v)
		if got != tt.want || bad != tt.bad {
			t.Errorf("keyGuard(%q) = %v, %v; want %v, %v", tt.v, got, bad, tt.want, tt.bad)
		}
	}
}
