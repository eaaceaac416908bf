package flow

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mcpcli/mcpcli/internal/shellwords"
	"github.com/mcpcli/mcpcli/internal/suggest"
)

// ParseError is a flow file that cannot be read, at a line and column
// (1-based; the column counts characters).
type ParseError struct {
	File      string
	Line, Col int
	Msg       string
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
}

// MaxSize bounds a flow file: a person writes a few kilobytes; 8 MiB is
// already a machine's mistake.
const MaxSize = 8 << 20

// Parse reads a flow file. name is used in messages.
func Parse(name string, src []byte) (*File, error) {
	if len(src) > MaxSize {
		return nil, &ParseError{File: name, Line: 1, Col: 1, Msg: fmt.Sprintf("the file is %d bytes; a flow file holds at most %d", len(src), MaxSize)}
	}
	if !utf8.Valid(src) {
		at := 0
		for at < len(src) {
			r, n := utf8.DecodeRune(src[at:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			at += n
		}
		line := bytes.Count(src[:at], []byte("\n")) + 1
		col := utf8.RuneCount(src[bytes.LastIndexByte(src[:at], '\n')+1:at]) + 1
		return nil, &ParseError{File: name, Line: line, Col: col, Msg: "the file is not valid UTF-8 here; save it as UTF-8"}
	}
	f := &File{Name: name}
	text := string(src)
	if text != "" && !strings.HasSuffix(text, "\n") {
		f.noEOL = true
	} else {
		text = strings.TrimSuffix(text, "\n")
	}
	if len(src) > 0 {
		f.lines = strings.Split(text, "\n")
	}
	crlf := 0
	for _, l := range f.lines {
		if strings.HasSuffix(l, "\r") {
			crlf++
		}
	}
	f.crlf = crlf > 0 && crlf*2 >= len(f.lines)
	p := &parser{f: f}
	if err := p.parse(); err != nil {
		return nil, err
	}
	return f, nil
}

type parser struct {
	f *File
	i int // the line being read, 0-based

	step                 *Step
	round                *Round
	ask                  *AskSpec
	res                  *Expect
	seenServer, seenConn bool

	comment string // the trailing comment of the line last read to its end
}

var keywords = []string{"server", "connection", "call", "prompt", "read", "round", "ask", "answer", "result"}

var askSubjects = []string{SubjMessage, SubjURL, SubjFields, SubjRequired, SubjType, SubjEnum}
var resultSubjects = []string{SubjRounds, SubjIsError, SubjText, SubjStructured, SubjError}

// line is one line being read: its text and a cursor.
type line struct {
	p   *parser
	s   string
	pos int // byte offset
	kw  int // where the line's keyword starts
}

// kwErr is an error about the line as a whole, shown at its keyword.
func (l *line) kwErr(format string, args ...any) error {
	return l.p.errAt(l.p.i, l.kw, format, args...)
}

func (p *parser) errAt(li, byteCol int, format string, args ...any) error {
	s := ""
	if li < len(p.f.lines) {
		s = strings.TrimSuffix(p.f.lines[li], "\r")
	}
	byteCol = min(byteCol, len(s))
	return &ParseError{File: p.f.Name, Line: li + 1, Col: utf8.RuneCountInString(s[:byteCol]) + 1, Msg: fmt.Sprintf(format, args...)}
}

func (l *line) err(format string, args ...any) error { return l.p.errAt(l.p.i, l.pos, format, args...) }

func (l *line) space() {
	for l.pos < len(l.s) && (l.s[l.pos] == ' ' || l.s[l.pos] == '\t') {
		l.pos++
	}
}

// end reports whether only space or a comment is left.
func (l *line) end() bool {
	l.space()
	return l.pos >= len(l.s) || l.s[l.pos] == '#'
}

// done fails unless only space or a comment is left.
func (l *line) done() error {
	before := l.pos
	if !l.end() {
		return l.err("unexpected %q at the end of the line; a comment starts with #", clip(l.s[l.pos:]))
	}
	l.p.comment = ""
	if l.pos < len(l.s) {
		l.p.comment = l.s[before:]
	}
	return nil
}

// word reads a bare word (up to space), or a JSON string.
func (l *line) word(what string) (string, error) {
	l.space()
	if l.pos >= len(l.s) || l.s[l.pos] == '#' {
		return "", l.err("%s is missing", what)
	}
	if l.s[l.pos] == '"' {
		raw, err := l.json(what)
		if err != nil {
			return "", err
		}
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", l.err("%s: %v", what, err)
		}
		return s, nil
	}
	start := l.pos
	for l.pos < len(l.s) && l.s[l.pos] != ' ' && l.s[l.pos] != '\t' {
		l.pos++
	}
	return l.s[start:l.pos], nil
}

// json reads one JSON value; an object or array may go on over the lines
// that follow, which the line then ends with.
func (l *line) json(what string) (json.RawMessage, error) {
	l.space()
	start := l.pos
	text := l.s[start:]
	p := l.p
	more := 0
	for {
		dec := json.NewDecoder(strings.NewReader(text))
		dec.UseNumber()
		var raw json.RawMessage
		err := dec.Decode(&raw)
		if errors.Is(err, io.ErrUnexpectedEOF) && (text[0] == '{' || text[0] == '[') && p.i+more+1 < len(p.f.lines) {
			more++
			text += "\n" + strings.TrimSuffix(p.f.lines[p.i+more], "\r")
			continue
		}
		if err != nil {
			var se *json.SyntaxError
			if errors.As(err, &se) && more == 0 {
				l.pos = start + int(se.Offset) - 1
			} else {
				l.pos = start
			}
			if errors.Is(err, io.ErrUnexpectedEOF) || err == io.EOF {
				return nil, l.err("%s: the JSON value is not finished", what)
			}
			return nil, l.err("%s is not valid JSON: %v", what, err)
		}
		off := int(dec.InputOffset())
		if more > 0 {
			// The value ended on a later line: go on reading from there.
			nl := strings.LastIndexByte(text[:off], '\n')
			p.i += more
			l.s = strings.TrimSuffix(p.f.lines[p.i], "\r")
			l.pos = off - nl - 1
		} else {
			l.pos = start + off
		}
		if l.pos < len(l.s) && l.s[l.pos] != ' ' && l.s[l.pos] != '\t' && l.s[l.pos] != '#' {
			return nil, l.err("unexpected %q after the JSON value", clip(l.s[l.pos:]))
		}
		return raw, nil
	}
}

// pattern reads /regexp/ (a / inside written \/).
func (l *line) pattern(what string) (*regexp.Regexp, string, error) {
	l.space()
	start := l.pos
	if l.pos < len(l.s) && l.s[l.pos] == '"' {
		raw, err := l.json(what)
		if err != nil {
			return nil, "", err
		}
		var src string
		if json.Unmarshal(raw, &src) != nil {
			l.pos = start
			return nil, "", l.err("%s: a pattern is /regexp/ or a JSON string", what)
		}
		re, err := regexp.Compile(src)
		if err != nil {
			l.pos = start
			return nil, "", l.err("%s: the pattern does not compile: %v", what, err)
		}
		return re, src, nil
	}
	if l.pos >= len(l.s) || l.s[l.pos] != '/' {
		return nil, "", l.err("%s: after ~ comes a pattern, /regexp/", what)
	}
	i := l.pos + 1
	for ; i < len(l.s) && l.s[i] != '/'; i++ {
		if l.s[i] == '\\' {
			i++
		}
	}
	if i >= len(l.s) {
		return nil, "", l.err("%s: the pattern has no closing /", what)
	}
	src := l.s[l.pos+1 : i]
	re, err := regexp.Compile(src)
	if err != nil {
		return nil, "", l.err("%s: the pattern does not compile: %v", what, err)
	}
	l.pos = i + 1
	return re, src, nil
}

func (p *parser) parse() error {
	for p.i = 0; p.i < len(p.f.lines); p.i++ {
		s := strings.TrimSuffix(p.f.lines[p.i], "\r")
		if p.i == 0 {
			s = strings.TrimPrefix(s, "\uFEFF")
		}
		l := &line{p: p, s: s}
		if l.end() {
			continue
		}
		kwPos := l.pos
		l.kw = kwPos
		kw, _ := l.word("a keyword")
		var err error
		switch kw {
		case "server":
			err = p.server(l)
		case "connection":
			err = p.connection(l)
		case Call, Prompt, Read:
			err = p.request(l, kw)
		case "round":
			err = p.roundLine(l)
		case "ask":
			err = p.askLine(l)
		case "answer":
			err = p.answerLine(l)
		case "result":
			err = p.resultLine(l)
		default:
			l.pos = kwPos
			err = p.check(l)
		}
		if err != nil {
			return err
		}
	}
	if len(p.f.Steps) == 0 {
		return &ParseError{File: p.f.Name, Line: max(len(p.f.lines), 1), Col: 1, Msg: "the flow has no step; add one, such as: call TOOL {\"arg\": \"value\"}"}
	}
	return nil
}

func (p *parser) server(l *line) error {
	if p.step != nil {
		return l.kwErr("server comes before the first step")
	}
	if p.seenServer {
		return l.kwErr("server is given twice; keep one")
	}
	p.seenServer = true
	p.f.Server.Line = p.i + 1
	l.space()
	at := l.pos
	kind, err := l.word("the server (a name from the config files, command CMD..., or url URL)")
	if err != nil {
		return err
	}
	switch {
	case kind == "command" && l.s[at] != '"':
		l.space()
		rest := cutComment(l.s[l.pos:])
		words, err := shellwords.Split(rest)
		if err != nil {
			return l.err("server command: %v", err)
		}
		if len(words) == 0 {
			return l.err("server command: the command is missing")
		}
		p.f.Server.Command = words
		return nil
	case kind == "url" && l.s[at] != '"':
		u, err := l.word("server url: the URL")
		if err != nil {
			return err
		}
		p.f.Server.URL = u
	default:
		p.f.Server.Name = kind
	}
	return l.done()
}

// cutComment is s without a # comment that starts after a space, outside
// quotes, as a shell reads it.
func cutComment(s string) string {
	var q byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case q != 0:
			if c == '\\' && q == '"' {
				i++
			} else if c == q {
				q = 0
			}
		case c == '\'' || c == '"':
			q = c
		case c == '\\':
			i++
		case c == '#' && (i == 0 || s[i-1] == ' ' || s[i-1] == '\t'):
			return strings.TrimRight(s[:i], " \t")
		}
	}
	return strings.TrimRight(s, " \t")
}

