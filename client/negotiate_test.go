package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/transport"
)

func TestNegotiation(t *testing.T) {
	serverSpeaking := func(versions ...string) *mcp.Server {
		return mcp.NewServer(&mcp.Implementation{Name: "negotiate", Version: "1"}, &mcp.ServerOptions{SupportedProtocolVersions: versions})
	}
	for _, tc := range []struct {
		name     string
		server   []string // versions the server speaks; nil: the go-sdk's all
		asked    string
		pinned   bool
		want     client.Negotiation
		protocol string
		pinErr   *client.PinError
	}{
		{
			name: "auto, modern server",
			want: client.Negotiation{Asked: "2026-07-28", Discover: client.DiscoverAnswered, Handshake: "server/discover"}, protocol: "2026-07-28",
		},
		{
			name: "auto, legacy server", server: []string{"2025-11-25"},
			want: client.Negotiation{Asked: "2026-07-28", Discover: client.DiscoverRefused, Handshake: "initialize"}, protocol: "2025-11-25",
		},
		{
			name: "pinned legacy, modern server", asked: "2025-11-25", pinned: true,
			want: client.Negotiation{Asked: "2025-11-25", Pinned: true, Discover: client.DiscoverNotSent, Handshake: "initialize"}, protocol: "2025-11-25",
		},
		{
			name: "pinned modern, modern server", asked: "2026-07-28", pinned: true,
			want: client.Negotiation{Asked: "2026-07-28", Pinned: true, Discover: client.DiscoverAnswered, Handshake: "server/discover"}, protocol: "2026-07-28",
		},
		{
			name: "pinned modern, legacy server", server: []string{"2025-11-25"}, asked: "2026-07-28", pinned: true,
			pinErr: &client.PinError{Server: "test server", Version: "2026-07-28"},
		},
		{
			name: "pinned legacy, older server", server: []string{"2025-06-18"}, asked: "2025-11-25", pinned: true,
			pinErr: &client.PinError{Server: "test server", Version: "2025-11-25", Got: "2025-06-18"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			ct, st := pipes(&wire{})
			ss, err := serverSpeaking(tc.server...).Connect(ctx, st, nil)
			if err != nil {
				t.Fatalf("server Connect: %v", err)
			}
			defer ss.Close()
			s, err := client.Connect(ctx, ct, client.Options{ProtocolVersion: tc.asked, PinProtocol: tc.pinned})
			if tc.pinErr != nil {
				var pe *client.PinError
				if !errors.As(err, &pe) {
					t.Fatalf("Connect(%s, pinned %v) = %v, want a *PinError", tc.asked, tc.pinned, err)
				}
				if tc.pinErr.Got == "" && pe.Discover == nil {
					t.Errorf("PinError.Discover is nil, want why server/discover failed")
				}
				if diff := cmp.Diff(tc.pinErr, pe, cmpopts.IgnoreFields(client.PinError{}, "Discover")); diff != "" {
					t.Errorf("PinError (-want +got):\n%s", diff)
				}
				return
			}
			if err != nil {
				t.Fatalf("Connect(%s, pinned %v) = %v", tc.asked, tc.pinned, err)
			}
			defer s.Close()
			got := s.Negotiation()
			if (got.DiscoverErr != nil) != (tc.want.Discover == client.DiscoverRefused) {
				t.Errorf("Negotiation().DiscoverErr = %v; want one only when refused", got.DiscoverErr)
			}
			if diff := cmp.Diff(tc.want, got, cmpopts.IgnoreFields(client.Negotiation{}, "DiscoverErr")); diff != "" {
				t.Errorf("Negotiation() (-want +got):\n%s", diff)
			}
			if p := s.Server().Protocol; p != tc.protocol {
				t.Errorf("Server().Protocol = %q, want %q", p, tc.protocol)
			}
		})
	}
}

// Ctrl+C (or --timeout) while server/discover waits for its answer ends
// the connection there: the go-sdk's fallback to the initialize handshake
// is not sent on a run that was stopped.
func TestStoppedConnectSendsNoInitialize(t *testing.T) {
	var (
		mu      sync.Mutex
		methods []string
	)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body) // (the server sees a client leave only once the body is read)
		<-r.Context().Done()        // never answers
	}))
	defer hs.Close()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	ht := &transport.HTTP{URL: hs.URL, Streamable: true}
	ht.Observe(func(e transport.Event) {
		// What mcpcli gave the wire, whether or not it got through.
		var m struct {
			Method string `json:"method"`
		}
		if e.Dir == transport.Send && json.Unmarshal(e.Msg, &m) == nil && m.Method != "" {
			mu.Lock()
			methods = append(methods, m.Method)
			mu.Unlock()
		}
	})
	_, err := client.Connect(ctx, ht, client.Options{})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Connect, stopped while waiting = %v, want context.Canceled", err)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, m := range methods {
		if m == "initialize" {
			t.Errorf("mcpcli sent %v, want no initialize after the run was stopped", methods)
		}
	}
}
