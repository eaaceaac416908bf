package render

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

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
		{"ctrl+c, then esc, cancels", []string{kCtrlC, kEsc}, client.Cancel},
		{"ctrl+c, then another key, goes on", []string{kCtrlC, kCtrlX}, client.Decline},
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

func TestFormReviewGoesBackToAField(t *testing.T) {
	schema := `{"type":"object","properties":{
		"name":{"type":"string","title":"Name","minLength":2},
		"age":{"type":"integer","title":"Age","minimum":0},
		"city":{"type":"string","title":"City"}},"required":["name"]}`
	u := startTUI(t, roundOf([3]string{"p", "Who are you?", schema}), nil)
	u.WaitFor("Name *")
	u.Type("Ada")
	u.Press(kEnter)
	u.Type("36")
	u.Press(kEnter, kEnter)
	s := u.WaitFor("Review", "Ada", "36")
	if !strings.Contains(s, "City") || !strings.Contains(s, "(not set: left out)") {
		t.Errorf("review does not show the unset city:\n%s", s)
	}
	// Up from the buttons reaches the last field; up again the age.
	u.Press(kUp, kUp, kEnter)
	u.WaitFor("field 2/3")
	u.Press(kBack, kBack)
	u.Type("37")
	u.Press(kEnter) // an edit from the review goes back to it
	u.WaitFor("Review", "37")
	u.Press(kCtrlS)
	res := u.Result()["p"]
	if diff := cmp.Diff(map[string]any{"name": "Ada", "age": int64(37)}, res.Content); diff != "" {
		t.Errorf("content (-want +got):\n%s", diff)
	}
}

// TestFormReviewDownFromTheButtons: the review opens on Accept and says
// "↑/↓ pick a field"; ↓ from any button wraps to the first field (enter
// then edits it), never to a send.
func TestFormReviewDownFromTheButtons(t *testing.T) {
	schema := `{"type":"object","properties":{
		"name":{"type":"string","title":"Name"},
		"city":{"type":"string","title":"City"}}}`
	for _, tc := range []struct {
		name string
		keys []string
	}{
		{"from accept", []string{kDown}},
		{"from decline", []string{kRight, kDown}},
		{"from cancel", []string{kRight, kRight, kDown}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u := startTUI(t, roundOf([3]string{"p", "Who are you?", schema}), nil)
			u.WaitFor("Name")
			u.Type("Ada")
			u.Press(kCtrlS)
			u.WaitFor("Review", "▸[ Accept: send ]")
			u.Press(tc.keys...)
			s := u.WaitFor("Review", "▸ Name")
			if strings.Contains(s, "▸[") {
				t.Errorf("after %q a button is still focused:\n%s", tc.keys, s)
			}
			u.Press(kDown)
			u.WaitFor("▸ City")
			u.Press(kDown) // past the last field: the buttons again
			u.WaitFor("▸[ Accept: send ]")
			u.Press(kDown, kEnter) // the first field, to edit
			u.WaitFor("field 1/2")
			u.Press(kEsc)
			if err := u.Err(); err != nil {
				t.Fatalf("Answer: %v", err)
			}
			if got := u.res["p"].Action; got != client.Cancel {
				t.Errorf("action = %q, want cancel (nothing sent)", got)
			}
		})
	}
}

