package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/internal/jsonpeek"
	"github.com/mcpcli/mcpcli/transport"
)

// TasksExtension is the 2026-07-28 tasks extension's identifier.
const TasksExtension = "io.modelcontextprotocol/tasks"

// A tool call may become a task, run by the server apart from the request
// that started it, which the client follows until it ends:
//
//   - 2026-07-28 (the io.modelcontextprotocol/tasks extension, declared in
//     every request's capabilities): the server answers tools/call with
//     resultType "task" whenever it likes; the client polls tasks/get,
//     answers the task's inputRequests with tasks/update, and finds the
//     result (or error) in the task once it is completed (or failed).
//   - 2025-11-25 (experimental tasks): for a tool whose
//     execution.taskSupport is "required", tools/call carries
//     "task": {} and the server answers with {"task": {...}}; tasks/result
//     then waits for the end, while the server's requests for the task
//     (elicitation, sampling) arrive as ordinary server requests; tasks/get
//     is polled meanwhile, for the status.
//
// Either way tasks/cancel is sent when the person gives up.

// TaskStatus is what a task says of itself.
type TaskStatus struct {
	// Call is the tool call's number in the session (as in Step).
	Call          int
	TaskID        string
	Status        string // working, input_required, completed, failed, cancelled
	StatusMessage string
	// Legacy is true for a 2025-11-25 experimental task.
	Legacy bool
}

// Task statuses.
const (
	TaskWorking       = "working"
	TaskInputRequired = "input_required"
	TaskCompleted     = "completed"
	TaskFailed        = "failed"
	TaskCancelled     = "cancelled"
)

// TaskFailedError is a task the server reports failed: its JSON-RPC error
// (RPC) when it gave one.
type TaskFailedError struct {
	Server        string
	Tool          string
	TaskID        string
	StatusMessage string
	RPC           *jsonrpc.Error
}

func (e *TaskFailedError) Error() string {
	msg := fmt.Sprintf("server \"%s\" reports task %s of tool %q failed", e.Server, e.TaskID, e.Tool)
	if e.RPC != nil {
		msg += fmt.Sprintf(" (%d: %s)", e.RPC.Code, e.RPC.Message)
	} else if e.StatusMessage != "" {
		msg += fmt.Sprintf(" (%s)", e.StatusMessage)
	}
	return msg
}

func (e *TaskFailedError) Unwrap() error {
	if e.RPC == nil {
		return nil
	}
	return e.RPC
}

// TaskCancelledError is a task that ended cancelled: by the server, or
// (Abandoned) because the person gave up, in which case mcpcli sent
// tasks/cancel (CancelErr says why that failed, if it did).
type TaskCancelledError struct {
	Server    string
	Tool      string
	TaskID    string
	Abandoned bool
	CancelErr error
	// Cause is why the person gave up (context.Canceled, ErrAbandoned, a
	// declined sampling request).
	Cause error
}

func (e *TaskCancelledError) Error() string {
	if !e.Abandoned {
		return fmt.Sprintf("server \"%s\" cancelled task %s of tool %q", e.Server, e.TaskID, e.Tool)
	}
	if errors.Is(e.CancelErr, context.DeadlineExceeded) {
		return fmt.Sprintf("task %s of tool %q was abandoned; tasks/cancel was sent, and not answered within %s", e.TaskID, e.Tool, cancelWait)
	}
	if e.CancelErr != nil {
		return fmt.Sprintf("task %s of tool %q was abandoned, and tasks/cancel failed: %v", e.TaskID, e.Tool, e.CancelErr)
	}
	return fmt.Sprintf("task %s of tool %q was abandoned; tasks/cancel was sent", e.TaskID, e.Tool)
}

func (e *TaskCancelledError) Unwrap() error { return e.Cause }

// taskParams are the params of tasks/get, tasks/update, tasks/cancel and
// tasks/result.
type taskParams struct {
	mcp.ParamsBase
	TaskID         string               `json:"taskId"`
	InputResponses mcp.InputResponseMap `json:"inputResponses,omitempty"`
}

