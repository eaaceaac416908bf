package client

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/internal/toolcache"
	"github.com/mcpcli/mcpcli/transport"
)

// ToolCache keeps a server's tool list between runs, for as long as the
// server says it stays fresh (2026-07-28 ttlMs): Session.Tool then reads
// it instead of sending tools/list.
type ToolCache struct {
	Store *toolcache.Store
	// Server says who the server is: for stdio its command, the
	// environment mcpcli adds and its working directory; for HTTP its URL.
	Server string
	// Auth is who asks, where the wire does not show it: for stdio, the
	// whole environment the server starts with. Over HTTP the credentials
	// each request carries (its Authorization and every header the person
	// gave) are read from the wire and added.
	Auth string
}

// cacheKey is the key of this session's tool list, or false when it has
// none: no cache, or a server that does not speak 2026-07-28 (whose lists
// carry no ttlMs).
func (s *Session) cacheKey() (toolcache.Key, bool) {
	tc := s.opts.ToolCache
	if tc == nil || tc.Store == nil || !s.server.Modern() {
		return toolcache.Key{}, false
	}
	auth := tc.Auth
	if a := s.wire.auth(); a != "" {
		auth += "\x00http\x00" + a
	}
	return toolcache.Key{Server: tc.Server, Protocol: s.server.Protocol, Client: s.declared, Auth: auth}, true
}

// keptTools is the tool list kept from an earlier run, while it is fresh.
func (s *Session) keptTools() *ToolList {
	k, ok := s.cacheKey()
	if !ok {
		return nil
	}
	e, ok := s.opts.ToolCache.Store.Get(k)
	if !ok {
		return nil
	}
	out := &ToolList{Raw: map[string]json.RawMessage{}, Kept: e.Received}
	for _, raw := range e.Tools {
		t, err := decodeTool(raw)
		if err != nil || t.Name == "" {
			// Not what was written: read the list again.
			s.opts.ToolCache.Store.Forget(k)
			return nil
		}
		out.Tools = append(out.Tools, t)
		out.Raw[t.Name] = raw
	}
	for _, d := range e.Dropped {
		out.Dropped = append(out.Dropped, DroppedTool{Name: d.Name, Reason: d.Reason})
	}
	return out
}

// keepTools keeps a list just read, as its pages allow: the earliest
// receipt and the shortest ttlMs of its pages, private if any page is.
func (s *Session) keepTools(list *ToolList, c *pageCache) {
	k, ok := s.cacheKey()
	if !ok {
		return
	}
	e := &toolcache.Entry{Received: c.received, TTL: c.ttl, Private: c.private}
	for _, t := range list.Tools {
		if raw := list.Raw[t.Name]; raw != nil {
			e.Tools = append(e.Tools, raw)
		} else if b, err := json.Marshal(t); err == nil {
			e.Tools = append(e.Tools, b)
		}
	}
	for _, d := range list.Dropped {
		e.Dropped = append(e.Dropped, toolcache.Dropped{Name: d.Name, Reason: d.Reason})
	}
	_ = s.opts.ToolCache.Store.Put(k, e) // a list that cannot be kept is read again next time
}

// forgetTools drops the tool list, in memory and on disk: the server said
// it changed.
func (s *Session) forgetTools() {
	s.lists.forget()
	if k, ok := s.cacheKey(); ok {
		s.opts.ToolCache.Store.Forget(k)
	}
}

// keptList reports whether the session's tool list is one kept from an
// earlier run.
func (s *Session) keptList() bool {
	s.lists.mu.Lock()
	defer s.lists.mu.Unlock()
	return s.lists.tools != nil && !s.lists.tools.Kept.IsZero()
}

// staleRefusal is a refusal of a tools/call that a changed tool would
// explain: invalid params (-32602, also what 2026-07-28 answers for an
// unknown tool), or headers that do not match the body (-32020, after
// which the spec has the client read tools/list again).
func staleRefusal(err error) bool {
	var je *jsonrpc.Error
	return errors.As(err, &je) && (je.Code == jsonrpc.CodeInvalidParams || je.Code == codeHeaderMismatch)
}

