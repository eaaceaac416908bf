package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// askTwice is a tool that asks one form question per round, two rounds,
// carrying the round in requestState, then answers with what it was sent.
func askTwice(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	ask := &mcp.ElicitParams{Mode: "form", Message: "ok?", RequestedSchema: json.RawMessage(`{"type":"object","properties":{"ok":{"type":"boolean"}}}`)}
	switch req.Params.RequestState {
	case "":
		return &mcp.CallToolResult{RequestState: "1", InputRequests: mcp.InputRequestMap{"a": ask}}, nil
	case "1":
		return &mcp.CallToolResult{RequestState: "2", InputRequests: mcp.InputRequestMap{"b": ask}}, nil
	}
	r := req.Params.InputResponses["b"].(*mcp.ElicitResult)
	b, _ := json.Marshal(r.Content)
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: r.Action + " " + string(b)}}}, nil
}

func session(t *testing.T) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	s := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
	s.AddTool(&mcp.Tool{Name: "ask", InputSchema: json.RawMessage(`{"type":"object"}`)}, askTwice)
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	c := mcp.NewClient(&mcp.Implementation{Name: "bare", Version: "1"}, &mcp.ClientOptions{
		Capabilities:   &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}}},
		MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true},
	})
	cs, err := c.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func TestCallAnswersEachRound(t *testing.T) {
	cs := session(t)
	var asked []string
	answer := func(ask *mcp.ElicitParams) (*mcp.ElicitResult, error) {
		asked = append(asked, ask.Message)
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"ok": true}}, nil
	}
	res, err := call(context.Background(), cs, "ask", nil, answer)
	if err != nil {
		t.Fatalf("call(ask) = %v", err)
	}
	if diff := cmp.Diff([]string{"ok?", "ok?"}, asked); diff != "" {
		t.Errorf("call(ask) asked (-want +got):\n%s", diff)
	}
	if got := res.Content[0].(*mcp.TextContent).Text; got != `accept {"ok":true}` {
		t.Errorf("call(ask) result = %q, want the second round's answer", got)
	}
}

func TestRunRefusesWhatItCannotDo(t *testing.T) {
	tests := []struct {
		o    options
		want string
	}{
		{options{list: true}, "give a server"},
		{options{list: true, url: "http://x", server: []string{"s"}}, "give a server"},
		{options{url: "http://x"}, "give one of -list and -call"},
		{options{url: "http://x", list: true, tool: "t"}, "give one of -list and -call"},
		{options{url: "http://x", tool: "t", args: "[1]", accept: "{}"}, "-args is not a JSON object"},
		{options{url: "http://x", tool: "t", args: "{}", accept: "no"}, "-accept is not a JSON object"},
	}
	for _, tt := range tests {
		err := run(context.Background(), tt.o, nil)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("run(%+v) = %v, want an error saying %q", tt.o, err, tt.want)
		}
	}
}

func TestAskPrintedAndMinimal(t *testing.T) {
	ask := &mcp.ElicitParams{Mode: "form", Message: "Run it?", RequestedSchema: json.RawMessage(`{"type":"object","properties":{"ok":{"type":"boolean"},"why":{"type":"string","title":"Why"}}}`)}
	var out strings.Builder
	res, err := askForm(formPrint, ask, strings.NewReader("n\nbecause\n"), &out)
	if err != nil || res.Action != "accept" || res.Content["ok"] != false || res.Content["why"] != "because" {
		t.Errorf("askForm(print, n, because) = %+v, %v", res, err)
	}
	if want := "Run it?\nok\n> Yes\n  No\nWhy: "; out.String() != want {
		t.Errorf("askForm(print) printed %q, want %q", out.String(), want)
	}

	props, keys, _ := properties(ask)
	m := &minimalForm{question: ask.Message, field: title("ok", props["ok"]), yes: true}
	if v := m.View().Content; v != "Run it?\nok\n> Yes\n  No\n" {
		t.Errorf("minimal form's view = %q", v)
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyDown})
	_, cmd := m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if m.yes || !m.done || cmd == nil || len(keys) != 2 {
		t.Errorf("down, enter on the minimal form: yes %v done %v quit %v; want No chosen and quit", m.yes, m.done, cmd != nil)
	}
}
