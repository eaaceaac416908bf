package tui

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/internal/safefile"
	"github.com/mcpcli/mcpcli/internal/shellwords"
	"github.com/mcpcli/mcpcli/internal/textsafe"
	"github.com/mcpcli/mcpcli/render"
)

// History: every request of the session, newest first.

func (m *Model) historyView() []string {
	h := m.bodyHeight()
	st := m.st
	if len(m.calls) == 0 {
		return []string{st.dim.Render(" no requests yet: enter on a tool, prompt or resource sends one")}
	}
	l := m.hist
	l.cursor = max(0, min(l.cursor, len(m.calls)-1))
	l.scroll(h)
	var out []string
	now := m.o.Now()
	for i := l.top; i < len(m.calls) && i < l.top+h; i++ {
		c := m.calls[len(m.calls)-1-i]
		mark := map[callState]string{stateRunning: "▶", stateDone: "✓", stateFailed: "✗", stateCancelled: "■"}[c.state]
		if c.state == stateDone && c.result != nil && c.result.IsError() {
			mark = "✗"
		}
		facts := seconds(c.took(now))
		if n := len(c.rounds); n > 0 {
			facts = fmt.Sprintf("%d round%s · %s", n, plural(n), facts)
		}
		if m.askOf(c.id) != nil {
			mark = "!"
			facts = "ask waits · " + facts
		}
		if m.dropped(c) != "" {
			facts = "result dropped · " + facts
		}
		left := fmt.Sprintf("%s #%d %s %s", mark, c.id, c.label(), argText(c.args))
		line := spread(clip(left, m.width-len(facts)-4), facts+" ", m.width-1)
		if i == l.cursor {
			out = append(out, st.selected(cut("▸"+line, m.width)))
		} else {
			out = append(out, " "+line)
		}
	}
	return out
}

func (m *Model) historyKey(k string) tea.Cmd {
	l := m.hist
	h := m.bodyHeight()
	l.shown = l.shown[:0]
	for i := range m.calls {
		l.shown = append(l.shown, i)
	}
	switch k {
	case "up", "k":
		l.move(-1, h)
	case "down", "j":
		l.move(1, h)
	case "pgup", "b":
		l.move(-h, h)
	case "pgdown", "f":
		l.move(h, h)
	case "home", "g":
		l.move(-len(m.calls), h)
	case "end", "G":
		l.move(len(m.calls), h)
	}
	if len(m.calls) == 0 {
		return nil
	}
	c := m.calls[len(m.calls)-1-max(0, min(l.cursor, len(m.calls)-1))]
	switch k {
	case "enter":
		m.viewing = c
		return m.layoutCmd(c)
	case "r":
		return m.rerun(c, false)
	case "e":
		return m.rerun(c, true)
	}
	return nil
}

// rerun sends a request again with the same arguments, or after editing
// them in its form.
func (m *Model) rerun(c *call, edit bool) tea.Cmd {
	switch c.method {
	case "tools/call":
		if edit {
			return m.askTool(c.target, c.args, false, c.id)
		}
		return m.confirmThenStart(c.method, c.target, c.args, c.id)
	case "prompts/get":
		if edit {
			return m.askPrompt(c.target, c.args, c.id)
		}
	}
	return m.start(c.method, c.target, c.args, c.id)
}

// Subscriptions.

func (m *Model) toggleSubscribe() tea.Cmd {
	e := m.lists[tabResources].current()
	if e == nil {
		return nil
	}
	uri, on := e.key, !m.subs[e.key]
	c, ctx := m.c, m.ctx
	m.subs[uri] = on
	m.lists[tabResources].items[m.lists[tabResources].shown[m.lists[tabResources].cursor]].tags = map[bool]string{true: "●", false: ""}[on]
	m.detail = detailCache{}
	return func() tea.Msg {
		var err error
		if on {
			err = c.Subscribe(ctx, uri)
		} else {
			err = c.Unsubscribe(ctx, uri)
		}
		if err != nil {
			return statusMsg{text: "subscription not changed: " + render.Line(err.Error()), err: true}
		}
		if on {
			return statusMsg{text: "subscribed to " + render.Line(uri) + ": updates show in Activity"}
		}
		return statusMsg{text: "unsubscribed from " + render.Line(uri)}
	}
}

// The saved script.

