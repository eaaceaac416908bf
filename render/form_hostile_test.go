package render

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
)

// hostile is server text that tries to reach the terminal: a hyperlink, a
// window title, a clipboard write, colors, a screen clear, DCS, 8-bit CSI
// and OSC, a carriage return that rewrites the line, bidi overrides.
// Every piece meant to stay invisible carries a marker (PWNED, evil) that
// must never reach the output.
const hostile = "A\x1b]8;;https://evil.example/\x07LINK\x1b]8;;\x07" +
	"\x1b]0;PWNED-title\x07" +
	"\x1b]52;c;UFdORUQ=\x07" +
	"\x1b[31mRED\x1b[0m" +
	"\x1bPPWNED-dcs\x1b\\" +
	"\u009b31mC1" + "\u009d0;PWNED-c1\u0007" +
	"x\rOVER" +
	"\u202eRTL\u202c\u2066iso\u2069" +
	"\x07\x08\x7fZ"

// markers must not appear anywhere in what is written to the terminal.
var markers = []string{"PWNED", "evil", "\x1b]8;", "\x1b]0;", "\x1b]52", "\x1bP", "\u009b", "\u009d", "\u202e", "\u2066", "\x1b[31mRED"}

func hostileRound() client.Round {
	h := hostile
	prop := func(extra map[string]any) string {
		m := map[string]any{"title": h, "description": h}
		for k, v := range extra {
			m[k] = v
		}
		b, _ := json.Marshal(m)
		return string(b)
	}
	name, _ := json.Marshal(h)
	schema := `{"type":"object","properties":{` +
		string(name) + `:` + prop(map[string]any{"type": "string", "default": h}) + `,` +
		`"choice":` + prop(map[string]any{"type": "string", "oneOf": []map[string]string{{"const": h, "title": h}, {"const": "b", "title": "plain"}}, "default": h}) + `,` +
		`"many":` + prop(map[string]any{"type": "array", "items": map[string]any{"enum": []string{h, "x"}}, "default": []string{h}}) + `,` +
		`"yes":` + prop(map[string]any{"type": "boolean", "default": true}) + `,` +
		`"bio":` + prop(map[string]any{"type": "string", "maxLength": 900, "title": "Description " + h, "default": h + "\n" + h}) +
		`},"required":["choice"]}`
	bad := `{"type":"object","properties":{` + string(name) + `:{"type":"object","title":` + string(name) + `}}}`
	r := client.Round{
		Server: client.Server{Name: h, Title: h, Via: "stdio: " + h},
		Method: "tools/call", Target: h, Number: 2,
		Asks: []client.Ask{
			client.NewAsk("form", &mcp.ElicitParams{Message: h + "\n" + h}, json.RawMessage(schema)),
			client.NewAsk("bad", &mcp.ElicitParams{Message: h}, json.RawMessage(bad)),
		},
	}
	return r
}

func checkInert(t *testing.T, where, out string) {
	t.Helper()
	for _, m := range markers {
		if strings.Contains(out, m) {
			i := strings.Index(out, m)
			t.Errorf("%s: %q reached the terminal: …%q…", where, m, out[max(0, i-40):min(len(out), i+40)])
		}
	}
}

func TestFormHostileStringsStayInert(t *testing.T) {
	u := startTUI(t, hostileRound(), nil)
	s := u.WaitFor("LINK", "RED", "field 1/5")
	checkInert(t, "first field", s)
	for i := 2; i <= 5; i++ {
		u.Press(kTab)
		checkInert(t, "field", u.WaitFor("field "+string(rune('0'+i))+"/5"))
	}
	u.Press(kCtrlO)
	checkInert(t, "more", u.WaitFor("in full"))
	u.Press(kEsc)
	u.Press(kCtrlS)
	checkInert(t, "review", u.WaitFor("Review"))
	u.Press(kEnter) // accept
	checkInert(t, "unrenderable", u.WaitFor("mcpcli cannot show this form"))
	u.Press(kCtrlX)
	res := u.Result()
	if res["form"].Action != client.Accept || res["bad"].Action != client.Decline {
		t.Errorf("answers %v", res)
	}
	checkInert(t, "everything written", u.Output())
}