func (p *parser) connection(l *line) error {
	if p.step != nil {
		return l.kwErr("connection comes before the first step")
	}
	if p.seenConn {
		return l.kwErr("connection is given twice; keep one")
	}
	p.seenConn = true
	l.space()
	at := l.pos
	w, err := l.word("connection shared or connection own")
	if err != nil {
		return err
	}
	switch w {
	case "shared":
		p.f.Shared = true
	case "own":
	default:
		l.pos = at
		return l.err("connection %q: use connection own (the default: a connection of its own) or connection shared (one connection with the other shared flows)", w)
	}
	return l.done()
}

func (p *parser) request(l *line, kind string) error {
	st := &Step{Request: Request{Kind: kind}, Line: p.i + 1}
	what := map[string]string{Call: "the tool", Prompt: "the prompt", Read: "the resource URI"}[kind]
	t, err := l.word(kind + ": " + what)
	if err != nil {
		return err
	}
	st.Target = t
	if kind != Read && !l.end() {
		l.space()
		at := l.pos
		raw, err := l.json(kind + " " + t + ": the arguments")
		if err != nil {
			return err
		}
		if raw[0] != '{' {
			l.pos = at
			return l.err("%s %s: the arguments are a JSON object, such as {\"name\": \"value\"}", kind, t)
		}
		if kind == Prompt {
			var m map[string]any
			_ = json.Unmarshal(raw, &m)
			for k, v := range m {
				if _, ok := v.(string); !ok {
					l.pos = at
					return l.err("prompt %s: argument %q is not a string; a prompt's arguments are strings", t, k)
				}
			}
		}
		st.Args = raw
	}
	if err := l.done(); err != nil {
		return err
	}
	st.reqEnd = p.i
	p.f.Steps = append(p.f.Steps, st)
	p.step, p.round, p.ask, p.res = st, nil, nil, nil
	return nil
}

