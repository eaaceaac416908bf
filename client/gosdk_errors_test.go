package client_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/internal/wiretest"
)

// The go-sdk alone says in words only, not with a type, that an interim
// result holds an input request it cannot read, and that a response
// stream ended before the response (see gosdk_errors.go).
func TestGoSDKErrorTextsMcpcliReads(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cs, _, _ := bareModern(t, nil, func(string) string {
		return `{"resultType":"input_required","inputRequests":{"k":{"method":"x/unknown","params":{}}}}`
	})
	_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "t"})
	if err == nil || !strings.Contains(err.Error(), "unsupported InputRequest method") {
		t.Errorf("the go-sdk alone said %v of an input request of method x/unknown; v1.8.0 said \"unsupported InputRequest method\": unsupportedInputRequest must follow", err)
	}

	srv := wiretest.New(t, map[string]wiretest.Handler{
		"tools/call": func(w http.ResponseWriter, r *wiretest.Request, n int) {
			wiretest.Stream(w, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"starting"}}`)
			wiretest.Break()
		},
	})
	c := mcp.NewClient(&mcp.Implementation{Name: "bare", Version: "1"}, nil)
	hs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL}, nil)
	if err != nil {
		t.Fatalf("the go-sdk alone: Connect: %v", err)
	}
	defer hs.Close()
	_, err = hs.CallTool(ctx, &mcp.CallToolParams{Name: "t"})
	if err == nil || !strings.Contains(err.Error(), "request terminated without response") {
		t.Errorf("the go-sdk alone said %v of a response stream that broke; v1.8.0 said \"request terminated without response\": brokenStream must follow", err)
	}
}