func TestFormInvalidContentIsNeverSent(t *testing.T) {
	schema := `{"type":"object","properties":{
		"email":{"type":"string","title":"Email","format":"email"},
		"n":{"type":"integer","title":"Count","maximum":3}},"required":["email"]}`
	u := startTUI(t, roundOf([3]string{"e", "Contact?", schema}), nil)
	u.WaitFor("Email *")
	u.Type("not-an-email")
	u.WaitFor("✗ must be an email address like name@example.com")
	u.Press(kEnter) // refused
	u.WaitFor("field 1/2")
	u.Press(kCtrlS) // the review, with the problem on the row
	s := u.WaitFor("Review", "✗ must be an email address")
	if !strings.Contains(s, "▸ Email") {
		t.Errorf("the cursor is not on the bad field:\n%s", s)
	}
	u.Press(kCtrlS) // accept is refused
	u.WaitFor("Not sent: Email must be an email address")
	u.Press(kEnter) // edit the field under the cursor
	u.WaitFor("field 1/2")
	for range len("not-an-email") {
		u.Press(kBack)
	}
	u.Type("ada@example.com")
	u.Press(kEnter)
	u.WaitFor("Review", "ada@example.com")
	u.Press(kUp, kEnter) // the count
	u.WaitFor("field 2/2")
	u.Type("9")
	u.WaitFor("✗ must be at most 3")
	u.Press(kEnter)
	u.Press(kBack)
	u.Type("2")
	u.Press(kEnter)
	u.WaitFor("Review", "▸[ Accept: send ]")
	u.Press(kEnter)
	res := u.Result()["e"]
	if diff := cmp.Diff(map[string]any{"email": "ada@example.com", "n": int64(2)}, res.Content); diff != "" {
		t.Errorf("content (-want +got):\n%s", diff)
	}
}

func TestFormUnrenderable(t *testing.T) {
	schema := `{"type":"object","properties":{
		"name":{"type":"string"},
		"address":{"type":"object","properties":{"street":{"type":"string"}}},
		"tags":{"type":"array","items":{"type":"object"}}}}`
	for _, tt := range []struct {
		keys   []string
		action string
	}{
		{[]string{kEnter}, client.Cancel}, // cancel is the default
		{[]string{kLeft, kEnter}, client.Decline},
		{[]string{kCtrlX}, client.Decline},
		{[]string{kEsc}, client.Cancel},
	} {
		u := startTUI(t, roundOf([3]string{"x", "Where do you live?", schema}), nil)
		s := u.WaitFor("Where do you live?", "mcpcli cannot show this form:", "address: is a nested object", "tags: is an array of objects", "[ Decline ]", "[ Cancel ]")
		if strings.Contains(s, "Accept") {
			t.Errorf("an unrenderable form offers accept:\n%s", s)
		}
		u.Press(tt.keys...)
		if res := u.Result()["x"]; res.Action != tt.action || res.Content != nil {
			t.Errorf("keys %q: answer %+v, want %s without content", tt.keys, res, tt.action)
		}
	}
}

func TestFormURLAsk(t *testing.T) {
	r := roundOf()
	r.Asks = []client.Ask{{Key: "connect", Params: &mcp.ElicitParams{Mode: "url", Message: "Sign in to continue.", URL: "https://auth.example.com/connect?id=1\x1b]8;;https://evil.example\x07"}}}
	t.Run("no URL asker", func(t *testing.T) {
		// URL consent lives in urlmode only: without it, a URL ask is an
		// error, never a screen of render's own.
		a := &FormAnswerer{Term: &Terminal{In: strings.NewReader(""), Out: io.Discard}}
		if _, err := a.Answer(context.Background(), r); err == nil || !strings.Contains(err.Error(), "URL") {
			t.Errorf("Answer(url ask) without a URL asker = %v, want an error about URLs", err)
		}
	})
	t.Run("the URL asker answers", func(t *testing.T) {
		var called []int
		u := startTUI(t, r, func(a *FormAnswerer) {
			a.URL = func(_ context.Context, got client.Round, i int) (*mcp.ElicitResult, error) {
				called = append(called, i)
				return &mcp.ElicitResult{Action: client.Decline}, nil
			}
		})
		if res := u.Result()["connect"]; res.Action != client.Decline {
			t.Errorf("answer %+v, want the asker's decline", res)
		}
		if diff := cmp.Diff([]int{0}, called); diff != "" {
			t.Errorf("URL asker calls (-want +got):\n%s", diff)
		}
	})
}

