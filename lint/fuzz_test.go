package lint_test

import (
	"testing"

	"github.com/mcpcli/mcpcli/lint"
	"github.com/mcpcli/mcpcli/transport"
)

// Whatever a server answers, lint reads it without failing, and every
// finding names a rule it has.
func FuzzObserve(f *testing.F) {
	for _, p := range plants {
		if p.result != "" {
			f.Add(p.result)
		}
	}
	f.Add(`{"resultType":"input_required","inputRequests":{"k":{"method":"elicitation/create","params":{"mode":"url","url":"https://u:p@x.com/?token=1&e=a@b.co"}}}}`)
	f.Add(`{"resultType":"input_required","inputRequests":[]}`)
	known := map[string]bool{}
	for _, r := range lint.Rules {
		known[r.ID] = true
	}
	f.Fuzz(func(t *testing.T, result string) {
		l := lint.New(lint.Options{})
		l.Observe(transport.Event{Dir: transport.Send, Msg: []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}}}}`)})
		l.Observe(transport.Event{Dir: transport.Recv, Msg: []byte(`{"jsonrpc":"2.0","id":1,"result":` + result + `}`)})
		l.Observe(transport.Event{Dir: transport.Recv, Msg: []byte(`{"jsonrpc":"2.0","id":"s","method":"elicitation/create","params":` + result + `}`)})
		for _, fd := range l.Findings() {
			if !known[fd.Rule] || fd.Spec == "" {
				t.Fatalf("finding %+v names no rule", fd)
			}
		}
	})
}

// Lint reads each message as the transport decoded it (as the go-sdk
// reads it), not its bytes again: a response the event's envelope ties to
// request 1 is read as its answer.
func TestObserveReadsTheTransportsDecode(t *testing.T) {
	l := lint.New(lint.Options{})
	call := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`)
	l.Observe(transport.Event{Dir: transport.Send, Msg: call, Env: transport.Decode(call)})
	answer := []byte(`{"jsonrpc":"2.0","id":2,"result":{"resultType":"input_required"}}`)
	env := transport.Decode(answer)
	env.ID = transport.Decode(call).ID // what only the event's envelope says
	l.Observe(transport.Event{Dir: transport.Recv, Msg: answer, Env: env})
	if f := l.Findings(); len(f) != 1 || f[0].Rule != lint.EmptyInputRequired {
		t.Errorf("findings %+v; want the one of an input_required answering request 1, read from the event's envelope", f)
	}
}
