package transport

import (
	"net/http"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/internal/wiretest"
)

// The go-sdk alone loses the JSON-RPC error a server sends under a 500
// (see gosdk_status.go).
func TestGoSDKDropsTheErrorUnderA500(t *testing.T) {
	srv := wiretest.New(t, map[string]wiretest.Handler{
		"tools/call": func(w http.ResponseWriter, r *wiretest.Request, n int) {
			wiretest.Error(w, r, http.StatusInternalServerError, -32603, "the disk is full", "")
		},
	})
	cs, _ := bareHTTP(t, srv.URL, nil)
	_, err := cs.CallTool(bareCtx(t), &mcp.CallToolParams{Name: "t"})
	if err == nil || strings.Contains(err.Error(), "the disk is full") {
		t.Errorf("the go-sdk alone said %v of a 500 carrying a JSON-RPC error; v1.8.0 lost the error's message: deliverRPCError may go", err)
	}
}
