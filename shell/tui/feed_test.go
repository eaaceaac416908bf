package tui

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpcli/mcpcli/transport"
)

// holds counts the console's holds, as render.Console.Hold would.
type holds struct {
	mu   sync.Mutex
	held int
}

func (h *holds) hold() func() {
	h.mu.Lock()
	h.held++
	h.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			h.mu.Lock()
			h.held--
			h.mu.Unlock()
		})
	}
}

func (h *holds) n() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.held
}

func TestFeedShare(t *testing.T) {
	ctx := context.Background()

	t.Run("before the program is up, at once", func(t *testing.T) {
		f := NewFeed(nil)
		ran := false
		if err := f.Share(ctx, func() { ran = true }); err != nil || !ran {
			t.Errorf("Share before start = %v, ran %v; want it run at once", err, ran)
		}
	})

	t.Run("lent: the console's writes go out meanwhile", func(t *testing.T) {
		f := NewFeed(nil)
		h := &holds{}
		f.HoldConsole(h.hold)
		f.started.Store(true)
		heldDuring := -1
		done := make(chan error)
		go func() { done <- f.Share(ctx, func() { heldDuring = h.n() }) }()
		// The program's part: take the batch, run the share as tea.Exec would.
		batch := f.next()().(batchMsg)
		if len(batch.events) != 1 {
			t.Fatalf("the feed holds %d events, want the share", len(batch.events))
		}
		s := batch.events[0].(*share)
		if err := (execShare{s}).Run(); err != nil {
			t.Fatal(err)
		}
		s.handedBack()
		if err := <-done; err != nil {
			t.Fatalf("Share = %v", err)
		}
		if heldDuring != 0 {
			t.Errorf("the console was held %d times while the terminal was lent, want 0", heldDuring)
		}
		if h.n() != 1 {
			t.Errorf("after the share the console is held %d times, want 1", h.n())
		}
		f.Close()
		if h.n() != 0 {
			t.Errorf("after Close the console is held %d times, want 0", h.n())
		}
	})

	t.Run("given up while waiting its turn", func(t *testing.T) {
		f := NewFeed(nil)
		f.started.Store(true)
		cctx, cancel := context.WithCancel(ctx)
		done := make(chan error)
		ran := false
		go func() { done <- f.Share(cctx, func() { ran = true }) }()
		time.Sleep(10 * time.Millisecond)
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("Share = %v, want context.Canceled", err)
		}
		s := f.next()().(batchMsg).events[0].(*share)
		execShare{s}.Run()
		if ran {
			t.Error("a share given up ran when its turn came")
		}
	})

	t.Run("after the session, refused", func(t *testing.T) {
		f := NewFeed(nil)
		f.started.Store(true)
		f.Close()
		if err := f.Share(ctx, func() { t.Error("ran after Close") }); !errors.Is(err, errClosing) {
			t.Errorf("Share after Close = %v, want errClosing", err)
		}
	})
}

// A flood of events while the program is busy (a form up) is bounded and
// counted, newest kept.
func TestFeedBounded(t *testing.T) {
	f := NewFeed(nil)
	for i := 0; i < maxQueued+500; i++ {
		f.Warn("w")
	}
	b := f.next()().(batchMsg)
	if len(b.events) != maxQueued || b.dropped != 500 {
		t.Errorf("batch of %d events, %d dropped; want %d and 500", len(b.events), b.dropped, maxQueued)
	}
}

// A wire line for a reply names the request it answers, whichever side
// sent that request: both sides number their own requests, so a server's
// request 1 and mcpcli's request 1 are not confused.
func TestWireSummaryNamesWhatAReplyAnswers(t *testing.T) {
	a := newActivity()
	ev := func(dir transport.Direction, msg string) string {
		return a.summary(transport.Event{Dir: dir, Msg: []byte(msg)})
	}
	ev(transport.Send, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}`)
	ev(transport.Recv, `{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{}}`)
	for _, tc := range []struct {
		dir       transport.Direction
		msg, want string
	}{
		{transport.Send, `{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"the user abandoned the request"}}`, "error -32603 the user abandoned the request (elicitation/create)"},
		{transport.Recv, `{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`, "result of tools/call"},
		{transport.Recv, `{"jsonrpc":"2.0","id":9,"error":{"code":-1,"message":"x"}}`, "error -1 x ·"},
	} {
		if got := ev(tc.dir, tc.msg); !strings.Contains(got, tc.want) {
			t.Errorf("summary(%s %s) = %q, want it to contain %q", tc.dir, tc.msg, got, tc.want)
		}
	}
}

// A wire line is made from the message as the transport decoded it, not
// from its bytes read again.
func TestWireSummaryReadsTheTransportsDecode(t *testing.T) {
	msg := []byte(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"t"}}`)
	env := transport.Decode(msg)
	env.Method = "prompts/get" // what only the event's envelope says
	got := newActivity().summary(transport.Event{Dir: transport.Send, Msg: msg, Env: env})
	if !strings.Contains(got, "#3 prompts/get t") {
		t.Errorf("summary = %q; want it made from the event's envelope (#3 prompts/get t)", got)
	}
}