// Replay is how the saved script's one-shot commands reach the server.
type Replay struct {
	// Program runs mcpcli: the path of the mcpcli that saves the script,
	// so that it runs where mcpcli is not on $PATH (a fresh clone built
	// with go build); "mcpcli" when unknown. The script lets $MCPCLI
	// override it.
	Program string
	// Dir is the working directory of the session, for the script to say
	// where it runs from.
	Dir string
	// DefaultPath is where a script is saved when no file is named (S
	// without --save, save without a FILE): outside the working tree, in
	// mcpcli's state directory.
	DefaultPath string
	// Server names the server as the session was given it:
	// ["--", "CMD", "ARG"], ["--url", "URL", "--header", "K: V"], ["-s", "NAME"].
	Server []string
	// Flags are the session's other flags a one-shot command takes too.
	Flags []string
	// Expand are the words of Server and Flags that read a credential
	// from the environment ("Authorization: ${MCPCLI_HEADER_AUTHORIZATION}"):
	// the script writes them in double quotes, so that the shell fills
	// them in, and never holds the credential itself. Needs says what
	// each variable must hold.
	Expand map[string]bool
	Needs  []string
}

// save writes the session's requests as a script (S, and on quitting with
// --save).
func (m *Model) save() {
	p := m.o.SavePath
	if p == "" {
		p = m.o.Replay.DefaultPath
	}
	if p == "" {
		p = "mcpcli-session.sh"
	}
	reqs := make([]Request, len(m.calls))
	for i, c := range m.calls {
		reqs[i] = c.request()
	}
	msg, err := SaveScript(p, m.o.WriteFile, m.o.Replay, m.server, reqs, m.o.Now())
	if err != nil {
		m.setStatus(err.Error(), true)
		return
	}
	m.setStatus(msg, false)
}

// request is the call as the script sees it.
func (c *call) request() Request {
	r := Request{ID: c.id, Method: c.method, Target: c.target, Args: c.args, Caps: c.caps}
	switch c.state {
	case stateRunning:
		r.Left = "still running when saved"
	case stateFailed:
		r.Left = "failed (" + c.errText + ")"
	case stateCancelled:
		r.Left = "cancelled"
	}
	for _, rr := range c.rounds {
		r.Rounds = append(r.Rounds, Answered{Legacy: rr.legacy, Keys: rr.keys, Asks: rr.asks, Answers: rr.answers, Samples: rr.samples})
	}
	return r
}

// Request is one request of a session, for the saved script.
type Request struct {
	ID             int
	Method, Target string
	Args           map[string]any
	Rounds         []Answered
	// Left says why the request is left out of the script ("" to keep it):
	// it failed, was cancelled, was still running.
	Left string
	// Caps, when set, are the roots and sampling the request was sent
	// with (they change in a session): its command gives those, whatever
	// --root and --sampling the session started with.
	Caps *Caps
}

// Caps are the client capabilities that change in a session, as one
// request was sent with them.
type Caps struct {
	Sampling bool
	Roots    []string // root URIs
}

// CapsOf is what c declares now.
func CapsOf(c Capabilities) *Caps {
	out := &Caps{Sampling: c.Sampling()}
	for _, r := range c.Roots() {
		out.Roots = append(out.Roots, r.URI)
	}
	return out
}

// flags are the session's flags for this request's command: --sampling
// and --root as it was sent.
func (r Request) flags(session []string) []string {
	if r.Caps == nil {
		return session
	}
	var out []string
	for i := 0; i < len(session); i++ {
		switch session[i] {
		case "--sampling":
			continue
		case "--root":
			i++ // and its directory
			continue
		}
		out = append(out, session[i])
	}
	if r.Caps.Sampling {
		out = append(out, "--sampling")
	}
	for _, u := range r.Caps.Roots {
		dir := u
		if pu, err := url.Parse(u); err == nil && pu.Scheme == "file" {
			dir = filepath.FromSlash(pu.Path)
		}
		out = append(out, "--root", dir)
	}
	return out
}

// Answered is one round of a request: what was asked, what was answered.
type Answered struct {
	Legacy  bool
	Keys    []string
	Asks    []client.Ask
	Answers map[string]*mcp.ElicitResult
	Samples map[string]*client.SamplingAnswer // sampling requests, by key

	number int // the round's number (Recorder)
}

// scriptHead starts every saved script: WriteScriptFile replaces a file
// that starts so (one mcpcli saved), and no other.
const scriptHead = "#!/bin/sh\n# An mcpcli session with "

// WriteScriptFile writes a saved script to path (safefile.Write): a new
// file, or over a script mcpcli saved before; never through a symbolic
// link, never over another file. A missing directory is made (0700) only
// when it is DefaultPath's.
func WriteScriptFile(path string, data []byte, perm os.FileMode) error {
	return safefile.Write(path, data, perm, func(head []byte) bool { return bytes.HasPrefix(head, []byte(scriptHead)) })
}

