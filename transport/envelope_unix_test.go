//go:build unix

package transport

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// Over stdio, each message read (each of a batch on its own) and each
// message written is shown decoded; a line that is no message is shown as
// such.
func TestStdioEventsCarryTheirEnvelope(t *testing.T) {
	script := `printf '%s\n' 'a banner' '{"jsonrpc":"2.0","id":1,"result":{"a":1}}' '[{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info"}},{"jsonrpc":"2.0","id":"x","method":"ping"}]'; cat >/dev/null`
	s := &Stdio{Cmd: Command{Argv: []string{"sh", "-c", script}}}
	var (
		mu  sync.Mutex
		evs []Event
	)
	s.Observe(func(ev Event) {
		mu.Lock()
		evs = append(evs, ev)
		mu.Unlock()
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := s.Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for range 3 {
		if _, err := c.Read(ctx); err != nil {
			t.Fatalf("Read: %v", err)
		}
	}
	two, _ := jsonrpc.MakeID(float64(2))
	if err := c.Write(ctx, &jsonrpc.Request{ID: two, Method: "tools/list", Params: []byte(`{}`)}); err != nil {
		t.Fatalf("Write: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	var kinds []MessageKind
	for _, ev := range evs {
		kinds = append(kinds, ev.Env.Kind)
	}
	want := []MessageKind{KindInvalid, KindResult, KindNotification, KindRequest, KindRequest}
	if len(kinds) != len(want) {
		t.Fatalf("events of kinds %v; want %v", kinds, want)
	}
	for i := range want {
		if kinds[i] != want[i] {
			t.Errorf("events of kinds %v; want %v", kinds, want)
			break
		}
	}
	checkEnvelopes(t, evs)
}
