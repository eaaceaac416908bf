package transport

import (
	"slices"
	"testing"
)

func TestJobLimitsKillOnCloseAndLetNothingLeave(t *testing.T) {
	if jobLimits&jobLimitKillOnJobClose == 0 {
		t.Errorf("jobLimits = %#x: want JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE, so the server's tree ends when mcpcli does", jobLimits)
	}
	if jobLimits&(jobLimitBreakawayOK|jobLimitSilentBreakawayOK) != 0 {
		t.Errorf("jobLimits = %#x: a breakaway flag would let the server's children leave its job", jobLimits)
	}
}

func TestThreadsOfPicksTheProcesssThreads(t *testing.T) {
	snap := []threadEntry{{id: 1, owner: 4}, {id: 7, owner: 42}, {id: 8, owner: 43}, {id: 9, owner: 42}}
	if got, want := threadsOf(snap, 42), []uint32{7, 9}; !slices.Equal(got, want) {
		t.Errorf("threadsOf(snapshot, 42) = %v, want %v", got, want)
	}
	if got := threadsOf(snap, 5); got != nil {
		t.Errorf("threadsOf(snapshot, 5) = %v, want none", got)
	}
}

func TestWindowsExitWords(t *testing.T) {
	for _, tc := range []struct {
		code uint32
		want string
	}{
		{0, "exited with status 0"},
		{3, "exited with status 3"},
		{0xC0000005, "ended with an access violation (0xC0000005)"},
		{0xC000013A, "ended with Ctrl+C (0xC000013A)"},
		{0xC0001234, "crashed (NTSTATUS 0xC0001234)"},
	} {
		if got := windowsExitWords(tc.code); got != tc.want {
			t.Errorf("windowsExitWords(%#x) = %q, want %q", tc.code, got, tc.want)
		}
	}
}
