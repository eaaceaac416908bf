package suggest

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestClosest(t *testing.T) {
	names := []string{"delete_project", "switch_account", "edit_profile", "connect_account", "create_repo", "get-weather", "echo"}
	tests := []struct {
		typed string
		want  []string
	}{
		{"delete_projct", []string{"delete_project"}},
		{"edit_proflie", []string{"edit_profile"}},
		{"getWeather", nil},
		{"EDIT_PROFILE", []string{"edit_profile"}},
		{"create", []string{"create_repo"}},
		{"ecoh", []string{"echo"}},
		{"launch_rocket", nil},
		{"x", nil},
	}
	tests[2].want = []string{"get-weather"}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, Closest(tt.typed, names)); diff != "" {
			t.Errorf("Closest(%q) (-want +got):\n%s", tt.typed, diff)
		}
	}
}

func TestDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"abc", "abc", 0}, {"abc", "acb", 1}, {"kitten", "sitting", 3}, {"é", "e", 1}, {"", "abc", 3}} {
		if got := distance(tt.a, tt.b); got != tt.d {
			t.Errorf("distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.d)
		}
	}
}
