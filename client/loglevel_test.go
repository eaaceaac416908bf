package client

import "testing"

func TestLogShown(t *testing.T) {
	for _, tc := range []struct {
		asked, level string
		want         bool
	}{
		{"", "emergency", false},
		{"", "debug", false},
		{"warning", "info", false},
		{"warning", "warning", true},
		{"warning", "error", true},
		{"debug", "debug", true},
		{"info", "verbose", false},
		{"debug", "verbose", true},
		{"nonsense", "error", false},
	} {
		if got := LogShown(tc.asked, tc.level); got != tc.want {
			t.Errorf("LogShown(%q, %q) = %v, want %v", tc.asked, tc.level, got, tc.want)
		}
	}
}
