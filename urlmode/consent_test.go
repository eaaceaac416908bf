package urlmode

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/urlmode/browsertest"
)

const connectURL = "https://connect.example.com/start?id=42"

func urlRound(n int, urls ...string) client.Round {
	r := client.Round{
		Server: client.Server{Name: "weather", Via: "stdio: ./weather"},
		Method: "tools/call", Target: "connect_account", Number: n,
	}
	for i, u := range urls {
		key := "connect"
		if i > 0 {
			key += string(rune('a' + i))
		}
		r.Asks = append(r.Asks, client.Ask{Key: key, Params: &mcp.ElicitParams{
			Mode: "url", Message: "Sign in to \x1b[31mcalendar\x1b[0m", URL: u, ElicitationID: "e-" + key,
		}})
	}
	return r
}

// answerLines runs the line Prompter with c's URL hook on input.
func answerLines(t *testing.T, c *Consent, r client.Round, input string) (map[string]string, string) {
	t.Helper()
	var out bytes.Buffer
	p := render.NewPrompter(strings.NewReader(input), &out)
	p.URL = func(ctx context.Context, r client.Round, i int) (*mcp.ElicitResult, error) {
		return c.Line(ctx, p, r, i)
	}
	c.Out = &out
	res, err := p.Answer(context.Background(), r)
	if err != nil {
		t.Fatalf("Answer: %v\n%s", err, out.String())
	}
	actions := map[string]string{}
	for k, v := range res {
		if v.Content != nil {
			t.Errorf("answer for %q carries content %v; URL mode never does", k, v.Content)
		}
		actions[k] = v.Action
	}
	return actions, out.String()
}

func TestLineConsent(t *testing.T) {
	tests := []struct {
		name   string
		url    string
		input  string
		opened []string
		action string
		shows  []string // every one must appear on stderr
	}{
		{name: "open then enter accepts", url: connectURL, input: "o\n\n", opened: []string{connectURL}, action: client.Accept,
			shows: []string{"URL:  " + connectURL, "Host: connect.example.com · site example.com", "Opened " + connectURL + " in your browser.", "Finish in your browser, then press Enter"}},
		{name: "show never opens", url: connectURL, input: "s\n\n", action: client.Accept,
			shows: []string{"Copy this URL into your browser:\n\n" + connectURL + "\n"}},
		{name: "show then open", url: connectURL, input: "s\no\n\n", opened: []string{connectURL}, action: client.Accept},
		{name: "decline", url: connectURL, input: "d\n", action: client.Decline},
		{name: "cancel", url: connectURL, input: "c\n", action: client.Cancel},
		{name: "decline after opening", url: connectURL, input: "o\nd\n", opened: []string{connectURL}, action: client.Decline},
		{name: "cancel after opening", url: connectURL, input: "open\nesc\n", opened: []string{connectURL}, action: client.Cancel},
		{name: "empty line is no choice", url: connectURL, input: "\n\n\n", action: client.Cancel,
			shows: []string{"nothing opens unless you type o", "too many invalid answers"}},
		{name: "end of input cancels", url: connectURL, input: "o\n", opened: []string{connectURL}, action: client.Cancel},
		{name: "refused is declined without asking", url: "javascript:alert(1)", input: "o\n\n", action: client.Decline,
			shows: []string{"✗ Refused: javascript: links run code", "answering decline"}},
		{name: "data refused", url: "data:text/html,<h1>sign in</h1>", input: "", action: client.Decline, shows: []string{"data: links"}},
		{name: "file refused", url: "file:///etc/passwd", input: "", action: client.Decline, shows: []string{"files on this computer"}},
		{name: "escape sequences refused", url: "https://example.com/\x1b]8;;https://evil.example\x07x\x1b]8;;\x07", action: client.Decline, shows: []string{"control characters"}},
		{name: "punycode warned", url: "https://xn--pple-43d.com/", input: "d\n", action: client.Decline,
			shows: []string{"⚠ The host mixes Cyrillic and Latin", "⚠ The host is written in punycode: xn--pple-43d.com reads as аpple.com"}},
		{name: "http warned", url: "http://192.168.0.1/", input: "c\n", action: client.Cancel, shows: []string{"⚠ The host is an IP address", "⚠ Plain http"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stub := browsertest.New(t, tt.opened...)
			c := &Consent{Open: stub.Open}
			got, out := answerLines(t, c, urlRound(1, tt.url), tt.input)
			if got["connect"] != tt.action {
				t.Errorf("action = %q, want %q\n%s", got["connect"], tt.action, out)
			}
			for _, s := range tt.shows {
				if !strings.Contains(out, s) {
					t.Errorf("stderr lacks %q:\n%s", s, out)
				}
			}
			if strings.Contains(out, "\x1b") {
				t.Errorf("stderr carries an escape sequence:\n%q", out)
			}
		})
	}
}

