package transport

import (
	"errors"
	"strings"
	"testing"
	"unsafe"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// decodeLine reads the envelope itself; it must agree with the go-sdk's
// DecodeMessage on every message the go-sdk reads, and say more where the
// go-sdk says little.
func TestDecodeLineAgreesWithTheGoSDK(t *testing.T) {
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}`,
		`{"jsonrpc":"2.0","id":"a","method":"ping"}`,
		`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}`,
		`{"jsonrpc":"2.0","id":2.0,"result":null}`,
		`{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"no","data":{"x":1}}}`,
		`{"jsonrpc":"2.0","id":4,"result":{},"error":null}`,
		` {"result":{"a":"\u00e9"}, "id":"s", "jsonrpc":"2.0"} `,
		// Keys as the go-sdk reads them (issue 22): spelled exactly, the
		// last of a repeated one counting, a null jsonrpc leaving it be,
		// repeated errors read into one.
		`{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"a","Code":2}}`,
		`{"jsonrpc":"2.0","id":1,"Method":"x","result":{}}`,
		`{"jsonrpc":"2.0","id":1,"method":"x","method":"y"}`,
		`{"jsonrpc":"2.0","jsonrpc":null,"id":1,"result":{}}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"a"},"error":{"code":2}}`,
		`{"jsonrpc":"2.0","id":1,"id":null,"id":"b","result":{}}`,
		`{"jsonrpc":"2.0","id":[],"id":1,"result":{}}`,
	} {
		want, werr := jsonrpc.DecodeMessage([]byte(line))
		got, gerr := decodeLine([]byte(strings.TrimSpace(line)))
		if werr != nil || gerr != nil || len(got) != 1 {
			t.Errorf("decodeLine(%s) = %v, %v; the go-sdk: %v, %v", line, got, gerr, want, werr)
			continue
		}
		wb, _ := jsonrpc.EncodeMessage(want)
		gb, _ := jsonrpc.EncodeMessage(got[0])
		if string(wb) != string(gb) {
			t.Errorf("decodeLine(%s) re-encodes as %s; the go-sdk's as %s", line, gb, wb)
		}
	}
}

// Where the go-sdk refuses a message, so does decodeLine: never a message
// read one way here and refused there.
func TestDecodeLineRefusesWhatTheGoSDKRefuses(t *testing.T) {
	for _, line := range []string{
		`{"jsonrpc":1,"jsonrpc":"2.0","id":1,"result":{}}`,
		`{"jsonrpc":"2.0","id":1,"error":1,"error":{"code":1,"message":"a"}}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":"x","code":1,"message":"a"}}`,
		`{"jsonrpc":"2.0","id":1,"method":1}`,
	} {
		if _, werr := jsonrpc.DecodeMessage([]byte(line)); werr == nil {
			t.Errorf("the go-sdk reads %s", line)
		}
		if got, err := decodeLine([]byte(line)); err == nil {
			t.Errorf("decodeLine(%s) = %v; the go-sdk refuses it", line, got)
		}
	}
}

func TestDecodeLineRefusals(t *testing.T) {
	for _, tc := range []struct {
		line, want string
	}{
		{`{"id":1,"method":"x"}`, `its jsonrpc member is missing, not "2.0"`},
		{`{"jsonrpc":"1.0","id":1,"method":"x"}`, `its jsonrpc member is "1.0", not "2.0"`},
		{`{"jsonrpc":"2.0","id":{"a":1},"method":"x"}`, `its id {"a":1} is neither a number nor a string`},
		{`{"jsonrpc":"2.0","id":1,"method":7}`, `its method 7 is not a string`},
		{`{"jsonrpc":"2.0","result":{}}`, `a response without an id`},
		{`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`, `an error response tied to no request (id null): -32700 Parse error`},
		{`{"jsonrpc":"2.0","id":1,"error":"boom"}`, `its error member is not a JSON-RPC error object`},
		{`[]`, `an empty batch`},
		{`{"jsonrpc":"2.0","id":1,"result":` + strings.Repeat("[", 1001) + strings.Repeat("]", 1001) + `}`, `JSON nested deeper than 1000 levels`},
		{`{"jsonrpc":"2.0","id":1,"result":{}`, `not a JSON object`},
	} {
		_, err := decodeLine([]byte(tc.line))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("decodeLine(%.60s) error = %v; want %q", tc.line, err, tc.want)
		}
	}
}

// A batch decodes to its messages, each a slice of the line, not a copy.
func TestDecodeLineBatchAndNoCopy(t *testing.T) {
	line := []byte(`[{"jsonrpc":"2.0","id":1,"result":{"big":"xxxxxxxx"}},{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info"}}]`)
	msgs, err := decodeLine(line)
	if err != nil || len(msgs) != 2 {
		t.Fatalf("decodeLine(batch) = %v, %v", msgs, err)
	}
	r := msgs[0].(*jsonrpc.Response)
	if &r.Result[0] != &line[strings.Index(string(line), `{"big"`)] {
		t.Errorf("the result was copied out of the line")
	}
}

