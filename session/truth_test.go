package session

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The server learns in words why a request was cancelled: the person
// cancelled it in the session, or closed the session; never the go-sdk's
// "context canceled".
func TestCancelReasonInWords(t *testing.T) {
	h := newHarness(t, testServer(), harnessOptions{})
	h.keys("/")
	h.typ("slow")
	h.keys("enter", "enter")
	h.waitShow("▶ running", "25%")
	h.keys("ctrl+c")
	h.waitShow("■ cancelled")
	var reason string
	h.waitFor("notifications/cancelled on the wire", func(string) bool {
		for _, m := range h.sent.messages("notifications/cancelled") {
			var p struct{ Reason string }
			_ = json.Unmarshal(m["params"], &p)
			reason = p.Reason
		}
		return reason != ""
	})
	if reason != "the user cancelled the request in mcpcli's session" {
		t.Errorf("notifications/cancelled gives the reason %q, want the person's cancel in words", reason)
	}
	if strings.Contains(reason, "context canceled") {
		t.Errorf("the reason is the go-sdk's: %q", reason)
	}
}

// The detail pane shows the tool's own execution.taskSupport: a tool
// that says nothing is not called "forbidden" by a server that runs it
// as a task, and the pane says the server may.
func TestTaskSupportIsTheTools(t *testing.T) {
	h := newHarness(t, demo(t), harnessOptions{width: 200, height: 40})
	h.keys("/")
	h.typ("build_release")
	s := h.waitShow("Task support: not declared by the tool", "Tasks: the server has the tasks extension (2026-07-28) and may run any call as a task")
	if strings.Contains(s, "forbidden") {
		t.Errorf("the detail pane says forbidden:\n%s", s)
	}
}

// A list answered with input_required, or an error, is named as what it
// was; a list the server does not declare is said not to be offered.
// None of them shows as an empty list.
func TestListsSayWhatTheServerAnswered(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "lists", Version: "1"}, nil)
	srv.AddTool(&mcp.Tool{Name: "echo", InputSchema: schemaOf(`{"type":"object"}`)}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return textResult("echoed"), nil
	})
	srv.AddPrompt(&mcp.Prompt{Name: "p"}, func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return &mcp.GetPromptResult{}, nil
	})
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "prompts/list" {
				return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"who": &mcp.ElicitParams{Message: "Who asks?", RequestedSchema: schemaOf(`{"type":"object","properties":{}}`)}}}, nil
			}
			return next(ctx, method, req)
		}
	})
	h := newHarness(t, srv, harnessOptions{width: 120, height: 30})
	s := h.waitShow("Tools 1", "Prompts !", "Resources –")
	h.keys("2")
	s = h.waitShow("no list:", "inputRequests instead of a list")
	if strings.Contains(s, "the server lists none") {
		t.Errorf("a list answered with input_required shows as empty:\n%s", s)
	}
	h.keys("3")
	s = h.waitShow("the server does not offer resources")
	if strings.Contains(s, "the server lists none") {
		t.Errorf("resources not offered show as an empty list:\n%s", s)
	}
	h.keys("4")
	h.waitShow("reading the prompts list failed")
}
