package client

// Works around go-sdk v1.8.0: on 2026-07-28 it puts in each request's
// _meta the capabilities the Client was made with, while mcpcli's roots
// and sampling change during a session; and it sends
// notifications/roots/list_changed, which that version no longer has. The
// sending middleware declares the capabilities as they are when each
// request goes, and drops the notification. gosdk_capsmeta_test.go shows
// the go-sdk alone doing both: when it fails, the go-sdk declares what is
// current (or sends no such notification), and this can go.

import (
	"context"
	"reflect"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// wireCaps is ClientCapabilities as the wire has them: roots as an object
// (the go-sdk's ClientCapabilities keeps a Roots struct for compatibility).
type wireCaps struct {
	mcp.ClientCapabilities
	Roots *mcp.RootCapabilities `json:"roots,omitempty"`
}

// requestCaps is what a 2026-07-28 request declares now: the capabilities
// of the session's start, with roots while there are some and sampling
// while it is on.
func (s *Session) requestCaps() *wireCaps {
	s.caps.mu.Lock()
	defer s.caps.mu.Unlock()
	c := wireCaps{ClientCapabilities: *s.baseCaps}
	c.ClientCapabilities.RootsV2, c.ClientCapabilities.Sampling = nil, nil
	c.ClientCapabilities.Roots.ListChanged = false
	if len(s.caps.roots) > 0 {
		c.Roots = &mcp.RootCapabilities{} // roots/list_changed is gone in 2026-07-28
	}
	if s.caps.sampling {
		c.Sampling = &mcp.SamplingCapabilities{}
	}
	return &c
}

// declareNow is a sending middleware: on 2026-07-28, each request declares
// the capabilities as they are when it is sent (the go-sdk's are those the
// client started with), and notifications/roots/list_changed, which that
// version has no more, is not sent.
func (s *Session) declareNow(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method == "notifications/roots/list_changed" && s.server.Modern() {
			return nil, nil
		}
		if p := req.GetParams(); p != nil && !reflect.ValueOf(p).IsNil() {
			if m := p.GetMeta(); m != nil {
				if _, ok := m[mcp.MetaKeyClientCapabilities]; ok {
					m[mcp.MetaKeyClientCapabilities] = s.requestCaps()
				}
			}
		}
		return next(ctx, method, req)
	}
}
