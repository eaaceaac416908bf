package flow

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"github.com/mcpcli/mcpcli/internal/shellwords"
	"github.com/mcpcli/mcpcli/internal/textsafe"
)

// The indentation a flow is written with: steps at 0, rounds and result
// at 2, asks and answers at 4 (result checks too), ask checks at 6. The
// reader does not care; people do.
const (
	indRound  = "  "
	indAsk    = "    "
	indCheck  = "      "
	indResult = "    "
)

// jsonText is v as compact JSON, HTML characters left as they are, and
// every character a terminal might obey or hide escaped: a flow file is
// safe to cat.
func jsonText(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if raw, ok := v.(json.RawMessage); ok {
		var c bytes.Buffer
		if json.Compact(&c, raw) == nil {
			return string(textsafe.EscapeJSON(spaced(c.Bytes())))
		}
	}
	if err := enc.Encode(v); err != nil {
		return "null"
	}
	return string(textsafe.EscapeJSON(spaced(bytes.TrimSuffix(b.Bytes(), []byte("\n")))))
}

// spaced puts a space after each , and : outside strings of compact
// JSON: {"a": 1, "b": [1, 2]} reads better than {"a":1,"b":[1,2]}.
func spaced(b []byte) []byte {
	out := make([]byte, 0, len(b)+len(b)/8)
	in := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		out = append(out, c)
		switch {
		case in && c == '\\':
			i++
			if i < len(b) {
				out = append(out, b[i])
			}
		case c == '"':
			in = !in
		case !in && (c == ',' || c == ':'):
			out = append(out, ' ')
		}
	}
	return out
}

// word is s as a bare word when it reads back as one, else a JSON string.
func word(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\"#\r\n") && s[0] != '/' && s[0] != '[' && s[0] != '{' && isPlain(s) {
		return s
	}
	return jsonText(s)
}

func isPlain(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == 0x7f || r >= 0x80 {
			return false
		}
	}
	return true
}

