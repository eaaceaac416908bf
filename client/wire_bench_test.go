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

// BenchmarkReceiveAsk200 is what mcpcli's own code does with a received
// input_required result holding a 200-field ask: the wire's one look at
// the message, the loop's look at the result, and the one parse of the
// ask's schema. The go-sdk's own decoding is not counted.
func BenchmarkReceiveAsk200(b *testing.B) {
	msg := ask200()
	w := newWire()
	ex := &exchange{}
	seven, _ := jsonrpc.MakeID(float64(7))
	var typed mcp.CallToolResult
	if err := json.Unmarshal(peekEnvelope(b, msg), &typed); err != nil {
		b.Fatal(err)
	}
	p := typed.InputRequests["big"].(*mcp.ElicitParams)
	// receive is what the session does with the message: the wire's look,
	// then the loop's look at the result.
	receive := func(b *testing.B) sentResult {
		w.pending[seven] = &sent{method: "tools/call", ex: ex}
		w.observe(transport.Event{Dir: transport.Recv, Msg: msg})
		got := peekResult(ex.result())
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

func peekEnvelope(b *testing.B, msg []byte) []byte {
	e, ok := peek(msg)
	if !ok {
		b.Fatal("not a message")
	}
	return e.result
}
