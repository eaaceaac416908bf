package render

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/demoserver"
	"github.com/mcpcli/mcpcli/schema"
)

// keyMsgs turns key names and text into key presses: "enter", "tab",
// "up", "down", "left", "right", "space", "esc", "backspace", "ctrl+j";
// anything else is typed character by character.
func keyMsgs(keys ...string) []tea.KeyPressMsg {
	named := map[string]tea.KeyPressMsg{
		"enter":     {Code: tea.KeyEnter},
		"tab":       {Code: tea.KeyTab},
		"up":        {Code: tea.KeyUp},
		"down":      {Code: tea.KeyDown},
		"left":      {Code: tea.KeyLeft},
		"right":     {Code: tea.KeyRight},
		"space":     {Code: tea.KeySpace, Text: " "},
		"esc":       {Code: tea.KeyEscape},
		"backspace": {Code: tea.KeyBackspace},
		"ctrl+j":    {Code: 'j', Mod: tea.ModCtrl},
	}
	var out []tea.KeyPressMsg
	for _, k := range keys {
		if m, ok := named[k]; ok {
			out = append(out, m)
			continue
		}
		for _, r := range k {
			out = append(out, tea.KeyPressMsg{Code: r, Text: string(r)})
		}
	}
	return out
}

// feed focuses a slot's field and sends it keys, as the form model would.
func feed(s *Slot, keys ...string) {
	s.Input.Focus()
	for _, k := range keyMsgs(keys...) {
		s.Input.Update(k)
	}
	s.Input.Blur()
}

func build(t *testing.T, raw string) *FormFields {
	t.Helper()
	form, err := schema.Parse(json.RawMessage(raw))
	if err != nil || !form.Renderable() {
		t.Fatalf("Parse(%s) = %v, %v", raw, form, err)
	}
	b := BuildForm(form)
	for _, s := range b.Slots {
		s.Input.WithWidth(80)
	}
	return b
}