func TestFormCancelAsksAboutTheRest(t *testing.T) {
	three := func() client.Round {
		return roundOf(
			[3]string{"a", "First question", confirmSchema},
			[3]string{"b", "Second question", confirmSchema},
			[3]string{"c", "Third question", confirmSchema})
	}
	t.Run("yes cancels all", func(t *testing.T) {
		u := startTUI(t, three(), nil)
		u.WaitFor("Test Server asks (1 of 3)", "First question")
		u.Press(kEsc)
		u.WaitFor("Cancel the other 2 asks of this round too?")
		u.Press("y")
		res := u.Result()
		for _, k := range []string{"a", "b", "c"} {
			if res[k] == nil || res[k].Action != client.Cancel {
				t.Errorf("ask %s: %+v, want cancel", k, res[k])
			}
		}
		out := u.Output()
		for _, want := range []string{"→ cancel 1 of 3", "→ cancel 2 of 3", "→ cancel 3 of 3"} {
			if !strings.Contains(out, want) {
				t.Errorf("output lacks %q", want)
			}
		}
	})
	t.Run("no goes on", func(t *testing.T) {
		u := startTUI(t, three(), nil)
		u.WaitFor("First question")
		u.Press(kEsc)
		u.WaitFor("Cancel the other 2 asks")
		u.Press("n")
		u.WaitFor("Test Server asks (2 of 3)", "Second question")
		u.Press("y", kEnter) // yes, then accept on the review
		u.WaitFor("Test Server asks (3 of 3)", "Third question")
		u.Press(kCtrlX)
		res := u.Result()
		got := map[string]string{}
		for k, v := range res {
			got[k] = v.Action
		}
		if diff := cmp.Diff(map[string]string{"a": "cancel", "b": "accept", "c": "decline"}, got); diff != "" {
			t.Errorf("actions (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(map[string]any{"confirm": true}, res["b"].Content); diff != "" {
			t.Errorf("content of b (-want +got):\n%s", diff)
		}
	})
	t.Run("a cancelled URL ask asks too", func(t *testing.T) {
		r := three()
		r.Asks[0].Params = &mcp.ElicitParams{Mode: "url", Message: "Go there", URL: "https://example.com/"}
		u := startTUI(t, r, func(a *FormAnswerer) {
			a.URL = func(context.Context, client.Round, int) (*mcp.ElicitResult, error) {
				return &mcp.ElicitResult{Action: client.Cancel}, nil
			}
		})
		u.WaitFor("Cancel the other 2 asks")
		u.Press(kEnter) // yes is the default
		if res := u.Result(); res["c"].Action != client.Cancel {
			t.Errorf("ask c: %+v, want cancel", res["c"])
		}
	})
}

func TestFormSecretIsMaskedAndWarned(t *testing.T) {
	schema := `{"type":"object","properties":{"api_key":{"type":"string","title":"API key"}},"required":["api_key"]}`
	u := startTUI(t, roundOf([3]string{"k", "Paste your key.", schema}), nil)
	u.WaitFor("API key *", "⚠ this looks like a secret", "servers must")
	u.Type("sk-live-123")
	s := u.WaitFor("> ***********")
	if strings.Contains(s, "sk-live") {
		t.Errorf("the secret shows as typed:\n%s", s)
	}
	u.Press(kEnter)
	s = u.WaitFor("Review", "API key *  ••••")
	if strings.Contains(s, "sk-live") {
		t.Errorf("the review shows the secret:\n%s", s)
	}
	u.Press(kEnter)
	if res := u.Result()["k"]; res.Content["api_key"] != "sk-live-123" {
		t.Errorf("content %v, want the key as typed", res.Content)
	}
}

func TestFormBooleansWithoutDefault(t *testing.T) {
	schema := `{"type":"object","properties":{
		"optin":{"type":"boolean","title":"Newsletter"},
		"agree":{"type":"boolean","title":"I agree"}},"required":["agree"]}`
	u := startTUI(t, roundOf([3]string{"b", "Two questions", schema}), nil)
	u.WaitFor("Newsletter", "(not set: leave it out)", "Yes", "No")
	u.Press(kEnter) // an optional yes/no may stay unset
	u.WaitFor("field 2/2", "(choose one)")
	u.Press(kEnter)
	u.WaitFor("✗ is required: choose yes or no")
	u.Press(kDown, kDown, kEnter) // No
	u.WaitFor("Review")
	u.Press(kEnter)
	res := u.Result()["b"]
	if diff := cmp.Diff(map[string]any{"agree": false}, res.Content); diff != "" {
		t.Errorf("content (-want +got):\n%s", diff)
	}
}

func TestFormMultiSelectLimits(t *testing.T) {
	schema := `{"type":"object","properties":{"langs":{"type":"array","title":"Languages","minItems":1,"maxItems":2,
		"items":{"anyOf":[{"const":"en","title":"English"},{"const":"fr","title":"French"},{"const":"ja","title":"Japanese"}]},"default":["fr"]}},"required":["langs"]}`
	u := startTUI(t, roundOf([3]string{"l", "Which?", schema}), nil)
	u.WaitFor("Languages *", "[x] French", "[ ] English")
	u.Press(kSpace)       // English on
	u.Press(kDown, kDown) // Japanese
	u.Press(kSpace)
	u.WaitFor("✗ must have at most 2 chosen (now 3)")
	u.Press(kEnter) // refused
	u.WaitFor("field 1/1")
	u.Press(kUp, kSpace) // French off
	u.WaitGone("✗")
	u.Press(kEnter)
	u.WaitFor("Review", "English, Japanese")
	u.Press(kEnter)
	if diff := cmp.Diff(map[string]any{"langs": []string{"en", "ja"}}, u.Result()["l"].Content); diff != "" {
		t.Errorf("content (-want +got):\n%s", diff)
	}
}

func TestFormEmptySchemaIsJustYes(t *testing.T) {
	u := startTUI(t, roundOf([3]string{"ok", "Shall I go on?", `{"type":"object","properties":{}}`}), nil)
	u.WaitFor("Shall I go on?", "(no fields: accept just says yes)", "▸[ Accept: send ]")
	u.Press(kEnter)
	res := u.Result()["ok"]
	if res.Action != client.Accept || res.Content == nil || len(res.Content) != 0 {
		t.Errorf("answer %+v, want accept with {}", res)
	}
}

// A long form pages; every page keeps who asks and the message on screen,
// and nothing is drawn past 80×24.
func TestFormPagesFitTheScreen(t *testing.T) {
	var props []string
	for i := 1; i <= 40; i++ {
		props = append(props, fmt.Sprintf(`"f%02d":{"type":"string","title":"Field %d","description":"Description of field %d, long enough to wrap on a narrow terminal when it is shown under its title."}`, i, i, i))
	}
	schema := `{"type":"object","properties":{` + strings.Join(props, ",") + `}}`
	u := startTUI(t, roundOf([3]string{"long", "A long form.", schema}), nil)
	u.WaitFor("page 1/", "Field 1")
	for i := 1; i <= 40; i++ {
		s := u.WaitFor(fmt.Sprintf("field %d/40", i))
		checkFits(t, s, 80, 24)
		for _, want := range []string{"Test Server asks", "A long form.", fmt.Sprintf("Field %d", i)} {
			if !strings.Contains(s, want) {
				t.Fatalf("field %d: screen lacks %q:\n%s", i, want, s)
			}
		}
		u.Type(fmt.Sprint(i))
		u.Press(kEnter)
	}
	s := u.WaitFor("Review", "1–")
	checkFits(t, s, 80, 24)
	u.Press(kCtrlS)
	res := u.Result()["long"]
	if len(res.Content) != 40 || res.Content["f07"] != "7" {
		t.Errorf("content %v, want 40 values", res.Content)
	}
}

func checkFits(t *testing.T, screen string, w, h int) {
	t.Helper()
	lines := strings.Split(screen, "\n")
	if len(lines) > h {
		t.Errorf("screen is %d lines, more than %d", len(lines), h)
	}
	for _, l := range lines {
		if n := ansi.StringWidth(l); n > w {
			t.Errorf("line is %d cells, more than %d: %q", n, w, l)
		}
	}
}

// TestFormLongMessageCutOnce: a message line cut for the pointer to the
// rest shows one ellipsis, the pointer's.
func TestFormLongMessageCutOnce(t *testing.T) {
	var msg []string
	for i := 1; i <= 10; i++ {
		msg = append(msg, fmt.Sprintf("Line %d of the message, long enough to be cut before the pointer.", i))
	}
	schema := `{"type":"object","properties":{"ok":{"type":"boolean","title":"OK?","default":true}}}`
	u := startTUI(t, roundOf([3]string{"m", strings.Join(msg, "\n"), schema}), nil)
	s := u.WaitFor("ctrl+o: read it all", "OK?")
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, "read it all") && strings.Count(l, "…") != 1 {
			t.Errorf("the cut line shows %d ellipses, want 1: %q", strings.Count(l, "…"), l)
		}
	}
	u.Press(kEsc)
	u.Err()
}

