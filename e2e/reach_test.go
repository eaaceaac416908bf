package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTUISampling answers a sampling request on the full screen: the
// request above, the reply typed in the text area, ctrl+s sends it.
func TestTUISampling(t *testing.T) {
	bin := mcpcli(t)
	dir := t.TempDir()
	trace, out := filepath.Join(dir, "trace.jsonl"), filepath.Join(dir, "out.txt")
	tm := start(t, nil, out, bin, "call", "draft_announcement", "version=2.0", "--sampling", "--trace", trace, "--", bin, "demo-server")
	tm.waitFor("mcpcli demo server asks for a model reply (sampling)", "while running tool draft_announcement",
		"You write short, friendly release announcements.", "[user] [image image/png 70 B]", "Your reply, as the model", "ctrl+s send")
	tm.text("Version 2.0 is out.")
	tm.keys("Enter")
	tm.text("Try the dark theme.")
	tm.keys("C-s")
	s := tm.exited()
	if !strings.Contains(s, "→ reply sent to mcpcli demo server for draft (39 characters)") || !strings.Contains(s, "[exit 0]") {
		t.Errorf("after the reply, the screen shows:\n%s", s)
	}
	b, _ := os.ReadFile(out)
	if want := "Announcement for 2.0, drafted by mcpcli-human:\nVersion 2.0 is out.\nTry the dark theme.\n"; string(b) != want {
		t.Errorf("stdout = %q, want %q", b, want)
	}
	tb, _ := os.ReadFile(trace)
	if !strings.Contains(string(tb), `"inputResponses":{"draft":{"content":{"type":"text","text":"Version 2.0 is out.\nTry the dark theme."},"model":"mcpcli-human","role":"assistant","stopReason":"endTurn"}}`) {
		t.Errorf("the retry does not carry the typed reply; trace:\n%s", tb)
	}
}

// TestTUISamplingDecline: esc declines, and the request ends (exit 130).
func TestTUISamplingDecline(t *testing.T) {
	bin := mcpcli(t)
	tm := start(t, nil, "", bin, "call", "draft_announcement", "--sampling", "--", bin, "demo-server")
	tm.waitFor("Your reply, as the model")
	tm.keys("Escape")
	s := tm.exited()
	for _, want := range []string{"→ decline sent to mcpcli demo server for draft", `you declined the sampling request "draft"`, "[exit 130]"} {
		if !strings.Contains(s, want) {
			t.Errorf("after esc the screen lacks %q:\n%s", want, s)
		}
	}
}

// TestTUITemplateCompletion fills a resource template's variable on the
// full screen: the server's suggestions are shown, tab completes.
func TestTUITemplateCompletion(t *testing.T) {
	bin := mcpcli(t)
	out := filepath.Join(t.TempDir(), "out.txt")
	tm := start(t, nil, out, bin, "read", "demo://notes/{topic}", "--", bin, "demo-server")
	tm.waitFor("mcpcli demo server needs topic", "for resource template demo://notes/{topic}", "suggested: go, mcp, terminals, testing")
	tm.text("te")
	tm.keys("Down") // the second suggestion starting with "te"
	tm.keys("Tab", "Enter")
	s := tm.exited()
	if !strings.Contains(s, "[exit 0]") || !strings.Contains(s, "mcpcli: reading demo://notes/testing") {
		t.Errorf("after the question the screen shows:\n%s", s)
	}
	if b, _ := os.ReadFile(out); !strings.HasPrefix(string(b), "Notes on testing:") {
		t.Errorf("stdout = %q, want the notes on testing", b)
	}
}