// TestBuildFormKinds goes from schema to huh field to content, for every
// kind: defaults pre-filled, keys typed, the typed value read back.
func TestBuildFormKinds(t *testing.T) {
	const countries = `"oneOf":[{"const":"GB","title":"United Kingdom"},{"const":"FR","title":"France"},{"const":"JP","title":"Japan"}]`
	tests := []struct {
		name    string
		prop    string
		req     bool
		keys    []string
		want    any // nil: left out of the content
		wantErr string
	}{
		{"text typed", `{"type":"string"}`, false, []string{"Ada"}, "Ada", ""},
		{"text left empty is left out", `{"type":"string"}`, false, nil, nil, ""},
		{"text required empty", `{"type":"string"}`, true, nil, nil, "is required"},
		{"text too short", `{"type":"string","minLength":2}`, true, []string{"A"}, nil, "at least 2 characters (now 1)"},
		{"text too long", `{"type":"string","maxLength":3}`, false, []string{"Ada L"}, nil, "at most 3 characters (now 5)"},
		{"text default", `{"type":"string","default":"ada"}`, false, nil, "ada", ""},
		{"text default edited", `{"type":"string","default":"ada"}`, false, []string{"backspace", "backspace", "backspace", "bob"}, "bob", ""},
		{"email default", `{"type":"string","format":"email","default":"a@example.com"}`, true, nil, "a@example.com", ""},
		{"email bad", `{"type":"string","format":"email"}`, false, []string{"nope"}, nil, "email address"},
		{"uri", `{"type":"string","format":"uri"}`, false, []string{"https://example.com"}, "https://example.com", ""},
		{"date", `{"type":"string","format":"date"}`, false, []string{"2026-02-28"}, "2026-02-28", ""},
		{"date bad", `{"type":"string","format":"date"}`, false, []string{"2026-02-30"}, nil, "date like"},
		{"date-time", `{"type":"string","format":"date-time"}`, false, []string{"2026-11-30T14:05:00Z"}, "2026-11-30T14:05:00Z", ""},
		{"multi-line text", `{"type":"string","title":"Short bio","maxLength":500}`, false, []string{"one", "ctrl+j", "two"}, "one\ntwo", ""},
		{"number", `{"type":"number","minimum":0.5,"maximum":2.5}`, false, []string{"1.5"}, 1.5, ""},
		{"number default", `{"type":"number","default":1.7}`, false, nil, 1.7, ""},
		{"number out of range", `{"type":"number","minimum":0.5,"maximum":2.5}`, false, []string{"3"}, nil, "between 0.5 and 2.5"},
		{"number not a number", `{"type":"number"}`, false, []string{"abc"}, nil, "must be a number"},
		{"integer", `{"type":"integer"}`, false, []string{"42"}, int64(42), ""},
		{"integer default edited", `{"type":"integer","default":42}`, false, []string{"backspace", "7"}, int64(47), ""},
		{"integer not whole", `{"type":"integer"}`, false, []string{"4.2"}, nil, "whole number"},
		{"boolean default kept", `{"type":"boolean","default":true}`, false, nil, true, ""},
		{"boolean default, n", `{"type":"boolean","default":true}`, false, []string{"n"}, false, ""},
		{"boolean default, toggled", `{"type":"boolean","default":false}`, true, []string{"left"}, true, ""},
		{"boolean default, space toggles", `{"type":"boolean","default":false}`, false, []string{"space"}, true, ""},
		{"optional boolean stays unset", `{"type":"boolean"}`, false, nil, nil, ""},
		{"optional boolean yes", `{"type":"boolean"}`, false, []string{"down"}, true, ""},
		{"optional boolean no", `{"type":"boolean"}`, false, []string{"down", "down"}, false, ""},
		{"required boolean not chosen", `{"type":"boolean"}`, true, nil, nil, "choose yes or no"},
		{"enum default", `{"type":"string","enum":["light","dark","system"],"default":"system"}`, false, nil, "system", ""},
		{"enum moved", `{"type":"string","enum":["light","dark","system"],"default":"system"}`, false, []string{"up"}, "dark", ""},
		{"titled oneOf unset", `{"type":"string",` + countries + `}`, false, nil, nil, ""},
		{"titled oneOf sends the const", `{"type":"string",` + countries + `}`, false, []string{"down", "down"}, "FR", ""},
		{"titled oneOf filtered", `{"type":"string",` + countries + `}`, true, []string{"/", "jap", "enter"}, "JP", ""},
		{"required select not chosen", `{"type":"string",` + countries + `}`, true, nil, nil, "choose one"},
		{"legacy enumNames", `{"type":"string","enum":["free","pro","team"],"enumNames":["Free","Pro","Team"],"default":"free"}`, false, []string{"down", "down"}, "team", ""},
		{"multi default", `{"type":"array","items":{"enum":["en","fr","ja"]},"default":["en"]}`, true, nil, []string{"en"}, ""},
		{"multi ticked", `{"type":"array","items":{"enum":["en","fr","ja"]},"default":["ja"]}`, false, []string{"space", "down", "space"}, []string{"en", "fr", "ja"}, ""},
		// Cleared on purpose: [] goes, so that the default does not come back.
		{"multi untick the default", `{"type":"array","items":{"enum":["en","fr","ja"]},"default":["en"]}`, false, []string{"space"}, []string{}, ""},
		{"multi untick a default [] cannot replace", `{"type":"array","minItems":1,"items":{"enum":["en","fr","ja"]},"default":["en"]}`, false, []string{"space"}, []string{"en"}, ""},
		{"multi anyOf titles", `{"type":"array","items":{"anyOf":[{"const":"go","title":"Go"},{"const":"mcp","title":"MCP"}]}}`, false, []string{"down", "x"}, []string{"mcp"}, ""},
		{"multi required none is an empty list", `{"type":"array","items":{"enum":["a","b"]}}`, true, nil, []string{}, ""},
		{"multi too many", `{"type":"array","items":{"enum":["a","b","c"]},"maxItems":2}`, false, []string{"space", "down", "space", "down", "space"}, nil, "must have at most 2 chosen (now 3)"},
		{"multi too few", `{"type":"array","items":{"enum":["a","b","c"]},"minItems":2}`, true, []string{"space"}, nil, "must have at least 2 chosen (now 1)"},
		{"multi filtered", `{"type":"array","items":{"enum":["apple","banana","cherry"]}}`, false, []string{"/", "an", "enter", "space", "esc"}, []string{"banana"}, ""},
		{"secret typed", `{"type":"string","title":"Password"}`, true, []string{"hunter2"}, "hunter2", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := ""
			if tt.req {
				req = `,"required":["f"]`
			}
			b := build(t, `{"type":"object","properties":{"f":`+tt.prop+`}`+req+`}`)
			feed(b.Slots[0], tt.keys...)
			content, err := b.Content()
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("keys %q: Content() = %v, %v; want error containing %q", tt.keys, content, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("keys %q: Content() error: %v", tt.keys, err)
			}
			want := map[string]any{}
			if tt.want != nil {
				want["f"] = tt.want
			}
			if diff := cmp.Diff(want, content); diff != "" {
				t.Errorf("keys %q: content (-want +got):\n%s", tt.keys, diff)
			}
		})
	}
}