func (p *parser) roundLine(l *line) error {
	if p.step == nil {
		return l.kwErr("round comes after a step (call, prompt or read)")
	}
	if p.res != nil {
		return l.kwErr("round comes before the step's result")
	}
	l.space()
	at := l.pos
	w, err := l.word("round: its number")
	if err != nil {
		return err
	}
	n, err := strconv.Atoi(w)
	if err != nil || n < 1 {
		l.pos = at
		return l.err("round %q: the number is a whole number from 1", w)
	}
	if k := len(p.step.Rounds); k > 0 && p.step.Rounds[k-1].Number >= n {
		l.pos = at
		return l.err("round %d comes after round %d; number the rounds in order", n, p.step.Rounds[k-1].Number)
	}
	if err := l.done(); err != nil {
		return err
	}
	p.round = &Round{Number: n, Line: p.i + 1}
	p.step.Rounds = append(p.step.Rounds, p.round)
	p.ask = nil
	return nil
}

func (p *parser) askLine(l *line) error {
	if p.round == nil || p.res != nil {
		return l.kwErr("ask comes in a round: write round N above it")
	}
	key, err := l.word("ask: the key")
	if err != nil {
		return err
	}
	for _, a := range p.round.Asks {
		if a.Key == key {
			return l.kwErr("ask %q is already expected in round %d (line %d)", key, p.round.Number, a.Line)
		}
	}
	a := &AskSpec{Key: key, Line: p.i + 1}
	if !l.end() {
		l.space()
		at := l.pos
		m, _ := l.word("the mode")
		if m != "form" && m != "url" {
			l.pos = at
			return l.err("ask %s: the mode is form or url, not %q", key, m)
		}
		a.Mode = m
	}
	if err := l.done(); err != nil {
		return err
	}
	a.comment = p.comment
	p.round.Asks = append(p.round.Asks, a)
	p.ask = a
	return nil
}

