package transport

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Over HTTP, each message sent and each message read (a JSON body, each
// event of a stream) is shown decoded.
func TestHTTPEventsCarryTheirEnvelope(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		m := Decode(body)
		if m.Kind != KindRequest {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		id, _ := m.ID.Raw().(int64)
		switch m.Method {
		case "tools/list":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%d,"result":{"tools":[]}}`, id)
		default:
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"x\"}}\n\n")
			fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":%d,\"result\":{\"content\":[]}}\n\n", id)
		}
	}))
	defer srv.Close()
	h := &HTTP{URL: srv.URL}
	var (
		mu  sync.Mutex
		evs []Event
	)
	h.Observe(func(ev Event) {
		mu.Lock()
		evs = append(evs, ev)
		mu.Unlock()
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := h.Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for i, method := range []string{"tools/list", "tools/call"} {
		id, _ := jsonrpc.MakeID(float64(i + 1))
		if err := c.Write(ctx, &jsonrpc.Request{ID: id, Method: method, Params: []byte(`{}`)}); err != nil {
			t.Fatalf("Write(%s): %v", method, err)
		}
	}
	for range 3 {
		if _, err := c.Read(ctx); err != nil {
			t.Fatalf("Read: %v", err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	var got []string
	for _, ev := range evs {
		if len(ev.Msg) > 0 {
			got = append(got, fmt.Sprintf("%s %d", ev.Dir, ev.Env.Kind))
		}
	}
	slices.Sort(got) // the two requests go at once
	want := fmt.Sprintf("%s %d,%s %d,%s %d,%s %d,%s %d", Recv, KindNotification, Recv, KindResult, Recv, KindResult, Send, KindRequest, Send, KindRequest)
	if strings.Join(got, ",") != want {
		t.Errorf("message events %v; want %s", got, want)
	}
	checkEnvelopes(t, evs)
}

// A wrapped in-process transport shows each message decoded too.
func TestWrappedEventsCarryTheirEnvelope(t *testing.T) {
	ct, st := mcp.NewInMemoryTransports()
	w := Wrap(ct, "in-memory")
	var (
		mu  sync.Mutex
		evs []Event
	)
	w.Observe(func(ev Event) {
		mu.Lock()
		evs = append(evs, ev)
		mu.Unlock()
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	server, err := st.Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	c, err := w.Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	id, _ := jsonrpc.MakeID(float64(1))
	if err := c.Write(ctx, &jsonrpc.Request{ID: id, Method: "ping"}); err != nil {
		t.Fatal(err)
	}
	if _, err := server.Read(ctx); err != nil {
		t.Fatal(err)
	}
	if err := server.Write(ctx, &jsonrpc.Response{ID: id, Result: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Read(ctx); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(evs) != 2 || evs[0].Env.Kind != KindRequest || evs[1].Env.Kind != KindResult {
		t.Errorf("events %+v; want the request and its result, decoded", evs)
	}
	checkEnvelopes(t, evs)
}