// SaveScript writes reqs to path as a script (WriteScript) with write
// (nil means WriteScriptFile), and returns the line that says so.
func SaveScript(path string, write func(string, []byte, os.FileMode) error, r Replay, server client.Server, reqs []Request, now time.Time) (string, error) {
	var buf bytes.Buffer
	n, secrets := WriteScript(&buf, r, server, reqs, now)
	if write == nil {
		write = WriteScriptFile
	}
	if path == r.DefaultPath {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return "", fmt.Errorf("could not save the script: %v", err)
		}
	}
	if err := write(path, buf.Bytes(), 0o700); err != nil {
		return "", fmt.Errorf("could not save the script: %v", err)
	}
	msg := fmt.Sprintf("saved %d request%s to %s (run it with sh)", n, plural(n), oneLine(path))
	if secrets > 0 {
		msg += fmt.Sprintf("; it holds %d secret value%s: keep it private", secrets, plural(secrets))
	}
	return msg, nil
}

// WriteScript writes requests as a shell script of one-shot mcpcli
// commands, each with the answers given in the session as its answers
// file (on stdin, --answers -, in client.Script's format). It returns how
// many requests it wrote and how many secret values their answers hold.
//
// What came from the server (a tool's name, a URI, arguments, answers)
// reaches the script inert: a word with a character a terminal would obey
// or hide (a control, a bidi override, a zero-width space) is built by
// printf from octal escapes, and JSON carries such characters as \u
// escapes, so the script shows no such character raw, yet sends each name
// exactly. A tool's name follows --, so that one named -x is not a flag.
func WriteScript(w io.Writer, r Replay, server client.Server, reqs []Request, now time.Time) (n, secrets int) {
	prog := r.Program
	if prog == "" {
		prog = "mcpcli"
	}
	var vars int // words built by printf, in variables a1, a2, ...
	sw := &scriptWriter{w: w, vars: &vars}
	fmt.Fprintf(w, "%s%s, saved %s.\n", scriptHead, oneLine(server.Display()), now.Format("2006-01-02 15:04"))
	fmt.Fprintln(w, "# Each request is a one-shot command; the answers given in the session follow")
	fmt.Fprintln(w, "# it as its answers file (see 'mcpcli help answers'). Each command is a new")
	fmt.Fprintln(w, "# connection: a resource a server made for the session alone may be gone.")
	if r.Dir != "" {
		fmt.Fprintf(w, "# Run it from %s, where the session ran, or from a clone of it:\n", oneLine(r.Dir))
		fmt.Fprintln(w, "# relative paths, and the servers named with -s, are found from there.")
	}
	if len(r.Needs) > 0 {
		fmt.Fprintln(w, "# It reads these from the environment (the session had them; the script does not):")
		for _, n := range r.Needs {
			fmt.Fprintf(w, "#   %s\n", oneLine(n))
		}
	}
	fmt.Fprintln(w, "# It runs the mcpcli that saved it; to run another, set MCPCLI=/path/to/mcpcli.")
	progWord := sw.word(prog)
	sw.flush()
	fmt.Fprintf(w, "[ -n \"${MCPCLI:-}\" ] || MCPCLI=%s\n", progWord)
	for _, c := range reqs {
		fmt.Fprintln(w)
		head := fmt.Sprintf("# #%d %s %s", c.ID, c.Method, oneLine(c.Target))
		if c.Left != "" {
			fmt.Fprintln(w, head+": "+oneLine(c.Left)+"; left out")
			continue
		}
		answers, s, ok := scriptAnswers(c.Rounds)
		if !ok {
			fmt.Fprintln(w, head+": a round was left unanswered; left out")
			continue
		}
		secrets += s
		n++
		fmt.Fprintln(w, head)
		if unsafeWord(c.Target) {
			fmt.Fprintln(w, "# (its name holds characters a terminal would obey or hide; printf writes them)")
		}
		var cmd, own []string // the command and its flags; its own arguments, after --
		switch c.Method {
		case "tools/call":
			cmd = []string{"call"}
			if len(c.Args) > 0 {
				b, _ := json.Marshal(c.Args)
				cmd = append(cmd, "--args", string(escapeJSON(b)))
			}
			own = []string{c.Target}
		case "prompts/get":
			cmd = []string{"prompt"}
			own = []string{c.Target}
			for _, k := range sortedArgs(c.Args) {
				own = append(own, k+"="+fmt.Sprint(c.Args[k]))
			}
		case "resources/read":
			cmd = []string{"read"}
			own = []string{c.Target}
		}
		cmd = append(cmd, c.flags(r.Flags)...)
		if answers != nil {
			cmd = append(cmd, "--answers", "-")
		}
		// The server: flags that name it come before --; a command that
		// starts it comes after a second --.
		var after []string
		if len(r.Server) > 0 && r.Server[0] == "--" {
			after = r.Server
		} else {
			cmd = append(cmd, r.Server...)
		}
		words := []string{`"$MCPCLI"`}
		for _, a := range cmd {
			words = append(words, sw.arg(a, r.Expand))
		}
		words = append(words, "--")
		for _, a := range own {
			words = append(words, sw.arg(a, nil))
		}
		for _, a := range after {
			words = append(words, sw.arg(a, r.Expand))
		}
		sw.flush()
		line := strings.Join(words, " ")
		if answers == nil {
			fmt.Fprintln(w, line)
			continue
		}
		delim := "MCPCLI_ANSWERS"
		for strings.Contains(string(answers), delim) {
			delim += "_"
		}
		fmt.Fprintf(w, "%s <<'%s'\n%s\n%s\n", line, delim, escapeJSON(answers), delim)
	}
	return n, secrets
}