func TestFormLongMessageStaysAndReadsInFull(t *testing.T) {
	var msg []string
	for i := 1; i <= 30; i++ {
		msg = append(msg, fmt.Sprintf("Line %d of the message.", i))
	}
	schema := `{"type":"object","properties":{"ok":{"type":"boolean","title":"OK?","default":true}}}`
	u := startTUI(t, roundOf([3]string{"m", strings.Join(msg, "\n"), schema}), nil)
	s := u.WaitFor("Line 1 of the message.", "ctrl+o: read it all", "OK?")
	checkFits(t, s, 80, 24)
	if strings.Contains(s, "Line 30") {
		t.Errorf("the whole message is in the header:\n%s", s)
	}
	u.Press(kCtrlO)
	u.WaitFor("The server's message, in full:")
	u.Press("G")
	u.WaitFor("Line 30 of the message.")
	u.Press(kEsc) // back, not cancel
	u.WaitFor("OK?", "field 1/1")
	u.Press(kEnter, kEnter)
	if res := u.Result()["m"]; res.Action != client.Accept {
		t.Errorf("answer %+v, want accept", res)
	}
}

func TestFormTinyTerminal(t *testing.T) {
	u := startTUI(t, roundOf([3]string{"profile", "Tell me about yourself, at length, on a very small screen.", demoserver.ProfileSchema}), nil, 40, 10)
	u.WaitFor("field 1/14")
	for i := 0; i < 14; i++ {
		u.Press(kCtrlS)
		checkFits(t, u.WaitFor("Review"), 40, 10)
		u.Press("g")
		for range i {
			u.Press("j")
		}
		u.Press(kEnter)
		checkFits(t, u.WaitFor(fmt.Sprintf("field %d/14", i+1)), 40, 10)
	}
	u.Press(kCtrlX)
	if res := u.Result()["profile"]; res.Action != client.Decline {
		t.Errorf("answer %+v, want decline", res)
	}
}

