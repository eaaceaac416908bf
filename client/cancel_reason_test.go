package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
)

// A request given up on tells the server why in words: the cause given
// to the context when there is one, else that the client no longer needs
// the answer; never the go-sdk's "context canceled".
func TestCancelReasonInWords(t *testing.T) {
	for _, tc := range []struct {
		name   string
		cancel func(context.CancelCauseFunc)
		want   string
	}{
		{"no cause", func(c context.CancelCauseFunc) { c(nil) }, "the client no longer needs the answer (the request was cancelled)"},
		{"a cause", func(c context.CancelCauseFunc) { c(errors.New("the user closed the window")) }, "the user closed the window"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := newServer()
			started := make(chan struct{})
			srv.AddTool(&mcp.Tool{Name: "wait", InputSchema: emptyObject}, func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				close(started)
				<-ctx.Done()
				return nil, ctx.Err()
			})
			s, w := connect(t, srv, client.Options{})
			ctx, cancel := context.WithCancelCause(context.Background())
			done := make(chan error, 1)
			go func() { _, err := s.CallTool(ctx, "wait", nil); done <- err }()
			<-started
			tc.cancel(cancel)
			<-done
			var reason string
			for deadline := time.Now().Add(5 * time.Second); reason == "" && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
				for _, m := range w.calls(t, "notifications/cancelled") {
					var p struct{ Reason string }
					_ = json.Unmarshal(m.Params, &p)
					reason = p.Reason
				}
			}
			if reason != tc.want {
				t.Errorf("notifications/cancelled gives the reason %q, want %q", reason, tc.want)
			}
		})
	}
}

// A tasks/cancel the server did not answer in time was still sent: the
// words say so, and name the wait.
func TestAbandonedTaskWhoseCancelWasNotAnswered(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{nil, `task t1 of tool "slow" was abandoned; tasks/cancel was sent`},
		{context.DeadlineExceeded, `task t1 of tool "slow" was abandoned; tasks/cancel was sent, and not answered within 1.5s`},
		{errors.New("connection closed"), `task t1 of tool "slow" was abandoned, and tasks/cancel failed: connection closed`},
	} {
		e := &client.TaskCancelledError{Tool: "slow", TaskID: "t1", Abandoned: true, CancelErr: tc.err}
		if got := e.Error(); got != tc.want {
			t.Errorf("TaskCancelledError{CancelErr: %v}.Error() = %q, want %q", tc.err, got, tc.want)
		}
	}
}
