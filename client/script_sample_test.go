package client_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
)

func TestParseScriptSamplingErrors(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`{"s": {"role": "assistant", "content": {"type": "text", "text": "hi"}}}`, `key "s": "model" is missing`},
		{`{"s": {"role": "user", "content": {"type": "text", "text": "hi"}, "model": "m"}}`, `role "user": a sampling reply comes from the assistant`},
		{`{"s": {"model": "m"}}`, `"content" is missing`},
		{`{"s": {"model": "m", "content": {"type": "text", "text": "hi"}, "temperature": 1}}`, `unknown field "temperature"; a sampling reply has "role", "content", "model" and "stopReason"`},
		{`{"s": {"model": "m", "content": {"type": "resource_link", "uri": "x:y", "name": "n"}}}`, `"content":`},
	} {
		_, err := client.ParseScript(strings.NewReader(tt.in), "f.json")
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseScript(%s) error = %v, want it to contain %q", tt.in, err, tt.want)
		}
	}
}

func TestScriptSamples(t *testing.T) {
	s, err := client.ParseScript(strings.NewReader(`{
		"sampling": {"content": {"type": "text", "text": "Paris."}, "model": "atlas-1"},
		"twice": [{"role": "assistant", "content": [{"type": "text", "text": "one"}], "model": "m", "stopReason": "maxTokens"}, {"action": "decline"}],
		"form": {"action": "accept", "content": {}},
		"*": {"action": "decline"}
	}`), "f.json")
	if err != nil {
		t.Fatal(err)
	}
	text := func(s string) []mcp.Content { return []mcp.Content{&mcp.TextContent{Text: s}} }
	ctx := context.Background()
	for _, tt := range []struct {
		key     string
		want    *client.SamplingAnswer
		wantErr string
	}{
		{"sampling", &client.SamplingAnswer{Result: &mcp.CreateMessageWithToolsResult{Role: "assistant", Content: text("Paris."), Model: "atlas-1", StopReason: "endTurn"}}, ""},
		{"twice", &client.SamplingAnswer{Result: &mcp.CreateMessageWithToolsResult{Role: "assistant", Content: text("one"), Model: "m", StopReason: "maxTokens"}}, ""},
		{"twice", &client.SamplingAnswer{Decline: true}, ""},
		{"other", &client.SamplingAnswer{Decline: true}, ""},
		{"form", nil, `answers for "form" (round 1): key "form" holds {"action": "accept"}, but the server asked for a sampling reply`},
	} {
		got, err := s.Sample(ctx, client.SamplingRound{Key: tt.key, Number: 1})
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Sample(%s) error = %v, want %q", tt.key, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Fatalf("Sample(%s) = %v", tt.key, err)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("Sample(%s) (-want +got):\n%s", tt.key, diff)
		}
	}
	// A sampling reply does not answer an elicitation.
	_, err = s.Answer(ctx, round(1, "sampling"))
	if err == nil || !strings.Contains(err.Error(), `key "sampling" holds a sampling reply, but the server asked for an elicitation`) {
		t.Errorf("Answer(sampling) error = %v, want it to say the key holds a sampling reply", err)
	}
}
