package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/flow"
	"github.com/mcpcli/mcpcli/render"
)

// wizardAnswers accept both rounds of the test server's wizard, the first
// with a secret (the API token).
func wizardAnswers(r client.Round) map[string]*mcp.ElicitResult {
	if r.Number == 1 {
		return map[string]*mcp.ElicitResult{"basics": {Action: "accept", Content: map[string]any{"name": "Ada", "token": "hunter2"}}}
	}
	return map[string]*mcp.ElicitResult{"details": {Action: "decline"}}
}

// callWizard calls the wizard from the Tools list and waits for its result.
func callWizard(h *harness) {
	h.t.Helper()
	h.keys("/")
	h.typ("wizard")
	h.keys("enter", "enter", "y")
	h.waitShow("wizard done: decline")
	h.keys("esc")
}

// S, then f: the session's calls as a flow file, through the writer
// --record uses, named after the tool in ./flows, the secret answer an
// $env: reference; the file reads back as a flow, and says its server.
func TestSaveFlowFile(t *testing.T) {
	t.Chdir(t.TempDir())
	h := newHarness(t, testServer(), harnessOptions{answer: wizardAnswers})
	h.m.o.Flow = flow.Server{Command: []string{"mcpcli", "demo-server"}}
	callWizard(h)
	h.keys("S")
	h.waitShow("Save the session's 1 request as", "s  a script of one-shot commands", "f  a flow file, a test", "s script", "f flow file", "esc back")
	h.keys("f")
	h.waitShow("File: flows/wizard.flow█", "enter save")
	h.keys("enter")
	s := h.waitShow("saved the flow flows/wizard.flow (1 step)")
	if h.m.modal != nil {
		t.Errorf("the save window stayed open after saving:\n%s", s)
	}
	b, err := os.ReadFile(filepath.Join("flows", "wizard.flow"))
	if err != nil {
		t.Fatal(err)
	}
	got := string(b)
	for _, want := range []string{
		"# Recorded by mcpcli.",
		"server command mcpcli demo-server\n",
		"call wizard\n",
		"  round 1\n    ask basics form\n",
		`message == "Who are you?"`,
		"  round 2\n    ask details form\n",
		"answer details decline\n",
		"rounds == 2",
		`text == "wizard done: decline"`,
		`"$env:`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the flow file lacks %q; it is:\n%s", want, got)
		}
	}
	if strings.Contains(got, "hunter2") {
		t.Errorf("the flow file holds the secret answer:\n%s", got)
	}
	if _, err := flow.Parse("wizard.flow", b); err != nil {
		t.Errorf("the saved flow does not parse: %v\n%s", err, got)
	}
	// S again writes over the file it wrote.
	h.keys("S", "f", "enter")
	h.waitShow("saved the flow flows/wizard.flow (1 step)")
}

// A file mcpcli did not write is never written over: the window says so
// and keeps the name, to edit; a name typed in its place is saved.
func TestSaveFlowNeverOverAnotherFile(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.Mkdir("flows", 0o755); err != nil {
		t.Fatal(err)
	}
	mine := "my own notes\n"
	if err := os.WriteFile(filepath.Join("flows", "wizard.flow"), []byte(mine), 0o644); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, testServer(), harnessOptions{answer: wizardAnswers})
	callWizard(h)
	h.keys("S", "f", "enter")
	h.waitShow("already exists, and mcpcli did not write it", "File: flows/wizard.flow█")
	if b, _ := os.ReadFile(filepath.Join("flows", "wizard.flow")); string(b) != mine {
		t.Errorf("the person's file was written over: %q", b)
	}
	h.keys("backspace", "backspace", "backspace", "backspace", "backspace")
	h.typ("-2.flow")
	h.waitShow("File: flows/wizard-2.flow█")
	h.keys("enter")
	h.waitShow("saved the flow flows/wizard-2.flow (1 step)")
	if _, err := os.Stat(filepath.Join("flows", "wizard-2.flow")); err != nil {
		t.Errorf("the flow was not saved under the new name: %v", err)
	}
	// Its own flow, again: the ledger says mcpcli wrote it.
	h.keys("S", "f", "ctrl+u")
	h.typ("flows/wizard-2.flow")
	h.keys("enter")
	if sm, open := h.m.modal.(*saveModal); open {
		t.Fatalf("saving again over its own flow: the window stays, saying %q", sm.note)
	}
	h.waitShow("saved the flow flows/wizard-2.flow (1 step)")
	// A file that starts as a recording does, planted: not its own.
	planted := "# Recorded by mcpcli. `mcpcli test` replays it.\nserver command sh -c \"echo pwned\"\n"
	if err := os.WriteFile("planted.flow", []byte(planted), 0o644); err != nil {
		t.Fatal(err)
	}
	h.keys("S", "f", "ctrl+u")
	h.typ("planted.flow")
	h.keys("enter")
	h.waitShow("planted.flow already exists, and mcpcli did not write it")
	if b, _ := os.ReadFile("planted.flow"); string(b) != planted {
		t.Errorf("the planted file was written over: %q", b)
	}
	h.keys("esc")
	// Not through a symbolic link either.
	if err := os.Symlink("elsewhere", "link.flow"); err != nil {
		t.Fatal(err)
	}
	h.keys("S", "f", "ctrl+u")
	h.update(tea.PasteMsg{Content: "bad\x1b[2Jname.flow"})
	h.keys("enter")
	h.waitShow("the name holds a control character")
	h.keys("ctrl+u")
	h.typ("link.flow")
	h.keys("enter")
	h.waitShow("link.flow is a symbolic link")
	if _, err := os.Lstat("elsewhere"); err == nil {
		t.Error("the save wrote through the link")
	}
}