// A resize lays the form out again and keeps the focused field on screen.
func TestFormResize(t *testing.T) {
	m := newAskModel(roundOf([3]string{"profile", "Tell me about yourself.", demoserver.ProfileSchema}), 0)
	m.Init()
	m.Update(tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl}) // the review
	m.Update(tea.KeyPressMsg{Code: 'g', Text: "g"})
	for range 9 { // down to the theme, field 10
		m.Update(tea.KeyPressMsg{Code: tea.KeyDown})
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	for _, size := range [][2]int{{80, 24}, {132, 50}, {40, 12}, {200, 10}, {80, 24}} {
		m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		s := ansi.Strip(m.View().Content)
		checkFits(t, s, size[0], size[1])
		if !strings.Contains(s, "field 10/14") || !strings.Contains(s, "Theme") {
			t.Errorf("at %dx%d the focused field is not on screen:\n%s", size[0], size[1], s)
		}
	}
}

// The validator's refusal is the only place the person learns why a value
// that passed the field checks is not sent (pattern, const...): it is
// wrapped, not cut at the screen's edge.
func TestFormReviewShowsTheWholeRefusal(t *testing.T) {
	schema := `{"type":"object","properties":{
		"code":{"type":"string","title":"Code","pattern":"^[a-z]+$"}},"required":["code"]}`
	u := startTUI(t, roundOf([3]string{"e", "Code?", schema}), nil)
	u.WaitFor("Code *")
	u.Type("ABC")
	u.Press(kEnter)
	u.WaitFor("Review")
	u.Press(kCtrlS)
	s := u.WaitFor("Not sent:")
	flat := strings.Join(strings.Fields(s), " ")
	for _, want := range []string{`"ABC" does not match`, "^[a-z]+$", "decline or cancel.", "Accept: send"} {
		if !strings.Contains(flat, want) {
			t.Errorf("the review lacks %q:\n%s", want, s)
		}
	}
	u.Press(kEsc)
	u.Result()
}

