package render

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/schema"
)

// startArgsTUI shows an arguments form as startTUI shows an ask; what is
// sent is Result()["arguments"].
func startArgsTUI(t *testing.T, args Arguments) *tui {
	t.Helper()
	pr, pw := io.Pipe()
	u := &tui{t: t, keys: pw, out: &syncBuffer{}, seen: make(chan struct{}, 1), done: make(chan struct{})}
	a := &FormAnswerer{Term: &Terminal{In: pr, Out: u.out, Options: []tea.ProgramOption{tea.WithWindowSize(80, 24), tea.WithEnvironment([]string{"TERM=xterm-256color"})}, KeyGuard: NoKeyGuard}}
	a.onView = func(s string) {
		u.mu.Lock()
		u.screen = ansi.Strip(s)
		u.frames++
		u.mu.Unlock()
		select {
		case u.seen <- struct{}{}:
		default:
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*waitLimit)
	go func() {
		defer close(u.done)
		defer cancel()
		got, err := a.AskArguments(ctx, args)
		u.err = err
		if err == nil {
			u.res = map[string]*mcp.ElicitResult{"arguments": {Action: client.Accept, Content: got}}
		}
	}()
	t.Cleanup(func() {
		pw.Close()
		select {
		case <-u.done:
		case <-time.After(waitLimit):
			t.Errorf("the form did not finish")
		}
	})
	return u
}

// The form starts from the values given (an edit-and-re-run, KEY=VALUE
// pairs): they show in their fields, and go unless changed.
func TestArgumentsStartFromGiven(t *testing.T) {
	form, err := schema.ParseArguments([]byte(`{"type":"object","properties":{"text":{"type":"string"},"count":{"type":"integer"},"loud":{"type":"boolean","default":false},"opts":{"type":"object"}},"required":["text"]}`))
	if err != nil {
		t.Fatal(err)
	}
	u := startArgsTUI(t, Arguments{Server: client.Server{Name: "Test Server"}, Method: "tools/call", Target: "echo", Form: form,
		Given: map[string]any{"text": "first", "count": 3, "loud": true, "opts": map[string]any{"a": 1}}})
	u.WaitFor("Arguments for tool echo", "> first")
	u.Press(kCtrlS)
	u.WaitFor("Review", "first", "[ Send ]")
	u.Press(kEnter)
	if diff := cmp.Diff(map[string]any{"text": "first", "count": int64(3), "loud": true, "opts": map[string]any{"a": json.Number("1")}}, u.Result()["arguments"].Content); diff != "" {
		t.Errorf("arguments sent (-want +got):\n%s", diff)
	}
}

// A JSON argument that does not fit its own schema is said on the field,
// in words, before anything is sent; a form of arguments has no decline
// to offer.
func TestArgumentsJSONFieldIsCheckedAgainstItsSchema(t *testing.T) {
	form, err := schema.ParseArguments([]byte(`{"type":"object","properties":{"entities":{"type":"array","items":{"$ref":"#/$defs/E"}}},"required":["entities"],"$defs":{"E":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	u := startArgsTUI(t, Arguments{Server: client.Server{Name: "Test Server"}, Method: "tools/call", Target: "create_entities", Form: form,
		Given: map[string]any{"entities": []any{map[string]any{"name": 1}}}})
	u.WaitFor("Arguments for tool create_entities")
	u.Press(kTab) // leaving the field checks it
	s := u.WaitFor(`does not fit its schema at "name": has type "integer", want "string"`)
	if strings.Contains(s, "validating") || strings.Contains(s, "decline") {
		t.Errorf("the refusal reads as the validator's jargon, or offers a decline:\n%s", s)
	}
	u.Press(kEsc)
}
