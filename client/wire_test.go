package client

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/mcpcli/mcpcli/transport"
)

// The wire reads a message as the go-sdk does: the request a response
// answers is the one the go-sdk hands it to, and what the go-sdk refuses
// answers nothing.
func TestWireReadsAResponseAsTheGoSDKDoes(t *testing.T) {
	for _, tc := range []struct {
		name, msg string
		answered  bool   // request 1 is no longer pending
		result    string // what its exchange holds
	}{
		{"plain", `{"jsonrpc":"2.0","id":1,"result":{"x":1}}`, true, `{"x":1}`},
		{"an id written 1.0 is 1", `{"jsonrpc":"2.0","id":1.0,"result":{"x":1}}`, true, `{"x":1}`},
		{"a null error is none", `{"jsonrpc":"2.0","id":1,"result":{"x":1},"error":null}`, true, `{"x":1}`},
		{"an error", `{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"no"}}`, true, ""},
		{"the string \"1\" is another id", `{"jsonrpc":"2.0","id":"1","result":{}}`, false, ""},
		{"not JSON-RPC 2.0", `{"id":1,"result":{}}`, false, ""},
		{"the last id counts", `{"jsonrpc":"2.0","id":1,"id":null,"error":{"code":1,"message":"x"}}`, false, ""},
		{"a method makes it a request", `{"jsonrpc":"2.0","id":1,"method":null,"result":{}}`, false, ""},
		{"an id that is an object", `{"jsonrpc":"2.0","id":{"n":1},"result":{}}`, false, ""},
		{"an error whose code is no number", `{"jsonrpc":"2.0","id":1,"error":{"code":{},"message":"x"}}`, false, ""},
		{"an error that is no object", `{"jsonrpc":"2.0","id":1,"error":"boom"}`, false, ""},
		// Keys as the go-sdk reads them (issue 22).
		{"Result is not result", `{"jsonrpc":"2.0","id":1,"result":{"x":1},"Result":{"x":2}}`, true, `{"x":1}`},
		{"the last result counts", `{"jsonrpc":"2.0","id":1,"result":{"x":1},"result":{"x":2}}`, true, `{"x":2}`},
		{"a null jsonrpc leaves it be", `{"jsonrpc":"2.0","jsonrpc":null,"id":1,"result":{}}`, true, `{}`},
		{"a first jsonrpc that is no string", `{"jsonrpc":1,"jsonrpc":"2.0","id":1,"result":{}}`, false, ""},
	} {
		w := newWire()
		ex := &exchange{}
		w.observe(transport.Event{Dir: transport.Send, Msg: []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{}}`), Ctx: withExchange(context.Background(), ex)})
		w.observe(transport.Event{Dir: transport.Recv, Msg: []byte(tc.msg)})
		if got := !w.unanswered(); got != tc.answered {
			t.Errorf("%s: after %s, request 1 answered = %v; want %v", tc.name, tc.msg, got, tc.answered)
		}
		if got := string(ex.result()); got != tc.result {
			t.Errorf("%s: after %s, the result kept is %q; want %q", tc.name, tc.msg, got, tc.result)
		}
	}
}

// A -32022 error answering no request of this session's says nothing about
// the versions the server speaks to mcpcli: it is not kept (kept, it made
// every later failure read as a version mismatch).
func TestWireKeepsVersionsOnlyFromItsOwnRequests(t *testing.T) {
	unsupported := func(id string) transport.Event {
		return transport.Event{Dir: transport.Recv, Msg: []byte(`{"jsonrpc":"2.0","id":` + id + `,"error":{"code":-32022,"message":"v","data":{"supported":["1999-01-01"]}}}`)}
	}
	w := newWire()
	w.observe(transport.Event{Dir: transport.Send, Msg: []byte(`{"jsonrpc":"2.0","id":1,"method":"server/discover"}`)})
	w.observe(unsupported("9"))
	if _, offered := w.versions(); len(offered) != 0 {
		t.Errorf("after a -32022 for id 9, never sent, offered = %q; want none", offered)
	}
	w.observe(unsupported("1"))
	if _, offered := w.versions(); len(offered) != 1 || offered[0] != "1999-01-01" {
		t.Errorf("after a -32022 for id 1, offered = %q; want [1999-01-01]", offered)
	}
	// Read as the go-sdk reads the error: its code is -32022, whatever
	// "Code" says.
	w = newWire()
	w.observe(transport.Event{Dir: transport.Send, Msg: []byte(`{"jsonrpc":"2.0","id":1,"method":"server/discover"}`)})
	w.observe(transport.Event{Dir: transport.Recv, Msg: []byte(`{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"Code":7,"message":"v","data":{"supported":["1999-01-01"],"Supported":["x"]}}}`)})
	if _, offered := w.versions(); len(offered) != 1 || offered[0] != "1999-01-01" {
		t.Errorf("after a -32022 with a Code of 7, offered = %q; want [1999-01-01]", offered)
	}
}

// The wire keeps a discover result's supportedVersions as the go-sdk
// decodes them, whether read by hand (plain strings) or not (anything
// else goes to the decoder).
func TestWireKeepsSupportedVersionsAsTheGoSDKReadsThem(t *testing.T) {
	for _, tc := range []struct {
		name, result string
		want         []string
	}{
		{"plain", `{"supportedVersions":["2026-07-28","2025-11-25"],"capabilities":{}}`, []string{"2026-07-28", "2025-11-25"}},
		{"none listed", `{"capabilities":{}}`, nil},
		{"null", `{"supportedVersions":null}`, nil},
		{"an escape, decoded", `{"supportedVersions":["\u0032026-07-28"]}`, []string{"2026-07-28"}},
		{"the last of a repeated key", `{"supportedVersions":["1999-01-01"],"supportedVersions":["2026-07-28"]}`, []string{"2026-07-28"}},
		{"not a list of strings", `{"supportedVersions":["2026-07-28",7]}`, nil},
		{"a first one that does not decode", `{"supportedVersions":7,"supportedVersions":["2026-07-28"]}`, nil},
		{"another key", `{"SupportedVersions":["2026-07-28"]}`, nil},
	} {
		w := newWire()
		w.observe(transport.Event{Dir: transport.Send, Msg: []byte(`{"jsonrpc":"2.0","id":1,"method":"server/discover"}`)})
		w.observe(transport.Event{Dir: transport.Recv, Msg: []byte(`{"jsonrpc":"2.0","id":1,"result":` + tc.result + `}`)})
		if got, _ := w.versions(); !slices.Equal(got, tc.want) {
			t.Errorf("%s: after the result %s, supported = %q; want %q", tc.name, tc.result, got, tc.want)
		}
	}
}

// drain waits for a signal that every log and progress notification
// received has been handled: it returns once the last is, however long
// its bound; at once when none is waiting; and at its bound when one is
// never handled.
func TestDrainWaitsForTheLastNotificationHandled(t *testing.T) {
	var n notes
	n.wait(time.Hour) // none received: at once
	n.seen()
	n.seen()
	n.shown()
	done := make(chan struct{})
	go func() { n.wait(time.Hour); close(done) }()
	n.shown()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("wait did not return when the last notification received was handled")
	}
	n.seen() // a new one: waited for again
	done = make(chan struct{})
	go func() { n.wait(time.Hour); close(done) }()
	n.shown()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("wait did not return when a later notification was handled")
	}
	n.seen()
	n.wait(time.Millisecond) // never handled: the bound ends it
}

// The wire reads each message as the transport decoded it, once: not its
// bytes again. The result's members are read once too, as it arrives, and
// the loop reads them from the exchange.
func TestWireReadsTheTransportsDecode(t *testing.T) {
	w := newWire()
	ex := &exchange{}
	sent := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{}}`)
	w.observe(transport.Event{Dir: transport.Send, Msg: sent, Env: transport.Decode(sent), Ctx: withExchange(context.Background(), ex)})
	got := []byte(`{"jsonrpc":"2.0","id":2,"result":{"resultType":"input_required","inputRequests":{"a":{"method":"roots/list"}}}}`)
	env := transport.Decode(got)
	env.ID = transport.Decode(sent).ID // what only the event's envelope says: it answers 1
	w.observe(transport.Event{Dir: transport.Recv, Msg: got, Env: env})
	if w.unanswered() {
		t.Fatalf("the wire read the bytes again (id 2), not the event's envelope (id 1)")
	}
	raw, top := ex.read()
	if string(raw) != string(env.Result) || top.resultType != "input_required" || len(top.keys) != 1 || top.keys[0] != "a" {
		t.Errorf("the exchange holds %s, read as %+v; want the result and its members read", raw, top)
	}
}
