package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// The linker drops the exported methods nothing calls, unless
// reflect.Value.Method or MethodByName is reachable: then it keeps every
// exported method of every type. text/template's execution calls
// MethodByName, so one cobra usage template, or any template, costs 4 MB of
// binary and the pages every start faults in around it (the speed issue's
// peak RSS). The check is cobra's own TestDeadcodeElimination, on mcpcli.
func TestBinaryDropsUnusedMethods(t *testing.T) {
	if testing.Short() {
		t.Skip("builds mcpcli")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	bin := filepath.Join(t.TempDir(), "mcpcli")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build -o %s .: %v\n%s", bin, err, out)
	}
	out, err := exec.Command("go", "tool", "nm", bin).Output()
	if err != nil {
		t.Fatalf("go tool nm %s: %v", bin, err)
	}
	var symbols int
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		switch name := f[len(f)-1]; name {
		case "reflect.Value.Method", "reflect.Value.MethodByName":
			t.Errorf("go tool nm mcpcli lists %s: something reachable calls it (a text/template executed, a cobra usage or help template set), and the linker keeps every exported method; write it as a function. The linker names the caller:\n%s", name, reflectMethodCallers(t))
		}
		if len(f) >= 3 && (f[len(f)-2] == "T" || f[len(f)-2] == "t") {
			symbols++
		}
	}
	if symbols == 0 {
		t.Fatalf("go tool nm %s listed no text symbols: the check saw nothing", bin)
	}
}

// reflectMethodCallers is what the linker's dependency dump says calls
// reflect's Method or MethodByName.
func reflectMethodCallers(t *testing.T) string {
	dump := exec.Command("go", "build", "-ldflags=-dumpdep", "-o", filepath.Join(t.TempDir(), "dump"), ".")
	dump.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, _ := dump.CombinedOutput()
	var lines []string
	for _, line := range strings.Split(string(out), "\n") {
		if strings.Contains(line, "<ReflectMethod>") {
			lines = append(lines, line)
		}
	}
	return strings.Join(lines, "\n")
}
