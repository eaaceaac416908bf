package transport

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

func TestSSEIDFilterDropsOnlyTheIDField(t *testing.T) {
	in := "id: 1\r\nretry: 500\r\nevent: message\r\ndata: {\"id\":1}\r\n\r\n" +
		": comment\nid\ndata: {\"x\":\"id: 2\"}\n\n" +
		"idle: not the id field\ndata: last\n\nid: 3"
	want := "retry: 500\r\nevent: message\r\ndata: {\"id\":1}\r\n\r\n" +
		": comment\ndata: {\"x\":\"id: 2\"}\n\n" +
		"idle: not the id field\ndata: last\n\n"
	// One byte at a time: lines split across reads.
	f := &sseIDFilter{rc: io.NopCloser(iotest.OneByteReader(strings.NewReader(in)))}
	got, err := io.ReadAll(f)
	if err != nil {
		t.Fatalf("ReadAll: %v", err)
	}
	if string(got) != want {
		t.Errorf("filtered stream:\n%q\nwant\n%q", got, want)
	}
}

// "id" then carriage returns is the id field (the go-sdk trims them all),
// however the stream is cut: deciding after four bytes passed "id\r\r\n"
// when it arrived in two reads, and dropped it when it came in one.
func TestSSEIDFilterDecidesTheSameWhereverTheStreamIsCut(t *testing.T) {
	in := "data: a\nid\r\r\r\ndata: b\nid\r\rx: 1\nid\r:2\n\nid\r\r"
	want := "data: a\ndata: b\nid\r\rx: 1\nid\r:2\n\n"
	for cut := 0; cut <= len(in); cut++ {
		f := &sseIDFilter{rc: io.NopCloser(io.MultiReader(strings.NewReader(in[:cut]), strings.NewReader(in[cut:])))}
		got, err := io.ReadAll(f)
		if err != nil || string(got) != want {
			t.Errorf("cut at %d: filtered %q, %v; want %q", cut, got, err, want)
		}
	}
}

func TestSSEIDFilterPassesReadErrorsOn(t *testing.T) {
	f := &sseIDFilter{rc: io.NopCloser(io.MultiReader(strings.NewReader("data: a\n"), iotest.ErrReader(io.ErrUnexpectedEOF)))}
	got, err := io.ReadAll(f)
	if err != io.ErrUnexpectedEOF || string(got) != "data: a\n" {
		t.Errorf("ReadAll = %q, %v; want %q, %v", got, err, "data: a\n", io.ErrUnexpectedEOF)
	}
}

func TestNeedsBase64(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{"", false},
		{"us-west1", false},
		{"us west 1", false},
		{"file:///path/to/file%20name.txt", false},
		{"a\tb", false},
		{" padded", true},
		{"padded ", true},
		{"\tindented", true},
		{"line1\nline2", true},
		{"line1\r\nline2", true},
		{"del\x7f", true},
		{"Hello, 世界", true},
		{"=?base64?literal?=", true},
		{"=?base64?unterminated", false},
	} {
		if got := needsBase64(tc.in); got != tc.want {
			t.Errorf("needsBase64(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestDeliverRPCErrorOnlyForTheSameRequest(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		id         any
		wantStatus int
	}{
		{"matching id", `{"jsonrpc":"2.0","id":7,"error":{"code":-32603,"message":"boom"}}`, 7.0, 200},
		{"string id", `{"jsonrpc":"2.0","id":"a","error":{"code":-32603,"message":"boom"}}`, "a", 200},
		{"other id", `{"jsonrpc":"2.0","id":8,"error":{"code":-32603,"message":"boom"}}`, 7.0, 500},
		{"null id", `{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"boom"}}`, 7.0, 500},
		{"a result", `{"jsonrpc":"2.0","id":7,"result":{}}`, 7.0, 500},
		{"not JSON", `<html>oops</html>`, 7.0, 500},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := &http.Response{StatusCode: 500, Status: "500 Internal Server Error", Body: io.NopCloser(strings.NewReader(tc.body))}
			id, _ := jsonrpc.MakeID(tc.id)
			deliverRPCError(resp, id)
			if resp.StatusCode != tc.wantStatus {
				t.Errorf("status = %d, want %d", resp.StatusCode, tc.wantStatus)
			}
			b, _ := io.ReadAll(resp.Body)
			if !bytes.Equal(b, []byte(tc.body)) {
				t.Errorf("body = %q, want it unchanged", b)
			}
		})
	}
}

