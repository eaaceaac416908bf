//go:build unix

package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
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

// TestWatch runs watch against the demo server over stdio, at 2026-07-28
// (subscriptions/listen) and 2025-11-25 (resources/subscribe), until
// SIGINT, as Ctrl+C would end it: exit 0, JSON Lines on stdout.
func TestWatch(t *testing.T) {
	bin := mcpcli(t)
	for _, protocol := range []string{"2026-07-28", "2025-11-25"} {
		t.Run(protocol, func(t *testing.T) {
			cmd := exec.Command(bin, "watch", "--resource", "demo://clock", "-o", "json", "--protocol", protocol, "--", bin, "demo-server")
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			lines := make(chan string)
			go func() {
				sc := bufio.NewScanner(stdout)
				for sc.Scan() {
					lines <- sc.Text()
				}
				close(lines)
			}()
			updates := 0
			deadline := time.After(wait)
			for updates < 2 {
				select {
				case l, ok := <-lines:
					if !ok {
						t.Fatalf("watch ended early; stderr:\n%s", stderr.String())
					}
					var m struct {
						JSONRPC string `json:"jsonrpc"`
						Method  string `json:"method"`
						Params  struct {
							URI string `json:"uri"`
						} `json:"params"`
					}
					if err := json.Unmarshal([]byte(l), &m); err != nil || m.JSONRPC != "2.0" {
						t.Fatalf("watch -o json printed %q, not a JSON-RPC message: %v", l, err)
					}
					if m.Method == "notifications/resources/updated" && m.Params.URI == "demo://clock" {
						updates++
					}
				case <-deadline:
					t.Fatalf("no two clock updates within %s; stderr:\n%s", wait, stderr.String())
				}
			}
			cmd.Process.Signal(os.Interrupt)
			go func() {
				for range lines {
				}
			}()
			if err := cmd.Wait(); err != nil {
				t.Errorf("watch after SIGINT: %v (want exit 0); stderr:\n%s", err, stderr.String())
			}
			if !strings.Contains(stderr.String(), "mcpcli: watching mcpcli demo server for notifications, and changes to demo://clock; Ctrl+C stops") {
				t.Errorf("stderr:\n%s", stderr.String())
			}
		})
	}
}

// TestTUITask answers a task's input request on the same full-screen form
// as any elicitation, while the task's status shows on the terminal.
func TestTUITask(t *testing.T) {
	bin := mcpcli(t)
	out := filepath.Join(t.TempDir(), "out.txt")
	tm := start(t, nil, out, bin, "call", "build_release", "version=4.0", "--", bin, "demo-server")
	tm.waitFor("mcpcli demo server asks", "while running tool build_release", "Release 4.0 is built and tested. Publish it?", "Publish now")
	tm.keys("y")     // publish: yes
	tm.keys("Enter") // channel: stable (the default)
	tm.waitFor("[ Accept: send ]")
	tm.keys("Enter")
	s := tm.exited()
	for _, want := range []string{"…: working — Running the tests 4.0...", "→ accept sent to mcpcli demo server with 2 values", "…: completed", "[exit 0]"} {
		if !strings.Contains(s, want) {
			t.Errorf("the screen lacks %q:\n%s", want, s)
		}
	}
	if b, _ := os.ReadFile(out); string(b) != "Published release 4.0 to the stable channel.\n" {
		t.Errorf("stdout = %q", b)
	}
}
