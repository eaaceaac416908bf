package supervise

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// deathWatches are the ways the supervisor hears of mcpcli's death, each
// with what the test supervisor does to use it.
var deathWatches = map[string]func(){
	"pidfd": func() {},
	"parent-death signal": func() {
		pidfdOpen = func(int) (int, error) { return -1, syscall.ENOSYS }
	},
}

// orphansReaped: orphans of the server come to the supervisor.
const orphansReaped = true

func supervisorAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: DeathSignal}
}

// gone reports whether pid has ended (or is a zombie nobody reaps yet).
func gone(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && i+2 < len(s) && s[i+2] == 'Z'
}

func TestAppendPids(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []int
	}{
		{"", nil},
		{"12", []int{12}},
		{"12 345 6 ", []int{12, 345, 6}},
		{" 7\n", []int{7}},
	} {
		if got := appendPids(nil, []byte(tc.in)); !slices.Equal(got, tc.want) {
			t.Errorf("appendPids(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}
