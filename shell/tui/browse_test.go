package tui

import (
	"context"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// At 80 columns, resources whose URIs share a long prefix (as
// server-everything's do) are told apart: each row shows the resource's
// name, then its URI cut in the middle so that its end shows.
func TestResourceRowsDistinguishable(t *testing.T) {
	names := []string{"architecture.md", "extension.md", "features.md", "how-it-works.md", "instructions.md", "quickstart.md", "startup.md"}
	srv := mcp.NewServer(&mcp.Implementation{Name: "docs", Version: "1"}, nil)
	for _, n := range names {
		uri := "demo://resource/static/document/" + n
		srv.AddResource(&mcp.Resource{URI: uri, Name: n, MIMEType: "text/markdown"},
			func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
				return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, Text: n}}}, nil
			})
	}
	h := newHarness(t, srv, harnessOptions{width: 80, height: 24})
	h.keys("3")
	screen := h.waitShow("Resources 7")
	rows := map[string]bool{}
	for _, line := range strings.Split(screen, "\n") {
		row, _, ok := strings.Cut(line, "│")
		row = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(row), "▸"))
		if !ok || row == "" {
			continue
		}
		if rows[row] {
			t.Errorf("two resources show as the same row %q:\n%s", row, screen)
		}
		rows[row] = true
	}
	if len(rows) != len(names) {
		t.Fatalf("%d resource rows at 80x24, want %d:\n%s", len(rows), len(names), screen)
	}
	for _, n := range names {
		found := false
		for row := range rows {
			if strings.HasPrefix(row, n+"  dem") {
				found = true
			}
		}
		if !found {
			t.Errorf("no row starts with the name %q, then its URI:\n%s", n, screen)
		}
	}
}

func TestClipMiddle(t *testing.T) {
	for _, tc := range []struct {
		s    string
		w    int
		want string
	}{
		{"demo://a", 20, "demo://a"},
		{"demo://resource/static/document/architecture.md", 30, "demo://re…ment/architecture.md"},
		{"demo://resource/static/document/architecture.md", 3, "de…"},
		{"demo://x", 0, ""},
	} {
		got := clipMiddle(tc.s, tc.w)
		if got != tc.want {
			t.Errorf("clipMiddle(%q, %d) = %q, want %q", tc.s, tc.w, got, tc.want)
		}
		if w := ansi.StringWidth(got); w > tc.w {
			t.Errorf("clipMiddle(%q, %d) is %d cells wide", tc.s, tc.w, w)
		}
	}
}