func (p *parser) answerLine(l *line) error {
	if p.round == nil || p.res != nil {
		return l.kwErr("answer comes in a round: write round N above it")
	}
	key, err := l.word("answer: the key")
	if err != nil {
		return err
	}
	for _, a := range p.round.Answers {
		if a.Key == key {
			return l.kwErr("answer %q is already given in round %d (line %d)", key, p.round.Number, a.Line)
		}
	}
	a := &Answer{Key: key, Line: p.i + 1}
	l.space()
	at := l.pos
	action, err := l.word("answer " + key + ": accept, decline or cancel")
	if err != nil {
		return err
	}
	switch action {
	case "accept", "decline", "cancel":
	default:
		l.pos = at
		return l.err("answer %s: %q is not accept, decline or cancel%s", key, action, didYouMean(action, []string{"accept", "decline", "cancel"}))
	}
	a.Action = action
	if !l.end() {
		if action != "accept" {
			return l.err("answer %s %s carries no content; remove it, or accept", key, action)
		}
		l.space()
		at := l.pos
		raw, err := l.json("answer " + key + ": the content")
		if err != nil {
			return err
		}
		if raw[0] != '{' {
			l.pos = at
			return l.err("answer %s: the content is a JSON object of field: value", key)
		}
		a.Content = raw
	}
	if err := l.done(); err != nil {
		return err
	}
	a.end = p.i
	p.round.Answers = append(p.round.Answers, a)
	p.ask = nil
	return nil
}

func (p *parser) resultLine(l *line) error {
	if p.step == nil {
		return l.kwErr("result comes after a step (call, prompt or read)")
	}
	if p.step.Result != nil {
		return l.kwErr("the step already has a result (line %d)", p.step.Result.Line)
	}
	if err := l.done(); err != nil {
		return err
	}
	p.res = &Expect{Line: p.i + 1}
	p.step.Result = p.res
	p.round, p.ask = nil, nil
	return nil
}

