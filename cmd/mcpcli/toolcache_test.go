package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rogpeppe/go-internal/testscript"
)

// cachedLists is the "testserver cached" server's SetCacheable: its
// tools/list stays fresh for $TOOLS_TTL_MS (default a minute), for
// everyone, or for the asker alone when $TOOLS_SCOPE is private.
func cachedLists(_ context.Context, req mcp.Request, c *mcp.Cacheable) {
	if _, ok := req.(*mcp.ListToolsRequest); !ok {
		return
	}
	c.TTLMs = 60_000
	if v, err := strconv.Atoi(os.Getenv("TOOLS_TTL_MS")); err == nil {
		c.TTLMs = v
	}
	if sc := os.Getenv("TOOLS_SCOPE"); sc != "" {
		c.CacheScope = sc
	}
}

// addCachedTool adds the "testserver cached" tool add: its inputSchema is
// the file $TOOL_SCHEMA as it is when the server starts, and it refuses
// (-32602) a call whose arguments do not match the file as it is when
// called (the server changed its tool meanwhile), or whose n is "bad";
// otherwise it answers with its arguments.
func addCachedTool(srv *mcp.Server) {
	path := os.Getenv("TOOL_SCHEMA")
	b, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "testserver cached: $TOOL_SCHEMA:", err)
		os.Exit(2)
	}
	srv.AddTool(&mcp.Tool{Name: "add", InputSchema: json.RawMessage(b)}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var schema struct {
			Properties map[string]struct{ Type string }
			Required   []string
		}
		b, _ := os.ReadFile(path)
		json.Unmarshal(b, &schema)
		var args map[string]any
		json.Unmarshal(req.Params.Arguments, &args)
		if args["n"] == "bad" {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "n may not be bad"}
		}
		for _, k := range schema.Required {
			if _, ok := args[k]; !ok {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "missing " + k}
			}
		}
		for k, v := range args {
			want := schema.Properties[k].Type
			if got := jsonType(v); want != "" && got != want && !(want == "number" && got == "integer") {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("%s must be a %s, not a %s", k, want, got)}
			}
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "add: " + string(req.Params.Arguments)}}}, nil
	})
}

func jsonType(v any) string {
	switch v := v.(type) {
	case string:
		return "string"
	case bool:
		return "boolean"
	case float64:
		if v == float64(int64(v)) {
			return "integer"
		}
		return "number"
	case nil:
		return "null"
	case []any:
		return "array"
	}
	return "object"
}

// cmdSent checks the requests mcpcli sent, in order, as a trace (--trace
// FILE) recorded them: sent FILE METHOD... (notifications are left out).
func cmdSent(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 1 {
		ts.Fatalf("usage: sent FILE METHOD...")
	}
	f, err := os.Open(ts.MkAbs(args[0]))
	ts.Check(err)
	defer f.Close()
	var got []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var l struct {
			Dir string `json:"dir"`
			Msg struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			} `json:"msg"`
		}
		if json.Unmarshal(sc.Bytes(), &l) != nil || l.Dir != "send" || l.Msg.Method == "" || l.Msg.ID == nil {
			continue
		}
		got = append(got, l.Msg.Method)
	}
	ts.Check(sc.Err())
	match := strings.Join(got, " ") == strings.Join(args[1:], " ")
	if match == neg {
		ts.Fatalf("the requests sent: %s; want %s%s", strings.Join(got, " "), map[bool]string{true: "anything but ", false: ""}[neg], strings.Join(args[1:], " "))
	}
}