func TestLineNotFinishedYet(t *testing.T) {
	stub := browsertest.New(t, connectURL)
	c := &Consent{Open: stub.Open}
	got, _ := answerLines(t, c, urlRound(1, connectURL), "o\n\n")
	if got["connect"] != client.Accept {
		t.Fatalf("round 1: %q, want accept", got["connect"])
	}
	// The server asks for the same URL again: the step is not done. No new
	// consent is needed for the same URL, and nothing opens by itself.
	got, out := answerLines(t, c, urlRound(2, connectURL), "\n")
	if got["connect"] != client.Accept {
		t.Errorf("round 2: %q, want accept", got["connect"])
	}
	if !strings.Contains(out, "Not finished yet: weather asks for this step again") || !strings.Contains(out, "o open again") {
		t.Errorf("round 2 does not say not finished yet:\n%s", out)
	}
	if strings.Contains(out, linePrompt) {
		t.Errorf("round 2 asked for consent again for the same URL:\n%s", out)
	}
	// A different URL is a new step: full consent again.
	other := "https://connect.example.com/start?id=43"
	got, out = answerLines(t, c, urlRound(3, other), "d\n")
	if got["connect"] != client.Decline || !strings.Contains(out, linePrompt) || strings.Contains(out, "Not finished yet") {
		t.Errorf("a new URL was not offered afresh: %q\n%s", got["connect"], out)
	}
}

func TestLineOpenAgainWhenNotFinished(t *testing.T) {
	stub := browsertest.New(t, connectURL, connectURL)
	c := &Consent{Open: stub.Open}
	answerLines(t, c, urlRound(1, connectURL), "o\n\n")
	got, _ := answerLines(t, c, urlRound(2, connectURL), "o\n\n")
	if got["connect"] != client.Accept {
		t.Errorf("round 2: %q, want accept", got["connect"])
	}
}

func TestLineOpenFails(t *testing.T) {
	stub := browsertest.New(t, connectURL)
	stub.Err = errors.New("xdg-open: no method available for opening 'https://…'")
	c := &Consent{Open: stub.Open}
	got, out := answerLines(t, c, urlRound(1, connectURL), "o\n\n")
	if got["connect"] != client.Accept {
		t.Errorf("action %q, want accept: a failed browser is no reason to give up", got["connect"])
	}
	for _, s := range []string{"Could not open a browser (xdg-open: no method available for opening 'https://…').", "Copy this URL into your browser:\n\n" + connectURL + "\n", "o open in browser"} {
		if !strings.Contains(out, s) {
			t.Errorf("stderr lacks %q:\n%s", s, out)
		}
	}
}

func TestLineNoOpener(t *testing.T) {
	c := &Consent{} // no way to open: the URL is printed
	got, out := answerLines(t, c, urlRound(1, connectURL), "o\n\n")
	if got["connect"] != client.Accept || !strings.Contains(out, "\n"+connectURL+"\n") {
		t.Errorf("got %q\n%s", got["connect"], out)
	}
}

