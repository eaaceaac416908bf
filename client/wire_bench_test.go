package client

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/transport"
)

// ask200 is an input_required result whose one ask has 200 fields.
func ask200() []byte {
	var props []string
	for i := 0; i < 200; i++ {
		props = append(props, fmt.Sprintf(`"field_%03d":{"type":"string","title":"Field %d","description":"The %dth thing the server wants to know.","maxLength":80}`, i, i, i))
	}
	schema := `{"type":"object","properties":{` + strings.Join(props, ",") + `},"required":["field_000"]}`
	return []byte(`{"jsonrpc":"2.0","id":7,"result":{"resultType":"input_required","requestState":"s1","inputRequests":{"big":{"method":"elicitation/create","params":{"mode":"form","message":"Fill it all in.","requestedSchema":` + schema + `}}}}}`)
}

// plain is a final tools/call result of some 16 KB of text.
func plain() []byte {
	text := strings.Repeat("All work and no play makes a dull server. ", 400)
	return []byte(`{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"` + text + `"}],"isError":false}}`)
}

// received is what mcpcli's own code reads of a response to its
// tools/call, from the bytes the transport read to what the loop needs:
// the transport's decode (as over stdio, into the event), the wire's look,
// and the loop's looks at the result (final: whether it is a task, as
// CallTool does). The go-sdk's own decoding of the result is not counted.
func received(b *testing.B, w *wire, ex *exchange, msg []byte, final bool) sentResult {
	seven, _ := jsonrpc.MakeID(float64(7))
	w.pending[seven] = &sent{method: "tools/call", ex: ex}
	env := transport.Decode(msg)
	if _, err := env.Message(); err != nil {
		b.Fatal(err)
	}
	w.observe(transport.Event{Dir: transport.Recv, Msg: msg, Env: env})
	raw, got := ex.read()
	if final {
		if _, _, ok := createdTask(raw, got); ok || got.resultType == "task" {
			b.Fatal("a task")
		}
	}
	return got
}

// BenchmarkReceiveAsk200 is what mcpcli's own code does with a received
// input_required result holding a 200-field ask (see received), and then
// the one parse of the ask's schema.
func BenchmarkReceiveAsk200(b *testing.B) {
	msg := ask200()
	w := newWire()
	ex := &exchange{}
	var typed mcp.CallToolResult
	m, _ := jsonrpc.DecodeMessage(msg)
	if err := json.Unmarshal(m.(*jsonrpc.Response).Result, &typed); err != nil {
		b.Fatal(err)
	}
	p := typed.InputRequests["big"].(*mcp.ElicitParams)
	receive := func(b *testing.B) sentResult {
		got := received(b, w, ex, msg, false)
		if got.resultType != "input_required" || len(schemaOf(got.requests["big"])) == 0 {
			b.Fatal("the result was not read")
		}
		return got
	}
	// decode is the looking alone: what the message is, whose result, its
	// resultType, its asks in order and each one's schema bytes.
	b.Run("decode", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(msg)))
		for b.Loop() {
			receive(b)
		}
	})
	// ask adds the one parse of the ask's schema into a form.
	b.Run("ask", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(msg)))
		for b.Loop() {
			got := receive(b)
			if a := NewAsk("big", p, schemaOf(got.requests["big"])); a.Form == nil || len(a.Form.Fields) != 200 {
				b.Fatalf("the ask has %v fields", a.Form)
			}
		}
	})
}

// BenchmarkReceivePlain is what mcpcli's own code does with a plain final
// result (see received).
func BenchmarkReceivePlain(b *testing.B) {
	msg := plain()
	w := newWire()
	ex := &exchange{}
	b.ReportAllocs()
	b.SetBytes(int64(len(msg)))
	for b.Loop() {
		if got := received(b, w, ex, msg, true); got.resultType != "" || len(ex.result()) == 0 {
			b.Fatal("the result was not read")
		}
	}
}
