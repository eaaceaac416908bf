package client

// Works around go-sdk v1.8.0: its CallToolParams has no "task" member,
// which a 2025-11-25 tools/call needs to run as a task (the tasks
// extension). The sending middleware sends the same call with "task": {}.
// gosdk_tasks_test.go fails when the go-sdk's CallToolParams gains the
// member: then it can be set directly, and augmentCall can go.

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// taskCallParams are the params of a 2025-11-25 task-augmented tools/call.
type taskCallParams struct {
	mcp.ParamsBase
	Name      string         `json:"name"`
	Arguments any            `json:"arguments,omitempty"`
	Task      map[string]any `json:"task"`
}

type augmentKey struct{}

// augmentCall is a sending middleware: a tools/call whose context says so
// goes with "task": {} (2025-11-25). The go-sdk's CallToolParams has no
// such field.
func augmentCall(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		p, ok := req.GetParams().(*mcp.CallToolParams)
		cs, isClient := req.GetSession().(*mcp.ClientSession)
		if method != "tools/call" || !ok || !isClient || ctx.Value(augmentKey{}) == nil {
			return next(ctx, method, req)
		}
		tp := &taskCallParams{Name: p.Name, Arguments: p.Arguments, Task: map[string]any{}}
		tp.Meta = p.Meta
		return next(ctx, method, &mcp.ClientRequest[*taskCallParams]{Session: cs, Params: tp})
	}
}