func TestLineSeveralAsks(t *testing.T) {
	second := "https://pay.example.net/checkout"
	stub := browsertest.New(t, second)
	c := &Consent{Open: stub.Open}
	got, _ := answerLines(t, c, urlRound(1, "file:///etc/shadow", connectURL, second), "d\no\n\n")
	want := map[string]string{"connect": client.Decline, "connectb": client.Decline, "connectc": client.Accept}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("actions (-want +got):\n%s", d)
	}
}

// scripted is an answers file that accepts everything.
func scripted(action string) client.Answerer {
	return client.AnswererFunc(func(ctx context.Context, r client.Round) (map[string]*mcp.ElicitResult, error) {
		out := map[string]*mcp.ElicitResult{}
		for _, a := range r.Asks {
			out[a.Key] = &mcp.ElicitResult{Action: action}
		}
		return out, nil
	})
}

func TestScript(t *testing.T) {
	tests := []struct {
		name    string
		url     string
		action  string // the script's
		open    bool
		opened  []string
		want    string
		shows   []string
		hidden  []string
		rounds  int
		against string
	}{
		{name: "accept prints, never opens", url: connectURL, action: client.Accept, want: client.Accept,
			shows: []string{"URL:  " + connectURL, "not opened (pass --open-urls to open it)"}},
		{name: "accept with --open-urls opens", url: connectURL, action: client.Accept, open: true, opened: []string{connectURL}, want: client.Accept,
			shows: []string{"Opened " + connectURL + " in your browser."}},
		{name: "refused becomes decline", url: "javascript:alert(1)", action: client.Accept, open: true, want: client.Decline,
			shows: []string{"✗ Refused: javascript:", "answering decline instead"}},
		{name: "file refused becomes decline", url: "file:///etc/passwd", action: client.Accept, open: true, want: client.Decline, shows: []string{"✗ Refused: file:"}},
		{name: "decline stays decline, quietly", url: connectURL, action: client.Decline, open: true, want: client.Decline, hidden: []string{"URL:"}},
		{name: "cancel stays cancel", url: "javascript:alert(1)", action: client.Cancel, open: true, want: client.Cancel},
		{name: "warnings shown", url: "https://аpple.com/login", action: client.Accept, want: client.Accept, shows: []string{"⚠ The host mixes Cyrillic and Latin", "xn--pple-43d.com"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stub := browsertest.New(t, tt.opened...)
			var out bytes.Buffer
			c := &Consent{Open: stub.Open, Out: &out}
			got, err := c.Script(scripted(tt.action), tt.open).Answer(context.Background(), urlRound(1, tt.url))
			if err != nil {
				t.Fatal(err)
			}
			if got["connect"].Action != tt.want {
				t.Errorf("action %q, want %q\n%s", got["connect"].Action, tt.want, out.String())
			}
			for _, s := range tt.shows {
				if !strings.Contains(out.String(), s) {
					t.Errorf("stderr lacks %q:\n%s", s, out.String())
				}
			}
			for _, s := range tt.hidden {
				if strings.Contains(out.String(), s) {
					t.Errorf("stderr has %q:\n%s", s, out.String())
				}
			}
		})
	}
}

func TestScriptNotFinishedYetOpensOnce(t *testing.T) {
	stub := browsertest.New(t, connectURL)
	var out bytes.Buffer
	c := &Consent{Open: stub.Open, Out: &out}
	s := c.Script(scripted(client.Accept), true)
	for n := 1; n <= 3; n++ {
		got, err := s.Answer(context.Background(), urlRound(n, connectURL))
		if err != nil || got["connect"].Action != client.Accept {
			t.Fatalf("round %d: %v %v", n, got, err)
		}
	}
	if n := strings.Count(out.String(), "not finished yet"); n != 2 {
		t.Errorf("said not finished yet %d times, want 2:\n%s", n, out.String())
	}
}