// codeHeaderMismatch is streamable-http's HeaderMismatch error.
const codeHeaderMismatch = -32020

// StaleRefusal reports whether err is a refusal of a tools/call that a
// tool changed since its definition was read would explain.
func StaleRefusal(err error) bool { return staleRefusal(err) }

// pageCache gathers the cache fields of a list's pages.
type pageCache struct {
	pages    int
	received time.Time
	ttl      time.Duration
	private  bool
}

// page notes one page's ttlMs and cacheScope, received now. An absent or
// negative ttlMs counts as 0: not kept.
func (c *pageCache) page(ttlMs int, scope string) {
	ttl := time.Duration(max(ttlMs, 0)) * time.Millisecond
	if c.pages == 0 {
		c.received, c.ttl = time.Now(), ttl
	}
	c.pages++
	c.ttl = min(c.ttl, ttl)
	c.private = c.private || scope == "private"
}

// declaredOf is what a server is told of the client, as the cache key's
// Client: name, version and the capabilities declared, as json.Marshal
// writes them. declaredJSON writes the declarations mcpcli makes itself:
// json.Marshal would first build encoders for the go-sdk's capability
// types by reflection, 0.1 M instructions (2% of a call) at every run.
func declaredOf(impl *mcp.Implementation, caps *mcp.ClientCapabilities) string {
	if b, ok := declaredJSON(impl, caps); ok {
		return string(b)
	}
	b, _ := json.Marshal(declaration{impl, caps, caps.RootsV2})
	return string(b)
}

// declaration is what declaredOf writes.
type declaration struct {
	Impl  *mcp.Implementation     `json:"clientInfo"`
	Caps  *mcp.ClientCapabilities `json:"capabilities"`
	Roots *mcp.RootCapabilities   `json:"roots,omitempty"` // not in Caps' JSON
}

// declaredJSON is json.Marshal(declaration{impl, caps, caps.RootsV2}), for
// a declaration with no icons, no experimental capabilities and only
// extensions without settings, as mcpcli declares; false for anything else.
// TestDeclaredJSONIsJSONMarshal holds it to json.Marshal, and
// TestDeclaredJSONKnowsEveryField fails when the go-sdk's types gain a field.
func declaredJSON(impl *mcp.Implementation, caps *mcp.ClientCapabilities) ([]byte, bool) {
	if impl == nil || caps == nil || len(impl.Icons) > 0 || len(caps.Experimental) > 0 {
		return nil, false
	}
	b := []byte(`{"clientInfo":{"name":`)
	b = appendJSONString(b, impl.Name)
	for _, f := range []struct{ key, v string }{{"title", impl.Title}, {"description", impl.Description}} {
		if f.v != "" {
			b = appendJSONString(append(append(append(b, ",\""...), f.key...), "\":"...), f.v)
		}
	}
	b = appendJSONString(append(b, `,"version":`...), impl.Version)
	if impl.WebsiteURL != "" {
		b = appendJSONString(append(b, `,"websiteUrl":`...), impl.WebsiteURL)
	}
	b = append(b, `},"capabilities":{`...)
	if len(caps.Extensions) > 0 {
		b = append(b, `"extensions":{`...)
		for i, name := range slices.Sorted(maps.Keys(caps.Extensions)) {
			if settings, ok := caps.Extensions[name].(map[string]any); !ok || settings == nil || len(settings) > 0 {
				return nil, false
			}
			if i > 0 {
				b = append(b, ',')
			}
			b = append(appendJSONString(b, name), ":{}"...)
		}
		b = append(b, "},"...)
	}
	b = appendListChanged(append(b, `"roots":`...), caps.Roots.ListChanged)
	if s := caps.Sampling; s != nil {
		b = append(b, `,"sampling":{`...)
		b = appendEmptyObjects(b, s.Context != nil, "context", s.Tools != nil, "tools")
		b = append(b, '}')
	}
	if e := caps.Elicitation; e != nil {
		b = append(b, `,"elicitation":{`...)
		b = appendEmptyObjects(b, e.Form != nil, "form", e.URL != nil, "url")
		b = append(b, '}')
	}
	b = append(b, '}')
	if caps.RootsV2 != nil {
		b = appendListChanged(append(b, `,"roots":`...), caps.RootsV2.ListChanged)
	}
	return append(b, '}'), true
}

