//go:build unix

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/demoserver"
	"github.com/mcpcli/mcpcli/internal/cast"
	"github.com/mcpcli/mcpcli/internal/tourtape"
)

// playEnv makes the test binary play a cast: it writes the cast's output
// events to its stdout, in order (see TestMain).
const playEnv = "MCPCLI_E2E_PLAY"

func playCast(path string) {
	f, err := os.Open(path)
	if err == nil {
		defer f.Close()
		err = tourtape.WriteOutput(os.Stdout, f)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// tape starts argv in its own tmux at 80×24. The tests type at machine
// speed: the forms' guard against keys typed ahead (MCPCLI_KEY_GUARD, where
// there is one) is off, as in start.
func tape(t *testing.T, env []string, argv ...string) *tourtape.Tmux {
	t.Helper()
	mcpcli(t) // skips without tmux
	env = append([]string{"MCPCLI_KEY_GUARD=0"}, env...)
	tm, err := tourtape.Start(t.TempDir(), 80, 24, env, argv...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tm.Close)
	return tm
}

func must[T any](t *testing.T) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

// readCast reads and checks the cast at path: the header, every line
// whole, times that never decrease (cast.ReadAll checks these), and no
// input events: keys are never recorded.
func readCast(t *testing.T, path string) (cast.Header, []cast.Event) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h, events, err := cast.ReadAll(f)
	if err != nil {
		t.Fatalf("the cast %s does not read: %v", path, err)
	}
	if h.Width != 80 || h.Height != 24 {
		t.Errorf("the cast's terminal is %dx%d, want 80x24", h.Width, h.Height)
	}
	for _, e := range events {
		if e.Code == cast.Input {
			t.Errorf("the cast records a key typed at %v: %q", e.Time, e.Data)
		}
	}
	return h, events
}

func marks(events []cast.Event) []string {
	var out []string
	for _, e := range events {
		if e.Code == cast.Marker {
			out = append(out, e.Data)
		}
	}
	return out
}

// replay plays the cast at path into a fresh 80×24 tmux, with argv (the
// test binary, or asciinema cat), its terminal raw and silent as a
// player's is, and waits until what the window shows, scrollback and
// colours and all, passes want; it fails saying why if it never does.
func replay(t *testing.T, want screenCheck, env []string, argv ...string) {
	t.Helper()
	tm := tape(t, env, append([]string{"sh", "-c", `stty raw -echo && "$@"`, "sh"}, argv...)...)
	code, err := tm.Exited(wait)
	if err != nil || code != 0 {
		s, _ := tm.History()
		t.Fatalf("%s did not play the cast: status %d, %v\n%s", argv[0], code, err, s)
	}
	deadline := time.Now().Add(wait)
	for {
		got := must[string](t)(tm.Styled())
		why := want(got)
		if why == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("played back by %s, %s", filepath.Base(argv[0]), why)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// A screenCheck says what is wrong with a styled screen, or "".
type screenCheck func(styled string) string

// sameAs is the live run's screen exactly.
func sameAs(live string) screenCheck {
	return func(got string) string {
		if got == live {
			return ""
		}
		return "the cast ends on another screen than the live run (-live +played):\n" + cmp.Diff(strings.Split(live, "\n"), strings.Split(got, "\n"))
	}
}

// showing shows every one of texts.
func showing(texts ...string) screenCheck {
	return func(got string) string {
		plain := ansi.Strip(got)
		for _, s := range texts {
			if !strings.Contains(plain, s) {
				return fmt.Sprintf("the cast ends on a screen without %q:\n%s", s, plain)
			}
		}
		return ""
	}
}

// play replays the cast with the test's own player and, when it is
// installed, asciinema cat.
func play(t *testing.T, want screenCheck, path string) {
	t.Helper()
	replay(t, want, []string{playEnv + "=" + path}, os.Args[0])
	t.Run("asciinema cat", func(t *testing.T) {
		bin, err := exec.LookPath("asciinema")
		if err != nil {
			t.Skip("asciinema is not installed (apt-get install asciinema; .ci/run installs it): the cast is checked with the test's own player only")
		}
		replay(t, want, nil, bin, "cat", path)
	})
}

// The tour, recorded with --cast in tmux at 80×24 and answered with keys
// as a person would (tourtape.Tour). At each step, the screen has its
// "Tour n/7" header and no line cut mid-word by the terminal; the URL
// step, with no browser, says so once. The cast is valid, keyless, has a
// chapter a flow and a marker a round with the right text; played back
// into a fresh pane (by a small player, and asciinema cat) it ends on the
// live run's screen.
func TestTourCast(t *testing.T) {
	bin := mcpcli(t)
	path := filepath.Join(t.TempDir(), "tour.cast")
	tm := tape(t, []string{"BROWSER=false", "DISPLAY=", "WAYLAND_DISPLAY="}, bin, "demo", "--cast", path, "--cast-idle", "1")
	type capture struct{ step, joined string }
	var steps []capture
	see := func(step string) {
		steps = append(steps, capture{step, must[string](t)(tm.Joined())})
	}
	err := tourtape.Play(tm, tourtape.Tour(), tourtape.Options{Timeout: wait, OnScreen: func(step, _ string) { see(step) }})
	if err != nil {
		t.Fatal(err)
	}
	if code, err := tm.Exited(wait); err != nil || code != 0 {
		t.Fatalf("mcpcli demo: status %d, %v", code, err)
	}
	see("end")
	live := must[string](t)(tm.Styled())
	history := must[string](t)(tm.History())

	t.Run("narration", func(t *testing.T) {
		for _, c := range steps {
			for _, l := range strings.Split(c.joined, "\n") {
				if cut := midWord(l, 80); cut != "" {
					t.Errorf("at step %s the terminal cut a word: %q (line %q)", c.step, cut, l)
				}
			}
		}
		// Each flow's explanation, wrapped by mcpcli at spaces and indented.
		for i, fl := range demoserver.Flows() {
			words := strings.Fields(fl.Explain)
			for j, w := range words {
				words[j] = regexp.QuoteMeta(w)
			}
			re := regexp.MustCompile(fmt.Sprintf(`\[%d/7\] %s\n {6}%s\n`, i+1, regexp.QuoteMeta(fl.Title), strings.Join(words, `(?: |\n {6})`)))
			if !re.MatchString(history) {
				t.Errorf("flow %d's narration is not wrapped at spaces under its indent:\n%s", i+1, history)
			}
		}
	})

	t.Run("URL step without a browser", func(t *testing.T) {
		var then string
		for _, c := range steps {
			if strings.HasPrefix(c.step, "5/7") && strings.HasSuffix(c.step, "(1)") {
				then = c.joined
			}
		}
		after := then[strings.LastIndex(then, "← input_required (round 1): asks connect"):]
		for s, n := range map[string]int{"Could not open a browser": 1, "copy": 1, "Not opened": 0, "show the URL": 0} {
			if got := strings.Count(strings.ToLower(after), strings.ToLower(s)); got != n {
				t.Errorf("the URL step says %q %d times, want %d:\n%s", s, got, n, after)
			}
		}
	})

	t.Run("cast", func(t *testing.T) {
		h, events := readCast(t, path)
		if h.IdleTimeLimit != time.Second || !strings.Contains(h.Title, "mcpcli demo") {
			t.Errorf("header %+v: want idle_time_limit 1 and the title mcpcli demo", h)
		}
		if diff := cmp.Diff(tourtape.Marks(), marks(events)); diff != "" {
			t.Errorf("markers (-want +got):\n%s", diff)
		}
		var last float64
		for _, e := range events {
			if e.Time-last > 1.000001 {
				t.Errorf("a pause of %.3fs at %.3f, over --cast-idle 1", e.Time-last, e.Time)
			}
			last = e.Time
		}
	})

	t.Run("played back", func(t *testing.T) { play(t, sameAs(live), path) })
}

// midWord is the word a line longer than width was cut inside by the
// terminal ("" when it was not): its cell width-1 and cell width are both
// part of words.
func midWord(l string, width int) string {
	if ansi.StringWidth(l) <= width {
		return ""
	}
	before := []rune(ansi.Truncate(l, width, ""))
	after := []rune(ansi.TruncateLeft(l, width, ""))
	if len(before) == 0 || len(after) == 0 || before[len(before)-1] == ' ' || after[0] == ' ' {
		return ""
	}
	start := len(before) - 1
	for start > 0 && before[start-1] != ' ' {
		start--
	}
	end := 0
	for end < len(after) && after[end] != ' ' {
		end++
	}
	return string(before[start:]) + "|" + string(after[:end])
}

// A recorded session ended by Ctrl+C leaves a cast that parses and plays:
// Ctrl+C pressed mid-form (the session asks, abandons the request, then
// quits), with the round marked abandoned; SIGINT, the signal itself, at
// the session's screen; and SIGINT mid-form, where the form quits, the
// session after it, in order: the cast ends on what the terminal shows.
func TestCastCtrlC(t *testing.T) {
	for _, how := range []string{"keys", "SIGINT", "SIGINT mid-form"} {
		t.Run(how, func(t *testing.T) {
			bin := mcpcli(t)
			path := filepath.Join(t.TempDir(), "session.cast")
			tm := tape(t, nil, bin, "session", "--cast", path, "--", bin, "demo-server")
			waitFor(t, tm, "mcpcli demo server 1.0.0", "Tools 10")
			if how == "SIGINT" {
				check(t, syscall.Kill(must[int](t)(tm.Pid()), syscall.SIGINT))
				if _, err := tm.Exited(wait); err != nil {
					t.Fatal(err)
				}
				readCast(t, path)
				play(t, sameAs(must[string](t)(tm.Styled())), path)
				return
			}
			check(t, tm.Keys("/"))
			check(t, tm.Type("switch_account"))
			waitFor(t, tm, "/switch_account")
			check(t, tm.Keys("Enter", "Enter"))
			waitFor(t, tm, "Call switch_account? It takes no arguments.")
			check(t, tm.Keys("y"))
			waitFor(t, tm, "Which one should I use?")
			switch how {
			case "keys":
				// Once to ask, twice to abandon the request; then twice
				// more to leave the session.
				check(t, tm.Keys("C-c"))
				waitFor(t, tm, "ctrl+c again abandons the request")
				check(t, tm.Keys("C-c"))
				waitFor(t, tm, "r re-run")
				check(t, tm.Keys("C-c"))
				waitFor(t, tm, "press ctrl+c again (or q) to quit")
				check(t, tm.Keys("C-c"))
			case "SIGINT mid-form":
				check(t, syscall.Kill(must[int](t)(tm.Pid()), syscall.SIGINT))
			}
			if _, err := tm.Exited(wait); err != nil {
				t.Fatal(err)
			}
			_, events := readCast(t, path)
			got := marks(events)
			if how == "keys" {
				if len(got) != 1 || got[0] != "switch_account · round 1 · abandoned" {
					t.Errorf("markers %q, want the round abandoned", got)
				}
				play(t, sameAs(must[string](t)(tm.Styled())), path)
				return
			}
			if len(got) > 1 || len(got) == 1 && got[0] != "switch_account · round 1 · abandoned" {
				t.Errorf("markers %q, want none, or the round abandoned", got)
			}
			play(t, sameAs(must[string](t)(tm.Styled())), path)
		})
	}
}

func check(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func waitFor(t *testing.T, tm *tourtape.Tmux, want ...string) string {
	t.Helper()
	s, err := tm.WaitFor(wait, want...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A secret typed in a form is masked where it is drawn, so the cast,
// which has what was drawn and no keys, never holds it.
func TestCastMasksSecrets(t *testing.T) {
	bin := mcpcli(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "login.cast")
	trace := filepath.Join(dir, "trace.jsonl")
	const secret = "hunter2-s3cret"
	tm := tape(t, []string{serverEnv + "=secret"}, bin, "call", "login", "--cast", path, "--trace", trace, "--", self)
	waitFor(t, tm, "Password")
	check(t, tm.Type(secret))
	waitFor(t, tm, "> "+strings.Repeat("*", len(secret)))
	check(t, tm.Keys("C-s"))
	waitFor(t, tm, "Review", "••••")
	check(t, tm.Keys("Enter"))
	if code, err := tm.Exited(wait); err != nil || code != 0 {
		t.Fatalf("mcpcli call login: status %d, %v", code, err)
	}
	if b, _ := os.ReadFile(trace); !strings.Contains(string(b), secret) {
		t.Fatalf("the secret never reached the server: the test typed it nowhere")
	}
	_, events := readCast(t, path)
	var drawn strings.Builder
	for _, e := range events {
		drawn.WriteString(e.Data)
	}
	if strings.Contains(drawn.String(), secret) || strings.Contains(drawn.String(), "hunter") {
		t.Errorf("the cast holds the secret typed")
	}
	// The form draws its stars as they change (a repeat of the last
	// character, say): the review's dots show whole.
	if plain := ansi.Strip(drawn.String()); !strings.Contains(plain, "Password *  ••••") {
		t.Errorf("the cast does not show the field masked on the review:\n%s", plain)
	}
	if got := marks(events); len(got) != 1 || got[0] != "login · round 1 · credentials: accept" {
		t.Errorf("markers %q", got)
	}
}

// serveSecret is a server whose one tool asks for a password.
func serveSecret() {
	s := mcp.NewServer(&mcp.Implementation{Name: "secret", Version: "1.0.0"}, nil)
	s.AddTool(&mcp.Tool{Name: "login", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			r, _ := req.Params.InputResponses["credentials"].(*mcp.ElicitResult)
			if r == nil {
				return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{
					"credentials": &mcp.ElicitParams{Mode: "form", Message: "Sign in to the vault.", RequestedSchema: json.RawMessage(
						`{"type":"object","properties":{"password":{"type":"string","title":"Password"}},"required":["password"]}`)},
				}}, nil
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "signed in: " + r.Action}}}, nil
		})
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		os.Exit(1)
	}
}

// The terminal's size is in the header, and a resize while recording is a
// resize event.
func TestCastResize(t *testing.T) {
	bin := mcpcli(t)
	path := filepath.Join(t.TempDir(), "session.cast")
	tm := tape(t, nil, bin, "session", "--cast", path, "--", bin, "demo-server")
	waitFor(t, tm, "mcpcli demo server 1.0.0", "Tools 10")
	if _, err := tm.Run("resize-window", "-t", "main", "-x", "100", "-y", "30"); err != nil {
		t.Fatal(err)
	}
	// The session draws its bar across the new width.
	waitFor(t, tm, strings.Repeat("─", 100))
	check(t, tm.Keys("q"))
	if _, err := tm.Exited(wait); err != nil {
		t.Fatal(err)
	}
	_, events := readCast(t, path) // 80x24 at the start
	var resizes []string
	for _, e := range events {
		if e.Code == cast.Resize {
			resizes = append(resizes, e.Data)
		}
	}
	if len(resizes) != 1 || resizes[0] != "100x30" {
		t.Errorf("resize events %q, want one, 100x30", resizes)
	}
}