// y and n answer every yes/no and move on, with or without a default;
// ←/→ and space move between yes and no.
func TestFormYesNoKeysEverywhere(t *testing.T) {
	schema := `{"type":"object","properties":{
		"a":{"type":"boolean","title":"First"},
		"b":{"type":"boolean","title":"Second","default":true},
		"c":{"type":"boolean","title":"Third"},
		"d":{"type":"boolean","title":"Fourth"}},"required":["a","c","d"]}`
	u := startTUI(t, roundOf([3]string{"b", "Four questions", schema}), nil)
	u.WaitFor("First *", "field 1/4")
	u.Press("y")
	u.WaitFor("field 2/4")
	u.Press("n")
	u.WaitFor("field 3/4")
	u.Press(kRight, kEnter) // the first choice after "(choose one)": yes
	u.WaitFor("field 4/4")
	u.Press(kSpace, kSpace, kEnter) // yes, then no
	u.WaitFor("Review")
	u.Press(kEnter)
	res := u.Result()["b"]
	if diff := cmp.Diff(map[string]any{"a": true, "b": false, "c": true, "d": false}, res.Content); diff != "" {
		t.Errorf("content (-want +got):\n%s", diff)
	}
}

// A server that asks again after every cancel can be left from inside the
// form: a second ctrl+c abandons the whole request.
func TestFormCtrlCTwiceAbandonsTheRequest(t *testing.T) {
	for _, tc := range []struct {
		name string
		keys []string
		then string
	}{{"on a field", nil, "field 1/1"}, {"on the review", []string{kCtrlS}, "Review"}, {"on the cancel-the-rest question", []string{kEsc}, "Cancel the other 1 ask"}} {
		t.Run(tc.name, func(t *testing.T) {
			r := roundOf([3]string{"a", "First question", confirmSchema}, [3]string{"b", "Second question", confirmSchema})
			u := startTUI(t, r, nil)
			u.WaitFor("First question")
			u.Press(tc.keys...)
			u.WaitFor(tc.then)
			u.Press(kCtrlC)
			u.WaitFor("Quit? ctrl+c again leaves mcpcli and abandons the request", "esc cancels just this question")
			u.Press(kCtrlC)
			if err := u.Err(); !errors.Is(err, client.ErrAbandoned) {
				t.Errorf("Answer = %v, want ErrAbandoned", err)
			}
		})
	}
}

