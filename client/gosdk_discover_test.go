package client_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/transport"
)

// The go-sdk alone, stopped while server/discover waits for its answer,
// still falls back to the initialize handshake and sends it (see
// gosdk_discover.go).
func TestGoSDKSendsInitializeAfterAStoppedDiscover(t *testing.T) {
	done := make(chan struct{})
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if transport.Decode(body).Kind != transport.KindRequest {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		select { // never answers a request
		case <-r.Context().Done():
		case <-done:
		}
	}))
	defer hs.Close()
	defer close(done)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var (
		mu   sync.Mutex
		sent []string
	)
	ht := &transport.HTTP{URL: hs.URL, Streamable: true}
	ht.Observe(func(ev transport.Event) {
		if e := ev.Envelope(); ev.Dir == transport.Send && e.Method != "" {
			mu.Lock()
			sent = append(sent, e.Method)
			mu.Unlock()
			if e.Method == "server/discover" {
				cancel() // stopped while it waits
			}
		}
	})
	c := mcp.NewClient(&mcp.Implementation{Name: "bare", Version: "1"}, nil)
	if cs, err := c.Connect(ctx, ht, nil); err == nil {
		cs.Close()
	}
	mu.Lock()
	defer mu.Unlock()
	if !slices.Contains(sent, "initialize") {
		t.Errorf("the go-sdk alone, stopped during server/discover, sent %v; v1.8.0 sent initialize after it: noInitializeWhenStopped may go", sent)
	}
}
