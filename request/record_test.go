package request

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
)

func round(call, n int, keys ...string) client.Round {
	r := client.Round{Call: call, Number: n}
	for _, k := range keys {
		r.Asks = append(r.Asks, client.Ask{Key: k, Params: &mcp.ElicitParams{Message: "?"}})
	}
	return r
}

// What a Recorder keeps, written as an answers file, a Script reads back
// to the same answers: elicitations, and sampling replies typed by hand.
func TestRecorderWritesAScriptThatReplays(t *testing.T) {
	asks := []client.Round{round(1, 1, "basics"), round(1, 2, "details"), round(1, 3, "details")}
	given := []map[string]*mcp.ElicitResult{
		{"basics": {Action: "accept", Content: map[string]any{"name": "hello"}}},
		{"details": {Action: "decline"}},
		{"details": {Action: "accept", Content: map[string]any{"license": "MIT"}}},
	}
	reply := &client.SamplingAnswer{Result: &mcp.CreateMessageWithToolsResult{Role: "assistant", Model: "a person",
		Content: []mcp.Content{&mcp.TextContent{Text: "Version 2 is out."}}, StopReason: "endTurn"}}
	rec := &Recorder{}
	n := 0
	a := rec.Answerer(client.AnswererFunc(func(context.Context, client.Round) (map[string]*mcp.ElicitResult, error) {
		n++
		return given[n-1], nil
	}))
	s := rec.Sampler(client.SamplerFunc(func(context.Context, client.SamplingRound) (*client.SamplingAnswer, error) {
		return reply, nil
	}))
	for _, r := range asks {
		if _, err := a.Answer(context.Background(), r); err != nil {
			t.Fatal(err)
		}
	}
	sr := client.SamplingRound{Call: 1, Number: 4, Key: "draft"}
	if _, err := s.Sample(context.Background(), sr); err != nil {
		t.Fatal(err)
	}
	if n, accepted := rec.Answered(); n != 4 || accepted != 3 {
		t.Errorf("Answered() = %d, %d; want 4 answers, 3 of them accepting (the reply too)", n, accepted)
	}
	file, _, whole := rec.Answers()
	if !whole {
		t.Errorf("Answers() says a round went unanswered:\n%s", file)
	}
	script, err := client.ParseScript(bytes.NewReader(file), "recorded")
	if err != nil {
		t.Fatalf("ParseScript(%s) = %v", file, err)
	}
	for i, r := range asks {
		got, err := script.Answer(context.Background(), r)
		if err != nil {
			t.Fatalf("round %d: %v\n%s", i+1, err, file)
		}
		if diff := cmp.Diff(given[i], got); diff != "" {
			t.Errorf("round %d replayed (-given +replayed):\n%s", i+1, diff)
		}
	}
	got, err := script.Sample(context.Background(), sr)
	if err != nil {
		t.Fatalf("the sampling reply: %v\n%s", err, file)
	}
	if diff := cmp.Diff(reply, got); diff != "" {
		t.Errorf("the sampling reply replayed (-given +replayed):\n%s", diff)
	}
	if want := "\n  \"details\": [{\"action\":\"decline\"},{\"action\":\"accept\",\"content\":{\"license\":\"MIT\"}}],\n"; !strings.Contains(string(file), want) {
		t.Errorf("a key asked twice is not a list of its answers, one a line:\n%s", file)
	}
}

// The recorder keeps each call apart, with the rounds the loop reports
// (the asks' keys, requestState sizes, roots sent) merged with the
// answers given; a re-run's forms start from the answers of the request
// it repeats.
func TestRecorderKeepsRoundsByCall(t *testing.T) {
	rec := &Recorder{}
	var changed []int
	rec.Changed = func(call int) { changed = append(changed, call) }
	rec.Step(client.Step{Kind: client.StepSend, Call: 1})
	rec.Step(client.Step{Kind: client.StepInputRequired, Call: 1, Round: 1, Asked: []string{"basics", "roots"}, StateLen: 9})
	a := rec.Answerer(client.AnswererFunc(func(_ context.Context, r client.Round) (map[string]*mcp.ElicitResult, error) {
		return map[string]*mcp.ElicitResult{"basics": {Action: "accept", Content: map[string]any{"name": "Ada"}}}, nil
	}))
	a.Answer(context.Background(), round(1, 1, "basics"))
	rec.Step(client.Step{Kind: client.StepSend, Call: 1, Round: 1, StateLen: 9, RootsSent: map[string][]string{"roots": {"file:///w"}}})
	rec.Step(client.Step{Kind: client.StepInputRequired, Call: 2, Round: 1, Asked: []string{"other"}, StateLen: -1})
	rounds := rec.Rounds(1)
	if len(rounds) != 1 {
		t.Fatalf("call 1 has %d rounds, want 1: %+v", len(rounds), rounds)
	}
	r := rounds[0]
	if r.StateIn != 9 || r.StateOut != 9 || !cmp.Equal(r.Keys, []string{"basics", "roots"}) || r.Answers["basics"] == nil || len(r.Roots["roots"]) != 1 {
		t.Errorf("round 1 of call 1 = %+v", r)
	}
	if file, _, whole := AnswersFile(rounds); !whole || !strings.Contains(string(file), `"basics"`) || strings.Contains(string(file), `"roots"`) {
		t.Errorf("AnswersFile = %s, whole %v: want basics, roots answered by mcpcli itself", file, whole)
	}
	if _, _, whole := rec.Answers(2); whole {
		t.Errorf("call 2's ask was never answered, yet Answers(2) says whole")
	}
	if !cmp.Equal(changed, []int{1, 1, 1, 2}) {
		t.Errorf("Changed was told %v, want [1 1 1 2] (a send of round 0 changes nothing)", changed)
	}
	rec.StartFrom(3, rounds)
	var seen map[string]any
	b := rec.Answerer(client.AnswererFunc(func(_ context.Context, r client.Round) (map[string]*mcp.ElicitResult, error) {
		seen = r.Asks[0].Given
		return nil, client.ErrAbandoned
	}))
	form := round(3, 1, "basics")
	form.Asks[0].Params.Mode = "form"
	b.Answer(context.Background(), form)
	if seen["name"] != "Ada" {
		t.Errorf("the re-run's form starts from %v, want name=Ada", seen)
	}
	if got := rec.Rounds(3); len(got) != 1 || got[0].Err == nil {
		t.Errorf("an abandoned round is recorded with its error: %+v", got)
	}
}