func TestBuildFormShowsWhatItTakes(t *testing.T) {
	b := build(t, `{"type":"object","properties":{
		"name":{"type":"string","title":"Full name","description":"As on your passport"},
		"password":{"type":"string"},
		"plan":{"type":"string","enum":["free","pro"],"default":"gold"}},"required":["name"]}`)
	name, pw, plan := b.Slots[0], b.Slots[1], b.Slots[2]
	if v := name.Input.View(); !strings.Contains(v, "Full name *") || !strings.Contains(v, "As on your passport") {
		t.Errorf("name field does not show its title and description:\n%s", v)
	}
	feed(pw, "hunter2")
	if v := pw.Input.View(); strings.Contains(v, "hunter2") || !strings.Contains(v, "looks like a secret") {
		t.Errorf("password field shows the password or no warning:\n%s", v)
	}
	if pw.Shown() != "•••••••" {
		t.Errorf("password shown as %q in the review, want dots", pw.Shown())
	}
	plan.setDescription(78, 4)
	if v := plan.Input.View(); !strings.Contains(v, `default "gold" was left out`) {
		t.Errorf("plan field does not say its default was left out:\n%s", v)
	}
}

func TestBuildFormHostileLabels(t *testing.T) {
	h, _ := json.Marshal(hostile)
	b := build(t, `{"type":"object","properties":{
		"a":{"type":"string","title":`+string(h)+`,"description":`+string(h)+`,"default":`+string(h)+`},
		"b":{"type":"string","oneOf":[{"const":"x","title":`+string(h)+`}],"title":`+string(h)+`},
		"c":{"type":"array","items":{"enum":[`+string(h)+`]},"default":[`+string(h)+`]}}}`)
	for _, s := range b.Slots {
		s.setDescription(78, 5)
		s.Input.Focus()
		checkInert(t, s.Field.Name+" view", s.Input.View())
		checkInert(t, s.Field.Name+" review", s.Shown())
		if !strings.Contains(s.Input.View(), "LINK") {
			t.Errorf("%s: the visible text is gone:\n%s", s.Field.Name, s.Input.View())
		}
	}
}

