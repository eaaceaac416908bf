// Package browsertest has a browser for tests: it records what it is asked
// to open and, when the test ends, checks that it opened exactly what was
// expected: a stub that should have been hit and was not, or was hit when
// nothing should open, fails the test.
package browsertest

import (
	"context"
	"slices"
	"sync"
	"testing"
)

// Stub is a recording browser.
type Stub struct {
	t    testing.TB
	want []string
	// Err, when set, is what every Open returns (a browser that fails).
	Err error

	mu  sync.Mutex
	got []string
}

// New returns a Stub that must open exactly want, in order, by the end of
// the test; New(t) must never open anything.
func New(t testing.TB, want ...string) *Stub {
	s := &Stub{t: t, want: want}
	t.Cleanup(s.Verify)
	return s
}

// Open records url. It has the signature of urlmode.OpenFunc.
func (s *Stub) Open(ctx context.Context, url string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.got = append(s.got, url)
	return s.Err
}

// Opened lists what was opened so far.
func (s *Stub) Opened() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.got)
}

// Verify fails the test unless exactly the expected URLs were opened.
func (s *Stub) Verify() {
	s.t.Helper()
	got := s.Opened()
	if slices.Equal(got, s.want) {
		return
	}
	if len(s.want) == 0 {
		s.t.Errorf("browser opened %q; want nothing opened", got)
		return
	}
	s.t.Errorf("browser opened %q; want exactly %q", got, s.want)
}