// appendJSONString is s as json.Marshal writes a string.
func appendJSONString(b []byte, s string) []byte {
	q, _ := json.Marshal(s) // a string's encoder is no reflection over a type
	return append(b, q...)
}

// appendListChanged is a RootCapabilities, or the deprecated roots struct.
func appendListChanged(b []byte, listChanged bool) []byte {
	if listChanged {
		return append(b, `{"listChanged":true}`...)
	}
	return append(b, "{}"...)
}

// appendEmptyObjects writes "a":{} and "b":{}, those present, comma
// separated.
func appendEmptyObjects(b []byte, hasA bool, a string, hasB bool, bName string) []byte {
	if hasA {
		b = append(append(append(b, '"'), a...), `":{}`...)
	}
	if hasB {
		if hasA {
			b = append(b, ',')
		}
		b = append(append(append(b, '"'), bName...), `":{}`...)
	}
	return b
}

// httpAuth reads, from the headers of a request mcpcli sent, what says who
// sent it: every header but the ones the protocol and HTTP set (the
// Authorization of a sign-in, and whatever the person gave: a header may
// be an API key). Empty when there is none.
type httpAuth struct {
	mu     sync.Mutex
	digest string
}

// protocolHeaders are set by the go-sdk or net/http, the same for anyone.
var protocolHeaders = []string{"Accept", "Accept-Encoding", "Content-Length", "Content-Type", "Last-Event-Id", "User-Agent"}

func (a *httpAuth) saw(h http.Header) {
	var names []string
	for k := range h {
		if strings.HasPrefix(k, "Mcp-") || slices.Contains(protocolHeaders, k) {
			continue
		}
		names = append(names, k)
	}
	d := ""
	if len(names) > 0 {
		slices.Sort(names)
		sum := sha256.New()
		for _, k := range names {
			for _, v := range h[k] {
				sum.Write([]byte(k + ": " + v + "\n"))
			}
		}
		d = hex.EncodeToString(sum.Sum(nil))
	}
	a.mu.Lock()
	a.digest = d
	a.mu.Unlock()
}

func (a *httpAuth) get() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.digest
}

// ToolCacheFor is where the tool list of the server t reaches is kept
// between runs, under dir (mcpcli's cache directory), or nil when there is nowhere to keep it (no cache
// directory) or nothing to key it by (HTTP+SSE, whose servers speak only
// protocols without ttlMs).
func ToolCacheFor(t transport.Transport, dir string) *ToolCache {
	var tc ToolCache
	switch t := t.(type) {
	case *transport.Stdio:
		tc.Server, tc.Auth = stdioIdentity(t.Cmd)
	case *transport.HTTP:
		// Who asks is read from each request's headers (ToolCache).
		tc.Server = "http\x00" + t.URL
	default:
		return nil
	}
	tc.Store = &toolcache.Store{Dir: filepath.Join(dir, "tools")}
	return &tc
}

// stdioIdentity is who a stdio server is: its command, the environment
// mcpcli adds and takes away, and where it runs (a relative command is
// another program in another directory). auth is what it knows of who
// runs it: a digest of the whole environment it starts with.
func stdioIdentity(c transport.Command) (server, auth string) {
	dir := c.Dir
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs // "" is the working directory
	}
	var b strings.Builder
	b.WriteString("stdio")
	for _, part := range [][]string{c.Argv, {"env"}, c.Env, {"unset"}, c.Unset, {"dir", dir}} {
		for _, p := range part {
			b.WriteString("\x00")
			b.WriteString(p)
		}
	}
	env := os.Environ()
	env = slices.DeleteFunc(env, func(kv string) bool {
		k, _, _ := strings.Cut(kv, "=")
		return slices.Contains(c.Unset, k)
	})
	env = append(env, c.Env...)
	slices.Sort(env)
	sum := sha256.Sum256([]byte(strings.Join(env, "\x00")))
	return b.String(), hex.EncodeToString(sum[:])
}