// An error with id null goes to the one request waiting; with two waiting
// it is skipped, with a warning.
func TestNullIDErrorGoesToTheOneRequestWaiting(t *testing.T) {
	var warned []string
	c := &conn{warn: func(s string) { warned = append(warned, s) }}
	ne := &NullIDError{Code: -32700, Message: "Parse error"}
	one, _ := jsonrpc.MakeID(float64(7))
	c.pending = map[jsonrpc.ID]bool{one: true}
	msgs, err := c.nullID(ne)
	if err != nil || len(msgs) != 1 {
		t.Fatalf("nullID with one waiting = %v, %v", msgs, err)
	}
	r := msgs[0].(*jsonrpc.Response)
	var je *jsonrpc.Error
	if r.ID != one || !errors.As(r.Error, &je) || je.Code != -32700 || !strings.Contains(je.Message, "id null") {
		t.Errorf("nullID with one waiting = %+v; want request 7 to get the error", r)
	}
	two, _ := jsonrpc.MakeID(float64(8))
	c.pending[two] = true
	msgs, err = c.nullID(ne)
	if err != nil || len(msgs) != 0 || len(warned) != 1 || !strings.Contains(warned[0], "skipping it") {
		t.Errorf("nullID with two waiting = %v, %v, warnings %q; want it skipped with a warning", msgs, err, warned)
	}
}

// Decode says what a message is, reads its id and method as the go-sdk
// reads them, and hands its params and result as slices of the message.
func TestDecodeSaysWhatAMessageIs(t *testing.T) {
	for _, tc := range []struct {
		msg    string
		kind   MessageKind
		id     any // as jsonrpc.MakeID takes it; nil for none
		method string
		params string
		result string
		code   int64
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}`, KindRequest, 1.0, "tools/call", `{"name":"x"}`, "", 0},
		{`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info"}}`, KindNotification, nil, "notifications/message", `{"level":"info"}`, "", 0},
		{`{"jsonrpc":"2.0","id":null,"method":"ping"}`, KindNotification, nil, "ping", "", "", 0},
		{`{"jsonrpc":"2.0","id":"a","result":{"tools":[]}}`, KindResult, "a", "", "", `{"tools":[]}`, 0},
		{`{"jsonrpc":"2.0","id":2,"result":null}`, KindResult, 2.0, "", "", "null", 0},
		{`{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"no"}}`, KindError, 3.0, "", "", "", -32601},
		{`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`, KindError, nil, "", "", "", -32700},
		{`{"jsonrpc":"2.0","id":4,"result":{},"error":null}`, KindResult, 4.0, "", "", "{}", 0},
		{`{"jsonrpc":"2.0","id":1,"Method":"x","result":{}}`, KindResult, 1.0, "", "", "{}", 0},
		{`{"jsonrpc":"2.0","result":{}}`, KindInvalid, nil, "", "", "", 0},
		{`{"id":1,"method":"x"}`, KindInvalid, nil, "", "", "", 0},
		{`not json`, KindInvalid, nil, "", "", "", 0},
	} {
		b := []byte(tc.msg)
		e := Decode(b)
		want, _ := jsonrpc.MakeID(tc.id)
		if e.Kind != tc.kind || e.ID != want || e.Method != tc.method || string(e.Params) != tc.params || string(e.Result) != tc.result {
			t.Errorf("Decode(%s) = %+v; want kind %d, id %v, method %q, params %s, result %s", tc.msg, e, tc.kind, tc.id, tc.method, tc.params, tc.result)
		}
		if tc.code != 0 && (e.Error == nil || e.Error.Code != tc.code) {
			t.Errorf("Decode(%s).Error = %v; want code %d", tc.msg, e.Error, tc.code)
		}
		if (e.Kind == KindInvalid) != (e.Err != nil) {
			t.Errorf("Decode(%s) is %d with Err %v; want an Err exactly when invalid", tc.msg, e.Kind, e.Err)
		}
		for name, part := range map[string][]byte{"params": e.Params, "result": e.Result} {
			if len(part) > 0 && !within(part, b) {
				t.Errorf("Decode(%s): its %s was copied out of the message", tc.msg, name)
			}
		}
	}
}

// within reports whether part lies in b's memory.
func within(part, b []byte) bool {
	start, end := uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(unsafe.Pointer(unsafe.SliceData(b)))+uintptr(len(b))
	p := uintptr(unsafe.Pointer(unsafe.SliceData(part)))
	return len(part) > 0 && p >= start && p+uintptr(len(part)) <= end
}

// Every message event a transport shows carries the message decoded, the
// same as decoding its bytes again would give, with its members slices of
// the event's bytes: no observer needs to read them again.
func checkEnvelopes(t *testing.T, evs []Event) {
	t.Helper()
	for _, ev := range evs {
		if len(ev.Msg) == 0 {
			continue
		}
		got, want := ev.Env, Decode(ev.Msg)
		if got.Kind == KindNone {
			t.Errorf("the %s event %s came without its envelope", ev.Dir, ev.Msg)
			continue
		}
		if got.Kind != want.Kind || got.ID != want.ID || got.Method != want.Method || string(got.Params) != string(want.Params) || string(got.Result) != string(want.Result) {
			t.Errorf("the %s event %s carries %+v; decoding it gives %+v", ev.Dir, ev.Msg, got, want)
		}
		for _, part := range [][]byte{got.Params, got.Result} {
			if len(part) > 0 && !within(part, ev.Msg) {
				t.Errorf("the %s event %s: its envelope holds a copy, not a slice of the message", ev.Dir, ev.Msg)
			}
		}
	}
}
