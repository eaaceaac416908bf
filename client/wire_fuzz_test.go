package client

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/mcpcli/mcpcli/transport"
)

// wireState is what the wire keeps, in a form go-cmp compares.
type wireState struct {
	Pending       map[string]string // id → method
	Results       map[string]string // exchange → result kept
	Supported     []string
	Offered       []string
	Capabilities  string
	Discovers     int
	DiscoverOK    bool
	Requests      []string // methods
	Orphans       int
	NotesSeen     int64
	Notifications []string
}

// fuzzPending are the requests waiting when the fuzzed message arrives,
// each sent with an exchange of its own.
var fuzzPending = []struct {
	id     int64
	method string
}{{1, "tools/call"}, {2, "server/discover"}, {3, "initialize"}}

func (w *wire) state(exchanges map[int64]*exchange, notes []string) wireState {
	w.notes.mu.Lock()
	received := w.notes.received
	w.notes.mu.Unlock()
	w.mu.Lock()
	defer w.mu.Unlock()
	s := wireState{Pending: map[string]string{}, Results: map[string]string{},
		Supported: w.supported, Offered: w.offered, Capabilities: string(w.capabilities),
		Discovers: w.discovers, DiscoverOK: w.discoverOK, Orphans: w.orphans,
		NotesSeen: received, Notifications: notes}
	for k, p := range w.pending {
		s.Pending[fmt.Sprint(k.Raw())] = p.method
	}
	for id, ex := range exchanges {
		if raw := ex.result(); raw != nil {
			s.Results[fmt.Sprint(id)] = string(raw)
		}
	}
	for _, r := range w.requests {
		s.Requests = append(s.Requests, r.method)
	}
	return s
}

// FuzzObserve: the wire looks at any bytes received without panicking,
// and keeps only what the go-sdk's own reading of them warrants: a
// response to a pending request (the go-sdk's jsonrpc.DecodeMessage says
// which) ends that request and hands over its result; a server request or
// notification is kept as one; an error response without an id is
// counted; anything else leaves the wire as it was. (For bytes that are
// not one JSON value, only that it does not panic.) The seeds are in
// testdata/fuzz/FuzzObserve.
func FuzzObserve(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		w := newWire()
		var notes []string
		w.onNote = func(n Notification) { notes = append(notes, n.Method) }
		exchanges := map[int64]*exchange{}
		for _, p := range fuzzPending {
			ex := &exchange{}
			exchanges[p.id] = ex
			msg := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":{}}`, p.id, p.method)
			w.observe(transport.Event{Dir: transport.Send, Msg: []byte(msg), Ctx: withExchange(context.Background(), ex)})
		}
		before := w.state(exchanges, nil)
		w.observe(transport.Event{Dir: transport.Recv, Msg: data})
		after := w.state(exchanges, notes)
		if !json.Valid(data) {
			// Not one JSON value: the go-sdk's transports refuse it (its
			// DecodeMessage alone ignores data after the object), or, for
			// a value only jsonpeek reads, fail the request when its
			// result is decoded. The wire need not agree; it must not panic.
			return
		}

		// What may change, by the go-sdk's reading of the bytes.
		want := before
		want.Pending = maps.Clone(before.Pending)
		want.Results = maps.Clone(before.Results)
		msg, err := jsonrpc.DecodeMessage(data)
		switch m := msg.(type) {
		case *jsonrpc.Response:
			if err != nil {
				break
			}
			var answered *int64
			for _, p := range fuzzPending {
				if id, _ := jsonrpc.MakeID(float64(p.id)); m.ID == id {
					answered = &p.id
				}
			}
			if answered == nil {
				break
			}
			id := *answered
			delete(want.Pending, fmt.Sprint(id))
			if m.Error == nil && m.Result != nil {
				want.Results[fmt.Sprint(id)] = string(m.Result)
			}
			if id == 2 {
				want.Discovers++
				want.DiscoverOK = m.Error == nil
			}
			// What the result or error says is the wire's to read.
			want.Supported, want.Capabilities = after.Supported, after.Capabilities
			if m.Error != nil {
				want.Offered = after.Offered
			}
		case *jsonrpc.Request:
			if err != nil {
				break
			}
			if m.ID.IsValid() {
				if slices.Contains([]string{"elicitation/create", "sampling/createMessage", "roots/list"}, m.Method) {
					want.Requests = append(slices.Clone(want.Requests), m.Method)
				}
				break
			}
			if m.Method == "notifications/message" || m.Method == "notifications/progress" {
				want.NotesSeen++
			}
			if m.Method != "" {
				want.Notifications = []string{m.Method}
			}
		}
		if err != nil && orphanError(data) {
			want.Orphans = after.Orphans // an error response tied to no request
		}
		if diff := cmp.Diff(want, after); diff != "" {
			t.Fatalf("observe(%q) keeps what the go-sdk's reading (%T, %v) does not warrant (-want +got):\n%s", data, msg, err, diff)
		}
	})
}

// orphanError reports whether data is an error response without an id,
// read as encoding/json reads it.
func orphanError(data []byte) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(data, &m) != nil || m == nil {
		return false
	}
	_, method := m["method"]
	id, hasID := m["id"]
	e, hasErr := m["error"]
	return !method && hasErr && !bytes.Equal(e, []byte("null")) && (!hasID || bytes.Equal(id, []byte("null")))
}
