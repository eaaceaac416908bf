package render

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
)

func samplingRound() client.SamplingRound {
	return client.SamplingRound{
		Server: client.Server{Name: "test-server", Title: "Test Server", Via: "stdio: test-server"},
		Method: "tools/call", Target: "summarize", Number: 1, Key: "llm",
		Params: &mcp.CreateMessageWithToolsParams{
			SystemPrompt: "You are \x1b[31mterse\x1b[0m.\nNever lie.",
			Messages: []*mcp.SamplingMessageV2{
				{Role: "user", Content: []mcp.Content{&mcp.TextContent{Text: "Summarize \u202eevil\u202c this:\nline two"}}},
				{Role: "user", Content: []mcp.Content{&mcp.ImageContent{MIMEType: "image/png", Data: make([]byte, 2048)}, &mcp.AudioContent{MIMEType: "audio/wav", Data: make([]byte, 10)}}},
				{Role: "assistant", Content: []mcp.Content{&mcp.TextContent{Text: "Sure."}}},
			},
			ModelPreferences: &mcp.ModelPreferences{Hints: []*mcp.ModelHint{{Name: "claude\x07"}, {Name: "gpt"}}, CostPriority: 0.25, IntelligencePriority: 1},
			MaxTokens:        150, Temperature: 0.5, StopSequences: []string{"\n\n", "END"}, IncludeContext: "thisServer",
			Tools: []*mcp.Tool{{Name: "get_weather", Description: "Weather for a \x1b]8;;x\x07city"}},
		},
	}
}

func TestSamplingLines(t *testing.T) {
	want := []string{
		"System prompt:",
		"  You are terse.",
		"  Never lie.",
		"Messages:",
		"  [user] Summarize <U+202E>evil<U+202C> this:",
		"    line two",
		"  [user] [image image/png 2 KB]",
		"  [user] [audio audio/wav 10 B]",
		"  [assistant] Sure.",
		"Model preferences: hints claude, gpt; cost priority 0.25; intelligence priority 1",
		`Limits: max tokens 150 · temperature 0.5 · stop at "  ", "END" · include context thisServer`,
		"Tools the model may use:",
		"  get_weather — Weather for a city",
	}
	if diff := cmp.Diff(want, SamplingLines(samplingRound())); diff != "" {
		t.Errorf("SamplingLines (-want +got):\n%s", diff)
	}
}