// What a flow cannot replay is left out, and the status says which; with
// nothing to keep, nothing is written and the window says why.
func TestSaveFlowLeavesOutWhatDidNotEnd(t *testing.T) {
	t.Chdir(t.TempDir())
	h := newHarness(t, testServer(), harnessOptions{
		answer: wizardAnswers,
		forms:  func(render.Arguments) (map[string]any, error) { return map[string]any{"name": "Grace"}, nil },
	})
	h.keys("S", "f")
	h.waitShow("File: flows/session.flow█")
	h.keys("enter")
	h.waitShow("nothing was recorded;")
	if n := h.m.modal.(*saveModal).note; n != "flow flows/session.flow: nothing was recorded; make a call, prompt or read first" {
		t.Errorf("the window says %q", n)
	}
	if _, err := os.Stat("flows/session.flow"); err == nil {
		t.Error("an empty flow file was written")
	}
	h.keys("esc", "esc")
	h.keys("/")
	h.typ("slow")
	h.keys("enter", "enter", "y")
	h.waitShow("▶ running")
	h.keys("ctrl+c")
	h.waitShow("■ cancelled")
	h.keys("esc", "/")
	h.typ("greet")
	h.keys("enter", "enter")
	h.waitShow("Hello, Grace!")
	h.keys("esc", "S", "f")
	// The name is the one request kept's.
	h.waitShow("File: flows/greet.flow█")
	h.keys("enter")
	h.waitShow("saved the flow flows/greet.flow (1 step)")
	if st := h.m.Status(); !strings.HasSuffix(st, "; left out #1 (cancelled)") {
		t.Errorf("the status says %q; want what was left out", st)
	}
	// Activity keeps the whole line.
	h.keys("4")
	h.waitShow("saved the flow flows/greet.flow")
	h.keys("enter")
	h.waitShow("left out #1 (cancelled)")
	b, _ := os.ReadFile("flows/greet.flow")
	if got := string(b); !strings.Contains(got, `call greet {"name": "Grace"}`) || strings.Contains(got, "slow") {
		t.Errorf("the flow holds:\n%s", got)
	}
}

// S, then s: the script, as before, to the name offered or another.
func TestSaveScriptFromTheWindow(t *testing.T) {
	t.Chdir(t.TempDir())
	h := newHarness(t, testServer(), harnessOptions{answer: wizardAnswers})
	callWizard(h)
	h.keys("S", "down", "up", "enter")
	h.waitShow("File: mcpcli-session.sh█")
	h.keys("esc")
	h.waitShow("▸ s  a script", "s script")
	h.keys("s", "enter")
	h.waitShow("saved 1 request to mcpcli-session.sh (run it with sh)")
	if st := h.m.Status(); !strings.HasSuffix(st, "it holds 1 secret value: keep it private") {
		t.Errorf("the status says %q", st)
	}
	b, err := os.ReadFile("mcpcli-session.sh")
	if err != nil || !strings.HasPrefix(string(b), "#!/bin/sh\n") {
		t.Errorf("mcpcli-session.sh: %v\n%s", err, b)
	}
	h.keys("S", "esc")
	if h.m.modal != nil {
		t.Error("esc did not close the save window")
	}
}

// A name from the server is made safe as a file's name.
func TestFileWord(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"create_repo", "create_repo"},
		{"read-demo://reports/q3", "read-demo-reports-q3"},
		{"../../etc/passwd", "etc-passwd"},
		{"\x1b]8;;https://evil\x07x", "8-https-evil-x"},
		{"caf\u00e9 \u202eboom", "caf-boom"},
		{"...", "session"},
		{"", "session"},
		{strings.Repeat("a", 100), strings.Repeat("a", 48)},
	} {
		if got := fileWord(c.in); got != c.want {
			t.Errorf("fileWord(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// ? says what S does, and the save window's keys have their section.
func TestHelpSaysHowToSaveAFlow(t *testing.T) {
	h := newHarness(t, testServer(), harnessOptions{})
	h.keys("?")
	h.waitShow("S                 save the session: s as a script of one-shot commands, f", "as a flow file that mcpcli test replays")
	help := strings.Join(helpLines(78, func(s ...string) string { return strings.Join(s, "") }), "\n")
	for _, want := range []string{"Save the session (S)", "a flow file, a test: mcpcli test replays it"} {
		if !strings.Contains(help, want) {
			t.Errorf("the help lacks %q:\n%s", want, help)
		}
	}
}
