package transport

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/mcpcli/mcpcli/internal/jsonpeek"
)

// chunks hands data out in pieces whose sizes cycle through cuts (each
// byte + 1); with no cuts, all at once.
type chunks struct {
	data []byte
	cuts []byte
	i    int
}

func (c *chunks) Read(p []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, io.EOF
	}
	n := len(c.data)
	if len(c.cuts) > 0 {
		n = int(c.cuts[c.i%len(c.cuts)]) + 1
		c.i++
	}
	n = min(n, len(p), len(c.data))
	copy(p, c.data[:n])
	c.data = c.data[n:]
	return n, nil
}

func (c *chunks) Close() error { return nil }

// readAllIn reads r to its end in reads of the sizes cuts gives (each
// byte + 1), as a consumer with a small buffer would.
func readAllIn(r io.Reader, cuts []byte) ([]byte, error) {
	var out []byte
	for i := 0; ; i++ {
		size := 32 << 10
		if len(cuts) > 0 {
			size = int(cuts[i%len(cuts)])%64 + 1
		}
		p := make([]byte, size)
		n, err := r.Read(p)
		out = append(out, p[:n]...)
		if err != nil {
			return out, err
		}
	}
}

// lines cuts data into lines, each with its "\n" when it has one.
func lines(data []byte) [][]byte {
	var out [][]byte
	for len(data) > 0 {
		n := len(data)
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			n = i + 1
		}
		out = append(out, data[:n])
		data = data[n:]
	}
	return out
}

// FuzzLineReader: whatever a stdio server writes, in whatever pieces and
// through whatever buffer, the lines read are exactly its non-blank lines,
// trimmed, up to the first line longer than max bytes (its "\n" or "\r\n"
// aside), which is a *TooLongError. The seeds are in
// testdata/fuzz/FuzzLineReader.
func FuzzLineReader(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte, max uint16, size uint8, cuts []byte) {
		limit := int(max)%300 + 1
		var want [][]byte
		tooLong := false
		for _, l := range lines(data) {
			body := bytes.TrimSuffix(bytes.TrimSuffix(l, []byte("\n")), []byte("\r"))
			if len(body) > limit {
				tooLong = true
				break
			}
			if t := bytes.TrimSpace(l); len(t) > 0 {
				want = append(want, t)
			}
		}

		lr := &lineReader{r: bufio.NewReaderSize(&chunks{data: data, cuts: cuts}, 16+int(size)), max: limit}
		var got [][]byte
		var err error
		for {
			var line []byte
			line, err = lr.next()
			if err != nil {
				break
			}
			got = append(got, line)
			if len(got) > len(data) {
				t.Fatalf("lineReader read more lines than %q has bytes", data)
			}
		}
		var tl *TooLongError
		switch {
		case tooLong && !errors.As(err, &tl):
			t.Fatalf("lineReader(max %d) on %q ended with %v; want a TooLongError", limit, data, err)
		case !tooLong && !errors.Is(err, io.EOF):
			t.Fatalf("lineReader(max %d) on %q ended with %v; want io.EOF", limit, data, err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("lineReader(max %d, buffer %d, cuts %v) on %q (-want +got):\n%s", limit, 16+int(size), cuts, data, diff)
		}
	})
}

// FuzzDecodeLine: decodeLine never panics; every line that is one JSON
// object and that the go-sdk's jsonrpc.DecodeMessage reads (and that nests
// no deeper than mcpcli reads), decodeLine reads too, as the same message.
// (DecodeMessage alone ignores data after the object; the go-sdk's stdio
// transport, which frames with a JSON decoder, refuses it, as mcpcli
// does.) The seeds are in testdata/fuzz/FuzzDecodeLine.
func FuzzDecodeLine(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		line := bytes.TrimSpace(data)
		if len(line) == 0 {
			return // the line reader hands over no blank line
		}
		got, gerr := decodeLine(line)
		if gerr == nil && len(got) == 0 {
			t.Fatalf("decodeLine(%q) gave no message and no error", line)
		}
		want, werr := jsonrpc.DecodeMessage(line)
		if werr != nil || line[0] != '{' || !json.Valid(line) || jsonpeek.Deeper(line, MaxNesting) {
			return
		}
		if gerr != nil || len(got) != 1 {
			t.Fatalf("decodeLine(%q) = %v, %v; the go-sdk reads %#v", line, got, gerr, want)
		}
		wb, werr := jsonrpc.EncodeMessage(want)
		gb, gerr := jsonrpc.EncodeMessage(got[0])
		if werr != nil || gerr != nil || !bytes.Equal(wb, gb) {
			t.Fatalf("decodeLine(%q) re-encodes as %s (%v); the go-sdk's as %s (%v)", line, gb, gerr, wb, werr)
		}
	})
}

