package shell

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/internal/interrupt"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/transport"
)

// watched connects to an in-memory server whose resources can be
// subscribed to; subscribed receives each URI subscribed to.
func watched(t *testing.T) (*client.Session, chan string) {
	t.Helper()
	subscribed := make(chan string, 4)
	srv := mcp.NewServer(&mcp.Implementation{Name: "desk", Version: "1"}, &mcp.ServerOptions{
		SubscribeHandler: func(_ context.Context, r *mcp.SubscribeRequest) error {
			subscribed <- r.Params.URI
			return nil
		},
		UnsubscribeHandler: func(context.Context, *mcp.UnsubscribeRequest) error { return nil },
	})
	srv.AddResource(&mcp.Resource{URI: "desk://clock", Name: "clock"}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "desk://clock", Text: "noon"}}}, nil
	})
	ct, st := mcp.NewInMemoryTransports()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	s, err := client.Connect(ctx, transport.Wrap(ct, "desk"), client.Options{Listen: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, subscribed
}

// Watch says what it watches, subscribes, and waits until its context
// ends: Ctrl+C is its normal end, another signal ends it as any run.
func TestWatch(t *testing.T) {
	for _, tc := range []struct {
		name string
		sig  os.Signal
		ok   bool
	}{
		{"Ctrl+C", os.Interrupt, true},
		{"SIGTERM", syscall.SIGTERM, false},
	} {
		s, subscribed := watched(t)
		var errb bytes.Buffer
		con := render.NewConsole(&errb, render.ConsoleOptions{})
		ctx, cancel := context.WithCancelCause(context.Background())
		done := make(chan error, 1)
		go func() { done <- Watch(ctx, s, con, []string{"desk://clock"}) }()
		select {
		case uri := <-subscribed:
			if uri != "desk://clock" {
				t.Errorf("%s: Watch subscribed to %q, want desk://clock", tc.name, uri)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("%s: Watch did not subscribe in 20 s", tc.name)
		}
		cancel(interrupt.Signal{Sig: tc.sig})
		var err error
		select {
		case err = <-done:
		case <-time.After(20 * time.Second):
			t.Fatalf("%s: Watch did not end in 20 s once its context did", tc.name)
		}
		if (err == nil) != tc.ok || !tc.ok && !errors.Is(err, context.Canceled) {
			t.Errorf("%s: Watch = %v; want nil %v", tc.name, err, tc.ok)
		}
		if want := "mcpcli: watching desk for notifications, and changes to desk://clock; Ctrl+C stops"; !strings.Contains(errb.String(), want) {
			t.Errorf("%s: Watch said %q, want %q", tc.name, errb.String(), want)
		}
	}
}