// patternText is re written as /re/ (a / inside escaped).
func patternText(src string) string {
	var b strings.Builder
	b.WriteByte('/')
	for i := 0; i < len(src); i++ {
		switch c := src[i]; {
		case c == '\\' && i+1 < len(src):
			b.WriteByte(c)
			b.WriteByte(src[i+1])
			i++
		case c == '/':
			b.WriteString(`\/`)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('/')
	return b.String()
}

// checkLine writes a check: SUBJECT [FIELD] OP VALUE.
func checkLine(subj, field string, op Op, v any) string {
	var b strings.Builder
	b.WriteString(subj)
	if field != "" {
		b.WriteByte(' ')
		b.WriteString(word(field))
	}
	b.WriteByte(' ')
	b.WriteString(string(op))
	b.WriteByte(' ')
	if op == Match {
		b.WriteString(patternText(fmt.Sprint(v)))
	} else {
		b.WriteString(jsonText(v))
	}
	return b.String()
}

// askLines are an ask's header and checks as recorded: everything exact
// but the URL, whose port and query change from run to run.
func askLines(a liveAsk) []string {
	out := []string{indAsk + "ask " + word(a.Key) + " " + a.Mode}
	add := func(s string) { out = append(out, indCheck+s) }
	add(checkLine(SubjMessage, "", Equal, a.Message))
	if a.Mode == "url" {
		add(urlCheck(a.URL))
		return out
	}
	add(checkLine(SubjFields, "", Equal, a.shape.fields))
	add(checkLine(SubjRequired, "", Equal, a.shape.required))
	for _, f := range a.shape.fields {
		add(checkLine(SubjType, f, Equal, a.shape.types[f]))
	}
	for _, f := range a.shape.fields {
		if e, ok := a.shape.enums[f]; ok {
			add(checkLine(SubjEnum, f, Equal, e))
		}
	}
	return out
}

// urlCheck matches a URL's scheme, host and path, any port on a loopback
// host and any query: `url ~ /^http:\/\/127\.0\.0\.1(:[0-9]+)?\/connect([?#]|$)/`.
func urlCheck(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || u.Host == "" || u.Opaque != "" {
		return checkLine(SubjURL, "", Equal, raw)
	}
	q := func(s string) string { return regexp.QuoteMeta(s) }
	re := "^" + q(u.Scheme+"://"+u.Hostname())
	switch host := u.Hostname(); {
	case host == "localhost" || strings.HasPrefix(host, "127.") || host == "::1":
		re += "(:[0-9]+)?"
	case u.Port() != "":
		re += q(":" + u.Port())
	}
	re += q(u.EscapedPath()) + "([?#]|$)"
	return checkLine(SubjURL, "", Match, re)
}

// answerLine writes an answer as given.
func answerLine(a Answer) string {
	s := indAsk + "answer " + word(a.Key) + " " + a.Action
	if a.Action == "accept" && a.Content != nil {
		s += " " + jsonText(a.Content)
	}
	return s
}

// resultLines are a result's checks as recorded: exact.
func resultLines(r Run) []string {
	out := []string{indRound + "result"}
	add := func(s string) { out = append(out, indResult+s) }
	if r.Result == nil {
		msg := ""
		if r.Err != nil {
			msg = r.Err.Error()
		}
		add(checkLine(SubjError, "", Equal, msg))
		return out
	}
	f := factsOf(r.Result)
	add(checkLine(SubjRounds, "", Equal, f.rounds))
	if r.Kind == Call {
		add(checkLine(SubjIsError, "", Equal, f.isError))
	}
	add(checkLine(SubjText, "", Equal, f.text))
	if f.structured != nil {
		add(checkLine(SubjStructured, "", Equal, f.structured))
	}
	return out
}

// requestLine writes a step's request.
func requestLine(r Request) string {
	s := r.Kind + " " + word(r.Target)
	if r.Kind != Read && len(bytes.TrimSpace(r.Args)) > 0 && string(bytes.TrimSpace(r.Args)) != "{}" && string(bytes.TrimSpace(r.Args)) != "null" {
		s += " " + jsonText(r.Args)
	}
	return s
}

func serverLine(s Server) string {
	switch {
	case len(s.Command) > 0:
		words := make([]string, len(s.Command))
		for i, w := range s.Command {
			words[i] = shellwords.Quote(w)
		}
		return "server command " + strings.Join(words, " ")
	case s.URL != "":
		return "server url " + word(s.URL)
	case s.Name != "":
		n := word(s.Name)
		if n == "command" || n == "url" {
			n = jsonText(s.Name)
		}
		return "server " + n
	}
	return ""
}

// stepLines are a whole step as recorded.
func stepLines(r Run) []string {
	out := []string{requestLine(r.Request)}
	for _, lr := range r.Rounds {
		out = append(out, roundLines(lr)...)
	}
	return append(out, resultLines(r)...)
}

func roundLines(lr LiveRound) []string {
	out := []string{fmt.Sprintf("%sround %d", indRound, lr.Number)}
	for _, a := range lr.Asks {
		out = append(out, askLines(readAsk(a))...)
		out = append(out, answerLine(a.Answer))
	}
	return out
}

// FromRecording writes a flow file from recorded runs: the server, then
// each step with every ask exactly as it came (a URL by its scheme, host
// and path), the answer given (secrets as $env references), and the
// result. name is the file's name, for messages.
func FromRecording(name string, server Server, shared bool, runs []Run) (*File, error) {
	if len(runs) == 0 {
		return nil, fmt.Errorf("flow %s: nothing was recorded; make a call, prompt or read first", name)
	}
	lines := []string{"# Recorded by mcpcli. `mcpcli test` replays it; `mcpcli test --update` rewrites its expectations and keeps its answers and comments."}
	if s := serverLine(server); s != "" {
		lines = append(lines, s)
	}
	if shared {
		lines = append(lines, "connection shared")
	}
	for _, r := range runs {
		lines = append(lines, "")
		lines = append(lines, stepLines(r)...)
	}
	src := strings.Join(lines, "\n") + "\n"
	f, err := Parse(name, []byte(src))
	if err != nil {
		// What the printer writes, the parser reads: this is a bug.
		return nil, fmt.Errorf("flow: the recording does not read back (%v); please report it", err)
	}
	return f, nil
}
