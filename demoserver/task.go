package demoserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The task-augmented tool: build_release runs as a task of the 2026-07-28
// tasks extension (io.modelcontextprotocol/tasks). The go-sdk has no
// tasks, so the demo answers tools/call for it in a receiving middleware
// with a CreateTaskResult, and serves tasks/get, tasks/update and
// tasks/cancel as custom methods. The task works through stages, asks for
// approval half way (input_required, answered with tasks/update), and
// ends with a tool result.

// TasksExtension is the tasks extension's identifier.
const TasksExtension = "io.modelcontextprotocol/tasks"

// TaskTool is the demo's task-augmented tool.
const TaskTool = "build_release"

// Stages build_release goes through before and after the approval.
var (
	taskStagesBefore = []string{"Fetching sources", "Compiling", "Running the tests"}
	taskStagesAfter  = []string{"Publishing"}
)

const (
	taskPollMs = 200
	taskTTLMs  = 10 * 60 * 1000
)

// demoTask is one task's state.
type demoTask struct {
	id      string
	created time.Time

	mu       sync.Mutex
	status   string
	message  string
	updated  time.Time
	asks     mcp.InputRequestMap
	answers  chan mcp.InputResponseMap
	result   *mcp.CallToolResult
	cancel   context.CancelFunc
	finished bool
}

// taskState is a task on the wire (tasks/get, CreateTaskResult).
type taskState struct {
	mcp.ResultBase
	ResultType     string              `json:"resultType"`
	TaskID         string              `json:"taskId"`
	Status         string              `json:"status"`
	StatusMessage  string              `json:"statusMessage,omitempty"`
	CreatedAt      string              `json:"createdAt"`
	LastUpdatedAt  string              `json:"lastUpdatedAt"`
	TTLMs          int64               `json:"ttlMs"`
	PollIntervalMs int64               `json:"pollIntervalMs"`
	InputRequests  mcp.InputRequestMap `json:"inputRequests,omitempty"`
	Result         *mcp.CallToolResult `json:"result,omitempty"`
}

type taskParams struct {
	mcp.ParamsBase
	TaskID         string               `json:"taskId"`
	InputResponses mcp.InputResponseMap `json:"inputResponses,omitempty"`
}

type taskAck struct {
	mcp.ResultBase
	ResultType string `json:"resultType"`
}

func (t *demoTask) state(resultType string) *taskState {
	t.mu.Lock()
	defer t.mu.Unlock()
	st := &taskState{ResultType: resultType, TaskID: t.id, Status: t.status, StatusMessage: t.message,
		CreatedAt: t.created.UTC().Format(time.RFC3339Nano), LastUpdatedAt: t.updated.UTC().Format(time.RFC3339Nano),
		TTLMs: taskTTLMs, PollIntervalMs: taskPollMs}
	switch t.status {
	case "input_required":
		st.InputRequests = t.asks
	case "completed":
		st.Result = t.result
	}
	return st
}

func (t *demoTask) set(status, message string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.finished {
		return
	}
	t.status, t.message, t.updated = status, message, time.Now()
	t.finished = status == "completed" || status == "cancelled" || status == "failed"
}

func (d *Demo) addTaskTool() error {
	d.srv.AddTool(&mcp.Tool{
		Name:        TaskTool,
		Description: "Build and publish a release as a task (the 2026-07-28 tasks extension): it reports its stages, asks for approval half way, and can be cancelled.",
		InputSchema: rawSchema(`{"type":"object","properties":{"version":{"type":"string","description":"Version to build"}}}`),
	}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return nil, errors.New("build_release runs only as a task")
	})
	d.srv.AddReceivingMiddleware(d.taskMiddleware)
	if err := mcp.AddReceivingCustomMethod(d.srv, "tasks/get", d.taskGet); err != nil {
		return err
	}
	if err := mcp.AddReceivingCustomMethod(d.srv, "tasks/update", d.taskUpdate); err != nil {
		return err
	}
	return mcp.AddReceivingCustomMethod(d.srv, "tasks/cancel", d.taskCancel)
}