// scriptWriter quotes the words of one command, writing first the lines
// that build by printf those that need it.
type scriptWriter struct {
	w       io.Writer
	vars    *int
	pending []string
}

// arg is one word of a command: in double quotes when it reads a
// credential from the environment (expand), else quoted as it is.
func (sw *scriptWriter) arg(a string, expand map[string]bool) string {
	if expand[a] && !unsafeWord(a) {
		return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "`", "\\`").Replace(a) + `"`
	}
	return sw.word(a)
}

// word quotes a for sh. A word with a character a terminal would obey or
// hide is built by printf from octal escapes, into a variable, on a line
// before the command: the script then shows no such character, and the
// word is exactly what it was (a trailing newline too, kept by the "_"
// removed after it).
func (sw *scriptWriter) word(a string) string {
	if !unsafeWord(a) {
		return shellwords.Quote(a)
	}
	*sw.vars++
	v := fmt.Sprintf("a%d", *sw.vars)
	var b strings.Builder
	for i := 0; i < len(a); i++ {
		c := a[i]
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte(" -_./:=@,+#!?()[]{}<>*&;|~^\"$`", c) >= 0:
			b.WriteByte(c)
		case c == '%':
			b.WriteString("%%")
		default:
			fmt.Fprintf(&b, "\\%03o", c)
		}
	}
	sw.pending = append(sw.pending, fmt.Sprintf("%s=$(printf '%s_'); %s=${%s%%_}", v, b.String(), v, v))
	return `"$` + v + `"`
}

// flush writes the lines the words of a command need before it.
func (sw *scriptWriter) flush() {
	for _, l := range sw.pending {
		fmt.Fprintln(sw.w, l)
	}
	sw.pending = nil
}

// unsafeWord reports a character a terminal would obey or hide: a control
// (a newline and a tab too: a word is one line), DEL, a C1 control, a line
// or paragraph separator, an invisible or bidi character, invalid UTF-8.
func unsafeWord(s string) bool {
	for i, r := range s {
		if unsafeRune(r) || r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD") {
			return true
		}
	}
	return false
}

func unsafeRune(r rune) bool {
	return r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f || r == 0x2028 || r == 0x2029 || textsafe.Invisible(r)
}

// escapeJSON writes every character of JSON text that a terminal would
// obey or hide as a \u escape: the same JSON, shown inert. (json.Marshal
// escapes controls, but not bidi overrides or zero-width characters.)
func escapeJSON(b []byte) []byte {
	s := string(b)
	if !unsafeWord(strings.NewReplacer("\n", "", "\t", "").Replace(s)) {
		return b
	}
	var out strings.Builder
	for _, r := range s {
		if r != '\n' && r != '\t' && unsafeRune(r) {
			if r > 0xFFFF {
				r1, r2 := utf16.EncodeRune(r)
				fmt.Fprintf(&out, "\\u%04x\\u%04x", r1, r2)
			} else {
				fmt.Fprintf(&out, "\\u%04x", r)
			}
			continue
		}
		out.WriteRune(r)
	}
	return []byte(out.String())
}

