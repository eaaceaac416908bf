package oauth

import (
	"net/http"
	"testing"
)

type recordingRT struct{ got []*http.Request }

func (r *recordingRT) RoundTrip(req *http.Request) (*http.Response, error) {
	r.got = append(r.got, req)
	return &http.Response{StatusCode: 200, Body: http.NoBody, Request: req}, nil
}

func TestOriginGuard(t *testing.T) {
	tests := []struct {
		url      string
		wantAuth bool
	}{
		{"https://mcp.example.com/mcp", true},
		{"https://mcp.example.com:443/other", true},
		{"https://MCP.example.com/mcp", true},
		{"http://mcp.example.com/mcp", false},       // scheme differs
		{"https://mcp.example.com:8443/mcp", false}, // port differs
		{"https://evil.example.com/mcp", false},
		{"https://sub.mcp.example.com/mcp", false},
	}
	for _, tt := range tests {
		rec := &recordingRT{}
		g, err := OriginGuard(rec, "https://mcp.example.com/mcp")
		if err != nil {
			t.Fatal(err)
		}
		req, _ := http.NewRequest(http.MethodPost, tt.url, nil)
		req.Header.Set("Authorization", "Bearer token-value")
		req.Header.Set("Cookie", "c=1")
		req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
		g.RoundTrip(req)
		sent := rec.got[0]
		if got := sent.Header.Get("Authorization") != ""; got != tt.wantAuth {
			t.Errorf("RoundTrip(%s): Authorization sent %v, want %v", tt.url, got, tt.wantAuth)
		}
		if got := sent.Header.Get("Cookie") != ""; got != tt.wantAuth {
			t.Errorf("RoundTrip(%s): Cookie sent %v, want %v", tt.url, got, tt.wantAuth)
		}
		if sent.Header.Get("Mcp-Protocol-Version") == "" {
			t.Errorf("RoundTrip(%s) dropped an ordinary header", tt.url)
		}
		if req.Header.Get("Authorization") == "" {
			t.Errorf("RoundTrip(%s) changed the caller's request", tt.url)
		}
	}
}
