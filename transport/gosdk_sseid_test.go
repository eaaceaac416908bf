package transport

import (
	"net/http"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/internal/wiretest"
)

// The go-sdk alone resumes a broken 2026-07-28 response stream whose
// events had ids with a GET (see gosdk_sseid.go).
func TestGoSDKResumesAModernStreamWithAGET(t *testing.T) {
	srv := wiretest.New(t, map[string]wiretest.Handler{
		"tools/call": func(w http.ResponseWriter, r *wiretest.Request, n int) {
			wiretest.Stream(w, "id: 17\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"x\"}}\n\n")
			wiretest.Break()
		},
	})
	cs, _ := bareHTTP(t, srv.URL, nil)
	_, _ = cs.CallTool(bareCtx(t), &mcp.CallToolParams{Name: "t"})
	var gets []string
	for _, r := range srv.Requests() {
		if r.HTTPMethod == http.MethodGet {
			gets = append(gets, r.Header.Get("Last-Event-ID"))
		}
	}
	if len(gets) == 0 {
		t.Errorf("the go-sdk alone did not resume a broken modern stream with a GET; v1.8.0 did: sseIDFilter may go")
	}
}
