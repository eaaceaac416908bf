package flow_test

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/flow"
)

func TestParseReadsEveryPart(t *testing.T) {
	src := `# a comment
server command mcpcli demo-server --secret 'a b'  # trailing
connection shared

call "tool with space" {"a": [1, 2],
                        "b": {"c": true}}
  round 1
    ask k1 url
      url ~ /^https:\/\/example\.com\//
    answer k1 accept
  round 3
    ask "key two"
      type "my field" == "string"
      enum f contains "x"
    answer "key two" accept {"password": "$env:PW"}
  result
    rounds == 3
    structuredContent contains {"n": 1}

prompt greet {"name": "Ada"}
read demo://x
  result
    error ~ "not found"
`
	f, err := flow.Parse("all.flow", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(f.Format()); got != src {
		t.Errorf("Format() is not the source:\n%s", got)
	}
	if diff := cmp.Diff(flow.Server{Command: []string{"mcpcli", "demo-server", "--secret", "a b"}, Line: 2}, f.Server); diff != "" {
		t.Errorf("Server (-want +got):\n%s", diff)
	}
	if !f.Shared || len(f.Steps) != 3 {
		t.Fatalf("Shared = %v, %d steps; want true, 3", f.Shared, len(f.Steps))
	}
	st := f.Steps[0]
	var args map[string]any
	if err := json.Unmarshal(st.Args, &args); err != nil || st.Target != "tool with space" || st.Kind != flow.Call {
		t.Errorf("step 1 = %s %q %s (%v)", st.Kind, st.Target, st.Args, err)
	}
	if len(st.Rounds) != 2 || st.Rounds[1].Number != 3 || st.Rounds[1].Line != 11 {
		t.Fatalf("rounds = %+v", st.Rounds)
	}
	a := st.Rounds[1].Asks[0]
	if a.Key != "key two" || a.Mode != "" || a.Asserts[0].Field != "my field" || a.Asserts[1].Op != flow.Contains {
		t.Errorf("ask = %+v, asserts %+v %+v", a, a.Asserts[0], a.Asserts[1])
	}
	if got := a.Asserts[1].Value; !cmp.Equal(got, []string{"x"}) {
		t.Errorf("enum f contains \"x\" reads as %v, want [x]", got)
	}
	if st.Rounds[0].Asks[0].Asserts[0].Pattern.String() != `^https:\/\/example\.com\/` {
		t.Errorf("pattern = %s", st.Rounds[0].Asks[0].Asserts[0].Pattern)
	}
	if f.Steps[2].Kind != flow.Read || f.Steps[2].Target != "demo://x" || f.Steps[2].Result.Asserts[0].Subject != "error" {
		t.Errorf("step 3 = %+v", f.Steps[2])
	}
}

func TestParseServerForms(t *testing.T) {
	for _, tc := range []struct {
		line string
		want flow.Server
	}{
		{"server demo", flow.Server{Name: "demo", Line: 1}},
		{`server "command"`, flow.Server{Name: "command", Line: 1}},
		{"server url https://example.com/mcp # comment", flow.Server{URL: "https://example.com/mcp", Line: 1}},
		{`server command ./srv "a # b" # c`, flow.Server{Command: []string{"./srv", "a # b"}, Line: 1}},
	} {
		f, err := flow.Parse("s.flow", []byte(tc.line+"\ncall x\n"))
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.line, err)
			continue
		}
		if diff := cmp.Diff(tc.want, f.Server); diff != "" {
			t.Errorf("Parse(%q).Server (-want +got):\n%s", tc.line, diff)
		}
	}
}

