package request

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/internal/plural"
	"github.com/mcpcli/mcpcli/internal/safefile"
	"github.com/mcpcli/mcpcli/internal/shellwords"
	"github.com/mcpcli/mcpcli/internal/textsafe"
	"github.com/mcpcli/mcpcli/schema"
)

// A session's requests written back as a shell script of one-shot mcpcli
// commands, each with its answers file; and a one-shot run's own command
// with --answers. What is a credential, and how a word is quoted, is said
// once here for both.

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

// ReplayFlags are the flags a session was started with that its saved
// script's commands repeat.
type ReplayFlags struct {
	Program, Dir, DefaultPath string

	Server, Config, URL, Stdio string   // -s, --config, --url, --stdio
	ServerArgv                 []string // the command after --
	Headers, Env, Roots        []string
	Cwd, Elicitation           string
	Protocol, Transport        string
	Timeout                    time.Duration
	MaxRounds                  int
	Sampling                   bool
}

// Credential says whether the value of flag (--header, --env) is a
// credential that a command written back must not hold: a header's value,
// a variable's named like a secret (GITHUB_TOKEN=…). name is the part that
// may stay: the header's name, the variable's.
func Credential(flag, value string) (name string, ok bool) {
	switch flag {
	case "--header":
		if n, _, ok := strings.Cut(value, ":"); ok {
			return n, true
		}
	case "--env":
		if k, _, ok := strings.Cut(value, "="); ok && schema.LooksSecretName(k) {
			return k, true
		}
	}
	return "", false
}

// NewReplay is how a session started with f is replayed: its flags as
// given, each credential read from the environment when the script runs.
func NewReplay(f ReplayFlags) Replay {
	r := Replay{Program: f.Program, Dir: f.Dir, DefaultPath: f.DefaultPath, Expand: map[string]bool{}}
	if r.Program == "" {
		r.Program = "mcpcli"
	}
	fromEnv := func(prefix, name, what string) string {
		w := prefix + "${" + name + "}"
		r.Expand[w] = true
		r.Needs = append(r.Needs, name+": "+what)
		return w
	}
	header := func(h string) string {
		name, ok := Credential("--header", h)
		if !ok {
			return h
		}
		name = strings.TrimSpace(name)
		v := "MCPCLI_HEADER_" + strings.ToUpper(strings.Map(func(r rune) rune {
			if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
				return r
			}
			return '_'
		}, name))
		return fromEnv(name+": ", v, "the value of the "+name+" header")
	}
	for _, e := range f.Env {
		if k, ok := Credential("--env", e); ok {
			e = fromEnv(k+"=", k, "what the server gets as "+k)
		}
		r.Flags = append(r.Flags, "--env", e)
	}
	if f.Cwd != "" {
		r.Flags = append(r.Flags, "--cwd", f.Cwd)
	}
	if f.Elicitation != "form,url" && f.Elicitation != "" {
		r.Flags = append(r.Flags, "--elicitation", f.Elicitation)
	}
	if f.Timeout > 0 {
		r.Flags = append(r.Flags, "--timeout", f.Timeout.String())
	}
	if f.MaxRounds != client.DefaultMaxRounds && f.MaxRounds > 0 {
		r.Flags = append(r.Flags, "--max-rounds", strconv.Itoa(f.MaxRounds))
	}
	if f.Sampling {
		r.Flags = append(r.Flags, "--sampling")
	}
	for _, root := range f.Roots {
		r.Flags = append(r.Flags, "--root", root)
	}
	if f.Protocol != "" && f.Protocol != "auto" {
		r.Flags = append(r.Flags, "--protocol", f.Protocol)
	}
	if f.Transport != "" && f.Transport != "auto" {
		r.Flags = append(r.Flags, "--transport", f.Transport)
	}
	switch {
	case f.Server != "":
		if f.Config != "" {
			r.Server = append(r.Server, "--config", f.Config)
		}
		r.Server = append(r.Server, "-s", f.Server)
		for _, h := range f.Headers {
			r.Server = append(r.Server, "--header", header(h))
		}
	case f.URL != "":
		r.Server = []string{"--url", f.URL}
		for _, h := range f.Headers {
			r.Server = append(r.Server, "--header", header(h))
		}
	case f.Stdio != "":
		r.Server = []string{"--stdio", f.Stdio}
	default:
		r.Server = append([]string{"--"}, f.ServerArgv...)
	}
	return r
}

// Redacted stands in a command shown on screen for a credential.
const Redacted = "[redacted]"