// taskResult is a task as tasks/get (or tasks/cancel) answers it, in
// either version: the raw bytes are read for the rest.
type taskResult struct {
	mcp.ResultBase
	TaskID         string `json:"taskId"`
	Status         string `json:"status"`
	StatusMessage  string `json:"statusMessage,omitempty"`
	PollIntervalMs *int64 `json:"pollIntervalMs,omitempty"` // 2026-07-28
	PollInterval   *int64 `json:"pollInterval,omitempty"`   // 2025-11-25
}

// registerTasks teaches the go-sdk client the tasks methods, and how to
// augment a 2025-11-25 tools/call.
func registerTasks(c *mcp.Client) error {
	for _, m := range []string{"tasks/get", "tasks/update", "tasks/cancel", "tasks/result"} {
		if err := mcp.AddSendingCustomMethod[*taskParams, *taskResult](c, m); err != nil {
			return err
		}
	}
	c.AddSendingMiddleware(augmentCall)
	return nil
}

// TaskSupport is a listed tool's execution.taskSupport (2025-11-25):
// "required", "optional", "forbidden", or "" when it has none.
func TaskSupport(rawTool json.RawMessage) string {
	s, _ := jsonpeek.String(jsonpeek.Get(jsonpeek.Get(rawTool, "execution"), "taskSupport"))
	return s
}

// createdTask reads a task handle from a tools/call result as sent (top:
// what the wire read of its members): a 2026-07-28 CreateTaskResult
// (resultType "task"), or a 2025-11-25 {"task": {...}}. ok is false for
// any other result: the rest (a 100 MB text result among them) is not
// decoded again to find out.
func createdTask(raw json.RawMessage, top sentResult) (TaskStatus, time.Duration, bool) {
	var r struct {
		ResultType string `json:"resultType"`
		taskResult
		Task *taskResult `json:"task"`
	}
	if raw == nil || top.resultType != "task" && !top.task || jsonpeek.Unmarshal(raw, &r) != nil {
		return TaskStatus{}, 0, false
	}
	switch {
	case r.ResultType == "task" && r.TaskID != "":
		return TaskStatus{TaskID: r.TaskID, Status: r.Status, StatusMessage: r.StatusMessage}, pollInterval(&r.taskResult), true
	case r.ResultType == "" && r.Task != nil && r.Task.TaskID != "":
		return TaskStatus{TaskID: r.Task.TaskID, Status: r.Task.Status, StatusMessage: r.Task.StatusMessage, Legacy: true}, pollInterval(r.Task), true
	}
	return TaskStatus{}, 0, false
}

// DefaultTaskPoll is how often a task is polled when the server does not
// say.
const DefaultTaskPoll = time.Second

func pollInterval(t *taskResult) time.Duration {
	ms := t.PollIntervalMs
	if ms == nil {
		ms = t.PollInterval
	}
	if ms == nil || *ms <= 0 {
		return DefaultTaskPoll
	}
	return min(max(time.Duration(*ms)*time.Millisecond, 50*time.Millisecond), time.Minute)
}

// taskCall follows one task until it ends, and fills out with its result.
type taskCall struct {
	call int // the tool call's number in the session
	s    *Session
	out  *Result
	tool string
	poll time.Duration

	mu   sync.Mutex
	last TaskStatus // the last status reported
}

func (tc *taskCall) report(st TaskStatus) {
	tc.mu.Lock()
	same := st.Status == tc.last.Status && st.StatusMessage == tc.last.StatusMessage
	tc.last = st
	tc.mu.Unlock()
	st.Call = tc.call
	if !same && tc.s.opts.OnTask != nil {
		tc.s.opts.OnTask(st)
	}
}

