package render

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/demoserver"
)

func TestFormProfileAccept(t *testing.T) {
	u := startTUI(t, roundOf([3]string{"profile", "Tell me about yourself.", demoserver.ProfileSchema}), nil)
	u.WaitFor("Test Server asks", "Tell me about yourself.", "your answers go to Test Server (stdio: test-server)", "Full name *", "field 1/14")
	u.Type("A")
	u.WaitFor("✗ must be at least 2 characters (now 1)")
	u.Press(kEnter) // refused: still on the name
	u.Type("da Lovelace")
	u.Press(kEnter)
	u.WaitFor("field 2/14")
	u.Press(kEnter, kEnter, kEnter, kEnter, kEnter) // email (default), website, birthday, intro call, bio
	u.WaitFor("field 7/14", "Age")
	u.Type("36")
	u.Press(kEnter, kEnter) // age, height (default)
	u.WaitFor("field 9/14", "Newsletter")
	u.Press("y") // newsletter: yes, and on
	u.Press("k") // theme: system → dark
	u.Press(kEnter)
	u.WaitFor("field 11/14", "Country")
	u.Press(kDown, kDown, kEnter) // country: France
	u.Press(kEnter)               // plan: default
	u.WaitFor("field 13/14", "Languages *")
	u.Press(kDown, kSpace, kEnter) // languages: en (default) + fr
	u.Press(kEnter)                // topics: none
	s := u.WaitFor("Review: accept sends this to Test Server", "[ Accept: send ]")
	for _, want := range []string{"Full name *", "Ada Lovelace", "France", "en, fr", "(not set: left out)"} {
		if !strings.Contains(s, want) {
			t.Errorf("review does not show %q:\n%s", want, s)
		}
	}
	u.Press(kEnter) // Accept is focused
	res := u.Result()
	want := map[string]any{"name": "Ada Lovelace", "email": "ada@example.com", "age": int64(36), "height": 1.7, "newsletter": true,
		"theme": "dark", "country": "FR", "plan": "free", "languages": []string{"en", "fr"}}
	if res["profile"].Action != client.Accept {
		t.Fatalf("action = %q, want accept", res["profile"].Action)
	}
	if diff := cmp.Diff(want, res["profile"].Content); diff != "" {
		t.Errorf("content (-want +got):\n%s", diff)
	}
	if out := u.Output(); !strings.Contains(out, "→ accept sent to Test Server with 9 values") {
		t.Errorf("no status line in output:\n%q", out)
	}
}

const confirmSchema = `{"type":"object","properties":{"confirm":{"type":"boolean","title":"Delete it for good?","default":false}},"required":["confirm"]}`

func TestFormDeclineAndCancelKeys(t *testing.T) {
	tests := []struct {
		name   string
		keys   []string
		action string
	}{
		{"ctrl+x declines", []string{kCtrlX}, client.Decline},
		{"esc cancels", []string{kEsc}, client.Cancel},
		{"ctrl+c cancels", []string{kCtrlC}, client.Cancel},
		{"decline button on the review", []string{kCtrlS, kRight, kEnter}, client.Decline},
		{"cancel button on the review", []string{kCtrlS, kRight, kRight, kEnter}, client.Cancel},
		{"esc on the review cancels", []string{kCtrlS, kEsc}, client.Cancel},
		{"ctrl+x on the review declines", []string{kCtrlS, kCtrlX}, client.Decline},
		{"ctrl+s twice accepts", []string{kCtrlS, kCtrlS}, client.Accept},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u := startTUI(t, roundOf([3]string{"confirm_delete", "Delete project apollo?", confirmSchema}), nil)
			u.WaitFor("Delete it for good? *", "ctrl+x decline", "esc cancel")
			for i, k := range tt.keys {
				u.Press(k)
				if k == kCtrlS && i == 0 {
					u.WaitFor("Review")
				}
			}
			res := u.Result()["confirm_delete"]
			if res.Action != tt.action {
				t.Fatalf("action = %q, want %q", res.Action, tt.action)
			}
			if tt.action == client.Accept {
				if diff := cmp.Diff(map[string]any{"confirm": false}, res.Content); diff != "" {
					t.Errorf("content (-want +got):\n%s", diff)
				}
			} else if res.Content != nil {
				t.Errorf("%s carries content %v", res.Action, res.Content)
			}
			if out := u.Output(); !strings.Contains(out, "→ "+tt.action+" sent to Test Server") {
				t.Errorf("no %s status line in output", tt.action)
			}
		})
	}
}

// Esc is huh's filter key on selects: in a filter it leaves the filter;
// only then does it cancel.
func TestFormEscLeavesFilterFirst(t *testing.T) {
	schema := `{"type":"object","properties":{"country":{"type":"string","title":"Country","enum":["Argentina","Brazil","Chile","France","Japan","Kenya","Mexico","Norway","Peru","Spain","Togo","Uganda","Vietnam","Yemen","Zambia","Austria","Belgium","Canada","Denmark","Egypt","Finland","Ghana","India"]}},"required":["country"]}`
	u := startTUI(t, roundOf([3]string{"c", "Where?", schema}), nil)
	u.WaitFor("Country *", "(choose one)", "/ to filter")
	u.Press("/")
	u.WaitFor("type to filter")
	u.Type("an")
	s := u.WaitFor("/an█", "match")
	if strings.Contains(s, "Brazil") || !strings.Contains(s, "Japan") {
		t.Errorf("filter an shows the wrong rows:\n%s", s)
	}
	u.Press(kEsc) // clears the filter
	s = u.WaitGone("/an")
	if !strings.Contains(s, "Brazil") {
		t.Errorf("after esc the full list is not back:\n%s", s)
	}
	u.Press("/")
	u.Type("ja")
	u.WaitFor("/ja█", "1 of 23 match")
	u.Press(kEnter) // picks Japan and moves on: to the review
	u.WaitFor("Review", "Japan")
	u.Press(kShiftTab, kShiftTab, kUp) // back up to the field
	u.Press(kEnter)
	u.WaitFor("field 1/1")
	u.Press(kEsc) // no filter now: cancels
	if res := u.Result()["c"]; res.Action != client.Cancel {
		t.Fatalf("action = %q, want cancel", res.Action)
	}
}
