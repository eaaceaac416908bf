package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/demoserver"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/request"
)

// The demo server, in process, with its tasks quick.
func demo(t *testing.T) *mcp.Server {
	d, err := demoserver.New(demoserver.Options{TaskStep: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d.Server()
}

// A resource template is listed after the resources; enter asks its
// variables one by one, with the server's completions, and reads what
// they fill in.
func TestTemplateWithCompletions(t *testing.T) {
	var asked []render.Question
	h := newHarness(t, demo(t), harnessOptions{values: func(q render.Question) (string, error) {
		asked = append(asked, q)
		return "mcp", nil
	}})
	h.keys("3")
	h.waitShow("Resources 2+1", "Notes on a topic")
	h.keys("end")
	h.waitShow("A template: its variables are topic", "enter fills in its variables")
	h.keys("enter")
	h.waitShow("#1 read demo://notes/mcp", "Notes on mcp")
	if len(asked) != 1 || asked[0].Name != "topic" || !cmp.Equal(asked[0].Suggestions, []string{"go", "mcp", "terminals", "testing"}) {
		t.Errorf("asked %+v, want the topic with the server's four suggestions", asked)
	}
}

// A prompt's arguments, when the server completes them, are asked one by
// one with their suggestions, as the one-shot prompt command asks them.
func TestPromptWithCompletions(t *testing.T) {
	var asked []string
	h := newHarness(t, demo(t), harnessOptions{values: func(q render.Question) (string, error) {
		asked = append(asked, q.Name+":"+strings.Join(q.Suggestions, ","))
		if q.Name == "language" {
			return "French", nil
		}
		return "", render.ErrSkipped
	}})
	h.keys("2")
	h.waitShow("greeting")
	h.keys("/")
	h.typ("greet")
	h.keys("enter", "enter")
	h.waitShow("#1 prompt greeting", "language=French")
	if diff := cmp.Diff([]string{"language:English,French,Japanese", "name:"}, asked); diff != "" {
		t.Errorf("questions (-want +got):\n%s", diff)
	}
}

// A sampling request is answered in place, and its reply is in the
// timeline.
func TestSamplingInTheTimeline(t *testing.T) {
	var got []client.SamplingRound
	h := newHarness(t, demo(t), harnessOptions{
		forms: func(render.Arguments) (map[string]any, error) { return map[string]any{"version": "3.1"}, nil },
		sample: func(r client.SamplingRound) *client.SamplingAnswer {
			got = append(got, r)
			return &client.SamplingAnswer{Result: &mcp.CreateMessageWithToolsResult{Role: "assistant", Model: "a person",
				Content: []mcp.Content{&mcp.TextContent{Text: "3.1 is out."}}}}
		},
	})
	h.keys("/")
	h.typ("draft")
	h.keys("enter", "enter")
	h.waitShow("Announcement for 3.1, drafted by a person", "round 1 · draft", "sampling reply · 11 chars")
	if len(got) != 1 || got[0].Call != 1 || got[0].Key != "draft" {
		t.Errorf("sampling rounds %+v, want one for call 1, key draft", got)
	}
	var b strings.Builder
	request.WriteScript(&b, request.Replay{Server: []string{"--", "demo"}}, h.m.server, h.m.saved(), time.Now())
	if !strings.Contains(b.String(), `"draft": {"content":{"type":"text","text":"3.1 is out."},"model":"a person","role":"assistant"}`) {
		t.Errorf("the saved script does not carry the reply:\n%s", b.String())
	}
}

// A tool that runs as a task shows its status in the timeline, and its
// ask is answered in place.
func TestTaskInTheTimeline(t *testing.T) {
	h := newHarness(t, demo(t), harnessOptions{
		forms: func(render.Arguments) (map[string]any, error) { return map[string]any{"version": "9"}, nil },
		answer: func(r client.Round) map[string]*mcp.ElicitResult {
			return map[string]*mcp.ElicitResult{"approve": {Action: "accept", Content: map[string]any{"publish": true, "channel": "beta"}}}
		},
	})
	h.keys("/")
	h.typ("build_release")
	h.keys("enter", "enter")
	s := h.waitShow("Published release 9 to the beta channel", "round 1 · approve", "✓ complete")
	if !strings.Contains(s, "ran as a task") || !strings.Contains(s, "  id ") {
		t.Errorf("the timeline does not show the task:\n%s", s)
	}
}
