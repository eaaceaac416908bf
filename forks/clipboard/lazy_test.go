//go:build freebsd || linux || netbsd || openbsd || solaris || dragonfly

package clipboard

import "testing"

// The tools are looked for when the clipboard is first used, not at init.
func TestNoSearchUntilUsed(t *testing.T) {
	if pasteCmdArgs != nil || copyCmdArgs != nil {
		t.Fatalf("the clipboard tools were looked for before the clipboard was used: paste %q, copy %q", pasteCmdArgs, copyCmdArgs)
	}
	t.Setenv("PATH", t.TempDir())
	t.Setenv("WAYLAND_DISPLAY", "")
	if _, err := ReadAll(); err != missingCommands || !Unsupported {
		t.Errorf("ReadAll with no tool on $PATH = %v (Unsupported %v), want %v", err, Unsupported, missingCommands)
	}
}
