package client

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The client capabilities that may change while connected: roots, and
// sampling. On 2026-07-28 they go in the _meta of each request
// (io.modelcontextprotocol/clientCapabilities), as they are when it is
// sent. Before, a server is told them once, at initialize: roots declared
// with listChanged may change (notifications/roots/list_changed), sampling
// declared may be turned off (its requests are then declined), and what
// was not declared cannot be added.

// liveCaps is what the session declares now.
type liveCaps struct {
	mu       sync.Mutex
	roots    []*mcp.Root
	sampling bool
	// At initialize (before 2026-07-28): what the server was told.
	initRoots, initSampling bool
}

// DirRoot is the root for a directory: an absolute file:// URI named after
// the directory.
func DirRoot(dir string) (*mcp.Root, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("%q: %v", dir, err)
	}
	if st, err := os.Stat(abs); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("%q is not a directory", dir)
	}
	u := &url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}
	return &mcp.Root{URI: u.String(), Name: filepath.Base(abs)}, nil
}

// CapabilityError is a capability a server before 2026-07-28 was not told
// at initialize, and so cannot be given now.
type CapabilityError struct {
	Server     string
	Protocol   string
	Capability string // roots, sampling
}

func (e *CapabilityError) Error() string {
	return fmt.Sprintf("server \"%s\" speaks %s, which learns a client's capabilities once, when the session starts: mcpcli did not declare %s then, so it cannot now",
		e.Server, e.Protocol, e.Capability)
}

// NoSamplerError is sampling turned on in a run that has no way to answer
// it.
type NoSamplerError struct{}

func (NoSamplerError) Error() string { return "this run has no way to answer sampling requests" }

// Roots are the roots the session gives the server now.
func (s *Session) Roots() []*mcp.Root {
	s.caps.mu.Lock()
	defer s.caps.mu.Unlock()
	return slices.Clone(s.caps.roots)
}

// Sampling reports whether the session answers sampling requests now.
func (s *Session) Sampling() bool {
	s.caps.mu.Lock()
	defer s.caps.mu.Unlock()
	return s.caps.sampling
}

// CanSample reports whether sampling can be turned on: the run has a way
// to answer it, and the server may be told (2026-07-28, or told at
// initialize).
func (s *Session) CanSample() bool {
	s.caps.mu.Lock()
	defer s.caps.mu.Unlock()
	return s.opts.Sampler != nil && (s.server.Modern() || s.caps.initSampling)
}

// CanChangeRoots reports whether roots can be added now: 2026-07-28, or
// roots were declared at initialize.
func (s *Session) CanChangeRoots() bool {
	s.caps.mu.Lock()
	defer s.caps.mu.Unlock()
	return s.server.Modern() || s.caps.initRoots
}

// SetSampling turns sampling on or off: on 2026-07-28 the next request
// declares it or not; before, a server told at initialize has its sampling
// requests declined while it is off.
func (s *Session) SetSampling(on bool) error {
	s.caps.mu.Lock()
	defer s.caps.mu.Unlock()
	if on {
		if s.opts.Sampler == nil {
			return NoSamplerError{}
		}
		if !s.server.Modern() && !s.caps.initSampling {
			return &CapabilityError{Server: s.server.Display(), Protocol: s.server.Protocol, Capability: "sampling"}
		}
	}
	s.caps.sampling = on
	return nil
}

// AddRoot gives the server one more root (a root with the same URI is
// replaced). On 2026-07-28 the next request declares roots and a
// roots/list is answered with it; before, the server is sent
// notifications/roots/list_changed.
func (s *Session) AddRoot(r *mcp.Root) error {
	s.caps.mu.Lock()
	if !s.server.Modern() && !s.caps.initRoots {
		s.caps.mu.Unlock()
		return &CapabilityError{Server: s.server.Display(), Protocol: s.server.Protocol, Capability: "roots"}
	}
	s.caps.roots = slices.DeleteFunc(s.caps.roots, func(x *mcp.Root) bool { return x.URI == r.URI })
	s.caps.roots = append(s.caps.roots, r)
	s.caps.mu.Unlock()
	s.client.AddRoots(r) // the legacy roots/list answer, and the notification
	return nil
}

// RemoveRoot takes a root away, by URI; it reports whether there was one.
func (s *Session) RemoveRoot(uri string) bool {
	s.caps.mu.Lock()
	n := len(s.caps.roots)
	s.caps.roots = slices.DeleteFunc(s.caps.roots, func(x *mcp.Root) bool { return x.URI == uri })
	removed := len(s.caps.roots) < n
	s.caps.mu.Unlock()
	if removed {
		s.client.RemoveRoots(uri)
	}
	return removed
}
