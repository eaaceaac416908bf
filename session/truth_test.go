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
