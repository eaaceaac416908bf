package render

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/internal/jsonpeek"
	"github.com/mcpcli/mcpcli/transport"
)

// What discover shows: who the server is, what it supports, and how the
// protocol version was reached.

// Discovery is what discover shows, and its -o json form.
type Discovery struct {
	Name              string      `json:"name"`
	Title             string      `json:"title,omitempty"`
	Version           string      `json:"version,omitempty"`
	ProtocolVersion   string      `json:"protocolVersion"`
	Era               string      `json:"era"` // "modern" or "legacy"
	HTTPSession       bool        `json:"httpSession,omitempty"`
	Transport         string      `json:"transport"` // stdio, streamable-http or sse
	SupportedVersions []string    `json:"supportedVersions,omitempty"`
	Negotiation       Negotiation `json:"negotiation"`
	// Capabilities are the server's, as it sent them.
	Capabilities json.RawMessage         `json:"capabilities"`
	caps         *mcp.ServerCapabilities // the same, decoded
	Instructions string                  `json:"instructions,omitempty"`
}

// Describe is who the server of s is and what it supports.
func Describe(s *client.Session) Discovery {
	srv := s.Server()
	info := Discovery{
		Name: srv.Name, Title: srv.Title, Version: srv.Version,
		ProtocolVersion: srv.Protocol, Era: "legacy",
		SupportedVersions: s.SupportedVersions(),
		HTTPSession:       s.HTTPSession(),
		Capabilities:      s.RawCapabilities(),
		caps:              s.Capabilities(),
		Instructions:      s.Instructions(),
		Negotiation:       DescribeNegotiation(s.Negotiation()),
	}
	switch t := s.Transport().(type) {
	case *transport.Stdio:
		info.Transport = "stdio"
	case *transport.HTTP:
		info.Transport = "streamable-http"
	case *transport.SSE:
		info.Transport = "sse"
		if t.Streamable != nil {
			info.Negotiation.Reason = fmt.Sprintf("HTTP+SSE (the %s transport): the POST to the URL got %s, and a GET opened the event stream; the initialize handshake",
				transport.LegacySSEVersion, Refusal(t.Streamable))
		} else {
			info.Negotiation.Reason = fmt.Sprintf("HTTP+SSE (the %s transport, --transport sse): the initialize handshake", transport.LegacySSEVersion)
		}
		if info.Negotiation.Pinned {
			info.Negotiation.Reason += fmt.Sprintf(", pinned with --protocol %s", info.Negotiation.Asked)
		}
	}
	if srv.Modern() {
		info.Era = "modern"
	}
	if info.Capabilities == nil {
		info.Capabilities, _ = json.Marshal(info.caps)
	}
	return info
}

// Write writes it as discover shows it.
func (info Discovery) Write(w io.Writer) {
	fmt.Fprintf(w, "Server:       %s", Line(info.Name))
	if info.Version != "" {
		fmt.Fprintf(w, " %s", Line(info.Version))
	}
	if info.Title != "" {
		fmt.Fprintf(w, " (%s)", Line(info.Title))
	}
	fmt.Fprintln(w)
	era := "legacy (initialize handshake"
	if info.HTTPSession {
		era += ", HTTP session"
	}
	if info.Transport == "sse" {
		era += ", HTTP+SSE"
	}
	era += ")"
	if info.Era == "modern" {
		era = "modern (server/discover; every request stands alone)"
	}
	fmt.Fprintf(w, "Protocol:     %s, %s\n", Line(info.ProtocolVersion), era)
	if info.Negotiation.Reason != "" {
		fmt.Fprintf(w, "How:          %s\n", Line(info.Negotiation.Reason))
	}
	if len(info.SupportedVersions) > 0 {
		fmt.Fprintf(w, "Supports:     %s\n", Line(strings.Join(info.SupportedVersions, ", ")))
	}
	fmt.Fprintf(w, "Capabilities: %s\n", capabilityList(info.caps, info.Capabilities))
	if ext := slices.Sorted(maps.Keys(info.caps.Extensions)); len(ext) > 0 {
		fmt.Fprintf(w, "Extensions:   %s\n", Line(strings.Join(ext, ", ")))
	}
	if exp := slices.Sorted(maps.Keys(info.caps.Experimental)); len(exp) > 0 {
		fmt.Fprintf(w, "Experimental: %s\n", Line(strings.Join(exp, ", ")))
	}
	if info.Instructions != "" {
		fmt.Fprintf(w, "Instructions:\n")
		for _, l := range strings.Split(Sanitize(info.Instructions), "\n") {
			fmt.Fprintf(w, "  %s\n", l)
		}
	}
}