// ResendCommand is a one-shot run's own command line (its args) with
// --answers path, to send the answers kept in path again. Credentials are
// not repeated (Credential): redacted says some were left out.
func ResendCommand(args []string, path string) (line string, redacted bool) {
	words := []string{"mcpcli"}
	hide := func(flag, v string) string {
		name, ok := Credential(flag, v)
		if !ok {
			return v
		}
		redacted = true
		if flag == "--header" {
			return name + ": " + Redacted
		}
		return name + "=" + Redacted
	}
	prev := ""
	for i, a := range args {
		if a == "--" {
			words = append(words, "--answers", shellwords.Quote(path))
			path = ""
			for _, w := range args[i:] {
				words = append(words, shellwords.Quote(w))
			}
			break
		}
		switch {
		case prev == "--header" || prev == "--env":
			a = hide(prev, a)
		case strings.HasPrefix(a, "--header=") || strings.HasPrefix(a, "--env="):
			flag, v, _ := strings.Cut(a, "=")
			a = flag + "=" + hide(flag, v)
		}
		words = append(words, shellwords.Quote(a))
		prev = a
	}
	if path != "" {
		words = append(words, "--answers", shellwords.Quote(path))
	}
	return strings.Join(words, " "), redacted
}

// Saved is one request of a session, for the saved script.
type Saved struct {
	ID int
	*Request
	Rounds []Round
	// Left says why the request is left out of the script ("" to keep it):
	// it failed, was cancelled, was still running.
	Left string
	// Caps, when set, are the roots and sampling the request was sent
	// with (they change in a session): its command gives those, whatever
	// --root and --sampling the session started with.
	Caps *Caps
	// Result and Err are how it ended, for a flow file of the session
	// (nil both while it runs, or where a front end does not keep them).
	Result *client.Result
	Err    error
}

// Caps are the client capabilities that change in a session, as one
// request was sent with them.
type Caps struct {
	Sampling bool
	Roots    []string // root URIs
}

// CapsOf is what a session with these capabilities declares now.
func CapsOf(sampling bool, roots []*mcp.Root) *Caps {
	out := &Caps{Sampling: sampling}
	for _, r := range roots {
		out.Roots = append(out.Roots, r.URI)
	}
	return out
}

// flags are the session's flags for this request's command: --sampling
// and --root as it was sent.
func (s Saved) flags(session []string) []string {
	if s.Caps == nil {
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
	if s.Caps.Sampling {
		out = append(out, "--sampling")
	}
	for _, u := range s.Caps.Roots {
		dir := u
		if pu, err := url.Parse(u); err == nil && pu.Scheme == "file" {
			dir = filepath.FromSlash(pu.Path)
		}
		out = append(out, "--root", dir)
	}
	return out
}

// scriptHead starts every saved script. It proves nothing: anyone can
// write it; what mcpcli may write over is what its ledger says it wrote
// (safefile.Write).
const scriptHead = "#!/bin/sh\n# An mcpcli session with "

// SaveScript writes reqs to path as a script (WriteScript) with
// safefile.Write: a new file, or over a script mcpcli saved there before
// and nobody has changed since (the ledger l says so); never through a
// symbolic link, never over another file. It returns the line that says
// so. A missing directory is made (0700) only when path is DefaultPath.
func SaveScript(path string, l *safefile.Ledger, r Replay, server client.Server, reqs []Saved, now time.Time) (string, error) {
	var buf bytes.Buffer
	n, secrets := WriteScript(&buf, r, server, reqs, now)
	if path == r.DefaultPath {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return "", fmt.Errorf("could not save the script: %v", err)
		}
	}
	if err := safefile.Write(path, buf.Bytes(), 0o700, l); err != nil {
		return "", fmt.Errorf("could not save the script: %v", err)
	}
	msg := fmt.Sprintf("saved %d request%s to %s (run it with sh)", n, plural.S(n), oneLine(path))
	if secrets > 0 {
		msg += fmt.Sprintf("; it holds %d secret value%s: keep it private", secrets, plural.S(secrets))
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
func WriteScript(w io.Writer, r Replay, server client.Server, reqs []Saved, now time.Time) (n, secrets int) {
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
		answers, s, whole := AnswersFile(c.Rounds)
		if !whole {
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
		case ToolsCall:
			cmd = []string{"call"}
			if len(c.Args) > 0 {
				b, _ := json.Marshal(c.Args)
				cmd = append(cmd, "--args", string(textsafe.EscapeJSON(b)))
			}
			own = []string{c.Target}
		case PromptsGet:
			cmd = []string{"prompt"}
			own = []string{c.Target}
			for _, k := range slices.Sorted(maps.Keys(c.Args)) {
				own = append(own, k+"="+fmt.Sprint(c.Args[k]))
			}
		case ResourcesRead:
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
		answers = bytes.TrimSuffix(answers, []byte("\n"))
		delim := "MCPCLI_ANSWERS"
		for strings.Contains(string(answers), delim) {
			delim += "_"
		}
		fmt.Fprintf(w, "%s <<'%s'\n%s\n%s\n", line, delim, textsafe.EscapeJSON(answers), delim)
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

// unsafeWord reports a character a terminal would obey or hide
// (textsafe.Unsafe: a newline and a tab too, a word is one line), or
// invalid UTF-8.
func unsafeWord(s string) bool {
	for i, r := range s {
		if textsafe.Unsafe(r) || r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD") {
			return true
		}
	}
	return false
}

// oneLine keeps a comment on one line, inert.
func oneLine(s string) string { return textsafe.Sanitize(s, false) }