// refDropIDs is the reference for sseIDFilter: the stream, its lines that
// are the id field ("id", "id:" or "id: value", whatever line ending)
// left out.
func refDropIDs(data []byte) []byte {
	var out []byte
	for _, l := range lines(data) {
		bare := bytes.TrimRight(l, "\r\n")
		if string(bare) == "id" || bytes.HasPrefix(bare, []byte("id:")) {
			continue
		}
		out = append(out, l...)
	}
	return out
}

// FuzzSSEIDFilter: the filter's output is the stream without its id
// field lines, however the stream arrives and however it is read. The
// seeds are in testdata/fuzz/FuzzSSEIDFilter.
func FuzzSSEIDFilter(f *testing.F) {
	f.Fuzz(func(t *testing.T, data, cuts, reads []byte) {
		want := refDropIDs(data)
		whole, err := io.ReadAll(&sseIDFilter{rc: &chunks{data: data}})
		if err != nil || !bytes.Equal(whole, want) {
			t.Fatalf("sseIDFilter on %q all at once = %q, %v; want %q", data, whole, err, want)
		}
		got, err := readAllIn(&sseIDFilter{rc: &chunks{data: data, cuts: cuts}}, reads)
		if !errors.Is(err, io.EOF) || !bytes.Equal(got, want) {
			t.Fatalf("sseIDFilter on %q in pieces %v, read in %v = %q, %v; want %q", data, cuts, reads, got, err, want)
		}
	})
}

// FuzzEventLimit: the bound on one event of a stream holds however the
// stream arrives: the stream passes whole when no event is longer than
// max, and otherwise ends with the error, no byte past the bound passed.
// The seeds are in testdata/fuzz/FuzzEventLimit.
func FuzzEventLimit(f *testing.F) {
	errTooLarge := errors.New("too large")
	f.Fuzz(func(t *testing.T, data []byte, max uint16, cuts []byte) {
		limit := int64(max%512) + 1
		// Reference: an event is the lines up to and including a blank
		// one (nothing but \r), every byte counted, newlines too; over =
		// the offset of the first byte past the bound, or -1.
		over, event, at := int64(-1), int64(0), int64(0)
		for _, l := range lines(data) {
			if event+int64(len(l)) > limit {
				over = at + limit - event
				break
			}
			event += int64(len(l))
			at += int64(len(l))
			if body := bytes.TrimSuffix(l, []byte("\n")); len(bytes.Trim(body, "\r")) == 0 && len(body) < len(l) {
				event = 0
			}
		}
		for _, c := range [][]byte{nil, cuts} {
			l := &eventLimit{rc: &chunks{data: data, cuts: c}, max: limit, blank: true, tooLarge: func() error { return errTooLarge }}
			got, err := readAllIn(l, nil)
			switch {
			case over < 0 && (!errors.Is(err, io.EOF) || !bytes.Equal(got, data)):
				t.Fatalf("eventLimit(%d) on %q in pieces %v = %q, %v; want it whole", limit, data, c, got, err)
			case over >= 0 && !errors.Is(err, errTooLarge):
				t.Fatalf("eventLimit(%d) on %q in pieces %v ended with %v; want the bound's error (byte %d is past it)", limit, data, c, err, over)
			case over >= 0 && (!bytes.HasPrefix(data, got) || int64(len(got)) > over):
				t.Fatalf("eventLimit(%d) on %q in pieces %v passed %q; want at most the %d bytes before the bound", limit, data, c, got, over)
			}
		}
	})
}