// A long line streams through the filter: it keeps a line's first bytes
// to decide, never the line.
func TestSSEIDFilterStreamsLongLines(t *testing.T) {
	long := "data: " + strings.Repeat("x", 4<<20) + "\n"
	in := "id: 7\n" + long + "id: " + strings.Repeat("9", 1<<20) + "\n\n"
	f := &sseIDFilter{rc: io.NopCloser(strings.NewReader(in))}
	var out bytes.Buffer
	buf := make([]byte, 8192)
	maxHead := 0
	for {
		n, err := f.Read(buf)
		out.Write(buf[:n])
		maxHead = max(maxHead, cap(f.head))
		if err != nil {
			break
		}
	}
	if got, want := out.String(), long+"\n"; got != want {
		t.Errorf("filtered stream is %d bytes, want %d (the data line and the blank line)", len(got), len(want))
	}
	if maxHead > 64<<10 {
		t.Errorf("the filter held %d bytes of a line, want no more than a read's worth", maxHead)
	}
}

// An event's bound counts every byte of it, newlines too (the go-sdk
// counts them), the blank line that ends it included: the newline after a
// line of the bound's length is past it, even at the end of the stream.
func TestEventLimitCountsEveryByte(t *testing.T) {
	errTooLarge := io.ErrShortBuffer
	for _, tc := range []struct {
		in       string
		tooLarge bool
	}{
		{"abc\n", false},
		{"abcd", false},
		{"abcd\n", true},
		{"ab\n\n", false},
		{"ab\n\ncd\n\nx\r\n\n", false},
		{"abc\n\n", true},
		{"a\nb\n\n", true},
		{"a\n\nb\n\n", false},
		{"a\nbc\n\n", true},
	} {
		l := &eventLimit{rc: io.NopCloser(iotest.OneByteReader(strings.NewReader(tc.in))), max: 4, blank: true, tooLarge: func() error { return errTooLarge }}
		_, err := io.ReadAll(l)
		if got := err == errTooLarge; got != tc.tooLarge {
			t.Errorf("eventLimit(4) on %q: error %v; want too large: %v", tc.in, err, tc.tooLarge)
		}
	}
}

// Settle waits on the stream's own changes: a stream whose reader has not
// begun to wait on the network is waited for until it does, and then
// until it has waited quietFor in that one read; a closed stream at once;
// a reader that never waits until the deadline.
func TestSettleWaitsForTheReaderToWait(t *testing.T) {
	never := make(chan time.Time)
	w := (&streams{}).add()
	settled := make(chan bool, 1)
	go func() { settled <- w.settle(never) }()
	pr, pw := io.Pipe()
	defer pw.Close()
	go io.Copy(io.Discard, watched{pr, w}) // begins to wait on the network, and stays
	select {
	case ok := <-settled:
		if !ok {
			t.Errorf("settle gave up on a stream whose reader waits")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("settle never returned for a stream whose reader waits on the network")
	}

	closed := (&streams{}).add()
	closed.close()
	if !closed.settle(never) {
		t.Errorf("settle on a closed stream = false, want true")
	}

	busy := (&streams{}).add()
	deadline := make(chan time.Time)
	close(deadline)
	if busy.settle(deadline) {
		t.Errorf("settle on a stream that never waits = true at the deadline, want false")
	}
}
