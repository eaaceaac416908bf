package client_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/transport"
)

// A server that sends notifications/resources/updated for resources never
// subscribed to: they do not reach OnNotification (the session and watch
// show only what was subscribed to); the server is warned about once. A
// sub-resource of one subscribed to (the spec allows it) is passed on,
// and after Unsubscribe the resource's updates are not.
func TestUpdatesOnlyForWhatWasSubscribedTo(t *testing.T) {
	srv := pipeServer(t, func(sc *bufio.Scanner, w io.Writer) {
		for sc.Scan() {
			var m struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			if json.Unmarshal(sc.Bytes(), &m) != nil || m.ID == nil {
				continue
			}
			switch m.Method {
			case "server/discover":
				fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"Method not found"}}`+"\n", m.ID)
			case "initialize":
				fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{"resources":{"subscribe":true},"tools":{}},"serverInfo":{"name":"chatty","version":"1"}}}`+"\n", m.ID)
			case "tools/call":
				for _, uri := range []string{"demo://a", "demo://a/part", "demo://b", "demo://ab", "demo://c"} {
					fmt.Fprintf(w, `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":%q}}`+"\n", uri)
				}
				fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"sent"}]}}`+"\n", m.ID)
			default:
				fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{}}`+"\n", m.ID)
			}
		}
	})
	var (
		mu    sync.Mutex
		shown []string
		warns []string
	)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	s, err := client.Connect(ctx, transport.Wrap(srv, "chatty"), client.Options{
		Listen: true,
		OnNotification: func(n client.Notification) {
			var p struct {
				URI string `json:"uri"`
			}
			json.Unmarshal(n.Params, &p)
			mu.Lock()
			shown = append(shown, p.URI)
			mu.Unlock()
		},
		Warn: func(msg string) { mu.Lock(); warns = append(warns, msg); mu.Unlock() },
	})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Subscribe(ctx, "demo://a"); err != nil {
		t.Fatal(err)
	}
	// The notifications come before the call's result, on one stream.
	if _, err := s.CallTool(ctx, "fire", nil); err != nil {
		t.Fatal(err)
	}
	if err := s.Unsubscribe(ctx, "demo://a"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CallTool(ctx, "fire", nil); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if got, want := strings.Join(shown, " "), "demo://a demo://a/part"; got != want {
		t.Errorf("updates passed on: %s; want %s", got, want)
	}
	want := `server "chatty" sent notifications/resources/updated for "demo://b", which mcpcli did not subscribe to; such updates are not shown (said once)`
	if len(warns) != 1 || warns[0] != want {
		t.Errorf("warnings %q, want one:\n%s", warns, want)
	}
}