// runTask follows the task the server created for out's tools/call.
func (s *Session) runTask(ctx context.Context, out *Result, st TaskStatus, poll time.Duration) error {
	tc := &taskCall{call: callOf(ctx), s: s, out: out, tool: out.Target, poll: poll}
	tc.report(st)
	var err error
	if st.Legacy {
		err = tc.runLegacy(ctx, st.TaskID)
	} else {
		err = tc.run(ctx, st.TaskID)
	}
	var (
		failed    *TaskFailedError
		cancelled *TaskCancelledError
	)
	if err == nil || errors.As(err, &failed) || errors.As(err, &cancelled) {
		return err
	}
	// mcpcli stops following the task: the server need not finish it.
	cerr := tc.cancel(st.TaskID)
	if ctx.Err() != nil || errors.Is(err, ErrAbandoned) || errors.As(err, new(*DeclinedError)) {
		// The person gave up: say that the task was cancelled too.
		return &TaskCancelledError{Server: s.server.Display(), Tool: tc.tool, TaskID: st.TaskID, Abandoned: true, CancelErr: cerr, Cause: err}
	}
	return err
}

// cancelWait bounds tasks/cancel once the run is ending. With the
// server's close after it (under a second), it fits in the 3 s a
// stopping run has before mcpcli kills its servers (internal/interrupt's
// stopWait): past it, the run still ends in order, and says the server
// did not answer.
const cancelWait = 1500 * time.Millisecond

func (tc *taskCall) cancel(id string) error {
	ctx, stop := context.WithTimeout(context.Background(), cancelWait)
	defer stop()
	_, err := mcp.CallCustomMethod[*taskParams, *taskResult](ctx, tc.s.cs, "tasks/cancel", &taskParams{TaskID: id})
	return err
}

// get is one tasks/get, under the request timeout; it returns the task,
// its raw bytes and what the wire read of its members.
func (tc *taskCall) get(ctx context.Context, id string) (*taskResult, json.RawMessage, sentResult, error) {
	var res *taskResult
	ex := &exchange{}
	err := tc.s.request(ctx, &inflight{method: "tasks/get", target: id}, func(ctx context.Context) error {
		var err error
		res, err = mcp.CallCustomMethod[*taskParams, *taskResult](withExchange(ctx, ex), tc.s.cs, "tasks/get", &taskParams{TaskID: id})
		return err
	})
	raw, top := ex.read()
	return res, raw, top, err
}

// peek is a tasks/get that leaves the request in flight alone (the
// server's requests meanwhile belong to it), under the request timeout.
func (tc *taskCall) peek(ctx context.Context, id string) (*taskResult, error) {
	if d := tc.s.opts.Timeout; d > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, d)
		defer cancel()
	}
	return mcp.CallCustomMethod[*taskParams, *taskResult](ctx, tc.s.cs, "tasks/get", &taskParams{TaskID: id})
}

// run follows a 2026-07-28 task.
func (tc *taskCall) run(ctx context.Context, id string) error {
	s := tc.s
	answered := map[string]bool{}
	rounds := 0
	for {
		res, raw, sent, err := tc.get(ctx, id)
		if err != nil {
			return err
		}
		tc.report(TaskStatus{TaskID: id, Status: res.Status, StatusMessage: res.StatusMessage})
		poll := pollInterval(res)
		switch res.Status {
		case TaskWorking:
		case TaskInputRequired:
			var fresh []string
			for _, k := range sent.keys {
				if !answered[k] {
					fresh = append(fresh, k)
				}
			}
			if len(fresh) == 0 {
				break // answered already; the server has not moved on yet
			}
			var reqs mcp.InputRequestMap
			if err := jsonpeek.Unmarshal(jsonpeek.Get(raw, "inputRequests"), &reqs); err != nil {
				return &ProtocolError{Server: s.server.Display(), Detail: fmt.Sprintf("sent task %s input requests mcpcli cannot read: %v", id, err)}
			}
			rounds++
			if rounds > s.opts.MaxRounds {
				return &RoundsError{Server: s.server.Display(), Rounds: s.opts.MaxRounds}
			}
			p, err := s.plan(fresh, reqs, sent.requests)
			if err != nil {
				return err
			}
			responses, err := s.answer(ctx, Round{Server: s.server, Call: callOf(ctx), Method: "tools/call", Target: tc.tool, Number: rounds}, p)
			if err != nil {
				return err
			}
			err = s.request(ctx, &inflight{method: "tasks/update", target: id}, func(ctx context.Context) error {
				_, err := mcp.CallCustomMethod[*taskParams, *taskResult](ctx, s.cs, "tasks/update", &taskParams{TaskID: id, InputResponses: responses})
				return err
			})
			if err != nil {
				return err
			}
			for _, k := range fresh {
				answered[k] = true
			}
			continue // look again at once
		case TaskCompleted:
			result := jsonpeek.Get(raw, "result")
			var tr mcp.CallToolResult
			if result == nil || jsonpeek.Unmarshal(result, &tr) != nil {
				return &ProtocolError{Server: s.server.Display(), Detail: fmt.Sprintf("reports task %s completed without a tool result mcpcli can read", id)}
			}
			tc.out.Tool, tc.out.Raw = &tr, result
			return nil
		case TaskFailed:
			e := &TaskFailedError{Server: s.server.Display(), Tool: tc.tool, TaskID: id, StatusMessage: res.StatusMessage}
			var je jsonrpc.Error
			if jsonpeek.Unmarshal(jsonpeek.Get(raw, "error"), &je) == nil && (je.Code != 0 || je.Message != "") {
				e.RPC = &je
			}
			return e
		case TaskCancelled:
			return &TaskCancelledError{Server: s.server.Display(), Tool: tc.tool, TaskID: id}
		default:
			return &ProtocolError{Server: s.server.Display(), Detail: fmt.Sprintf("reports task %s in status %q, which the tasks extension does not have", id, res.Status)}
		}
		if err := sleep(ctx, poll); err != nil {
			return err
		}
	}
}