// capabilityList is "tools (list changes), resources (subscribe), logging",
// from the decoded capabilities and (for what the go-sdk does not decode,
// 2025-11-25's tasks) the server's own bytes.
func capabilityList(c *mcp.ServerCapabilities, raw json.RawMessage) string {
	if c == nil {
		return "none"
	}
	var out []string
	add := func(present bool, name string, details ...string) {
		if !present {
			return
		}
		var ds []string
		for i := 0; i+1 < len(details); i += 2 {
			if details[i] != "" {
				ds = append(ds, details[i+1])
			}
		}
		if len(ds) > 0 {
			name += " (" + strings.Join(ds, ", ") + ")"
		}
		out = append(out, name)
	}
	yes := func(b bool) string {
		if b {
			return "y"
		}
		return ""
	}
	add(c.Tools != nil, "tools", yes(c.Tools != nil && c.Tools.ListChanged), "list changes")
	add(c.Prompts != nil, "prompts", yes(c.Prompts != nil && c.Prompts.ListChanged), "list changes")
	add(c.Resources != nil, "resources",
		yes(c.Resources != nil && c.Resources.Subscribe), "subscribe",
		yes(c.Resources != nil && c.Resources.ListChanged), "list changes")
	add(c.Logging != nil, "logging")
	add(c.Completions != nil, "completions")
	if t := jsonpeek.Get(raw, "tasks"); t != nil {
		// 2025-11-25 experimental tasks.
		has := func(path ...string) string {
			v := json.RawMessage(t)
			for _, p := range path {
				v = jsonpeek.Get(v, p)
			}
			return yes(v != nil)
		}
		add(true, "tasks", has("requests", "tools", "call"), "tools/call", has("list"), "list", has("cancel"), "cancel")
	}
	_, ext := c.Extensions[client.TasksExtension]
	add(ext, "tasks (extension)")
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ", ")
}

// Negotiation is how the protocol version was reached, and why.
type Negotiation struct {
	Asked     string `json:"asked"`
	Pinned    bool   `json:"pinned"`
	Handshake string `json:"handshake"`
	// Discover is what became of server/discover: answered, refused,
	// unanswered, no-modern-version, or not-sent.
	Discover string `json:"discover"`
	Reason   string `json:"reason"`
}

// DescribeNegotiation says how the protocol version was reached, and why.
func DescribeNegotiation(n client.Negotiation) Negotiation {
	info := Negotiation{Asked: n.Asked, Pinned: n.Pinned, Handshake: n.Handshake}
	const initialize = "; mcpcli used the initialize handshake"
	switch n.Discover {
	case client.DiscoverNotSent:
		info.Discover = "not-sent"
		if n.Pinned {
			info.Reason = fmt.Sprintf("pinned with --protocol %s: the initialize handshake, no server/discover", n.Asked)
		} else {
			info.Reason = fmt.Sprintf("asked for %s first: the initialize handshake, no server/discover", n.Asked)
		}
	case client.DiscoverAnswered:
		info.Discover = "answered"
		switch {
		case n.Pinned:
			info.Reason = fmt.Sprintf("pinned with --protocol %s: server/discover, no fallback", n.Asked)
		case n.Retried:
			info.Reason = fmt.Sprintf("negotiated with server/discover, after the server refused %s (-32022) and named the versions it speaks", n.Asked)
		default:
			info.Reason = "negotiated with server/discover"
		}
	case client.DiscoverRefused:
		info.Discover = "refused"
		info.Reason = "fallback: the server refused server/discover (" + Refusal(n.DiscoverErr) + ")" + initialize
	case client.DiscoverUnanswered:
		info.Discover = "unanswered"
		why := "no answer to server/discover"
		if n.DiscoverErr != nil {
			why = Refusal(n.DiscoverErr)
		}
		info.Reason = "fallback: " + why + initialize
	case client.DiscoverNoModern:
		info.Discover = "no-modern-version"
		info.Reason = fmt.Sprintf("fallback: server/discover named no version of %s or later that mcpcli speaks%s", client.ModernVersion, initialize)
	}
	return info
}

// refusal says in a few words how a server turned server/discover down.
func Refusal(err error) string {
	var (
		je *jsonrpc.Error
		se *transport.StatusError
		hr *client.HTTPRefusal
	)
	switch {
	case errors.As(err, &hr):
		return fmt.Sprintf("HTTP %d %s with JSON-RPC error %d: %s", hr.Status, http.StatusText(hr.Status), hr.RPC.Code, strings.TrimSpace(hr.RPC.Message))
	case errors.As(err, &se):
		msg := fmt.Sprintf("HTTP %d %s", se.Status, http.StatusText(se.Status))
		if se.Text != "" {
			msg += fmt.Sprintf(": %q", se.Text)
		}
		return msg
	case errors.As(err, &je) && je.Code == jsonrpc.CodeMethodNotFound:
		return fmt.Sprintf("-32601 method not found: %s", strings.TrimSpace(je.Message))
	case errors.As(err, &je):
		return fmt.Sprintf("%d: %s", je.Code, strings.TrimSpace(je.Message))
	}
	return err.Error()
}