// TestPrompterMatchesForm: piped answers in accessible mode produce the
// same content as the form, for the same choices.
func TestPrompterMatchesForm(t *testing.T) {
	tests := []struct {
		name  string
		lines []string            // one per field, in order
		keys  map[string][]string // per field
	}{
		{"defaults", []string{"Ada Lovelace", "", "", "", "", "", "", "", "", "", "", "", "", ""},
			map[string][]string{"name": {"Ada Lovelace"}}},
		{"everything", []string{"Grace Hopper", "grace@navy.mil", "https://example.com", "1906-12-09", "2026-11-30T14:05:00Z", "Admiral",
			"85", "1.6", "yes", "dark", "Japan", "Pro ($8/mo)", "en, ja", "Go, Terminal UIs"},
			map[string][]string{
				"name": {"Grace Hopper"}, "email": {"backspace", "backspace", "backspace", "backspace", "backspace", "backspace", "backspace", "backspace", "backspace", "backspace", "backspace", "backspace", "backspace", "backspace", "backspace", "grace@navy.mil"},
				"website": {"https://example.com"}, "birthday": {"1906-12-09"}, "call_at": {"2026-11-30T14:05:00Z"}, "bio": {"Admiral"},
				"age": {"85"}, "height": {"backspace", "backspace", "backspace", "1.6"}, "newsletter": {"y"}, "theme": {"up"},
				"country": {"/", "jap", "enter"}, "plan": {"down"}, "languages": {"down", "down", "space"}, "topics": {"space", "down", "down", "space"},
			}},
		{"optional choices left unset, lists emptied", []string{"Ada Lovelace", "", "", "", "", "", "", "", "no", "light", "", "", "fr", ""},
			map[string][]string{"name": {"Ada Lovelace"}, "newsletter": {"n"}, "theme": {"up", "up"}, "languages": {"space", "down", "space"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := build(t, demoserver.ProfileSchema)
			for name, keys := range tt.keys {
				s := b.Slot(name)
				if s == nil {
					t.Fatalf("no field %q", name)
				}
				feed(s, keys...)
			}
			formContent, err := b.Content()
			if err != nil {
				t.Fatalf("form content: %v", err)
			}

			in := "a\n" + strings.Join(tt.lines, "\n") + "\ny\n"
			var out bytes.Buffer
			p := NewPrompter(strings.NewReader(in), &out)
			r := client.Round{Server: client.Server{Name: "demo"}, Asks: []client.Ask{client.NewAsk("profile", &mcp.ElicitParams{Message: "hi"}, json.RawMessage(demoserver.ProfileSchema))}}
			res, err := p.Answer(context.Background(), r)
			if err != nil {
				t.Fatalf("prompter: %v\n%s", err, out.String())
			}
			if res["profile"].Action != client.Accept {
				t.Fatalf("prompter answered %s:\n%s", res["profile"].Action, out.String())
			}
			if diff := cmp.Diff(formContent, res["profile"].Content); diff != "" {
				t.Errorf("prompter content differs from the form's (-form +prompter):\n%s\ntranscript:\n%s", diff, out.String())
			}
		})
	}
}

func TestConsoleHoldsWhileAFormIsUp(t *testing.T) {
	var w bytes.Buffer
	c := NewConsole(&w, ConsoleOptions{})
	c.Printf("before")
	release := c.Hold()
	c.Printf("during")
	c.Terminal(nil).Out.Write([]byte("form\n")) // the form itself is not held
	if got := w.String(); got != "before\nform\n" {
		t.Errorf("while held, the console wrote %q", got)
	}
	inner := c.Hold() // holds nest
	inner()
	if got := w.String(); got != "before\nform\n" {
		t.Errorf("after an inner release, the console wrote %q", got)
	}
	release()
	release() // twice is harmless
	c.Printf("after")
	if got := w.String(); got != "before\nform\nduring\nafter\n" {
		t.Errorf("console wrote %q", got)
	}
}

func TestStatusLine(t *testing.T) {
	r := roundOf([3]string{"a", "m", confirmSchema}, [3]string{"b", "m", confirmSchema})
	r.Server.Title = "Evil\x1b]0;x\x07Server"
	tests := []struct {
		i    int
		res  *mcp.ElicitResult
		want string
	}{
		{0, &mcp.ElicitResult{Action: client.Accept, Content: map[string]any{"confirm": true}}, "→ accept 1 of 2 sent to EvilServer with 1 value"},
		{1, &mcp.ElicitResult{Action: client.Decline}, "→ decline 2 of 2 sent to EvilServer"},
		{1, &mcp.ElicitResult{Action: client.Cancel}, "→ cancel 2 of 2 sent to EvilServer"},
	}
	for _, tt := range tests {
		if got := statusLine(r, tt.i, tt.res); got != tt.want {
			t.Errorf("statusLine(%d, %s) = %q, want %q", tt.i, tt.res.Action, got, tt.want)
		}
	}
}

// An untouched default is sent as the server wrote it, as the line prompter
// sends it: the text put in the input is sanitized and clipped for the
// screen, and must not stand in for the value (a 5,000-character default
// went out cut to 4,000 with a "…", a tab as four spaces, and a default that
// fit maxLength was refused once its tab became spaces).
func TestUntouchedDefaultIsSentAsWritten(t *testing.T) {
	long := strings.Repeat("x", 5000)
	raw := `{"type":"object","properties":{
		"long":{"type":"string","maxLength":10000,"default":"` + long + `"},
		"tab":{"type":"string","maxLength":3,"default":"a\tb"},
		"esc":{"type":"string","default":"\u001b[31mred"},
		"edited":{"type":"string","default":"a\tb"}}}`
	b := build(t, raw)
	feed(b.Slot("edited"), "c")
	for _, s := range b.Slots {
		if err := s.checkText(s.text); err != nil {
			t.Errorf("%s: the default is refused in the form: %v", s.Field.Name, err)
		}
	}
	got, err := b.Content()
	if err != nil {
		t.Fatalf("Content: %v", err)
	}
	want := map[string]any{"long": long, "tab": "a\tb", "esc": "\x1b[31mred", "edited": "a    bc"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("content (-want +got):\n%s", diff)
	}

	var out bytes.Buffer
	p := NewPrompter(strings.NewReader("a\n\n\n\n\ny\n"), &out)
	r := client.Round{Server: client.Server{Name: "s"}, Asks: []client.Ask{client.NewAsk("k", &mcp.ElicitParams{Message: "hi"}, json.RawMessage(raw))}}
	res, err := p.Answer(context.Background(), r)
	if err != nil {
		t.Fatalf("prompter: %v", err)
	}
	want["edited"] = "a\tb"
	if diff := cmp.Diff(want, res["k"].Content); diff != "" {
		t.Errorf("prompter content (-want +got):\n%s", diff)
	}
}

// The review shows a line break in a value, which is sent, as ↵: shown as a
// space, "one\ntwo" read as "one two".
func TestReviewShowsLineBreaks(t *testing.T) {
	raw := `{"type":"object","properties":{"bio":{"type":"string","maxLength":2000,"default":"one\ntwo"}}}`
	b := build(t, raw)
	if got := b.Slot("bio").Shown(); got != "one↵two" {
		t.Errorf("form review shows %q, want %q", got, "one↵two")
	}
	var out bytes.Buffer
	p := NewPrompter(strings.NewReader("a\n\ny\n"), &out)
	r := client.Round{Server: client.Server{Name: "s"}, Asks: []client.Ask{client.NewAsk("k", &mcp.ElicitParams{Message: "hi"}, json.RawMessage(raw))}}
	if _, err := p.Answer(context.Background(), r); err != nil {
		t.Fatalf("prompter: %v", err)
	}
	if !strings.Contains(out.String(), "bio  one↵two") || !strings.Contains(out.String(), "[default: one↵two]") {
		t.Errorf("line prompter does not show the line break:\n%s", out.String())
	}
}
