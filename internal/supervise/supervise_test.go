package supervise

import (
	"slices"
	"testing"
)

func TestStatusRoundTrips(t *testing.T) {
	for _, s := range []Status{{Code: 0}, {Code: 7}, {Code: 255}, {Signal: 9}, {Signal: 15}} {
		got, ok := ParseStatus(s.Format())
		if !ok || got != s {
			t.Errorf("ParseStatus(%q) = %+v, %v; want %+v, true", s.Format(), got, ok, s)
		}
	}
}

func TestParseStatusRefusesWhatIsNotWhole(t *testing.T) {
	for _, in := range []string{"", "exit", "exit ", "exit x", "exit -1", "exit 256", "signal 0", "pid 42", "exi", "exit 3 and more"} {
		if got, ok := ParseStatus([]byte(in)); ok {
			t.Errorf("ParseStatus(%q) = %+v, true; want not ok: a supervisor that said that was cut short", in, got)
		}
	}
	if got, ok := ParseStatus([]byte("exit 3\n")); !ok || got.Code != 3 {
		t.Errorf(`ParseStatus("exit 3\n") = %+v, %v; want exit 3`, got, ok)
	}
}

func TestDescendantsFollowsTheTable(t *testing.T) {
	table := []proc{
		{1, 0}, {10, 1}, // launchd, the supervisor
		{11, 10}, {12, 11}, {13, 12}, // the server, a child, a grandchild
		{14, 10},          // an orphan the supervisor reaps for
		{20, 1}, {21, 20}, // someone else's
		{30, 30}, {31, 30}, // a loop, as a table read mid-change may show
	}
	for _, tc := range []struct {
		pid  int
		want []int
	}{
		{10, []int{11, 14, 12, 13}},
		{12, []int{13}},
		{13, nil},
		{30, []int{31}},
	} {
		if got := descendants(tc.pid, table); !slices.Equal(got, tc.want) {
			t.Errorf("descendants(%d) = %v, want %v", tc.pid, got, tc.want)
		}
	}
}