// Inside the session the second ctrl+c abandons the request, and the
// form says so without promising to leave mcpcli.
func TestFormCtrlCInSession(t *testing.T) {
	u := startTUI(t, roundOf([3]string{"a", "First question", confirmSchema}), func(a *FormAnswerer) { a.InSession = true })
	u.WaitFor("First question")
	u.Press(kCtrlC)
	s := u.WaitFor("Abandon? ctrl+c again abandons the request", "the session stays")
	if strings.Contains(s, "leaves mcpcli") {
		t.Errorf("a form in the session says ctrl+c leaves mcpcli:\n%s", s)
	}
	u.Press(kCtrlC)
	if err := u.Err(); !errors.Is(err, client.ErrAbandoned) {
		t.Errorf("Answer = %v, want ErrAbandoned", err)
	}
}

// What the review shows is what goes: a field left empty that has a
// default says the default is sent, and it is.
func TestFormReviewShowsTheDefaultThatGoes(t *testing.T) {
	schema := `{"type":"object","properties":{"name":{"type":"string","title":"Name","default":"Ada"},"note":{"type":"string","title":"Note"}}}`
	u := startTUI(t, roundOf([3]string{"p", "Who?", schema}), nil)
	u.WaitFor("Name", "field 1/2")
	u.Press(kBack, kBack, kBack, kCtrlS)
	u.WaitFor("Review", "(empty: the default, Ada, is sent)", "(not set: left out)")
	u.Press(kEnter)
	res := u.Result()["p"]
	if diff := cmp.Diff(map[string]any{"name": "Ada"}, res.Content); diff != "" {
		t.Errorf("content (-want +got):\n%s", diff)
	}
	if !strings.Contains(u.Output(), "→ accept sent to Test Server with 1 value") {
		t.Errorf("the status line does not count what was sent:\n%s", u.Output())
	}
}

// "* required" is said only where something is; a filter counts only the
// server's own choices.
func TestFormLegendAndFilterCount(t *testing.T) {
	schema := `{"type":"object","properties":{"c":{"type":"string","title":"Colour","enum":["red","green","blue"]}}}`
	u := startTUI(t, roundOf([3]string{"c", "Pick", schema}), nil)
	s := u.WaitFor("Colour", "field 1/1")
	if strings.Contains(s, "* required") {
		t.Errorf("a form without required fields says \"* required\":\n%s", s)
	}
	u.Press("/", "e")
	u.WaitFor("3 of 3 match") // not "4 of 3": "(not set: leave it out)" is no choice
	u.Press(kEnter)
	u.WaitFor("Review")
	u.Press(kCtrlX)
	u.Err()
}

// A title with keycap emoji (a digit, U+FE0F, U+20E3) longer than a third of
// the screen reached the review and panicked: the cut and the measure
// disagreed about such characters, and the pad went negative.
func TestFormReviewWithKeycapTitles(t *testing.T) {
	title := strings.Repeat("Pick 1\ufe0f\u20e3 2\ufe0f\u20e3 3\ufe0f\u20e3 ", 4)
	schema := fmt.Sprintf(`{"type":"object","properties":{"a":{"type":"string","title":%q,"default":"x"},"b":{"type":"string","title":"B","default":"y"}}}`, title)
	u := startTUI(t, roundOf([3]string{"k", "Keycaps", schema}), nil)
	u.WaitFor("field 1/2")
	u.Press(kCtrlS)
	s := u.WaitFor("Review")
	for _, l := range strings.Split(s, "\n") {
		if Width(l) > 80 {
			t.Errorf("review line wider than 80: %q", l)
		}
	}
	u.Press(kCtrlS)
	if res := u.Result()["k"]; res.Action != client.Accept {
		t.Errorf("answer %+v, want accept", res)
	}
}

