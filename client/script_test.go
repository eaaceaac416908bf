package client_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
)

func round(n int, keys ...string) client.Round {
	r := client.Round{Number: n}
	for _, k := range keys {
		r.Asks = append(r.Asks, client.Ask{Key: k, Params: &mcp.ElicitParams{Message: "?"}})
	}
	return r
}

func TestParseScriptErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{`[1]`, "is not a JSON object"},
		{`null`, "is null"},
		{`{"k": {"content": {}}}`, `key "k": "action" is missing`},
		{`{"k": {"action": "yes"}}`, `key "k": action "yes" is not accept, decline or cancel`},
		{`{"k": {"action": "decline", "content": {"a": 1}}}`, `decline carries no content`},
		{`{"k": []}`, `key "k": the list is empty`},
		{`{"k": [{"action": "accept"}, {"action": "nope"}]}`, `key "k", entry 2: action "nope"`},
		{`{"k": {"action": "accept", "content": [1]}}`, `"content" must be an object`},
		{`{"k": {"action": "accept", "contents": {"a": 1}}}`, `key "k": unknown field "contents"; an answer has only "action" and "content"`},
		{`{"k": {"action": "decline"}, "k": {"action": "accept"}}`, `f.json: key "k" appears twice`},
		{`{"k": {"action": "accept", "content": {"a": 1, "a": 2}}}`, `f.json: key "a" appears twice`},
		{`{"k": {"action": "decline"}} {"k": {"action": "accept"}}`, `f.json: there is more after the value`},
		{"{\"k\": {\"action\": \"accept\",\n \"content\": {\"a\": \"x\xffy\"}}}", `f.json is not valid UTF-8 (byte 47, line 2); save it as UTF-8`},
	}
	for _, tt := range tests {
		_, err := client.ParseScript(strings.NewReader(tt.in), "f.json")
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseScript(%s) error = %v, want it to contain %q", tt.in, err, tt.want)
		}
	}
}

// A UTF-8 byte order mark, which some editors write, is not an error.
func TestParseScriptAcceptsAByteOrderMark(t *testing.T) {
	if _, err := client.ParseScript(strings.NewReader("\uFEFF{\"*\": {\"action\": \"decline\"}}"), "f.json"); err != nil {
		t.Errorf("ParseScript(BOM + object) error = %v; want none", err)
	}
}

func TestScriptAnswers(t *testing.T) {
	s, err := client.ParseScript(strings.NewReader(`{
		"once": {"action": "accept", "content": {"x": 1}},
		"list": [{"action": "decline"}, {"action": "cancel"}],
		"*": {"action": "cancel"}
	}`), "f.json")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	steps := []struct {
		r       client.Round
		want    map[string]string
		wantErr string
	}{
		{round(1, "once", "list", "other"), map[string]string{"once": "accept", "list": "decline", "other": "cancel"}, ""},
		{round(2, "once", "list"), map[string]string{"once": "accept", "list": "cancel"}, ""},
		{round(3, "list"), nil, `answers ran out for "list" in round 3: key "list" lists 2 answers`},
	}
	for _, st := range steps {
		got, err := s.Answer(ctx, st.r)
		if st.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), st.wantErr) {
				t.Errorf("Answer(round %d) error = %v, want %q", st.r.Number, err, st.wantErr)
			}
			continue
		}
		if err != nil {
			t.Fatalf("Answer(round %d) = %v", st.r.Number, err)
		}
		for k, action := range st.want {
			if got[k] == nil || got[k].Action != action {
				t.Errorf("Answer(round %d)[%q] = %+v, want %s", st.r.Number, k, got[k], action)
			}
		}
	}
}

func TestScriptWithoutMatchNamesTheKey(t *testing.T) {
	s, _ := client.ParseScript(strings.NewReader(`{"a": {"action": "cancel"}}`), "f.json")
	_, err := s.Answer(context.Background(), round(1, "b"))
	if err == nil || !strings.Contains(err.Error(), `answers have nothing for "b" (round 1)`) {
		t.Errorf("Answer(b) error = %v, want it to name key b and round 1", err)
	}
}

func TestScriptURLAcceptHasNoContent(t *testing.T) {
	s, _ := client.ParseScript(strings.NewReader(`{"u": {"action": "accept"}, "f": {"action": "accept"}}`), "f.json")
	r := client.Round{Number: 1, Asks: []client.Ask{
		{Key: "u", Params: &mcp.ElicitParams{Mode: "url", URL: "https://example.com"}},
		{Key: "f", Params: &mcp.ElicitParams{Mode: "form"}},
	}}
	got, err := s.Answer(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	if got["u"].Content != nil {
		t.Errorf("url accept content = %v, want none", got["u"].Content)
	}
	if got["f"].Content == nil {
		t.Errorf("form accept content = nil, want {} (an empty object)")
	}
}

func TestScriptMissingKeySaysAnBeforeAVowel(t *testing.T) {
	s, _ := client.ParseScript(strings.NewReader(`{"other": {"action": "decline"}}`), "f.json")
	_, err := s.Answer(context.Background(), client.Round{Number: 1, Legacy: true, Asks: []client.Ask{{Key: "elicitation", Params: &mcp.ElicitParams{Message: "?"}}}})
	if err == nil || !strings.Contains(err.Error(), `add an "elicitation" key`) {
		t.Errorf("Answer = %v, want it to say 'add an \"elicitation\" key'", err)
	}
}

// Content for a form that was refused (a field of 10,001 options) is not
// blamed on the content: the error says the form was refused, and why.
func TestScriptAcceptOfARefusedFormSaysWhy(t *testing.T) {
	var opts strings.Builder
	for i := 0; i <= 10_000; i++ {
		if i > 0 {
			opts.WriteByte(',')
		}
		fmt.Fprintf(&opts, `"o%d"`, i)
	}
	raw := json.RawMessage(`{"type":"object","properties":{"pick":{"type":"string","enum":[` + opts.String() + `]}}}`)
	s, _ := client.ParseScript(strings.NewReader(`{"k": {"action": "accept", "content": {"pick": "o1"}}}`), "f.json")
	_, err := s.Answer(context.Background(), client.Round{Number: 1, Asks: []client.Ask{client.NewAsk("k", &mcp.ElicitParams{Mode: "form", Message: "?"}, raw)}})
	want := `answers for "k" (round 1) cannot accept: mcpcli refused the form (pick: has 10001 options; mcpcli shows at most 10000); answer it with "decline" or "cancel"`
	if err == nil || err.Error() != want {
		t.Errorf("Answer(accept of a refused form) error = %v\nwant %s", err, want)
	}
}