// runLegacy follows a 2025-11-25 task: tasks/result waits for its end (its
// elicitation and sampling requests arrive meanwhile, answered as any),
// while tasks/get is polled for the status.
func (tc *taskCall) runLegacy(ctx context.Context, id string) error {
	s := tc.s
	pollCtx, stopPolling := context.WithCancel(ctx)
	polled := make(chan struct{})
	go func() {
		defer close(polled)
		for sleep(pollCtx, tc.poll) == nil {
			res, err := tc.peek(pollCtx, id)
			if err != nil {
				return // tasks/result will say what is wrong
			}
			tc.report(TaskStatus{TaskID: id, Status: res.Status, StatusMessage: res.StatusMessage, Legacy: true})
			if p := pollInterval(res); p != tc.poll {
				tc.poll = p
			}
		}
	}()
	// tasks/result may wait as long as the task runs: the request timeout
	// does not apply, but the server's requests are in this call's name.
	fl := &inflight{call: callOf(ctx), method: "tools/call", target: tc.tool, ctx: ctx}
	s.mu.Lock()
	s.current = fl
	s.mu.Unlock()
	ex := &exchange{}
	rctx := transport.WithCancelReason(withExchange(ctx, ex), func() string { return cancelReason(ctx) })
	_, err := mcp.CallCustomMethod[*taskParams, *taskResult](rctx, s.cs, "tasks/result", &taskParams{TaskID: id})
	s.mu.Lock()
	s.current = nil
	abandoned, answerErr := fl.abandoned, fl.answerErr
	s.mu.Unlock()
	stopPolling()
	<-polled
	switch {
	case abandoned:
		return ErrAbandoned
	case answerErr != nil:
		return answerErr
	case err != nil:
		var je *jsonrpc.Error
		if errors.As(err, &je) {
			return &TaskFailedError{Server: s.server.Display(), Tool: tc.tool, TaskID: id, RPC: je}
		}
		return err
	}
	raw := ex.result()
	var tr mcp.CallToolResult
	if raw == nil || jsonpeek.Unmarshal(raw, &tr) != nil {
		return &ProtocolError{Server: s.server.Display(), Detail: fmt.Sprintf("answered tasks/result for task %s with no tool result mcpcli can read", id)}
	}
	tc.mu.Lock()
	last := tc.last.Status
	tc.mu.Unlock()
	if last != TaskCompleted {
		tc.report(TaskStatus{TaskID: id, Status: TaskCompleted, Legacy: true})
	}
	tc.out.Tool, tc.out.Raw = &tr, raw
	return nil
}