// taskMiddleware answers tools/call of the task tool with a new task.
func (d *Demo) taskMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		p, ok := req.GetParams().(*mcp.CallToolParamsRaw)
		if method != "tools/call" || !ok || p.Name != TaskTool {
			return next(ctx, method, req)
		}
		if !clientDeclares(req, TasksExtension) {
			return nil, &jsonrpc.Error{Code: -32021, Message: "Missing required client capability: build_release runs only as a task",
				Data: json.RawMessage(`{"requiredCapabilities":{"extensions":{"` + TasksExtension + `":{}}}}`)}
		}
		var args map[string]any
		_ = json.Unmarshal(p.Arguments, &args)
		version := str(args, "version", "2.0")
		now := time.Now()
		tctx, cancel := context.WithCancel(context.Background())
		t := &demoTask{id: newID(), created: now, updated: now, status: "working", message: "Queued", answers: make(chan mcp.InputResponseMap, 1), cancel: cancel}
		d.mu.Lock()
		if d.tasks == nil {
			d.tasks = map[string]*demoTask{}
		}
		d.tasks[t.id] = t
		d.mu.Unlock()
		go d.build(tctx, t, version)
		return t.state("task"), nil
	}
}

// build is the task's work.
func (d *Demo) build(ctx context.Context, t *demoTask, version string) {
	step := d.opts.TaskStep
	wait := func() bool {
		select {
		case <-ctx.Done():
			return false
		case <-time.After(step):
			return true
		}
	}
	for _, s := range taskStagesBefore {
		t.set("working", fmt.Sprintf("%s %s...", s, version))
		if !wait() {
			return
		}
	}
	t.mu.Lock()
	t.asks = mcp.InputRequestMap{"approve": elicit(fmt.Sprintf("Release %s is built and tested. Publish it?", version), `{"type":"object","properties":{
  "publish":{"type":"boolean","title":"Publish now","default":true},
  "channel":{"type":"string","title":"Channel","enum":["stable","beta"],"default":"stable"}
},"required":["publish"]}`)}
	t.mu.Unlock()
	t.set("input_required", "Waiting for your approval to publish")
	var r *mcp.ElicitResult
	select {
	case <-ctx.Done():
		return
	case answers := <-t.answers:
		r, _ = answers["approve"].(*mcp.ElicitResult)
	}
	if r == nil || r.Action != "accept" {
		t.finish(text("Release %s was built but not published: approval was %s.", version, actionOf(r)))
		return
	}
	if publish, _ := r.Content["publish"].(bool); !publish {
		t.finish(text("Release %s was built; you chose not to publish it.", version))
		return
	}
	channel, _ := r.Content["channel"].(string)
	for _, s := range taskStagesAfter {
		t.set("working", fmt.Sprintf("%s %s to %s...", s, version, channel))
		if !wait() {
			return
		}
	}
	t.finish(text("Published release %s to the %s channel.", version, channel))
}

func actionOf(r *mcp.ElicitResult) string {
	if r == nil {
		return "not given"
	}
	switch r.Action {
	case "decline":
		return "declined"
	case "cancel":
		return "cancelled"
	}
	return r.Action // not one of the three: said as it came
}

func (t *demoTask) finish(res *mcp.CallToolResult) {
	t.mu.Lock()
	t.result = res
	t.asks = nil
	t.mu.Unlock()
	t.set("completed", "Done")
}

func (d *Demo) task(id string) (*demoTask, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	t, ok := d.tasks[id]
	if !ok {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "Failed to retrieve task: Task not found"}
	}
	return t, nil
}

func (d *Demo) taskGet(ctx context.Context, ss *mcp.ServerSession, p *taskParams) (*taskState, error) {
	t, err := d.task(p.TaskID)
	if err != nil {
		return nil, err
	}
	return t.state("complete"), nil
}

func (d *Demo) taskUpdate(ctx context.Context, ss *mcp.ServerSession, p *taskParams) (*taskAck, error) {
	t, err := d.task(p.TaskID)
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	waiting := t.status == "input_required"
	if waiting {
		t.status, t.message, t.updated = "working", "Approval received", time.Now()
		t.asks = nil
	}
	t.mu.Unlock()
	if waiting {
		select {
		case t.answers <- p.InputResponses:
		default:
		}
	}
	return &taskAck{ResultType: "complete"}, nil
}

func (d *Demo) taskCancel(ctx context.Context, ss *mcp.ServerSession, p *taskParams) (*taskAck, error) {
	t, err := d.task(p.TaskID)
	if err != nil {
		return nil, err
	}
	t.cancel()
	t.set("cancelled", "Cancelled by the client")
	return &taskAck{ResultType: "complete"}, nil
}