func TestParseErrorsSayWhereAndWhat(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want string
	}{
		{"", "e.flow:1:1: the flow has no step"},
		{"# only a comment\n", "e.flow:1:1: the flow has no step"},
		{"call x\n  rond 1\n", `e.flow:2:3: "rond" is not a flow keyword; did you mean "round"?`},
		{"call x {\"a\": }\n", "e.flow:1:14: call x: the arguments is not valid JSON"},
		{"call x [1]\n", "e.flow:1:8: call x: the arguments are a JSON object"},
		{"call x {\"a\": 1\n", "e.flow:1:8: call x: the arguments: the JSON value is not finished"},
		{"call x\n  round 0\n", `e.flow:2:9: round "0": the number is a whole number from 1`},
		{"call x\n  round 2\n  round 1\n", "e.flow:3:9: round 1 comes after round 2"},
		{"call x\n  ask k\n", "e.flow:2:3: ask comes in a round"},
		{"call x\n  round 1\n    ask k\n    ask k\n", `e.flow:4:5: ask "k" is already expected in round 1 (line 3)`},
		{"call x\n  round 1\n    ask k sms\n", `e.flow:3:11: ask k: the mode is form or url, not "sms"`},
		{"call x\n  round 1\n    answer k acept\n", `e.flow:3:14: answer k: "acept" is not accept, decline or cancel; did you mean "accept"?`},
		{"call x\n  round 1\n    answer k decline {}\n", "e.flow:3:22: answer k decline carries no content"},
		{"call x\n  round 1\n    answer k accept [1]\n", "e.flow:3:21: answer k: the content is a JSON object"},
		{"call x\n  round 1\n    message == \"a\"\n", "e.flow:3:5: message is checked under an ask"},
		{"call x\n  result\n    message == \"a\"\n", "e.flow:3:5: message is checked under an ask"},
		{"call x\n  round 1\n    ask k\n      text == \"a\"\n", "e.flow:4:7: text is checked under result"},
		{"call x\n  result\n    text = \"a\"\n", `e.flow:3:10: text: "=" is not ==, ~ or contains`},
		{"call x\n  result\n    text == a\n", "e.flow:3:13: text is not valid JSON"},
		{"call x\n  result\n    text == 3\n", "e.flow:3:13: text ==: want a JSON string"},
		{"call x\n  round 1\n    ask k\n      fields == null\n", "e.flow:4:17: fields ==: want a JSON list of strings"},
		{"call x\n  result\n    rounds ~ /2/\n", "e.flow:3:12: rounds is checked with == only"},
		{"call x\n  result\n    rounds == -1\n", "e.flow:3:15: rounds ==: want a whole number"},
		{"call x\n  result\n    text ~ /(/\n", "e.flow:3:12: text: the pattern does not compile"},
		{"call x\n  result\n    text ~ /abc\n", "e.flow:3:12: text: the pattern has no closing /"},
		{"call x\n  result\n    text ~ abc\n", "e.flow:3:12: text: after ~ comes a pattern, /regexp/"},
		{"call x\n  result\n    text == \"a\" b\n", `e.flow:3:17: unexpected "b" at the end of the line`},
		{"call x\n  result\n  result\n", "e.flow:3:3: the step already has a result (line 2)"},
		{"call x\nserver demo\n", "e.flow:2:1: server comes before the first step"},
		{"server a\nserver b\ncall x\n", "e.flow:2:1: server is given twice"},
		{"connection maybe\ncall x\n", `e.flow:1:12: connection "maybe": use connection own`},
		{"prompt p {\"n\": 1}\n", `e.flow:1:10: prompt p: argument "n" is not a string`},
		{"call x\n  result\n    type f == \"string\"\n", "e.flow:3:5: type is checked under an ask"},
		{"call é {\"a\": ]}\n", "e.flow:1:14: call é: the arguments is not valid JSON"},
		{"call x\xff\n", "e.flow:1:7: the file is not valid UTF-8 here"},
	} {
		_, err := flow.Parse("e.flow", []byte(tc.src))
		if err == nil {
			t.Errorf("Parse(%q) = nil error, want %q", tc.src, tc.want)
			continue
		}
		if !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("Parse(%q) = %q, want it to start with %q", tc.src, err, tc.want)
		}
	}
}

func TestFormatKeepsWhatWasWritten(t *testing.T) {
	for _, src := range []string{
		"call x",
		"call x\n",
		"\uFEFFcall x\r\n  result\r\n    text == \"a\"\r\n",
		"call x\n\n\n# end\n",
	} {
		f, err := flow.Parse("k.flow", []byte(src))
		if err != nil {
			t.Errorf("Parse(%q): %v", src, err)
			continue
		}
		if got := string(f.Format()); got != src {
			t.Errorf("Format(Parse(%q)) = %q", src, got)
		}
	}
}

// Whatever the server sent, a recording reads back: its text is written
// as JSON, escaped where a terminal might obey it.
func FuzzParse(f *testing.F) {
	f.Add([]byte(handEdited))
	f.Add([]byte("call x {\"a\":\n1}\n  result\n    text ~ /a\\/b/\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		fl, err := flow.Parse("f.flow", src)
		if err != nil {
			return
		}
		if string(fl.Format()) != string(src) {
			t.Fatalf("Format(Parse(%q)) = %q", src, fl.Format())
		}
	})
}

// Whatever a server sends, its recording reads back and checks green
// against the run it came from.
func FuzzRecordingReadsBack(f *testing.F) {
	f.Add("basics", "New repository (step 1 of 2).", `{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`, "Created.", "form")
	f.Add("a b#c", "\x1b[31mred\u202e\n", `{"properties":{"x y":{"enum":["\u0000",1]}}}`, "/", "url")
	f.Fuzz(func(t *testing.T, key, message, schema, text, mode string) {
		if key == "" || !utf8.ValidString(key) || !utf8.ValidString(message) || !utf8.ValidString(text) {
			return // what a server sends is decoded JSON: valid UTF-8
		}
		raw := json.RawMessage(schema)
		if !json.Valid(raw) {
			raw = nil
		}
		res := &client.Result{Method: "tools/call", Rounds: 1}
		body, _ := json.Marshal(map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}})
		res.Raw = body
		run := flow.Run{
			Request: flow.Request{Kind: flow.Call, Target: key},
			Rounds: []flow.LiveRound{{Number: 1, Asks: []flow.LiveAsk{{
				Key: key, Mode: map[bool]string{true: "url", false: "form"}[mode == "url"], Message: message, URL: text, Schema: raw,
				Answer: flow.Answer{Key: key, Action: "decline"},
			}}}},
			Result: res,
		}
		fl, err := flow.FromRecording("f.flow", flow.Server{Name: key}, false, []flow.Run{run})
		if err != nil {
			t.Fatalf("FromRecording: %v", err)
		}
		if ms := flow.Check(fl, []flow.Run{run}); len(ms) > 0 {
			t.Fatalf("a recording does not check green against its own run:\n%s\n%s", diffs(ms), fl.Format())
		}
	})
}
