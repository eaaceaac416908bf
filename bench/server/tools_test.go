package main

import (
	"context"
	"strings"
	"testing"

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
