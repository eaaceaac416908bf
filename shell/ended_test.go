package shell

import (
	"context"
	"errors"
	"fmt"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/internal/interrupt"
	"github.com/mcpcli/mcpcli/request"
	"github.com/mcpcli/mcpcli/transport"
)

// Each way a person ends a run or abandons a request is worded, with the
// signal that ended it (whose exit code the run takes), or none (the run
// ends 130).
func TestEnded(t *testing.T) {
	sig := interrupt.Signal{Sig: os.Interrupt}
	signalled, cancel := context.WithCancelCause(context.Background())
	cancel(sig)
	plain, cancelPlain := context.WithCancel(context.Background())
	cancelPlain()
	declined := &client.DeclinedError{Server: "demo", Key: "s1"}
	task := &client.TaskCancelledError{Server: "demo", Tool: "slow", TaskID: "t1", Abandoned: true, Cause: context.Canceled}
	for _, c := range []struct {
		name string
		ctx  context.Context
		err  error
		msg  string
		sig  bool
		ok   bool
	}{
		{"stopped shell", signalled, &Stopped{Sig: sig, Cut: 1}, (&Stopped{Sig: sig, Cut: 1}).Error(), true, true},
		{"signal before sending", signalled, fmt.Errorf("asking: %w", sig), "stopped on " + sig.Name() + " before anything was sent", true, true},
		{"declined in a task", context.Background(), &client.TaskCancelledError{TaskID: "t1", Tool: "slow", Abandoned: true, Cause: declined},
			`you declined the sampling request "s1" of demo, so mcpcli cancelled the task it came from: task t1 of tool "slow" was abandoned; tasks/cancel was sent`, false, true},
		{"task cancelled on a signal", signalled, task, `cancelled; task t1 of tool "slow" was abandoned; tasks/cancel was sent`, true, true},
		{"task cancelled", context.Background(), task, `cancelled; task t1 of tool "slow" was abandoned; tasks/cancel was sent`, false, true},
		{"declined", context.Background(), declined, `you declined the sampling request "s1" of demo; by the spec that ends the request (it is not sent again)`, false, true},
		{"abandoned on a signal", signalled, context.Canceled, "cancelled on " + sig.Name() + "; the request was abandoned", true, true},
		{"abandoned", context.Background(), client.ErrAbandoned, "cancelled; the request was abandoned", false, true},
		{"cancelled run", plain, context.Canceled, "cancelled; the request was abandoned", false, true},
		{"cancelled, run going on", context.Background(), context.Canceled, "", false, false},
		{"task cancelled by the server", context.Background(), &client.TaskCancelledError{Server: "demo", Tool: "slow", TaskID: "t1"}, "", false, false},
		{"other", context.Background(), errors.New("boom"), "", false, false},
	} {
		msg, gotSig, ok := Words{}.Ended(c.ctx, c.err)
		if msg != c.msg || (gotSig != nil) != c.sig || ok != c.ok {
			t.Errorf("%s: Ended(%v) = %q, %v, %v; want %q, signal %v, %v", c.name, c.err, msg, gotSig, ok, c.msg, c.sig, c.ok)
		}
		if gotSig != nil && *gotSig != sig {
			t.Errorf("%s: Ended(%v) gave signal %v, want %v", c.name, c.err, *gotSig, sig)
		}
	}
}

// A stdio server's last stderr lines follow the error's, each made safe
// to show.
func TestServerStderr(t *testing.T) {
	err := fmt.Errorf("connect: %w", &transport.ExitError{Cmd: "./srv", Stderr: []string{"panic: boom", "\x1b[31mred"}})
	want := []string{"  last 2 lines of the server's stderr:", "  | panic: boom", "  | red"}
	if diff := cmp.Diff(want, Words{}.ServerStderr(err)); diff != "" {
		t.Errorf("ServerStderr (-want +got):\n%s", diff)
	}
	if got := (Words{}).ServerStderr(errors.New("boom")); got != nil {
		t.Errorf("ServerStderr(no stderr kept) = %q, want none", got)
	}
}

// Asking the person cut short by a signal stopped the run before anything
// was sent; any other error is kept as it is.
func TestBeforeSending(t *testing.T) {
	sig := interrupt.Signal{Sig: os.Interrupt}
	signalled, cancel := context.WithCancelCause(context.Background())
	cancel(sig)
	asked := &request.AskError{Err: context.Canceled}
	if got := BeforeSending(signalled, asked); got != error(sig) {
		t.Errorf("BeforeSending(signalled, ask cut short) = %v, want the signal", got)
	}
	if got := BeforeSending(context.Background(), asked); got != error(asked) {
		t.Errorf("BeforeSending(running, ask failed) = %v, want it kept", got)
	}
	other := errors.New("boom")
	if got := BeforeSending(signalled, other); got != other {
		t.Errorf("BeforeSending(signalled, other) = %v, want it kept", got)
	}
}
