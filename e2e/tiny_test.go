//go:build unix

package e2e

import (
	"strings"
	"testing"
)

// A form on a tiny terminal (10×3): the line being typed into, or the
// option picked, is what the one line left for the field shows, and what
// is typed shows in it.
func TestTinyTerminalShowsTheLineTypedInto(t *testing.T) {
	bin := mcpcli(t)
	t.Run("text", func(t *testing.T) {
		tm := start(t, nil, "", bin, "call", "create_repo", "owner=octo", "--", bin, "demo-server")
		tm.tmux("resize-window", "-t", "main", "-x", "10", "-y", "3")
		tm.waitMatch(`┃ > \S`)
		tm.text("XY")
		s := tm.waitFor("┃ > mcpXY")
		if lines := strings.Split(strings.TrimRight(tm.now(), "\n"), "\n"); len(lines) != 3 {
			t.Errorf("the screen has %d lines, want 3:\n%s", len(lines), s)
		}
	})
	t.Run("list", func(t *testing.T) {
		tm := start(t, nil, "", bin, "call", "switch_account", "--", bin, "demo-server")
		tm.tmux("resize-window", "-t", "main", "-x", "10", "-y", "3")
		tm.waitFor("┃ > Perso")
		tm.keys("Down")
		tm.waitFor("┃ > Work")
		tm.keys("Down")
		tm.waitFor("┃ > Open")
	})
}
