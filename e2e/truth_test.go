//go:build unix

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The sampling reply box is readable on dark and light terminals: the
// placeholder, and the text typed (which the text area's defaults drew
// black on black on a light background); ctrl+j makes a new line there, as
// in the forms.
func TestSamplingBoxContrast(t *testing.T) {
	bin := mcpcli(t)
	for _, bg := range []struct{ name, style, fg, bg string }{
		{"dark", "bg=#000000,fg=#d0d0d0", "#d0d0d0", "#000000"},
		{"light", "bg=#ffffff,fg=#000000", "#000000", "#ffffff"},
	} {
		t.Run(bg.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			tm := startStyled(t, bg.style, nil, out, bin, "call", "draft_announcement", "version=7", "--sampling", "--", bin, "demo-server")
			check := func(where string) {
				t.Helper()
				var low []string
				for deadline := time.Now().Add(3 * time.Second); ; time.Sleep(50 * time.Millisecond) {
					low = lowContrast(tm.tmux("capture-pane", "-e", "-p", "-t", "main"), bg.fg, bg.bg)
					if len(low) == 0 || time.Now().After(deadline) {
						break
					}
				}
				for _, p := range low {
					t.Errorf("%s background, %s: %s", bg.name, where, p)
				}
			}
			tm.waitFor("Your reply, as the model", "Write the model's reply here")
			check("the placeholder")
			tm.text("Seven is out")
			tm.waitFor("Seven is out")
			check("the text typed")
			tm.keys("C-j")
			tm.text("with a dark theme.")
			s := tm.waitFor("with a dark theme.")
			if strings.Contains(s, "Seven is outwith") {
				t.Errorf("ctrl+j made no new line:\n%s", s)
			}
			check("two lines typed")
			tm.keys("C-s")
			tm.exited()
			b, _ := os.ReadFile(out)
			if !strings.Contains(string(b), "Seven is out\nwith a dark theme.") {
				t.Errorf("the reply sent is not the two lines typed; stdout:\n%s", b)
			}
		})
	}
}

// C in the session: a root added and sampling turned on while connected
// are declared in the next request's _meta (2026-07-28); no need to quit
// and pass --root.
func TestSessionCapabilities(t *testing.T) {
	tm, trace := demoSession(t)
	dir := t.TempDir()
	tm.keys("C")
	tm.waitFor("Client capabilities", "Sampling  off", "Roots     0", "+ add a directory")
	tm.keys("Down", "Enter")
	tm.waitFor("Directory: █")
	tm.text(dir)
	tm.keys("Enter")
	tm.waitFor("added the root", "Roots     1", filepath.Base(dir))
	tm.keys("Up", "Enter")
	tm.waitFor("Sampling  on", "sampling on:")
	tm.keys("Escape")
	tm.waitFor("Tools 10")
	tm.call("workspace_summary")
	tm.waitFor("Your workspace has 1 root", "roots sent · 1 root")
	b, _ := os.ReadFile(trace)
	var call string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, `"name":"workspace_summary"`) && strings.Contains(l, `"method":"tools/call"`) {
			call = l
		}
	}
	if !strings.Contains(call, `"roots":{}`) || !strings.Contains(call, `"sampling":{}`) {
		t.Errorf("the call's _meta does not declare roots and sampling:\n%s", call)
	}
}