func didYouMean(typed string, from []string) string {
	if c := suggest.Closest(typed, from); len(c) > 0 {
		return fmt.Sprintf("; did you mean %q?", c[0])
	}
	return ""
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// check reads a check line: SUBJECT [FIELD] OP VALUE.
func (p *parser) check(l *line) error {
	l.space()
	at := l.pos
	subj, _ := l.word("")
	var where []string
	switch {
	case p.ask != nil:
		where = askSubjects
	case p.res != nil:
		where = resultSubjects
	}
	if !contains(where, subj) {
		l.pos = at
		switch {
		case contains(askSubjects, subj):
			return l.err("%s is checked under an ask: put it right after ask KEY", subj)
		case contains(resultSubjects, subj):
			return l.err("%s is checked under result: put it after a line that says result", subj)
		}
		all := append(append(append([]string{}, keywords...), askSubjects...), resultSubjects...)
		return l.err("%q is not a flow keyword%s (a line starts with one of: %s)", subj, didYouMean(subj, all), strings.Join(keywords, ", "))
	}
	c := &Assert{Subject: subj, Line: p.i + 1}
	if subj == SubjType || subj == SubjEnum {
		f, err := l.word(subj + ": the field")
		if err != nil {
			return err
		}
		c.Field = f
	}
	l.space()
	opAt := l.pos
	op, err := l.word(subj + ": ==, ~ or contains")
	if err != nil {
		return err
	}
	c.Op = Op(op)
	switch c.Op {
	case Equal, Match, Contains:
	default:
		l.pos = opAt
		return l.err("%s: %q is not ==, ~ or contains", subj, op)
	}
	allowed := map[string][]Op{SubjRounds: {Equal}, SubjIsError: {Equal}, SubjStructured: {Equal, Contains}}[subj]
	if allowed != nil && !opIn(c.Op, allowed) {
		l.pos = opAt
		return l.err("%s is checked with %s only", subj, joinOps(allowed))
	}
	l.space()
	valAt := l.pos
	what := subj
	if c.Field != "" {
		what += " " + c.Field
	}
	if c.Op == Match {
		re, src, err := l.pattern(what)
		if err != nil {
			return err
		}
		c.Pattern, c.Value = re, src
		if err := l.done(); err != nil {
			return err
		}
		return p.add(c)
	}
	raw, err := l.json(what)
	if err != nil {
		return err
	}
	bad := func(want string) error {
		l.pos = valAt
		return l.err("%s %s: want %s", what, c.Op, want)
	}
	switch subj {
	case SubjMessage, SubjURL, SubjType, SubjText, SubjError:
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return bad("a JSON string, such as \"text\"")
		}
		c.Value = s
	case SubjFields, SubjRequired, SubjEnum:
		var list []string
		if string(raw) == "null" || json.Unmarshal(raw, &list) != nil {
			var s string
			if c.Op != Contains || json.Unmarshal(raw, &s) != nil {
				return bad("a JSON list of strings, such as [\"a\", \"b\"]")
			}
			list = []string{s}
		}
		c.Value = list
	case SubjRounds:
		n, err := strconv.Atoi(string(raw))
		if err != nil || n < 0 {
			return bad("a whole number")
		}
		c.Value = n
	case SubjIsError:
		var b bool
		if json.Unmarshal(raw, &b) != nil {
			return bad("true or false")
		}
		c.Value = b
	case SubjStructured:
		var v any
		d := json.NewDecoder(bytes.NewReader(raw))
		d.UseNumber()
		_ = d.Decode(&v)
		c.Value = v
	}
	if err := l.done(); err != nil {
		return err
	}
	return p.add(c)
}

func (p *parser) add(c *Assert) error {
	c.comment = p.comment
	if p.ask != nil {
		p.ask.Asserts = append(p.ask.Asserts, c)
	} else {
		p.res.Asserts = append(p.res.Asserts, c)
	}
	return nil
}

func opIn(op Op, ops []Op) bool {
	for _, o := range ops {
		if o == op {
			return true
		}
	}
	return false
}

func joinOps(ops []Op) string {
	s := make([]string, len(ops))
	for i, o := range ops {
		s[i] = string(o)
	}
	return strings.Join(s, " or ")
}

func clip(s string) string {
	if r := []rune(s); len(r) > 20 {
		return string(r[:17]) + "..."
	}
	return s
}
