package transport

// Works around go-sdk v1.8.0: over Streamable HTTP it resumes a broken
// response stream whose events had ids with a GET and Last-Event-ID,
// whatever the protocol version, while 2026-07-28 has no resumption (a
// modern server refuses the GET, and the failure ended the whole
// session). gosdk_sseid_test.go shows the go-sdk alone sending that GET
// to a modern server: when it fails, the go-sdk no longer resumes there,
// and sseIDFilter can go.

import (
	"bytes"
	"io"
)

// sseIDFilter drops the id field of every event of a modern response
// stream. Modern protocol versions have no resumable streams (no GET, no
// Last-Event-ID): a server may still number its events, but if the go-sdk
// saw an id it would try to resume a broken stream with a GET, which a
// modern server refuses with 405, and that failure would end the whole
// session. Without ids a broken stream fails only its own request, which
// the client then sends again.
//
// A line's first bytes decide whether it is the id field, so the filter
// keeps at most those few bytes, however long the line: the rest streams
// through (or is dropped) as it arrives.
type sseIDFilter struct {
	rc      io.ReadCloser
	head    []byte // the start of the current line while undecided: a prefix of "id:"
	crs     int    // carriage returns after a head of "id", while undecided
	state   lineState
	out     []byte // filtered bytes, returned up to off
	off     int
	buf     []byte // read buffer, reused
	readErr error
}

// lineState is what the filter does with the rest of the current line.
type lineState int

const (
	undecided lineState = iota
	passLine
	dropLine
)

func (f *sseIDFilter) Read(p []byte) (int, error) {
	for len(f.out) == f.off && f.readErr == nil {
		if f.buf == nil {
			f.buf = make([]byte, 32*1024)
		}
		f.out, f.off = f.out[:0], 0 // all returned: reuse the space
		n, err := f.rc.Read(f.buf)
		f.feed(f.buf[:n])
		if err != nil {
			f.readErr = err
			if f.state == undecided && string(f.head) != "id" {
				f.flushHead()
			}
			f.head, f.crs = nil, 0
		}
	}
	// What the reader did not take stays where it is: slicing it off
	// would leave the next bytes a new array each time.
	n := copy(p, f.out[f.off:])
	f.off += n
	if len(f.out) == f.off && f.readErr != nil {
		return n, f.readErr
	}
	return n, nil
}

func (f *sseIDFilter) feed(b []byte) {
	for len(b) > 0 {
		seg, end := b, false
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			seg, end = b[:i+1], true
		}
		b = b[len(seg):]
		if f.state == undecided {
			seg = f.decide(seg)
		}
		if f.state == passLine {
			f.out = append(f.out, seg...)
		}
		if end {
			f.state = undecided
		}
	}
}

// decide reads the start of a line until it is known whether the line is
// the id field, and returns the rest of seg, which the state decided
// then says what to do with. The go-sdk trims every \r and \n at the
// end of a line and takes what is before the first colon as the field's
// name: "id:…" is the id field, and so is "id" followed by nothing but
// carriage returns, however many reads they take to arrive.
func (f *sseIDFilter) decide(seg []byte) []byte {
	for i, c := range seg {
		h := len(f.head)
		switch {
		case c == '\n':
			f.state = passLine
			if string(f.head) == "id" {
				f.state = dropLine // "id", "id\r\r…": the field without a value
				f.head, f.crs = f.head[:0], 0
			} else {
				f.flushHead()
			}
			return seg[i:]
		case f.crs == 0 && h < 3 && c == "id:"[h]:
			f.head = append(f.head, c)
			if h == 2 {
				f.state = dropLine
				f.head = f.head[:0]
				return seg[i+1:]
			}
		case c == '\r' && string(f.head) == "id":
			f.crs++
		default:
			f.state = passLine
			f.flushHead()
			return seg[i:]
		}
	}
	return nil
}

// flushHead passes on the start of a line kept while undecided.
func (f *sseIDFilter) flushHead() {
	f.out = append(f.out, f.head...)
	for ; f.crs > 0; f.crs-- {
		f.out = append(f.out, '\r')
	}
	f.head = f.head[:0]
}

func (f *sseIDFilter) Close() error { return f.rc.Close() }