func TestPrompterSample(t *testing.T) {
	reply := func(s string) *client.SamplingAnswer { return humanReply(s) }
	for _, tc := range []struct {
		name, in   string
		want       *client.SamplingAnswer
		transcript []string
	}{
		{"write and send", "w\nThe gist:\nit works.\n.\ny\n", reply("The gist:\nit works."),
			[]string{"── Test Server asks for a model reply (sampling) ──", "while running tool summarize", "[user] [image image/png 2 KB]",
				"→ reply sent to Test Server for llm (19 characters)"}},
		{"the default is to write", "\nshort\n.\ny\n", reply("short"), nil},
		{"a blank line does not send", "w\nhi\n.\n\ny\n", reply("hi"), []string{"! type one of: yes, edit, decline"}},
		{"decline", "d\n", &client.SamplingAnswer{Decline: true}, []string{"→ decline sent to Test Server for llm"}},
		{"an empty reply is asked again", "w\n\n.\nw\nok\n.\ny\n", reply("ok"), []string{"! the reply is empty; write something, or decline"}},
		{"edit writes it again", "w\nfirst\n.\ne\nw\nsecond\n.\ny\n", reply("second"), nil},
		{"decline at the review", "w\nfirst\n.\nd\n", &client.SamplingAnswer{Decline: true}, nil},
		{"end of input before sending cancels", "w\nlast words", nil, []string{"end of input: cancelled; no reply was sent"}},
		{"end of input at the confirmation cancels", "w\nlast words\n.\n\n", nil, []string{"end of input: cancelled"}},
		{"end of input before a reply cancels", "w\n", nil, []string{"end of input: cancelled"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			p := NewPrompter(strings.NewReader(tc.in), &out)
			p.Echo = true
			got, err := p.Sample(context.Background(), samplingRound())
			switch {
			case tc.want == nil && !errors.Is(err, client.ErrAbandoned):
				t.Fatalf("Sample(%q) = %v, want the request abandoned (nothing sent)", tc.in, err)
			case tc.want != nil && err != nil:
				t.Fatalf("Sample(%q) = %v", tc.in, err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Sample(%q) (-want +got):\n%s", tc.in, diff)
			}
			for _, w := range tc.transcript {
				if !strings.Contains(out.String(), w) {
					t.Errorf("transcript lacks %q:\n%s", w, out.String())
				}
			}
			if strings.Contains(out.String(), "\x1b") || strings.Contains(out.String(), "\u202e") || !strings.Contains(out.String(), "<U+202E>") {
				t.Errorf("the transcript carries the server's escapes, or hides its bidi override:\n%q", out.String())
			}
		})
	}
	_, err := NewPrompter(strings.NewReader(""), io.Discard).Sample(context.Background(), samplingRound())
	if !errors.Is(err, ErrNoInput) {
		t.Errorf("Sample with nothing piped = %v, want ErrNoInput", err)
	}
}

// sampleTUI runs FormAnswerer.Sample through the real bubbletea loop.
func sampleTUI(t *testing.T, keys ...string) (*client.SamplingAnswer, string, string) {
	t.Helper()
	pr, pw := io.Pipe()
	var out, status syncBuffer
	seen := make(chan string, 100)
	a := &FormAnswerer{Term: &Terminal{In: pr, Out: &out, Options: []tea.ProgramOption{tea.WithWindowSize(80, 24), tea.WithEnvironment([]string{"TERM=xterm-256color"})}, KeyGuard: NoKeyGuard}, Status: &status}
	var last string
	a.onView = func(s string) {
		select {
		case seen <- ansi.Strip(s):
		default:
		}
	}
	type result struct {
		a   *client.SamplingAnswer
		err error
	}
	done := make(chan result, 1)
	go func() {
		ans, err := a.Sample(context.Background(), samplingRound())
		done <- result{ans, err}
	}()
	waitScreen := func(want string) {
		deadline := time.After(waitLimit)
		for !strings.Contains(last, want) {
			select {
			case last = <-seen:
			case <-deadline:
				t.Fatalf("the screen never showed %q; last:\n%s", want, last)
			}
		}
	}
	waitScreen("Your reply, as the model")
	screen := last
	for _, k := range keys {
		pw.Write([]byte(k))
		time.Sleep(20 * time.Millisecond)
	}
	select {
	case r := <-done:
		pw.Close()
		if r.err != nil {
			t.Fatalf("Sample = %v", r.err)
		}
		return r.a, screen, status.String()
	case <-time.After(waitLimit):
		t.Fatalf("Sample did not end; last screen:\n%s", last)
	}
	return nil, "", ""
}

func TestSampleFullScreen(t *testing.T) {
	got, screen, status := sampleTUI(t, "Hello", kEnter, "world", kCtrlS)
	if diff := cmp.Diff(humanReply("Hello\nworld"), got); diff != "" {
		t.Errorf("Sample (-want +got):\n%s", diff)
	}
	for _, w := range []string{"Test Server asks for a model reply (sampling)", "while running tool summarize · your reply goes to Test Server",
		"System prompt:", "[user] [image image/png 2 KB]", "ctrl+s send · enter or ctrl+j new line · ctrl+x or esc decline"} {
		if !strings.Contains(screen, w) {
			t.Errorf("the screen lacks %q:\n%s", w, screen)
		}
	}
	if want := "→ reply sent to Test Server for llm (11 characters)\n"; status != want {
		t.Errorf("status line %q, want %q", status, want)
	}

	// Ctrl+J makes a new line, as in the forms' text fields.
	got, _, _ = sampleTUI(t, "one", "\n", "two", kCtrlS)
	if diff := cmp.Diff(humanReply("one\ntwo"), got); diff != "" {
		t.Errorf("ctrl+j: Sample (-want +got):\n%s", diff)
	}

	got, _, status = sampleTUI(t, "half a thought", kCtrlX)
	if !got.Decline || got.Result != nil || !strings.Contains(status, "→ decline sent to Test Server for llm") {
		t.Errorf("ctrl+x: Sample = %+v, status %q; want a decline", got, status)
	}
	got, _, _ = sampleTUI(t, kCtrlS, kEsc)
	if !got.Decline {
		t.Errorf("ctrl+s on an empty reply then esc: Sample = %+v, want a decline (an empty reply is never sent)", got)
	}
}
