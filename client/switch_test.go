package client_test

import (
	"context"
	"errors"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
)

func TestSwitchAnswersWithWhatIsSet(t *testing.T) {
	var s client.Switch
	if _, err := s.Answer(context.Background(), client.Round{Number: 2}); err == nil || err.Error() != "round 2 came with nobody to answer it" {
		t.Errorf("Answer with nothing set = %v, want round 2's refusal", err)
	}
	idle := errors.New("between two steps")
	s.Idle = func(client.Round) error { return idle }
	if _, err := s.Answer(context.Background(), client.Round{}); err != idle {
		t.Errorf("Answer with nothing set and Idle = %v, want Idle's error", err)
	}
	s.Set(client.AnswererFunc(func(context.Context, client.Round) (map[string]*mcp.ElicitResult, error) {
		return map[string]*mcp.ElicitResult{"k": {Action: "decline"}}, nil
	}))
	got, err := s.Answer(context.Background(), client.Round{})
	if err != nil || got["k"].Action != "decline" {
		t.Errorf("Answer after Set = %v, %v, want the set answerer's decline", got, err)
	}
	s.Set(nil)
	if _, err := s.Answer(context.Background(), client.Round{}); err != idle {
		t.Errorf("Answer after Set(nil) = %v, want Idle's error", err)
	}
}
