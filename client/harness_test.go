package client_test

import (
	"context"
	"encoding/json"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/transport"
)

// wire records every JSON-RPC message the client sent or received.
type wire struct {
	mu   sync.Mutex
	msgs []wireMsg
}

type wireMsg struct {
	Dir transport.Direction
	Raw []byte
}

func (w *wire) observe(ev transport.Event) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(ev.Msg) > 0 {
		w.msgs = append(w.msgs, wireMsg{ev.Dir, ev.Msg})
	}
}

// rpc is a decoded JSON-RPC message.
type rpc struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
}

// calls returns the requests the client sent with the given method.
func (w *wire) calls(t *testing.T, method string) []rpc {
	t.Helper()
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []rpc
	for _, m := range w.msgs {
		if m.Dir != transport.Send {
			continue
		}
		var r rpc
		if err := json.Unmarshal(m.Raw, &r); err != nil {
			t.Fatalf("client sent invalid JSON %q: %v", m.Raw, err)
		}
		if r.Method == method {
			out = append(out, r)
		}
	}
	return out
}

// pipes returns a connected pair of transports over io.Pipes, the client's
// side observed by w.
func pipes(w *wire) (clientT transport.Transport, serverT mcp.Transport) {
	cr, sw := io.Pipe() // server writes, client reads
	sr, cw := io.Pipe() // client writes, server reads
	ct := transport.Wrap(&mcp.IOTransport{Reader: cr, Writer: cw}, "test server")
	ct.Observe(w.observe)
	return ct, &mcp.IOTransport{Reader: sr, Writer: sw}
}

// connect serves srv and connects a client session to it.
func connect(t testing.TB, srv *mcp.Server, opts client.Options) (*client.Session, *wire) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	w := &wire{}
	ct, st := pipes(w)
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatalf("server Connect: %v", err)
	}
	t.Cleanup(func() { ss.Close() })
	if opts.Modes == (client.Modes{}) {
		opts.Modes = client.Modes{Form: true, URL: true}
	}
	if opts.Backoff == nil {
		opts.Backoff = func(int) time.Duration { return 0 }
	}
	s, err := client.Connect(ctx, ct, opts)
	if err != nil {
		t.Fatalf("client.Connect: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s, w
}

// scripted is an Answerer that answers from a function and records rounds.
type scripted struct {
	mu     sync.Mutex
	rounds []client.Round
	answer func(r client.Round) (map[string]*mcp.ElicitResult, error)
}

func (s *scripted) Answer(ctx context.Context, r client.Round) (map[string]*mcp.ElicitResult, error) {
	s.mu.Lock()
	s.rounds = append(s.rounds, r)
	s.mu.Unlock()
	return s.answer(r)
}

// acceptAll accepts every ask with the given content.
func acceptAll(content map[string]any) *scripted {
	return &scripted{answer: func(r client.Round) (map[string]*mcp.ElicitResult, error) {
		out := map[string]*mcp.ElicitResult{}
		for _, a := range r.Asks {
			if a.Mode() == "url" {
				out[a.Key] = &mcp.ElicitResult{Action: client.Accept}
			} else {
				out[a.Key] = &mcp.ElicitResult{Action: client.Accept, Content: content}
			}
		}
		return out, nil
	}}
}

func newServer() *mcp.Server {
	return mcp.NewServer(&mcp.Implementation{Name: "loop-test", Version: "0.1"}, nil)
}

var emptyObject = json.RawMessage(`{"type":"object","properties":{}}`)

func elicitForm(msg string) *mcp.ElicitParams {
	return &mcp.ElicitParams{Mode: "form", Message: msg, RequestedSchema: json.RawMessage(`{"type":"object","properties":{"ok":{"type":"boolean"}}}`)}
}
