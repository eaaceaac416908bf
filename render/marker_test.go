package render

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
)

func TestRoundMarker(t *testing.T) {
	asks := func(keys ...string) []client.Ask {
		var out []client.Ask
		for _, k := range keys {
			out = append(out, client.Ask{Key: k})
		}
		return out
	}
	res := func(kv ...string) map[string]*mcp.ElicitResult {
		m := map[string]*mcp.ElicitResult{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = &mcp.ElicitResult{Action: kv[i+1]}
		}
		return m
	}
	for _, tc := range []struct {
		name string
		r    client.Round
		out  map[string]*mcp.ElicitResult
		err  error
		want string
	}{
		{"one ask", client.Round{Target: "create_repo", Number: 2, Asks: asks("details")}, res("details", "decline"), nil,
			"create_repo · round 2 · details: decline"},
		{"in the server's order", client.Round{Target: "book", Number: 1, Asks: asks("seat", "meal", "bags")}, res("bags", "cancel", "meal", "decline", "seat", "accept"), nil,
			"book · round 1 · seat: accept, meal: decline, bags: cancel"},
		{"a resource", client.Round{Method: "resources/read", Target: "demo://reports/q3", Number: 1, Asks: asks("detail")}, res("detail", "accept"), nil,
			"demo://reports/q3 · round 1 · detail: accept"},
		{"legacy, no request in flight", client.Round{Number: 1, Legacy: true, Asks: asks("x")}, res("x", "accept"), nil,
			"elicitation · round 1 · x: accept"},
		{"abandoned", client.Round{Target: "t", Number: 3, Asks: asks("a")}, nil, fmt.Errorf("quit: %w", client.ErrAbandoned),
			"t · round 3 · abandoned"},
		{"interrupted", client.Round{Target: "t", Number: 1, Asks: asks("a")}, nil, context.Canceled,
			"t · round 1 · abandoned"},
		{"failed: nothing sent, no marker", client.Round{Target: "t", Number: 1, Asks: asks("a")}, nil, errors.New("no terminal"), ""},
		{"hostile server text is sanitized", client.Round{Target: "evil\x1b]0;pwned\x07\ntool\u202e", Number: 1, Asks: asks("k\x1b[2J\r")}, res("k\x1b[2J\r", "accept"), nil,
			"evil tool<U+202E> · round 1 · k: accept"},
	} {
		got := RoundMarker(tc.r, tc.out, tc.err)
		if got != tc.want {
			t.Errorf("%s: RoundMarker = %q, want %q", tc.name, got, tc.want)
		}
		if strings.ContainsFunc(got, func(r rune) bool { return r < 0x20 || r == 0x7f || r == '\u202e' || r == 0x9b }) {
			t.Errorf("%s: RoundMarker = %q holds a control character", tc.name, got)
		}
	}
	long := RoundMarker(client.Round{Target: strings.Repeat("é", 300), Number: 1, Asks: asks("a")}, res("a", "accept"), nil)
	if n := utf8.RuneCountInString(long); n != maxMarker || !strings.HasSuffix(long, "…") {
		t.Errorf("a long marker is %d characters (%q), want %d ending in …", n, long, maxMarker)
	}
}
