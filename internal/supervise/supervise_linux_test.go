package supervise

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// deathWatches are the ways the supervisor hears of mcpcli's death, each
// with what the test supervisor does to use it.
var deathWatches = map[string]func(){
	"pidfd": func() {},
	"parent-death signal": func() {
		pidfdOpen = func(int) (int, error) { return -1, syscall.ENOSYS }
	},
	"mcpcli's pidfd alone": func() {
		open, mcpcli := pidfdOpen, os.Getppid()
		pidfdOpen = func(pid int) (int, error) {
			if pid != mcpcli {
				return -1, syscall.EPERM
			}
			return open(pid)
		}
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

// BenchmarkSupervisorCPU is what the supervisor costs a stdio run in CPU
// (user and system, its own and the kernel's work for it): /bin/true
// under mcpcli-supervise, started as mcpcli starts it, against /bin/true
// alone, pair by pair. It reports the median of the pairs' differences.
//
//	go test ./internal/supervise -run '^$' -bench SupervisorCPU -benchtime 300x
func BenchmarkSupervisorCPU(b *testing.B) {
	sup := filepath.Join(b.TempDir(), "mcpcli-supervise")
	if out, err := exec.Command("go", "build", "-o", sup, "github.com/mcpcli/mcpcli/cmd/mcpcli-supervise").CombinedOutput(); err != nil {
		b.Fatalf("building mcpcli-supervise: %v\n%s", err, out)
	}
	cpu := func(cmd *exec.Cmd) time.Duration {
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
		return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	var diffs []time.Duration
	for b.Loop() {
		alone := cpu(exec.Command("/bin/true"))
		c := exec.Command(sup, Arg, strconv.Itoa(os.Getpid()), "/bin/true")
		c.Env = append([]string{OwnEnv}, os.Environ()...)
		c.SysProcAttr = supervisorAttr()
		diffs = append(diffs, cpu(c)-alone)
	}
	slices.Sort(diffs)
	b.ReportMetric(float64(diffs[len(diffs)/2].Microseconds())/1000, "supervisor-cpu-ms")
}
