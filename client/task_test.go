package client_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/demoserver"
	"github.com/mcpcli/mcpcli/transport"
)

// demoTasks connects to the demo server, whose build_release runs as a
// task of the 2026-07-28 tasks extension.
func demoTasks(t *testing.T, opts client.Options) (*client.Session, *wire, *statuses) {
	t.Helper()
	d, err := demoserver.New(demoserver.Options{TaskStep: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	st := &statuses{}
	opts.OnTask = st.add
	s, w := connect(t, d.Server(), opts)
	return s, w, st
}

type statuses struct {
	mu   sync.Mutex
	seen []client.TaskStatus
}

func (s *statuses) add(st client.TaskStatus) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seen = append(s.seen, st)
}

func (s *statuses) list() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, st := range s.seen {
		out = append(out, st.Status)
	}
	return out
}

func TestTaskFollowedToTheEnd(t *testing.T) {
	ans := acceptAll(map[string]any{"publish": true, "channel": "beta"})
	s, w, st := demoTasks(t, client.Options{Answerer: ans})
	res, err := s.CallTool(context.Background(), demoserver.TaskTool, map[string]any{"version": "3.0"})
	if err != nil {
		t.Fatalf("CallTool(build_release) = %v", err)
	}
	if got := res.Tool.Content[0].(*mcp.TextContent).Text; got != "Published release 3.0 to the beta channel." {
		t.Errorf("the task's result = %q", got)
	}
	if !strings.Contains(string(res.Raw), "Published release 3.0") {
		t.Errorf("Result.Raw = %s, want the task's result as sent", res.Raw)
	}
	got := st.list()
	if len(got) < 3 || got[0] != "working" || got[len(got)-1] != "completed" || !contains(got, "input_required") {
		t.Errorf("task statuses reported = %v, want working ... input_required ... completed", got)
	}
	if len(ans.rounds) != 1 || ans.rounds[0].Asks[0].Key != "approve" || ans.rounds[0].Target != demoserver.TaskTool {
		t.Fatalf("the answerer saw %+v, want one round asking approve for build_release", ans.rounds)
	}
	updates := w.calls(t, "tasks/update")
	if len(updates) != 1 || !strings.Contains(string(updates[0].Params), `"inputResponses":{"approve":{"action":"accept"`) {
		t.Errorf("tasks/update sent %d times: %v; want once, with the approval", len(updates), updates)
	}
	if len(w.calls(t, "tasks/get")) < 2 {
		t.Errorf("tasks/get was not polled")
	}
	for _, c := range w.calls(t, "tools/call") {
		if strings.Contains(string(c.Params), `"io.modelcontextprotocol/tasks":{}`) == false {
			t.Errorf("tools/call does not declare the tasks extension: %s", c.Params)
		}
	}
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func TestTaskCancelledWhenAbandoned(t *testing.T) {
	ans := &scripted{answer: func(client.Round) (map[string]*mcp.ElicitResult, error) { return nil, client.ErrAbandoned }}
	s, w, _ := demoTasks(t, client.Options{Answerer: ans})
	_, err := s.CallTool(context.Background(), demoserver.TaskTool, nil)
	var tc *client.TaskCancelledError
	if !errors.As(err, &tc) || !tc.Abandoned || tc.CancelErr != nil || !errors.Is(err, client.ErrAbandoned) {
		t.Fatalf("CallTool abandoned at the approval = %v, want an abandoned *TaskCancelledError wrapping ErrAbandoned", err)
	}
	cancels := w.calls(t, "tasks/cancel")
	if len(cancels) != 1 || !strings.Contains(string(cancels[0].Params), tc.TaskID) {
		t.Errorf("tasks/cancel sent %v, want once for task %s", cancels, tc.TaskID)
	}

	// Ctrl+C while the task works.
	ctx, cancel := context.WithCancel(context.Background())
	s2, w2, _ := demoTasks(t, client.Options{OnTask: nil})
	go func() {
		time.Sleep(30 * time.Millisecond)
		cancel()
	}()
	_, err = s2.CallTool(ctx, demoserver.TaskTool, nil)
	if !errors.As(err, &tc) || !tc.Abandoned || !errors.Is(err, context.Canceled) {
		t.Fatalf("CallTool cancelled = %v, want an abandoned *TaskCancelledError wrapping context.Canceled", err)
	}
	if len(w2.calls(t, "tasks/cancel")) != 1 {
		t.Errorf("tasks/cancel was not sent after Ctrl+C")
	}
}

func TestTaskStatusesFromTheServer(t *testing.T) {
	for _, tc := range []struct {
		name, get string
		check     func(error) bool
	}{
		{"failed", `{"resultType":"complete","taskId":"t1","status":"failed","statusMessage":"rate limited","error":{"code":-32603,"message":"API rate limit exceeded"}}`,
			func(err error) bool {
				var f *client.TaskFailedError
				return errors.As(err, &f) && f.RPC != nil && f.RPC.Message == "API rate limit exceeded" &&
					strings.Contains(err.Error(), `task t1 of tool "t" failed (-32603: API rate limit exceeded)`)
			}},
		{"cancelled by the server", `{"resultType":"complete","taskId":"t1","status":"cancelled"}`,
			func(err error) bool {
				var c *client.TaskCancelledError
				return errors.As(err, &c) && !c.Abandoned
			}},
		{"an unknown status", `{"resultType":"complete","taskId":"t1","status":"paused"}`,
			func(err error) bool {
				var p *client.ProtocolError
				return errors.As(err, &p) && strings.Contains(err.Error(), `status "paused"`)
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			srv := rawServer(t, func(m string) string {
				switch m {
				case "tools/call":
					return `{"resultType":"task","taskId":"t1","status":"working","createdAt":"2026-01-01T00:00:00Z","lastUpdatedAt":"2026-01-01T00:00:00Z","ttlMs":null,"pollIntervalMs":10}`
				case "tasks/get":
					return tc.get
				}
				return `{}`
			})
			s, err := client.Connect(ctx, transport.Wrap(srv, "raw"), client.Options{Modes: client.Modes{Form: true}})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			_, err = s.CallTool(ctx, "t", nil)
			if !tc.check(err) {
				t.Errorf("CallTool with tasks/get %s = %v", tc.get, err)
			}
		})
	}
}
