package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// connect serves newServer in memory to a go-sdk client that handles
// input_required itself.
func connect(t *testing.T) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := newServer().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	c := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, &mcp.ClientOptions{
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

func textOf(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	if len(res.Content) != 1 {
		t.Fatalf("result has %d contents, want 1 text: %+v", len(res.Content), res)
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("result content is %T, want text", res.Content[0])
	}
	return tc.Text
}

func TestEchoAndBig(t *testing.T) {
	cs := connect(t)
	tests := []struct {
		tool string
		args map[string]any
		want string
	}{
		{"echo", map[string]any{"text": "hi"}, "hi"},
		{"big", map[string]any{"size": 0}, ""},
		{"big", map[string]any{"size": 10}, bigLine[:10]},
		{"big", map[string]any{"size": 130}, bigLine + bigLine + bigLine[:2]},
	}
	for _, tt := range tests {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tt.tool, Arguments: tt.args})
		if err != nil {
			t.Fatalf("CallTool(%s, %v) = %v", tt.tool, tt.args, err)
		}
		if diff := cmp.Diff(tt.want, textOf(t, res)); diff != "" {
			t.Errorf("CallTool(%s, %v) text (-want +got):\n%s", tt.tool, tt.args, diff)
		}
	}
}

func TestBigSizeIsExact(t *testing.T) {
	cs := connect(t)
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "big", Arguments: map[string]any{"size": 5000000}})
	if err != nil {
		t.Fatalf("CallTool(big, 5000000) = %v", err)
	}
	if got := len(textOf(t, res)); got != 5000000 {
		t.Errorf("CallTool(big, 5000000) gave %d bytes, want 5000000", got)
	}
}

func TestBadArgumentsAreRefused(t *testing.T) {
	cs := connect(t)
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"echo", map[string]any{}, "echo needs a string argument text"},
		{"big", map[string]any{"size": -1}, "big needs an integer size"},
		{"big", map[string]any{"size": 1.5}, "big needs an integer size"},
		{"big", map[string]any{"size": maxBig + 1}, "big needs an integer size"},
	} {
		_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("CallTool(%s, %v) = %v, want an error saying %q", c.tool, c.args, err, c.want)
		}
	}
}

func TestConfirmAsksOnceThenAnswers(t *testing.T) {
	cs := connect(t)
	ctx := context.Background()
	first, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "confirm"})
	if err != nil {
		t.Fatalf("CallTool(confirm) = %v", err)
	}
	ask, ok := first.InputRequests["confirm"].(*mcp.ElicitParams)
	if !first.NeedsInput() || !ok || ask.Message != ConfirmMessage {
		t.Fatalf("CallTool(confirm) = %+v, want input_required with a form ask under \"confirm\"", first)
	}
	for _, tt := range []struct {
		answer *mcp.ElicitResult
		want   string
	}{
		{&mcp.ElicitResult{Action: "accept", Content: map[string]any{"ok": true}}, "confirmed: ok=true"},
		{&mcp.ElicitResult{Action: "decline"}, "not confirmed: decline"},
	} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "confirm", InputResponses: mcp.InputResponseMap{"confirm": tt.answer}})
		if err != nil {
			t.Fatalf("CallTool(confirm, %s) = %v", tt.answer.Action, err)
		}
		if res.NeedsInput() || textOf(t, res) != tt.want {
			t.Errorf("CallTool(confirm, %s) = %+v, want the text %q", tt.answer.Action, res, tt.want)
		}
	}
}

func TestSurveyAsksManyFields(t *testing.T) {
	cs := connect(t)
	ctx := context.Background()
	first, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "survey"})
	if err != nil {
		t.Fatalf("CallTool(survey) = %v", err)
	}
	ask, ok := first.InputRequests["survey"].(*mcp.ElicitParams)
	if !first.NeedsInput() || !ok || ask.Message != SurveyMessage {
		t.Fatalf("CallTool(survey) = %+v, want input_required with a form ask under \"survey\"", first)
	}
	var schema struct {
		Properties map[string]struct{ Type string }
	}
	b, _ := json.Marshal(ask.RequestedSchema)
	if err := json.Unmarshal(b, &schema); err != nil || len(schema.Properties) != SurveyFields || schema.Properties["f200"].Type != "string" {
		t.Fatalf("survey's requestedSchema has %d properties (%v), want %d text fields f001..f200", len(schema.Properties), err, SurveyFields)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "survey", InputResponses: mcp.InputResponseMap{
		"survey": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"f001": "a", "f002": "b"}}}})
	if err != nil || textOf(t, res) != "survey: accept with 2 answers" {
		t.Errorf("CallTool(survey, accept) = %+v, %v", res, err)
	}
}

func TestListsAsToldAndKeepsItFresh(t *testing.T) {
	defer func(n int) { extraTools = n }(extraTools)
	extraTools = 25
	cs := connect(t)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != 4+25 || res.TTLMs != int(toolsTTL/time.Millisecond) {
		t.Errorf("tools/list = %d tools, ttlMs %d; want %d and %d", len(res.Tools), res.TTLMs, 4+25, toolsTTL/time.Millisecond)
	}
}
