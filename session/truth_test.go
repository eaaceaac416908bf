package session

import (
	"encoding/json"
	"strings"
	"testing"
)

// The server learns in words why a request was cancelled: the person
// cancelled it in the session, or closed the session; never the go-sdk's
// "context canceled".
func TestCancelReasonInWords(t *testing.T) {
	h := newHarness(t, testServer(), harnessOptions{})
	h.keys("/")
	h.typ("slow")
	h.keys("enter", "enter")
	h.waitShow("▶ running", "25%")
	h.keys("ctrl+c")
	h.waitShow("■ cancelled")
	var reason string
	h.waitFor("notifications/cancelled on the wire", func(string) bool {
		for _, m := range h.sent.messages("notifications/cancelled") {
			var p struct{ Reason string }
			_ = json.Unmarshal(m["params"], &p)
			reason = p.Reason
		}
		return reason != ""
	})
	if reason != "the user cancelled the request in mcpcli's session" {
		t.Errorf("notifications/cancelled gives the reason %q, want the person's cancel in words", reason)
	}
	if strings.Contains(reason, "context canceled") {
		t.Errorf("the reason is the go-sdk's: %q", reason)
	}
}

// The detail pane shows the tool's own execution.taskSupport: a tool
// that says nothing is not called "forbidden" by a server that runs it
// as a task, and the pane says the server may.
func TestTaskSupportIsTheTools(t *testing.T) {
	h := newHarness(t, demo(t), harnessOptions{width: 200, height: 40})
	h.keys("/")
	h.typ("build_release")
	s := h.waitShow("Task support: not declared by the tool", "Tasks: the server has the tasks extension (2026-07-28) and may run any call as a task")
	if strings.Contains(s, "forbidden") {
		t.Errorf("the detail pane says forbidden:\n%s", s)
	}
}
