//go:build darwin || freebsd

package supervise

import (
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
)

// deathWatches are the ways the supervisor hears of mcpcli's death: here
// kqueue only.
var deathWatches = map[string]func(){"kqueue": func() {}}

// orphansReaped: orphans of the server come to the supervisor on FreeBSD
// (a reaper); on macOS they go to launchd.
const orphansReaped = runtime.GOOS == "freebsd"

func supervisorAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// gone reports whether pid has ended (or is a zombie nobody reaps yet).
func gone(pid int) bool {
	out, err := exec.Command("ps", "-o", "stat=", "-p", strconv.Itoa(pid)).Output()
	return err != nil || strings.HasPrefix(strings.TrimSpace(string(out)), "Z")
}
