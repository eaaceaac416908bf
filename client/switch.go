package client

import (
	"context"
	"fmt"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Switch is an Answerer whose answerer changes while its session runs: a
// run that answers each request its own way (a flow's steps, explore's
// branches) connects with one and sets the answerer before each request.
type Switch struct {
	mu  sync.Mutex
	cur Answerer

	// Idle is why a round that came with no answerer set is refused (nil:
	// a plain "nobody to answer it").
	Idle func(Round) error
}

// Set makes a the answerer of the rounds to come (nil: none).
func (s *Switch) Set(a Answerer) {
	s.mu.Lock()
	s.cur = a
	s.mu.Unlock()
}

// Answer implements Answerer.
func (s *Switch) Answer(ctx context.Context, r Round) (map[string]*mcp.ElicitResult, error) {
	s.mu.Lock()
	a := s.cur
	s.mu.Unlock()
	if a == nil {
		if s.Idle != nil {
			return nil, s.Idle(r)
		}
		return nil, fmt.Errorf("round %d came with nobody to answer it", r.Number)
	}
	return a.Answer(ctx, r)
}
