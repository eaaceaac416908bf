package transport

import (
	"net/http"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/internal/wiretest"
)

type bareTaskParams struct {
	mcp.ParamsBase
	TaskID string `json:"taskId"`
}

type bareTaskResult struct {
	mcp.ResultBase
	TaskID string `json:"taskId"`
}

// The go-sdk alone sends a tool's name in Mcp-Name as it is, not encoded,
// and names no task in a tasks/get (see gosdk_mcpname.go).
func TestGoSDKMcpNameUnencodedAndNoneForTasks(t *testing.T) {
	names := map[string][]string{}
	record := func(h wiretest.Handler) wiretest.Handler {
		return func(w http.ResponseWriter, r *wiretest.Request, n int) {
			names[r.Method] = append(names[r.Method], r.Header.Get("Mcp-Name"))
			h(w, r, n)
		}
	}
	srv := wiretest.New(t, map[string]wiretest.Handler{
		"tools/call": record(wiretest.Text("ok")),
		"tasks/get": record(func(w http.ResponseWriter, r *wiretest.Request, n int) {
			wiretest.Result(w, r, `{"taskId":"t-1","status":"working"}`)
		}),
	})
	c := mcp.NewClient(&mcp.Implementation{Name: "bare", Version: "1"}, nil)
	if err := mcp.AddSendingCustomMethod[*bareTaskParams, *bareTaskResult](c, "tasks/get"); err != nil {
		t.Fatal(err)
	}
	cs, err := c.Connect(bareCtx(t), &mcp.StreamableClientTransport{Endpoint: srv.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if _, err := cs.CallTool(bareCtx(t), &mcp.CallToolParams{Name: "café"}); err != nil {
		t.Fatal(err)
	}
	if _, err := mcp.CallCustomMethod[*bareTaskParams, *bareTaskResult](bareCtx(t), cs, "tasks/get", &bareTaskParams{TaskID: "t-1"}); err != nil {
		t.Fatal(err)
	}
	if got := names["tools/call"]; len(got) != 1 || got[0] != "café" {
		t.Errorf("the go-sdk alone sent Mcp-Name %q for tool café; v1.8.0 sent it unencoded: withMcpName's encoding may go", got)
	}
	if got := names["tasks/get"]; len(got) != 1 || got[0] != "" {
		t.Errorf("the go-sdk alone sent Mcp-Name %q for tasks/get; v1.8.0 sent none: withMcpName's task id may go", got)
	}
}
