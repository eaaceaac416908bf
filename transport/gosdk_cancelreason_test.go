package transport

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The go-sdk alone gives the context's error as the reason of the
// notifications/cancelled it sends (see gosdk_cancelreason.go).
func TestGoSDKCancelReasonIsTheContextError(t *testing.T) {
	started := make(chan struct{})
	srv := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "wait"}, func(ctx context.Context, _ *mcp.CallToolRequest, _ any) (*mcp.CallToolResult, any, error) {
		close(started)
		<-ctx.Done()
		return nil, nil, ctx.Err()
	})
	ct, st := mcp.NewInMemoryTransports()
	ctx := bareCtx(t)
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	var (
		mu      sync.Mutex
		reasons []string
	)
	w := Wrap(ct, "in-memory") // no reason in the context: the go-sdk's own
	w.Observe(func(ev Event) {
		if e := ev.Envelope(); ev.Dir == Send && e.Method == "notifications/cancelled" {
			var p struct {
				Reason string `json:"reason"`
			}
			_ = json.Unmarshal(e.Params, &p)
			mu.Lock()
			reasons = append(reasons, p.Reason)
			mu.Unlock()
		}
	})
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bare", Version: "1"}, nil).Connect(ctx, w, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	cctx, cancel := context.WithCancel(ctx)
	go func() { <-started; cancel() }()
	_, _ = cs.CallTool(cctx, &mcp.CallToolParams{Name: "wait"})
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		mu.Lock()
		n := len(reasons)
		mu.Unlock()
		if n > 0 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(reasons) != 1 || reasons[0] != context.Canceled.Error() {
		t.Errorf("the go-sdk alone sent notifications/cancelled with reasons %q; v1.8.0 gave %q: withReason must follow", reasons, context.Canceled.Error())
	}
}