// scriptAnswers is a request's answers as an answers file: each key with
// the list of its answers, one per round it was asked in. ok is false when
// a round went unanswered.
func scriptAnswers(rounds []Answered) (answers json.RawMessage, secrets int, ok bool) {
	byKey := map[string][]any{}
	var order []string
	add := func(key string, v any) {
		if _, seen := byKey[key]; !seen {
			order = append(order, key)
		}
		byKey[key] = append(byKey[key], v)
	}
	for _, r := range rounds {
		if len(r.Asks) == 0 && len(r.Samples) == 0 {
			if len(r.Keys) == 0 {
				continue // a round that carried only requestState
			}
			return nil, 0, false
		}
		for _, a := range r.Asks {
			ans := r.Answers[a.Key]
			if ans == nil {
				return nil, 0, false
			}
			key := a.Key
			if r.Legacy {
				key = "elicitation"
			}
			add(key, ans)
			if a.Form != nil && ans.Action == client.Accept {
				for _, f := range a.Form.Fields {
					if _, ok := ans.Content[f.Name]; ok && f.Secret {
						secrets++
					}
				}
			}
		}
		for _, k := range r.Keys {
			sa, asked := r.Samples[k]
			switch {
			case !asked:
			case sa == nil:
				return nil, 0, false
			case sa.Decline:
				add(k, map[string]string{"action": client.Decline})
			default:
				add(k, sa.Result)
			}
		}
	}
	if len(order) == 0 {
		return nil, 0, true
	}
	var b bytes.Buffer
	b.WriteString("{")
	for i, k := range order {
		if i > 0 {
			b.WriteString(",")
		}
		key, _ := json.Marshal(k)
		list, _ := json.Marshal(byKey[k])
		b.WriteString("\n  ")
		b.Write(key)
		b.WriteString(": ")
		b.Write(list)
	}
	b.WriteString("\n}")
	return b.Bytes(), secrets, true
}

func sortedArgs(args map[string]any) []string {
	keys := make(map[string]bool, len(args))
	for k := range args {
		keys[k] = true
	}
	return sortedKeys(keys)
}

// oneLine keeps a comment on one line.
func oneLine(s string) string { return render.Line(s) }

// Recorder wraps an answerer and keeps what each request (by its
// client.WithCall number) was asked and answered, for a saved script.
type Recorder struct {
	Inner client.Answerer

	mu     sync.Mutex
	rounds map[int][]Answered
	starts // the answers re-runs start from
}

// StartFrom has the forms of request call (a re-run) start from the
// answers given in rounds (those of the request it repeats).
func (r *Recorder) StartFrom(call int, rounds []Answered) {
	out := map[string][]map[string]any{}
	for _, rr := range rounds {
		for _, a := range rr.Asks {
			if ans := rr.Answers[a.Key]; ans != nil && ans.Action == client.Accept && len(ans.Content) > 0 {
				out[a.Key] = append(out[a.Key], ans.Content)
			}
		}
	}
	r.startFrom(call, out)
}

// Answer implements client.Answerer.
func (r *Recorder) Answer(ctx context.Context, round client.Round) (map[string]*mcp.ElicitResult, error) {
	round = r.given(round)
	out, err := r.Inner.Answer(ctx, round)
	keys := make([]string, len(round.Asks))
	for i, a := range round.Asks {
		keys[i] = a.Key
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.rounds == nil {
		r.rounds = map[int][]Answered{}
	}
	r.rounds[round.Call] = append(r.rounds[round.Call], Answered{Legacy: round.Legacy, number: round.Number, Keys: keys, Asks: round.Asks, Answers: out})
	return out, err
}

// Sampler records the sampling replies inner gives, with the rounds.
func (r *Recorder) Sampler(inner client.Sampler) client.Sampler {
	return client.SamplerFunc(func(ctx context.Context, sr client.SamplingRound) (*client.SamplingAnswer, error) {
		out, err := inner.Sample(ctx, sr)
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.rounds == nil {
			r.rounds = map[int][]Answered{}
		}
		rounds := r.rounds[sr.Call]
		for i := range rounds {
			if rounds[i].Legacy == sr.Legacy && rounds[i].number == sr.Number {
				if rounds[i].Samples == nil {
					rounds[i].Samples = map[string]*client.SamplingAnswer{}
				}
				rounds[i].Samples[sr.Key] = out
				rounds[i].Keys = append(rounds[i].Keys, sr.Key)
				return out, err
			}
		}
		r.rounds[sr.Call] = append(rounds, Answered{Legacy: sr.Legacy, number: sr.Number, Keys: []string{sr.Key}, Samples: map[string]*client.SamplingAnswer{sr.Key: out}})
		return out, err
	})
}

// Rounds are the rounds of request call so far.
func (r *Recorder) Rounds(call int) []Answered {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.rounds[call]
}