// refEvent is one event as the go-sdk's scanEvents yields it.
type refEvent struct {
	Name, ID, Retry string
	Data            []byte
}

// refScan reads a stream as the go-sdk's scanEvents does, written out
// plainly: the events it yields, and whether it stopped at a malformed
// line (one without a colon).
func refScan(b []byte) (events []refEvent, malformed bool) {
	var evt refEvent
	var data *bytes.Buffer
	yield := func() {
		if data != nil {
			evt.Data = data.Bytes()
			data = nil
		}
		if evt.Name != "" || evt.ID != "" || evt.Retry != "" || len(evt.Data) > 0 {
			events = append(events, evt)
		}
		evt = refEvent{}
	}
	for {
		line, eof := b, true
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line, b, eof = b[:i+1], b[i+1:], false
		}
		line = bytes.TrimRight(line, "\r\n")
		if len(line) == 0 {
			yield()
			if eof {
				return events, false
			}
			continue
		}
		before, after, found := bytes.Cut(line, []byte(":"))
		if !found {
			return events, true
		}
		switch string(before) {
		case "event":
			evt.Name = string(bytes.TrimSpace(after))
		case "id":
			evt.ID = string(bytes.TrimSpace(after))
		case "retry":
			evt.Retry = string(bytes.TrimSpace(after))
		case "data":
			if data == nil {
				data = new(bytes.Buffer)
			} else {
				data.WriteByte('\n')
			}
			data.Write(bytes.TrimSpace(after))
		}
		if eof {
			yield()
			return events, false
		}
	}
}

// fuzzStub is the result the fuzz filter gives every response.
var fuzzStub = json.RawMessage(`{"stub":true}`)

// FuzzEventBody: whatever a server streams, in whatever pieces, the
// go-sdk reads from what eventBody hands on the events it would have read
// from the stream itself, but for the results the filter stubs, and stops
// where it would have stopped; the observers see the data of each message
// event. The seeds are in testdata/fuzz/FuzzEventBody.
func FuzzEventBody(f *testing.F) {
	f.Fuzz(func(t *testing.T, data, cuts []byte) {
		events, malformed := refScan(data)
		var want []refEvent
		var seen []string
		for _, ev := range events {
			if (ev.Name == "" || ev.Name == "message") && len(bytes.TrimSpace(ev.Data)) > 0 {
				msg := bytes.TrimSpace(ev.Data)
				seen = append(seen, string(msg))
				if m, err := DecodeMessage(msg); err == nil {
					if r, ok := m.(*jsonrpc.Response); ok && r.Error == nil && r.Result != nil {
						ev.Data, _ = jsonrpc.EncodeMessage(&jsonrpc.Response{ID: r.ID, Result: fuzzStub})
					}
				}
			}
			want = append(want, ev)
		}
		for _, c := range [][]byte{nil, cuts} {
			var got []string
			eb := &eventBody{rc: &chunks{data: data, cuts: c}, reading: reading{
				obs:     func(ev Event) { got = append(got, string(ev.Msg)) },
				filter:  func(jsonrpc.ID, json.RawMessage) (json.RawMessage, bool) { return fuzzStub, true },
				minStub: 1,
			}}
			out, err := readAllIn(eb, c)
			if !errors.Is(err, io.EOF) {
				t.Fatalf("eventBody on %q in pieces %v ended with %v; want io.EOF", data, c, err)
			}
			outEvents, outMalformed := refScan(out)
			if diff := cmp.Diff(want, outEvents, cmpopts.EquateEmpty()); diff != "" || outMalformed != malformed {
				t.Fatalf("eventBody on %q in pieces %v handed on %q: the go-sdk reads other events (-want +got):\n%s\nmalformed: %v, want %v", data, c, out, diff, outMalformed, malformed)
			}
			if diff := cmp.Diff(seen, got); diff != "" {
				t.Fatalf("eventBody on %q in pieces %v reported other messages (-want +got):\n%s", data, c, diff)
			}
		}
	})
}
