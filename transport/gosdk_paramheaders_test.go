package transport

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/internal/wiretest"
)

func TestParamHeaders(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{
		"region":{"type":"string","x-mcp-header":"Region"},
		"count":{"type":"integer","x-mcp-header":"Count"},
		"dry":{"type":"boolean","x-mcp-header":"Dry-Run"},
		"plain":{"type":"string"},
		"where":{"type":"object","properties":{"zone":{"type":"string","x-mcp-header":"Zone"}}},
		"tags":{"type":"array","items":{"type":"string"}}}}`)
	call := func(args string) []byte {
		return []byte(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"run","arguments":` + args + `}}`)
	}
	for _, c := range []struct {
		name string
		body []byte
		set  http.Header // already set by the go-sdk
		want http.Header
	}{
		{"each type", call(`{"region":"us-west1","count":-7,"dry":true,"plain":"x","where":{"zone":"b"}}`), nil,
			http.Header{"Mcp-Param-Region": {"us-west1"}, "Mcp-Param-Count": {"-7"}, "Mcp-Param-Dry-Run": {"true"}, "Mcp-Param-Zone": {"b"}}},
		{"encoded", call(`{"region":"Hello, 世界","count":1e3,"where":{"zone":" padded "}}`), nil,
			http.Header{"Mcp-Param-Region": {"=?base64?SGVsbG8sIOS4lueVjA==?="}, "Mcp-Param-Count": {"1000"}, "Mcp-Param-Zone": {"=?base64?IHBhZGRlZCA=?="}}},
		{"sentinel", call(`{"region":"=?base64?literal?="}`), nil,
			http.Header{"Mcp-Param-Region": {"=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="}}},
		{"absent, null or not a primitive", call(`{"region":null,"count":1.5,"dry":"yes","where":{}}`), nil, http.Header{"Mcp-Param-Dry-Run": {"yes"}}},
		{"too large an integer", call(`{"count":9007199254740993}`), nil, http.Header{}},
		{"the go-sdk's own stays", call(`{"region":"a"}`), http.Header{"Mcp-Param-Region": {"a"}}, http.Header{"Mcp-Param-Region": {"a"}}},
		{"not a call", []byte(`{"jsonrpc":"2.0","id":3,"method":"prompts/get","params":{"name":"run","arguments":{"region":"a"}}}`), nil, http.Header{}},
	} {
		h := http.Header{}
		for k, v := range c.set {
			h[k] = v
		}
		paramHeaders(WithToolSchema(context.Background(), schema), h, Decode(c.body))
		if diff := cmp.Diff(c.want, h); diff != "" {
			t.Errorf("%s: paramHeaders(%s) (-want +got):\n%s", c.name, c.body, diff)
		}
	}
	h := http.Header{}
	if paramHeaders(context.Background(), h, Decode(call(`{"region":"a"}`))) || len(h) > 0 {
		t.Errorf("paramHeaders without a schema in the context set %v", h)
	}
}

// The go-sdk alone mirrors x-mcp-header arguments only for a tool it
// listed in this session (see gosdk_paramheaders.go).
func TestGoSDKMirrorsParamHeadersOnlyForToolsItListed(t *testing.T) {
	var headers []string
	srv := wiretest.New(t, map[string]wiretest.Handler{
		"tools/list": wiretest.Tools(`[{"name":"run","inputSchema":{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}}}}]`),
		"tools/call": func(w http.ResponseWriter, r *wiretest.Request, n int) {
			headers = append(headers, r.Header.Get("Mcp-Param-Region"))
			wiretest.Text("ok")(w, r, n)
		},
	})
	cs, _ := bareHTTP(t, srv.URL, nil)
	call := func() {
		if _, err := cs.CallTool(bareCtx(t), &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"region": "eu"}}); err != nil {
			t.Fatal(err)
		}
	}
	call()
	if _, err := cs.ListTools(bareCtx(t), nil); err != nil {
		t.Fatal(err)
	}
	call()
	if len(headers) != 2 || headers[0] != "" || headers[1] != "eu" {
		t.Errorf("the go-sdk alone sent Mcp-Param-Region %q before and after listing the tool; v1.8.0 sent [\"\" \"eu\"]: the transport's own mirroring may go", headers)
	}
}