// FuzzTruncate: the cut is never wider than asked, by the measure the
// forms pad with, and padding never panics.
func FuzzTruncate(f *testing.F) {
	for _, s := range []string{"plain", "1\ufe0f\u20e3 2\ufe0f\u20e3", "👨‍👩‍👧 family", "é\u0301", "\x1b[31mred\x1b[0m", "漢字かな", "a\u200bb", "🏴󠁧󠁢󠁳󠁣󠁴󠁿"} {
		f.Add(s, 5)
	}
	f.Fuzz(func(t *testing.T, raw string, w int) {
		w = w % 200
		s := Line(raw) // what reaches the forms is sanitized first
		if strings.ContainsRune(s, '\x1b') {
			t.Errorf("Line(%q) keeps an escape", raw)
		}
		got := truncate(s, w)
		if w > 0 && Width(got) > w {
			t.Errorf("truncate(%q, %d) = %q, %d cells wide", s, w, got, Width(got))
		}
		if w <= 0 && got != "" {
			t.Errorf("truncate(%q, %d) = %q, want nothing", s, w, got)
		}
		if p := pad(got, w); w > 0 && Width(p) < w {
			t.Errorf("pad(%q, %d) = %q, %d cells", got, w, p, Width(p))
		}
	})
}

// A 1 MB paste is cut at the field's limit, and the field says so; the
// form stays quick (see BenchmarkKeystrokeAfter1MBPaste).
func TestFormPasteIsCutAtTheFieldsLimit(t *testing.T) {
	for _, tc := range []struct {
		name, prop string
		limit      int
	}{
		{"line", `{"type":"string"}`, maxLineChars},
		{"text", `{"type":"string","title":"Notes"}`, maxTextChars},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := newAskModel(client.Round{Server: client.Server{Name: "s"}, Asks: []client.Ask{
				client.NewAsk("k", &mcp.ElicitParams{Message: "m"}, json.RawMessage(`{"type":"object","properties":{"f":`+tc.prop+`}}`))}}, 0)
			m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
			m.slot().focus()
			m.Update(tea.PasteMsg{Content: "small"})
			if got := m.hint(0); strings.Contains(got, "cut") {
				t.Errorf("after a small paste the hint is %q; want no cut", got)
			}
			m.Update(tea.PasteMsg{Content: strings.Repeat("x", 1<<20)})
			if n := utf8.RuneCountInString(m.slot().text); n != tc.limit {
				t.Errorf("after a 1 MB paste the field holds %d characters; want %d", n, tc.limit)
			}
			if got := ansi.Strip(m.hint(0)); !strings.Contains(got, fmt.Sprintf("the paste was cut at %d characters", tc.limit)) {
				t.Errorf("hint after a 1 MB paste = %q; want it to say the paste was cut", got)
			}
			if v := ansi.Strip(m.View().Content); strings.Count(v, "x") > 80*24 {
				t.Errorf("the screen shows %d x's; want no more than fit", strings.Count(v, "x"))
			}
		})
	}
}

// On a tiny terminal (20x5) the field being answered keeps its input line:
// the header shrinks to the title, descriptions and the rule go.
func TestFormTinyTerminalKeepsTheInputLine(t *testing.T) {
	m := newAskModel(roundOf([3]string{"profile", "Tell me about yourself.", demoserver.ProfileSchema}), 0)
	m.Update(tea.WindowSizeMsg{Width: 20, Height: 5})
	m.slot().focus()
	m.Update(tea.KeyPressMsg{Code: 'A', Text: "A"})
	screen := ansi.Strip(m.View().Content)
	lines := strings.Split(screen, "\n")
	if len(lines) > 5 {
		t.Errorf("the screen has %d lines on a 5-line terminal:\n%s", len(lines), screen)
	}
	if !strings.Contains(screen, "Full name *") || !strings.Contains(screen, "> A") {
		t.Errorf("the field's title and input line are not both on the 20x5 screen:\n%s", screen)
	}
	for _, l := range lines {
		if w := Width(l); w > 20 {
			t.Errorf("line %q is %d cells wide on a 20-cell terminal", l, w)
		}
	}
	// Back to a roomy terminal, the header and the description return.
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	if screen := ansi.Strip(m.View().Content); !strings.Contains(screen, "Tell me about yourself.") || !strings.Contains(screen, "As it should appear") {
		t.Errorf("at 80x24 the message or description is missing:\n%s", screen)
	}
}
