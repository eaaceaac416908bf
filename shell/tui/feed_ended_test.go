package tui

import (
	"context"
	"errors"
	"syscall"
	"testing"

	"github.com/mcpcli/mcpcli/internal/interrupt"
)

// An ask cut off by its connection's end says so; one whose session was
// ending (a signal cancelled its context, and the connection's watcher
// then ended the connection too) says it was cancelled, whichever of the
// two came first: the session's last words count it as a request the
// signal cancelled.
func TestAnAskEndedWithTheSessionIsCancelledNotCutOff(t *testing.T) {
	failed := errors.New("the form could not finish")
	tests := []struct {
		name          string
		sessionEnded  bool // by a signal
		connectionEnd bool
		err           error
		want          error
	}{
		{"connection ended", false, true, failed, errConnectionEnded},
		{"connection ended, the ask answered", false, true, nil, nil},
		{"session ended on a signal, then the connection", true, true, context.Canceled, context.Canceled},
		{"session ended on a signal, connection still up", true, false, context.Canceled, context.Canceled},
		{"the call cancelled as its connection died (no signal)", false, true, context.Canceled, errConnectionEnded},
		{"neither: the ask's own error", false, false, failed, failed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &Feed{}
			f.newConnection()
			session, end := context.WithCancelCause(context.Background())
			defer end(nil)
			ctx, cancel := context.WithCancel(session) // the call's
			defer cancel()
			_, stop, ended := f.whileConnected(ctx)
			defer stop()
			if tt.sessionEnded {
				end(interrupt.Signal{Sig: syscall.SIGHUP})
			}
			if tt.err != nil {
				cancel() // a call on a dead connection is cancelled too
			}
			if tt.connectionEnd {
				f.current().end()
			}
			if got := ended(tt.err); !errors.Is(got, tt.want) || (tt.want == nil) != (got == nil) {
				t.Errorf("ended(%v) = %v, want %v", tt.err, got, tt.want)
			}
		})
	}
}
