package client

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
)

// subscriptions are the resources the session subscribed to: a server's
// notifications/resources/updated reaches OnNotification only for them
// (or a sub-resource of one, as the spec allows). A server that sends
// updates nobody asked for is warned about once, and not heard.
type subscriptions struct {
	mu     sync.Mutex
	uris   map[string]int // URI -> Subscribe calls holding it
	warned bool
}

func (s *subscriptions) add(uri string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.uris == nil {
		s.uris = map[string]int{}
	}
	s.uris[uri]++
}

func (s *subscriptions) remove(uri string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.uris, uri)
}

// drop undoes one add (a Subscribe that failed).
func (s *subscriptions) drop(uri string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.uris[uri]--; s.uris[uri] <= 0 {
		delete(s.uris, uri)
	}
}

// covers reports whether an update of uri was asked for: uri itself, or
// a resource under one subscribed to (a path, query or fragment below it).
func (s *subscriptions) covers(uri string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.uris[uri] > 0 {
		return true
	}
	for sub := range s.uris {
		if rest, ok := strings.CutPrefix(uri, sub); ok && rest != "" && (strings.HasSuffix(sub, "/") || strings.ContainsAny(rest[:1], "/?#")) {
			return true
		}
	}
	return false
}

// firstWarning reports whether no warning was given yet, and notes one.
func (s *subscriptions) firstWarning() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	first := !s.warned
	s.warned = true
	return first
}

// maxWarnedURI bounds the URI a warning quotes.
const maxWarnedURI = 200

// notify is the wire's notification hook: OnNotification, but for a
// resource update nobody subscribed to.
func (s *Session) notify(n Notification) {
	if s.opts.OnNotification == nil {
		return
	}
	if n.Method == "notifications/resources/updated" {
		var p struct {
			URI string `json:"uri"`
		}
		_ = json.Unmarshal(n.Params, &p)
		if !s.subs.covers(p.URI) {
			if s.subs.firstWarning() {
				uri := p.URI
				if r := []rune(uri); len(r) > maxWarnedURI {
					uri = string(r[:maxWarnedURI-1]) + "…"
				}
				s.warn(fmt.Sprintf("server %q sent %s for %q, which mcpcli did not subscribe to; such updates are not shown (said once)", s.server.Display(), n.Method, uri))
			}
			return
		}
	}
	s.opts.OnNotification(n)
}
